#if canImport(Glibc)
import Glibc
#endif

/// The decoded manifests and config, kept in `$XDG_CACHE_HOME/actshare/manifest-index-*.bin`
/// so that `actshare` reads no YAML (and links no YAML parser) when nothing changed.
///
/// An entry is fresh while its file's size, inode, modification and change times are
/// unchanged; the whole index is dropped when the library search directories or the
/// format change. Broken manifests are kept with their error, so their message is
/// repeated without parsing them again — unless the error is a file that is missing (a
/// `library:` not built yet, in the manifest's folder or a library directory): those
/// places are watched, and the manifest is read again once one exists. The index is only
/// a speed-up: a missing, corrupt or unwritable one costs a parse.
public struct ManifestIndex: Sendable {
    /// One manifest file and what reading it gave.
    ///
    /// From the index, only the summary is decoded up front; the whole manifest is
    /// decoded by ``manifest()`` when an activity of it is offered or performed.
    public struct Entry: Sendable {
        public let file: String
        /// The provider's id and its activities' static rules, or why the manifest is unusable.
        public let summary: Result<ProviderSummary, ActShareError>
        private let storage: Storage

        private enum Storage: Sendable {
            case decoded(Result<ProviderManifest, ActShareError>)
            case indexed(bytes: [UInt8], offset: Int)
        }

        /// An entry for a manifest decoded from its YAML.
        public init(file: String, result: Result<ProviderManifest, ActShareError>) {
            self.file = file
            summary = result.map(ProviderSummary.init)
            storage = .decoded(result)
        }

        /// An entry whose record starts at `offset` in an index's bytes.
        init(file: String, bytes: [UInt8], offset: Int) throws {
            self.file = file
            var reader = ByteReader(bytes, offset: offset)
            let (summary, rest) = try ManifestCodec.readSummary(file: file, from: &reader)
            self.summary = summary
            storage = .indexed(bytes: bytes, offset: rest)
        }

        /// The whole manifest, or why it is unusable.
        public func manifest() -> Result<ProviderManifest, ActShareError> {
            switch storage {
            case .decoded(let result):
                return result
            case .indexed(let bytes, let offset):
                if case .failure(let error) = summary { return .failure(error) }
                var reader = ByteReader(bytes, offset: offset)
                do {
                    return .success(try ManifestCodec.readManifest(file: file, from: &reader))
                } catch {
                    return .failure(ActShareError(.io, "the manifest index is damaged; it is rebuilt when \(file) changes or the cache is removed"))
                }
            }
        }
    }

    /// Everything an index holds: the manifests in search order, and the config if one was read.
    public struct Contents: Sendable {
        public var manifests: [Entry]
        public var config: (file: String, result: Result<Config, ActShareError>)?
        /// True when no two manifests share a provider id or an activity type, which the
        /// index records so that loading it need not check again.
        public var hasNoConflicts = false

        public init(manifests: [Entry], config: (file: String, result: Result<Config, ActShareError>)?) {
            self.manifests = manifests
            self.config = config
        }
    }

    private static let magic = "actshare-manifest-index 15"
    /// Below this many manifests, statting them costs less than starting a thread.
    private static let statThreadThreshold = 32

    /// The index file.
    public var file: String
    /// Part of the fingerprint: a relative `library:` resolves differently when these change.
    public var libraryDirectories: [String]

    /// The index for one search path in `directory`. Each search path has its own
    /// file, so runs with different ones (another `ACTSHARE_PROVIDER_PATH`, another
    /// build) do not evict each other's index.
    public init(directory: String, libraryDirectories: [String], providerDirectories: [String] = []) {
        self.libraryDirectories = libraryDirectories
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in Self.colonSeparated(libraryDirectories + ["\u{0}"] + providerDirectories).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        file = FileSystem.join(directory, "manifest-index-\(String(hash, radix: 16)).bin")
    }

    /// The stored contents for these provider directories, if nothing in them changed:
    /// no manifest added, removed or edited (each directory, and each subdirectory
    /// that could still gain a `provider.yaml`, has the status it had), and the same
    /// config. Else nil. No directory is read: that is the point of the index.
    public func freshContents(directories: [String], configFile: String?) -> Contents? {
        guard let stored = try? FileSystem.read(file), let records = try? Records(stored, fingerprint: fingerprint),
              records.directories == directories, records.config.map(records.file(of:)) == configFile
        else { return nil }
        for watched in records.watched {
            let status = FileSystem.status(records.file(of: watched))
            guard Self.matches(status, watched.status) else { return nil }
        }
        let files = records.manifests.map(records.file(of:))
        do {
            // Many files are statted on a second thread while their summaries are decoded;
            // a few are statted here, as starting a thread costs more than they do.
            let statuses = BackgroundWork(inline: files.count < Self.statThreadThreshold) { FileSystem.statuses(files) }
            var manifests: [Entry] = []
            manifests.reserveCapacity(files.count)
            for (file, record) in zip(files, records.manifests) {
                manifests.append(try Entry(file: file, bytes: stored, offset: record.offset))
            }
            for (record, status) in zip(records.manifests, statuses.wait()) {
                guard let status, record.status.isSameVersion(as: status) else { return nil }
            }
            var config: (file: String, result: Result<Config, ActShareError>)?
            if let record = records.config {
                let file = records.file(of: record)
                guard let status = FileSystem.status(file), record.status.isSameVersion(as: status) else { return nil }
                var reader = ByteReader(stored, offset: record.offset)
                config = (file, try ConfigCodec.read(file: file, from: &reader))
            }
            var contents = Contents(manifests: manifests, config: config)
            contents.hasNoConflicts = records.hasNoConflicts
            return contents
        } catch {
            return nil
        }
    }

