import ActShareCore
import ActShareYAML

/// Reads a provider manifest and checks it against schema `actshare/provider@1`.
///
/// Every error names `FILE:LINE:COLUMN` and the key at fault. The decoder checks what
/// can be checked without loading code: keys, types, names, sizes, durations, that the
/// library exists and that icon files exist. Symbols are checked when the library loads.
public struct ManifestDecoder: Sendable {
    /// Directories searched for a relative `library:` not found beside the manifest
    /// (the build tree, when actshare runs from one).
    public var libraryDirectories: [String]
    /// Where the built-in providers' manifests are: only these may ask for
    /// `isolation: in-process` (a user may grant it to others in config `in-process`).
    public var builtinDirectories: [String]

    public init(libraryDirectories: [String] = [], builtinDirectories: [String] = []) {
        self.libraryDirectories = libraryDirectories
        self.builtinDirectories = builtinDirectories
    }

    private static let kind = ActShareError.Code.badManifest

    /// Reads and decodes the manifest at `path`; throws its first error.
    public func decode(file path: String) throws -> ProviderManifest {
        try decode(try YAMLValue.readFile(path, kind: Self.kind), file: path)
    }

    /// Decodes manifest text; `file` names it in errors and anchors relative paths.
    /// Throws the first error.
    public func decode(_ text: String, file: String) throws -> ProviderManifest {
        try decode(text, file: file, problems: ManifestProblems(collecting: false))
    }

    /// Every error and warning of the manifest at `path`, in file order (none if it is
    /// usable and likely right): each key is checked even after another failed, for
    /// `actshare providers check`.
    public func problems(file path: String) -> [Diagnostic] {
        let problems = ManifestProblems(collecting: true)
        do {
            _ = try decode(try YAMLValue.readFile(path, kind: Self.kind), file: path, problems: problems)
        } catch {
            problems.record(error)
        }
        return problems.diagnostics
    }

