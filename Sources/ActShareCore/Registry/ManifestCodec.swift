/// Writes decoded manifests (and manifest errors) into the index, and reads them back.
enum ManifestCodec {
    /// Writes a manifest record: its summary first (what routing reads for every
    /// provider), then the length and bytes of the rest (read only when needed).
    static func write(_ result: Result<ProviderManifest, ActShareError>, to writer: inout ByteWriter) {
        switch result {
        case .failure(let error):
            writer.write(false)
            writer.write(error.message)
            write(error.location, to: &writer)
            // The files whose absence the error is about, so that a reused error is
            // still watched for them (ManifestIndex).
            writer.write((error.cause as? MissingFiles)?.paths ?? [])
        case .success(let manifest):
            writer.write(true)
            writer.write(manifest.id)
            writer.write(manifest.activities.count)
            for activity in manifest.activities {
                writer.write(activity.type)
                writer.write(activity.title)
                writer.write(activity.image)
                writer.write(activity.category == .share)
                writer.write(activity.hooks.canPerform != nil)
                write(activity.accepts, to: &writer)
            }
            var full = ByteWriter()
            full.write(manifest.id)
            full.write(manifest.name)
            full.write(manifest.version)
            full.write(manifest.library)
            write(manifest.libraryLocation, to: &full)
            full.write(manifest.isolation.rawValue)
            full.write(manifest.timeoutMilliseconds)
            full.write(manifest.idleTimeoutMilliseconds)
            write(manifest.permissions, to: &full)
            full.write(manifest.activities.count)
            for activity in manifest.activities { write(activity, to: &full) }
            writer.write(full.bytes.count)
            writer.append(raw: full.bytes)
        }
    }

    /// Reads a record's summary, or its error; for a summary, also where the rest starts.
    static func readSummary(file: String, from reader: inout ByteReader) throws -> (Result<ProviderSummary, ActShareError>, rest: Int) {
        guard try reader.readBool() else {
            let message = try reader.readString()
            let location = try readLocation(file: file, from: &reader)
            let missing = try reader.readStrings()
            return (.failure(ActShareError(.badManifest, Phrase(verbatim: message), at: location, cause: missing.isEmpty ? nil : MissingFiles(missing))), reader.offset)
        }
        let id = try reader.readString()
        let count = try reader.readCount()
        var activities: [ProviderSummary.Activity] = []
        activities.reserveCapacity(count)
        for _ in 0..<count {
            let type = try reader.readString()
            let title = try reader.readString()
            let image = try reader.readString()
            let category: ActivityCategory = try reader.readBool() ? .share : .action
            let hasCanPerform = try reader.readBool()
            activities.append(ProviderSummary.Activity(
                type: type, title: title, image: image, category: category, accepts: try readAccepts(from: &reader),
                hasCanPerform: hasCanPerform))
        }
        let length = try reader.readCount()
        let rest = reader.offset
        try reader.skip(length)
        return (.success(ProviderSummary(id: id, activities: activities)), rest)
    }

    /// Reads a whole record.
    static func read(file: String, from reader: inout ByteReader) throws -> Result<ProviderManifest, ActShareError> {
        let (summary, rest) = try readSummary(file: file, from: &reader)
        switch summary {
        case .failure(let error): return .failure(error)
        case .success:
            var full = reader
            try full.seek(to: rest)
            return .success(try readManifest(file: file, from: &full))
        }
    }

    /// Reads the part of a record after its summary.
    static func readManifest(file: String, from reader: inout ByteReader) throws -> ProviderManifest {
        let id = try reader.readString()
        let name = try reader.readString()
        let version = try reader.readString()
        let library = try reader.readString()
        guard let libraryLocation = try readLocation(file: file, from: &reader),
              let isolation = Isolation(rawValue: try reader.readString())
        else { throw ByteReader.Malformed() }
        let timeout = try reader.readInt()
        let idleTimeout = try reader.readInt()
        let permissions = try readPermissions(from: &reader)
        let activities = try (0..<(try reader.readCount())).map { _ in try readActivity(file: file, from: &reader) }
        return ProviderManifest(
            file: file, id: id, name: name, version: version, library: library, libraryLocation: libraryLocation,
            isolation: isolation, timeoutMilliseconds: timeout, idleTimeoutMilliseconds: idleTimeout,
            permissions: permissions, activities: activities)
    }

    // MARK: Permissions

    private static func write(_ permissions: ProviderPermissions, to writer: inout ByteWriter) {
        writer.write(permissions.read.map(\.text))
        writer.write(permissions.write.map(\.text))
        writer.write(permissions.outputOptions)
        writer.write(permissions.network)
        writer.write(permissions.exec)
        writer.write(permissions.background)
        writer.write(permissions.display)
        writer.write(permissions.dbus.rawValue)
        writer.write(permissions.handoff)
    }

    private static func readPermissions(from reader: inout ByteReader) throws -> ProviderPermissions {
        func places(_ texts: [String]) throws -> [PermissionPlace] {
            try texts.map { text in
                guard let place = PermissionPlace(text) else { throw ByteReader.Malformed() }
                return place
            }
        }
        let read = try places(try reader.readStrings()), write = try places(try reader.readStrings())
        let outputOptions = try reader.readStrings()
        let network = try reader.readBool(), exec = try reader.readBool(), background = try reader.readBool()
        let display = try reader.readBool()
        guard let dbus = DBusPermission(rawValue: try reader.readString()) else { throw ByteReader.Malformed() }
        let handoff = try reader.readBool()
        return ProviderPermissions(
            read: read, write: write, outputOptions: outputOptions, network: network, exec: exec,
            background: background, display: display, dbus: dbus, handoff: handoff)
    }