    /// Scans `directories` for manifests, then does what ``rebuild(files:configFile:useIndexFile:decodeManifest:decodeConfig:)``
    /// does, recording the directories so that a later run can trust the index without scanning.
    public func rebuild(
        directories: [String], configFile: String?,
        decodeManifest: (String) -> Result<ProviderManifest, ActShareError>,
        decodeConfig: (String) -> Result<Config, ActShareError>
    ) -> (contents: Contents, bytes: [UInt8]) {
        // Statuses before the scan: a change made during it shows up as stale next time.
        var watched = directories.map { ($0, FileSystem.status($0)) }
        let scan = ProviderRegistry.scan(directories)
        watched += scan.emptySubdirectories.map { ($0, FileSystem.status($0)) }
        return rebuild(
            files: scan.files, directories: directories, watched: watched, configFile: configFile, useIndexFile: true,
            decodeManifest: decodeManifest, decodeConfig: decodeConfig)
    }

    /// Decodes what is not fresh with the given decoders, reusing fresh entries, and
    /// returns the contents with their serialized form, which is also saved if the cache
    /// directory is writable. With `useIndexFile` false, the index file is neither read
    /// nor written: everything is decoded.
    public func rebuild(
        files: [String], configFile: String?, useIndexFile: Bool = true,
        decodeManifest: (String) -> Result<ProviderManifest, ActShareError>,
        decodeConfig: (String) -> Result<Config, ActShareError>
    ) -> (contents: Contents, bytes: [UInt8]) {
        rebuild(
            files: files, directories: [], watched: [], configFile: configFile, useIndexFile: useIndexFile,
            decodeManifest: decodeManifest, decodeConfig: decodeConfig)
    }

    private func rebuild(
        files: [String], directories: [String], watched: [(String, FileSystem.Status?)], configFile: String?,
        useIndexFile: Bool,
        decodeManifest: (String) -> Result<ProviderManifest, ActShareError>,
        decodeConfig: (String) -> Result<Config, ActShareError>
    ) -> (contents: Contents, bytes: [UInt8]) {
        let stored = useIndexFile ? (try? FileSystem.read(file)) ?? [] : []
        let records = (try? Records(stored, fingerprint: fingerprint))
        var previous: [String: Records.Record] = [:]
        for record in records?.manifests ?? [] { previous[records!.file(of: record)] = record }

        var manifests: [Entry] = []
        var entries = ByteWriter()
        // A manifest refused for a file not there yet (a library still to be built) is
        // decoded again once that file appears: its paths are watched, absent.
        var watched = watched
        for file in files {
            let status = FileSystem.status(file)
            var result: Result<ProviderManifest, ActShareError>?
            if let status, let record = previous[file], record.status.isSameVersion(as: status) {
                var reader = ByteReader(stored, offset: record.offset)
                result = try? ManifestCodec.read(file: file, from: &reader)
                // Its error was a file that now exists: read again.
                if case .failure(let error)? = result, let missing = error.cause as? MissingFiles, missing.paths.contains(where: FileSystem.exists) {
                    result = nil
                }
            }
            let decoded = result ?? decodeManifest(file)
            if case .failure(let error) = decoded, let missing = error.cause as? MissingFiles {
                watched += missing.paths.map { ($0, nil) }
            }
            manifests.append(Entry(file: file, result: decoded))
            var record = ByteWriter()
            ManifestCodec.write(decoded, to: &record)
            Self.writeRecord(file: file, status: status, record: record.bytes, to: &entries)
        }
        var writer = ByteWriter()
        writer.write(fingerprint)
        writer.write(directories)
        writer.write(watched.count)
        for (path, status) in watched { Self.writeRecord(file: path, status: status, record: [], to: &writer) }
        writer.write(files.count)
        writer.append(raw: entries.bytes)
        var config: (file: String, result: Result<Config, ActShareError>)?
        writer.write(configFile != nil)
        if let configFile {
            let status = FileSystem.status(configFile)
            let result = decodeConfig(configFile)
            config = (configFile, result)
            var record = ByteWriter()
            ConfigCodec.write(result, to: &record)
            Self.writeRecord(file: configFile, status: status, record: record.bytes, to: &writer)
        }
        var ids: Set<String> = []
        var types: Set<String> = []
        var hasNoConflicts = true
        for case .success(let manifest) in manifests.map({ $0.manifest() }) {
            hasNoConflicts = hasNoConflicts && ids.insert(manifest.id).inserted
            for activity in manifest.activities { hasNoConflicts = hasNoConflicts && types.insert(activity.type).inserted }
        }
        writer.write(hasNoConflicts)
        if useIndexFile {
            do {
                try FileSystem.createDirectories(FileSystem.directoryName(file))
                try FileSystem.writeAtomically(writer.bytes, to: file)
            } catch {
                // Without a writable cache, manifests are parsed on every run: slower, not wrong.
            }
        }
        var contents = Contents(manifests: manifests, config: config)
        contents.hasNoConflicts = hasNoConflicts
        return (contents, writer.bytes)
    }