    private func decode(_ text: String, file: String, problems: ManifestProblems) throws -> ProviderManifest {
        let kind = Self.kind
        guard let root = try YAMLValue.parse(text, file: file, kind: kind) else {
            throw ActShareError(kind, Phrase(verbatim: "the manifest is empty"), at: SourceLocation(file: file, line: 1, column: 1))
        }
        let top = try root.mapping(kind: kind)
        try problems.attempt {
            try top.checkKeys(["schema", "id", "name", "version", "library", "isolation", "timeout", "idle-timeout", "permissions", "activities"], in: "a provider manifest")
        }
        try problems.attempt {
            let schemaValue = try top.require("schema", in: "a provider manifest")
            let schema = try schemaValue.string(kind: kind)
            guard schema == ProviderManifest.schema else {
                throw schemaValue.error("'schema' must be \(ProviderManifest.schema), not '\(schema)'", kind: kind)
            }
        }
        let id = try problems.attempt {
            let idValue = try top.require("id", in: "a provider manifest")
            let id = try idValue.string(kind: kind)
            guard ReverseDNS.isValid(id) else {
                throw idValue.error("'id' must be a reverse-DNS name such as org.example.hello, not '\(id)'", kind: kind)
            }
            return id
        }
        let name = try problems.attempt { try nonEmpty(try top.require("name", in: "a provider manifest")) }
        let version = try problems.attempt { try nonEmpty(try top.require("version", in: "a provider manifest")) }

        let directory = FileSystem.directoryName(FileSystem.absolute(file))
        let library = try problems.attempt {
            let libraryValue = try top.require("library", in: "a provider manifest")
            let name = try nonEmpty(libraryValue)
            let path = try resolveLibrary(name, in: directory, value: libraryValue)
            if !name.contains("/") && FileSystem.directoryName(path) != directory {
                problems.warnings.append(Diagnostic(
                    .warning,
                    "'library: \(name)' is not beside the manifest: it resolved to \(path), among actshare's own libraries; put the provider's library beside its manifest",
                    at: libraryValue.location))
            }
            return (path, libraryValue.location)
        }

        let isolation = try problems.attempt {
            let isolation = try top["isolation"]?.word(Isolation.self, kind: kind) ?? .process
            if isolation == .inProcess, let value = top["isolation"],
               !builtinDirectories.contains(where: { FileSystem.absolute(file).hasPrefix(FileSystem.absolute($0) + "/") }) {
                // A crash in-process is a crash of actshare, and a hang ignores `timeout:`:
                // a provider cannot grant itself that trust, only the user can (config).
                throw value.error(
                    "'isolation: in-process' is only for built-in providers: remove the line. Only the user decides to run a third-party provider in actshare's process, with 'in-process: [\(id ?? "its id")]' in their config",
                    kind: kind)
            }
            return isolation
        }

        let timeout = try problems.attempt { try duration(top["timeout"], key: "timeout", example: "5s") } ?? nil
        let idleTimeout = try problems.attempt { try duration(top["idle-timeout"], key: "idle-timeout", example: "30s") } ?? nil

        var activities: [ActivityDeclaration] = []
        try problems.attempt {
            let activitiesValue = try top.require("activities", in: "a provider manifest")
            let activityValues = try activitiesValue.sequence(kind: kind)
            guard !activityValues.isEmpty else {
                throw activitiesValue.error("'activities' must list at least one activity", kind: kind)
            }
            var seen: Set<String> = []
            for value in activityValues {
                guard let activity = try problems.attempt({ try decodeActivity(value, directory: directory, problems: problems) }) ?? nil else { continue }
                guard seen.insert(activity.type).inserted else {
                    throw value.error("activity type '\(activity.type)' is declared twice in this manifest", kind: kind)
                }
                activities.append(activity)
            }
        }

        let permissions = try problems.attempt {
            try top["permissions"].map { try decodePermissions($0, activities: activities, declared: top["activities"], problems: problems) }
                ?? .standard
        }

        guard let id, let name, let version, let library, let isolation, let permissions, problems.errors.isEmpty else {
            throw problems.errors.first ?? ActShareError(kind, Phrase(verbatim: "the manifest is not usable"), at: root.location)
        }
        return ProviderManifest(
            file: file, id: id, name: name, version: version, library: library.0,
            libraryLocation: library.1, isolation: isolation, timeoutMilliseconds: timeout ?? 5000,
            idleTimeoutMilliseconds: idleTimeout ?? timeout ?? 5000, permissions: permissions, activities: activities)
    }

    // MARK: Permissions