    // MARK: Activities

    private static func write(_ activity: ActivityDeclaration, to writer: inout ByteWriter) {
        writer.write(activity.type)
        writer.write(activity.title)
        writer.write(activity.image)
        writer.write(activity.category.rawValue)
        write(activity.location, to: &writer)
        write(activity.accepts, to: &writer)
        writer.write(activity.options.count)
        for option in activity.options {
            writer.write(option.name)
            writer.write(option.type.rawValue)
            writer.write(option.required)
            writer.write(option.defaultValue)
            writer.write(option.prompt)
            writer.write(option.choices)
        }
        for hook in [activity.hooks.canPerform, activity.hooks.prepare] {
            writer.write(hook != nil)
            if let hook { write(hook, to: &writer) }
        }
        write(activity.hooks.perform, to: &writer)
    }

    private static func readActivity(file: String, from reader: inout ByteReader) throws -> ActivityDeclaration {
        let type = try reader.readString()
        let title = try reader.readString()
        let image = try reader.readString()
        guard let category = ActivityCategory(rawValue: try reader.readString()),
              let location = try readLocation(file: file, from: &reader)
        else { throw ByteReader.Malformed() }
        let rules = try readAccepts(from: &reader)
        let optionCount = try reader.readInt()
        guard (0...10_000).contains(optionCount) else { throw ByteReader.Malformed() }
        let options = try (0..<optionCount).map { _ in
            let name = try reader.readString()
            guard let type = OptionDeclaration.ValueType(rawValue: try reader.readString()) else { throw ByteReader.Malformed() }
            return OptionDeclaration(
                name: name, type: type, required: try reader.readBool(), defaultValue: try reader.readOptionalString(),
                prompt: try reader.readOptionalString(), choices: try reader.readOptionalStrings())
        }
        let canPerform = try reader.readBool() ? try readHook(file: file, from: &reader) : nil
        let prepare = try reader.readBool() ? try readHook(file: file, from: &reader) : nil
        let perform = try readHook(file: file, from: &reader)
        return ActivityDeclaration(
            type: type, title: title, image: image, category: category, accepts: rules, options: options,
            hooks: ActivityHooks(canPerform: canPerform, prepare: prepare, perform: perform), location: location)
    }

    // MARK: Rules, hooks and locations

    private static func write(_ rules: AcceptRules, to writer: inout ByteWriter) {
        writer.write(rules.kinds.map { Int($0.rawValue) } ?? -1)
        writer.write(rules.contentTypes)
        writer.write(rules.urlSchemes)
        writer.write(rules.minItems)
        writer.write(rules.maxItems ?? -1)
        writer.write(rules.maxTotalSize.map { Int64(bitPattern: $0) } ?? -1)
        writer.write(rules.match == .all)
    }

    private static func readAccepts(from reader: inout ByteReader) throws -> AcceptRules {
        var rules = AcceptRules()
        let kinds = try reader.readInt()
        if kinds >= 0 {
            guard kinds <= UInt8.max else { throw ByteReader.Malformed() }
            rules.kinds = ItemKinds(rawValue: UInt8(kinds))
        }
        rules.contentTypes = try reader.readOptionalStrings()
        rules.urlSchemes = try reader.readOptionalStrings()
        rules.minItems = try reader.readInt()
        let maxItems = try reader.readInt()
        rules.maxItems = maxItems < 0 ? nil : maxItems
        let maxSize = try reader.readInt64()
        rules.maxTotalSize = maxSize < 0 ? nil : UInt64(maxSize)
        rules.match = try reader.readBool() ? .all : .any
        return rules
    }


    private static func write(_ hook: HookDeclaration, to writer: inout ByteWriter) {
        writer.write(hook.role.rawValue)
        writer.write(hook.symbol)
        writer.write(hook.arguments.map(\.word))
        writer.write(hook.returns.rawValue)
        writer.write(hook.isStandard)
        write(hook.location, to: &writer)
    }

    private static func readHook(file: String, from reader: inout ByteReader) throws -> HookDeclaration {
        guard let role = HookDeclaration.Role(rawValue: try reader.readString()) else { throw ByteReader.Malformed() }
        let symbol = try reader.readString()
        let arguments = try reader.readStrings().map { word in
            guard let argument = HookArgument(word: word) else { throw ByteReader.Malformed() }
            return argument
        }
        guard let returns = HookReturn(rawValue: try reader.readString()) else { throw ByteReader.Malformed() }
        let isStandard = try reader.readBool()
        guard let location = try readLocation(file: file, from: &reader) else { throw ByteReader.Malformed() }
        return HookDeclaration(role: role, symbol: symbol, arguments: arguments, returns: returns, isStandard: isStandard, location: location)
    }

    private static func write(_ location: SourceLocation?, to writer: inout ByteWriter) {
        writer.write(location != nil)
        if let location {
            writer.write(location.line)
            writer.write(location.column)
        }
    }

    private static func readLocation(file: String, from reader: inout ByteReader) throws -> SourceLocation? {
        guard try reader.readBool() else { return nil }
        return SourceLocation(file: file, line: try reader.readInt(), column: try reader.readInt())
    }
}