    /// Reads contents serialized by ``rebuild(files:configFile:decodeManifest:decodeConfig:)``,
    /// whatever the files' state now.
    public func contents(of bytes: [UInt8]) -> Contents? {
        guard let records = try? Records(bytes, fingerprint: fingerprint) else { return nil }
        do {
            let manifests = try records.manifests.map { record in
                try Entry(file: records.file(of: record), bytes: bytes, offset: record.offset)
            }
            let config = try records.config.map { record in
                var reader = ByteReader(bytes, offset: record.offset)
                let file = records.file(of: record)
                return (file, try ConfigCodec.read(file: file, from: &reader))
            }
            var contents = Contents(manifests: manifests, config: config)
            contents.hasNoConflicts = records.hasNoConflicts
            return contents
        } catch {
            return nil
        }
    }

    // MARK: The format

    private var fingerprint: String { "\(Self.magic)\n\(Self.colonSeparated(libraryDirectories))" }

    /// `parts` joined by colons. Not `joined(separator:)`: that generic, unspecialized
    /// here, makes the runtime look up its types by name, some 30 µs of every start.
    private static func colonSeparated(_ parts: [String]) -> String {
        var text = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { text += ":" }
            text += part
        }
        return text
    }

    /// Whether a path's status now is the recorded one (absent both times counts).
    private static func matches(_ status: FileSystem.Status?, _ recorded: FileSystem.Status) -> Bool {
        guard let status else { return recorded.size == UInt64.max }
        return status.isSameVersion(as: recorded)
    }

    /// A file's record: its path and status, then the length and bytes of its entry.
    private static func writeRecord(file: String, status: FileSystem.Status?, record: [UInt8], to writer: inout ByteWriter) {
        writer.write(file)
        // A file that vanished is written with a status that never matches, to be read again.
        writer.write(status?.size ?? UInt64.max)
        writer.write(status?.modified ?? -1)
        writer.write(status?.changed ?? -1)
        writer.write(status?.inode ?? 0)
        writer.write(record.count)
        writer.append(raw: record)
    }

    /// The table of an index: where each entry starts, without decoding the entries.
    private struct Records {
        /// A file's record. Its name stays in the index's bytes (`name`) until a String is
        /// wanted: comparing bytes is much cheaper than making a thousand Strings.
        struct Record {
            var name: Range<Int>
            var status: FileSystem.Status
            var offset: Int
        }

        let bytes: [UInt8]
        /// The provider directories the index was made for.
        var directories: [String] = []
        /// Directories whose status must be unchanged for the file list to hold.
        var watched: [Record] = []
        var manifests: [Record] = []
        var config: Record?
        var hasNoConflicts = false

        init(_ bytes: [UInt8], fingerprint: String) throws {
            self.bytes = bytes
            var reader = ByteReader(bytes)
            guard try reader.readString() == fingerprint else { throw ByteReader.Malformed() }
            directories = try reader.readStrings()
            for _ in 0..<(try reader.readCount()) { watched.append(try Self.record(&reader)) }
            let count = try reader.readCount()
            manifests.reserveCapacity(count)
            for _ in 0..<count { manifests.append(try Self.record(&reader)) }
            if try reader.readBool() { config = try Self.record(&reader) }
            hasNoConflicts = try reader.readBool()
        }

        func file(of record: Record) -> String {
            String(decoding: bytes[record.name], as: UTF8.self)
        }

        /// Whether `record` is for `file`, compared as bytes.
        func record(_ record: Record, isFor file: String) -> Bool {
            var file = file
            return file.withUTF8 { name in
                name.count == record.name.count && bytes.withUnsafeBytes { stored in
                    name.isEmpty || memcmp(stored.baseAddress! + record.name.lowerBound, name.baseAddress!, name.count) == 0
                }
            }
        }

        private static func record(_ reader: inout ByteReader) throws -> Record {
            let length = try reader.readCount()
            let start = reader.offset
            try reader.skip(length)
            let status = FileSystem.Status(
                size: try reader.readUInt64(), isDirectory: false, isRegular: true,
                modified: try reader.readInt64(), changed: try reader.readInt64(), inode: try reader.readUInt64())
            let recordLength = try reader.readCount()
            let record = Record(name: start..<start + length, status: status, offset: reader.offset)
            try reader.skip(recordLength)
            return record
        }
    }
}