    private func decodePermissions(_ value: YAMLValue, activities: [ActivityDeclaration], declared: YAMLValue?,
                                   problems: ManifestProblems) throws -> ProviderPermissions {
        let kind = Self.kind
        let map = try value.mapping(kind: kind)
        try problems.attempt {
            try map.checkKeys(
                ["read", "write", "output-option", "network", "exec", "background", "display", "dbus", "handoff"], in: "'permissions'")
        }
        func places(_ key: String) throws -> [PermissionPlace]? {
            guard let listValue = map[key] else { return nil }
            let elements = listValue.isBareTilde ? [listValue] : (try? listValue.sequence(kind: kind)) ?? []
            if let tilde = elements.first(where: \.isBareTilde) {
                throw tilde.error("'\(tilde.path)' is a bare ~, which YAML reads as nothing; write \"~\" in quotes for the home folder", kind: kind)
            }
            return try listValue.stringList(kind: kind).map { text in
                guard let place = PermissionPlace(text) else {
                    throw listValue.error(
                        "'\(listValue.path)' lists '\(text)'; write items, output, \(key == "write" ? "beside-items, " : "")or a path that is absolute or starts with ~ or $HOME, $XDG_CONFIG_HOME, $XDG_DATA_HOME, $XDG_STATE_HOME, $XDG_CACHE_HOME or $XDG_RUNTIME_DIR (no '..')",
                        kind: kind)
                }
                guard place != .besideItems || key == "write" else {
                    throw listValue.error("'\(listValue.path)' lists 'beside-items', which is for 'write' only: a provider reads the items themselves with 'items'", kind: kind)
                }
                return place
            }
        }
        var permissions = ProviderPermissions()
        /// What `providers check` says of a permission where it is declared.
        func explain(_ value: YAMLValue, _ severity: Diagnostic.Severity, _ message: String) {
            problems.warnings.append(Diagnostic(severity, message, at: value.location))
        }
        try problems.attempt { if let read = try places("read") { permissions.read = read } }
        try problems.attempt { if let write = try places("write") { permissions.write = write } }
        try problems.attempt {
            if let networkValue = map["network"] { permissions.network = try networkValue.bool(kind: kind) }
        }
        try problems.attempt {
            if let execValue = map["exec"] { permissions.exec = try execValue.bool(kind: kind) }
        }
        try problems.attempt {
            guard let backgroundValue = map["background"] else { return }
            permissions.background = try backgroundValue.bool(kind: kind)
            if permissions.background && !permissions.exec {
                throw backgroundValue.error("'permissions.background' needs 'exec: true': a process that outlives the call must be started", kind: kind)
            }
        }
        try problems.attempt {
            guard let displayValue = map["display"] else { return }
            permissions.display = try displayValue.bool(kind: kind)
            if permissions.display {
                explain(displayValue, .note,
                        "'permissions.display' lets the provider reach this session's display server ($DISPLAY's X11 socket, $WAYLAND_DISPLAY's Wayland socket) and nothing else; on X11 that means it can read and type into every window")
            }
        }
        try problems.attempt {
            guard let dbusValue = map["dbus"] else { return }
            let text = try dbusValue.string(kind: kind)
            guard let dbus = DBusPermission(rawValue: text) else {
                throw dbusValue.error("'permissions.dbus' is '\(text)'; write session (the user's session bus) or none (the system bus is never granted)", kind: kind)
            }
            permissions.dbus = dbus
            if dbus == .session {
                explain(dbusValue, .warning,
                        "'permissions.dbus' gives the provider the whole session bus, where it can ask any program to act for it (systemd can run commands outside the sandbox); declare it only if the provider cannot work without it")
            }
        }
        try problems.attempt {
            guard let handoffValue = map["handoff"] else { return }
            permissions.handoff = try handoffValue.bool(kind: kind)
            if permissions.handoff {
                explain(handoffValue, .note,
                        "'permissions.handoff' lets the provider send the shared items (and only those), URLs and text to the user's paired devices, through a connection to the handoff daemon that actshare opens for it")
            }
        }
        try problems.attempt {
            let optionValue = map["output-option"]
            if let optionValue {
                for name in try optionValue.stringList(kind: kind) {
                    guard activities.contains(where: { $0.options.contains { $0.name == name } }) else {
                        throw optionValue.error("'permissions.output-option' names '\(name)', which no activity declares in 'options'", kind: kind)
                    }
                    permissions.outputOptions.append(name)
                }
            }
            // A default is what every user gets without a word: never a broad place.
            for activity in (try? declared?.sequence(kind: kind)) ?? [] {
                for option in (try? activity.mapping(kind: kind)["options"]?.sequence(kind: kind)) ?? [] {
                    guard let map = try? option.mapping(kind: kind), let name = try? map["name"]?.string(kind: kind),
                          permissions.outputOptions.contains(name), let defaultValue = map["default"],
                          let text = try? defaultValue.string(kind: kind), let problem = OutputPlace.defaultProblem(text) else { continue }
                    problems.record(defaultValue.error(
                        "'\(defaultValue.path)' of output option '\(name)' is '\(text)', which \(problem): the provider could change what is there for every user who does not choose; name a folder of its own, such as ~/Documents",
                        kind: kind))
                }
            }
            if permissions.write.contains(.output) && permissions.outputOptions.isEmpty {
                throw (map["write"] ?? value).error(
                    "'permissions.write' lists 'output'; name the option that holds the output directory with 'output-option'", kind: kind)
            }
        }
        for (key, place) in permissions.broadPlaces {
            let rights = key == "read" ? "read every file" : "change every file"
            problems.warnings.append(Diagnostic(
                .warning, "'permissions.\(key)' lists '\(place)', which lets the provider \(rights) there; list only the folders it needs",
                at: (map[key] ?? value).location))
        }
        return permissions
    }

