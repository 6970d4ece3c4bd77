/// The decoded manifests and config, kept in `$XDG_CACHE_HOME/actshare/manifest-index.bin`
/// so that `actshare` reads no YAML (and links no YAML parser) when nothing changed.
///
/// An entry is fresh while its file's size, inode, modification and change times are
/// unchanged; the whole index is dropped when the library search directories or the
/// format change. Broken manifests are kept with their error, so their message is
/// repeated without parsing them again. The index is only a speed-up: a missing,
/// corrupt or unwritable one costs a parse.
public struct ManifestIndex: Sendable {
    /// One manifest file and what reading it gave.
    public struct Entry: Sendable {
        public var file: String
        public var result: Result<ProviderManifest, ActShareError>

        public init(file: String, result: Result<ProviderManifest, ActShareError>) {
            self.file = file
            self.result = result
        }
    }

    /// Everything an index holds: the manifests in search order, and the config if one was read.
    public struct Contents: Sendable {
        public var manifests: [Entry]
        public var config: (file: String, result: Result<Config, ActShareError>)?

        public init(manifests: [Entry], config: (file: String, result: Result<Config, ActShareError>)?) {
            self.manifests = manifests
            self.config = config
        }
    }

    private static let magic = "actshare-manifest-index 2"

    /// The index file.
    public var file: String
    /// Part of the fingerprint: a relative `library:` resolves differently when these change.
    public var libraryDirectories: [String]

    public init(directory: String, libraryDirectories: [String]) {
        file = FileSystem.join(directory, "manifest-index.bin")
        self.libraryDirectories = libraryDirectories
    }

    /// The stored contents for exactly these files, if every one is fresh; else nil.
    public func freshContents(files: [String], configFile: String?) -> Contents? {
        guard let stored = try? FileSystem.read(file), let records = try? Records(stored, fingerprint: fingerprint),
              records.manifests.count == files.count, records.config?.file == configFile
        else { return nil }
        do {
            var manifests: [Entry] = []
            manifests.reserveCapacity(files.count)
            for (record, status) in zip(records.manifests, FileSystem.statuses(files)) {
                guard let status, record.status.isSameVersion(as: status) else { return nil }
            }
            for (file, record) in zip(files, records.manifests) {
                guard record.file == file else { return nil }
                var reader = ByteReader(stored, offset: record.offset)
                manifests.append(Entry(file: file, result: try ManifestCodec.read(file: file, from: &reader)))
            }
            var config: (file: String, result: Result<Config, ActShareError>)?
            if let record = records.config {
                guard let status = FileSystem.status(record.file), record.status.isSameVersion(as: status) else { return nil }
                var reader = ByteReader(stored, offset: record.offset)
                config = (record.file, try ConfigCodec.read(file: record.file, from: &reader))
            }
            return Contents(manifests: manifests, config: config)
        } catch {
            return nil
        }
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
        let stored = useIndexFile ? (try? FileSystem.read(file)) ?? [] : []
        let records = (try? Records(stored, fingerprint: fingerprint))
        var previous: [String: Records.Record] = [:]
        for record in records?.manifests ?? [] { previous[record.file] = record }

        var writer = ByteWriter()
        writer.write(fingerprint)
        writer.write(files.count)
        var manifests: [Entry] = []
        for file in files {
            let status = FileSystem.status(file)
            var result: Result<ProviderManifest, ActShareError>?
            if let status, let record = previous[file], record.status.isSameVersion(as: status) {
                var reader = ByteReader(stored, offset: record.offset)
                result = try? ManifestCodec.read(file: file, from: &reader)
            }
            let decoded = result ?? decodeManifest(file)
            manifests.append(Entry(file: file, result: decoded))
            var record = ByteWriter()
            ManifestCodec.write(decoded, to: &record)
            Self.writeRecord(file: file, status: status, record: record.bytes, to: &writer)
        }
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
        if useIndexFile {
            do {
                try FileSystem.createDirectories(FileSystem.directoryName(file))
                try FileSystem.writeAtomically(writer.bytes, to: file)
            } catch {
                // Without a writable cache, manifests are parsed on every run: slower, not wrong.
            }
        }
        return (Contents(manifests: manifests, config: config), writer.bytes)
    }

    /// Reads contents serialized by ``rebuild(files:configFile:decodeManifest:decodeConfig:)``,
    /// whatever the files' state now.
    public func contents(of bytes: [UInt8]) -> Contents? {
        guard let records = try? Records(bytes, fingerprint: fingerprint) else { return nil }
        do {
            let manifests = try records.manifests.map { record in
                var reader = ByteReader(bytes, offset: record.offset)
                return Entry(file: record.file, result: try ManifestCodec.read(file: record.file, from: &reader))
            }
            let config = try records.config.map { record in
                var reader = ByteReader(bytes, offset: record.offset)
                return (record.file, try ConfigCodec.read(file: record.file, from: &reader))
            }
            return Contents(manifests: manifests, config: config)
        } catch {
            return nil
        }
    }

    // MARK: The format

    private var fingerprint: String { "\(Self.magic)\n\(libraryDirectories.joined(separator: ":"))" }

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
        struct Record {
            var file: String
            var status: FileSystem.Status
            var offset: Int
        }

        var manifests: [Record] = []
        var config: Record?

        init(_ bytes: [UInt8], fingerprint: String) throws {
            var reader = ByteReader(bytes)
            guard try reader.readString() == fingerprint else { throw ByteReader.Malformed() }
            for _ in 0..<(try reader.readCount()) { manifests.append(try Self.record(&reader)) }
            if try reader.readBool() { config = try Self.record(&reader) }
        }

        private static func record(_ reader: inout ByteReader) throws -> Record {
            let file = try reader.readString()
            let status = FileSystem.Status(
                size: try reader.readUInt64(), isDirectory: false, isRegular: true,
                modified: try reader.readInt64(), changed: try reader.readInt64(), inode: try reader.readUInt64())
            let length = try reader.readCount()
            let record = Record(file: file, status: status, offset: reader.offset)
            try reader.skip(length)
            return record
        }
    }
}