    /// A duration key from 1ms to 1h, in milliseconds, or nil when absent.
    private func duration(_ value: YAMLValue?, key: String, example: String) throws -> Int? {
        guard let value else { return nil }
        let text = try value.string(kind: Self.kind)
        guard let milliseconds = Units.milliseconds(text), milliseconds > 0, milliseconds <= 3_600_000 else {
            throw value.error("'\(key)' must be a duration from 1ms to 1h such as \(example) or 500ms, not '\(text)'", kind: Self.kind)
        }
        return milliseconds
    }

    // MARK: Activities

    /// An activity, or nil when some of its keys had errors (recorded in `problems`).
    private func decodeActivity(_ value: YAMLValue, directory: String, problems: ManifestProblems) throws -> ActivityDeclaration? {
        let kind = Self.kind
        let map = try value.mapping(kind: kind)
        try problems.attempt { try map.checkKeys(["type", "title", "image", "category", "accepts", "options", "hooks"], in: "an activity") }

        let type = try problems.attempt {
            let typeValue = try map.require("type", in: "an activity")
            let type = try typeValue.string(kind: kind)
            guard ReverseDNS.isValid(type) else {
                throw typeValue.error("'\(typeValue.path)' must be a reverse-DNS type such as org.example.hello.greet, not '\(type)'", kind: kind)
            }
            return type
        }
        let title = try problems.attempt { try nonEmpty(try map.require("title", in: "an activity")) }
        let category = try problems.attempt { try map["category"]?.word(ActivityCategory.self, kind: kind) ?? .action }
        let image = try problems.attempt {
            guard let imageValue = map["image"] else { return category == .share ? "document-send" : "system-run" }
            return try resolveImage(try nonEmpty(imageValue), in: directory, value: imageValue)
        }
        let accepts = try problems.attempt { try map["accepts"].map { try decodeAccepts($0, problems: problems) } ?? AcceptRules() }
        let options = try problems.attempt { try map["options"].map(decodeOptions) ?? [] }
        let hooks = try problems.attempt { try decodeHooks(try map.require("hooks", in: "an activity"), options: options ?? []) }

        guard let type, let title, let category, let image, let accepts, let options, let hooks else { return nil }
        return ActivityDeclaration(
            type: type, title: title, image: image, category: category, accepts: accepts,
            options: options, hooks: hooks, location: value.location)
    }

    private func decodeAccepts(_ value: YAMLValue, problems: ManifestProblems) throws -> AcceptRules {
        let kind = Self.kind
        let map = try value.mapping(kind: kind)
        try problems.attempt {
            try map.checkKeys(["kinds", "content-types", "url-schemes", "min-items", "max-items", "max-total-size", "match"], in: "'accepts'")
        }
        var rules = AcceptRules()

        try problems.attempt {
            guard let kindsValue = map["kinds"] else { return }
            var kinds: ItemKinds = []
            for word in try kindsValue.stringList(kind: kind) {
                guard let itemKind = ItemKind(rawValue: word) else {
                    throw kindsValue.error("'\(kindsValue.path)' lists '\(word)'; the kinds are file, url, text and data", kind: kind)
                }
                kinds.insert(ItemKinds(itemKind))
            }
            rules.kinds = kinds
        }
        try problems.attempt {
            guard let typesValue = map["content-types"] else { return }
            let types = try typesValue.stringList(kind: kind)
            for type in types where !ContentType.isValidPattern(type) {
                throw typesValue.error("'\(typesValue.path)' lists '\(type)', which is not a MIME type or pattern like text/* or image/png", kind: kind)
            }
            rules.contentTypes = types
        }
        try problems.attempt {
            guard let schemesValue = map["url-schemes"] else { return }
            let schemes = try schemesValue.stringList(kind: kind)
            for scheme in schemes where !URLScheme.isValid(scheme) {
                throw schemesValue.error("'\(schemesValue.path)' lists '\(scheme)', which is not a URL scheme", kind: kind)
            }
            rules.urlSchemes = schemes.map { $0.lowercased() }
        }
        try problems.attempt {
            guard let minValue = map["min-items"] else { return }
            rules.minItems = try minValue.int(kind: kind)
            guard rules.minItems >= 0 else {
                throw minValue.error("'\(minValue.path)' must not be negative", kind: kind)
            }
        }
        try problems.attempt {
            guard let maxValue = map["max-items"] else { return }
            let maxItems = try maxValue.int(kind: kind)
            guard maxItems >= 1 else {
                throw maxValue.error("'\(maxValue.path)' must be at least 1", kind: kind)
            }
            guard maxItems >= rules.minItems else {
                throw maxValue.error("'\(maxValue.path)' (\(maxItems)) is less than 'min-items' (\(rules.minItems))", kind: kind)
            }
            rules.maxItems = maxItems
        }
        try problems.attempt {
            guard let sizeValue = map["max-total-size"] else { return }
            let text = try sizeValue.string(kind: kind)
            guard let bytes = Units.bytes(text) else {
                throw sizeValue.error("'\(sizeValue.path)' must be a size such as 50MiB, 10MB or 4096, not '\(text)'", kind: kind)
            }
            rules.maxTotalSize = bytes
        }
        try problems.attempt {
            guard let matchValue = map["match"] else { return }
            rules.match = try matchValue.word(MatchMode.self, kind: kind)
        }
        return rules
    }

    private func decodeOptions(_ value: YAMLValue) throws -> [OptionDeclaration] {
        let kind = Self.kind
        var options: [OptionDeclaration] = []
        for optionValue in try value.sequence(kind: kind) {
            let map = try optionValue.mapping(kind: kind)
            try map.checkKeys(["name", "type", "required", "default", "prompt", "choices"], in: "an option")
            let nameValue = try map.require("name", in: "an option")
            let name = try nameValue.string(kind: kind)
            guard OptionName.isValid(name) else {
                throw nameValue.error("'\(nameValue.path)' must be lowercase letters, digits and '-' starting with a letter, not '\(name)'", kind: kind)
            }
            guard !options.contains(where: { $0.name == name }) else {
                throw nameValue.error("option '\(name)' is declared twice", kind: kind)
            }
            var option = OptionDeclaration(name: name)
            if let typeValue = map["type"] {
                option.type = try typeValue.word(OptionDeclaration.ValueType.self, kind: kind)
            }
            if let requiredValue = map["required"] { option.required = try requiredValue.bool(kind: kind) }
            if let promptValue = map["prompt"] { option.prompt = try promptValue.string(kind: kind) }
            if let choicesValue = map["choices"] {
                let choices = try choicesValue.stringList(kind: kind)
                guard !choices.isEmpty else {
                    throw choicesValue.error("'\(choicesValue.path)' must list at least one value", kind: kind)
                }
                option.choices = choices
            }
            if let defaultValue = map["default"] {
                let text = try defaultValue.string(kind: kind)
                switch option.validate(text) {
                case .success(let valid): option.defaultValue = valid
                case .failure(let problem):
                    throw defaultValue.error("'\(defaultValue.path)' \(problem.reason), not '\(text)'", kind: kind)
                }
            }
            options.append(option)
        }
        return options
    }

    // MARK: Hooks

    private func decodeHooks(_ value: YAMLValue, options: [OptionDeclaration]) throws -> ActivityHooks {
        let kind = Self.kind
        let map = try value.mapping(kind: kind)
        try map.checkKeys(["can-perform", "prepare", "perform"], in: "'hooks'")
        let perform = try decodeHook(try map.require("perform", in: "'hooks'"), role: .perform, options: options)
        let canPerform = try map["can-perform"].map { try decodeHook($0, role: .canPerform, options: options) }
        let prepare = try map["prepare"].map { try decodeHook($0, role: .prepare, options: options) }
        return ActivityHooks(canPerform: canPerform, prepare: prepare, perform: perform)
    }

    private func decodeHook(_ value: YAMLValue, role: HookDeclaration.Role, options: [OptionDeclaration]) throws -> HookDeclaration {
        let kind = Self.kind
        if case .scalar = value.node.content {
            let symbol = try value.string(kind: kind)
            try checkSymbol(symbol, value: value)
            return .standard(role, symbol: symbol, at: value.location)
        }
        let map = try value.mapping(kind: kind)
        try map.checkKeys(["symbol", "args", "returns"], in: "a hook")
        let symbolValue = try map.require("symbol", in: "a hook")
        let symbol = try symbolValue.string(kind: kind)
        try checkSymbol(symbol, value: symbolValue)

        var arguments: [HookArgument] = []
        if let argsValue = map["args"] {
            for argValue in try argsValue.sequence(kind: kind) {
                let word = try argValue.string(kind: kind)
                guard let argument = HookArgument(word: word) else {
                    throw argValue.error("'\(argValue.path)' is '\(word)'; argument words are \(HookArgument.words.joined(separator: ", "))", kind: kind)
                }
                if case .option(let name) = argument, !options.contains(where: { $0.name == name }) {
                    throw argValue.error("'\(argValue.path)' names option '\(name)', which the activity does not declare", kind: kind)
                }
                arguments.append(argument)
            }
        }
        guard arguments.count <= 16 else {
            throw value.error("'\(value.path).args' has \(arguments.count) arguments; at most 16 are supported", kind: kind)
        }

        let allowed = HookDeclaration.allowedReturns(for: role)
        let returnsValue = try map.require("returns", in: "a hook")
        let word = try returnsValue.string(kind: kind)
        guard let returns = HookReturn(rawValue: word), allowed.contains(returns) else {
            let list = allowed.count == 1 ? allowed[0].rawValue : "one of " + allowed.map(\.rawValue).joined(separator: ", ")
            throw returnsValue.error("'\(returnsValue.path)' must be \(list) for \(role.rawValue), not '\(word)'", kind: kind)
        }
        return HookDeclaration(role: role, symbol: symbol, arguments: arguments, returns: returns, isStandard: false, location: value.location)
    }

    private func checkSymbol(_ symbol: String, value: YAMLValue) throws {
        let valid = symbol.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } ?? false
            && symbol.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        guard valid else {
            throw value.error("'\(value.path)' must be a C symbol name, not '\(symbol)'", kind: Self.kind)
        }
    }

    // MARK: Files

    private func resolveLibrary(_ library: String, in directory: String, value: YAMLValue) throws -> String {
        if library.hasPrefix("/") {
            guard FileSystem.exists(library) else {
                throw value.error("'library' names \(library), which does not exist", kind: Self.kind, cause: MissingFiles([library]))
            }
            return library
        }
        // A bare file name may also come from the build tree; a relative path is the manifest's own.
        let directories = library.contains("/") ? [directory] : [directory] + libraryDirectories
        let candidates = directories.map { FileSystem.join($0, library) }
        for path in candidates where FileSystem.exists(path) { return path }
        throw value.error("'library' names \(library), which does not exist beside the manifest", kind: Self.kind, cause: MissingFiles(candidates))
    }

    private func resolveImage(_ image: String, in directory: String, value: YAMLValue) throws -> String {
        let looksLikeFile = image.contains("/") || [".svg", ".png", ".xpm"].contains { image.hasSuffix($0) }
        guard looksLikeFile else {
            guard image.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
                throw value.error("'\(value.path)' must be an icon file or a freedesktop icon name, not '\(image)'", kind: Self.kind)
            }
            return image
        }
        let path = FileSystem.join(directory, image)
        guard FileSystem.exists(path) else {
            throw value.error("'\(value.path)' names \(image), which does not exist beside the manifest", kind: Self.kind, cause: MissingFiles([path]))
        }
        return path
    }

    private func nonEmpty(_ value: YAMLValue) throws -> String {
        let text = try value.string(kind: Self.kind)
        guard !text.trimmingSpaces.isEmpty else {
            throw value.error("\(value.name) must not be empty", kind: Self.kind)
        }
        return text
    }
}
