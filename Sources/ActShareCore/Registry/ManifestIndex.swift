/// A cache of decoded manifests in `$XDG_CACHE_HOME/actshare`, so that listing activities
/// with many providers installed does not parse YAML each time.
///
/// An entry is reused only while its manifest's size, inode, modification and change
/// times are unchanged; the whole index is dropped when the library search directories
/// or the format change. Broken manifests are cached with their error, so their message
/// is repeated without parsing them again. A missing or unwritable cache only costs time.
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

    private static let magic = "actshare-manifest-index 1"

    public var directory: String
    public var decoder: ManifestDecoder

    public init(directory: String, decoder: ManifestDecoder) {
        self.directory = directory
        self.decoder = decoder
    }

    var file: String { FileSystem.join(directory, "manifest-index.bin") }

    /// Reads `files` in order, from the index where fresh, and refreshes the index.
    public func load(files: [String]) -> [Entry] {
        var cached = readIndex()
        var entries: [Entry] = []
        var changed = cached.count != files.count
        for file in files {
            let status = FileSystem.status(file)
            if let status, let record = cached.removeValue(forKey: file), record.status.isSameVersion(as: status),
               let result = try? decodeRecord(record, file: file) {
                entries.append(Entry(file: file, result: result))
                continue
            }
            changed = true
            let result = Result { try decoder.decode(file: file) }.mapError { error in
                (error as? ActShareError) ?? ActShareError(.badManifest, "\(error)", at: SourceLocation(file: file, line: 1, column: 1))
            }
            entries.append(Entry(file: file, result: result))
        }
        if changed { writeIndex(entries) }
        return entries
    }

    // MARK: The file

    private struct Record {
        var status: FileSystem.Status
        var bytes: [UInt8]
        var offset: Int
    }

    private var fingerprint: String { "\(Self.magic)\n\(decoder.libraryDirectories.joined(separator: ":"))" }

    private func decodeRecord(_ record: Record, file: String) throws -> Result<ProviderManifest, ActShareError> {
        var reader = ByteReader(record.bytes, offset: record.offset)
        return try ManifestCodec.read(file: file, from: &reader)
    }

    /// Reads the index's table of files without decoding the manifests themselves.
    private func readIndex() -> [String: Record] {
        guard let bytes = try? FileSystem.read(file) else { return [:] }
        var reader = ByteReader(bytes)
        var records: [String: Record] = [:]
        do {
            guard try reader.readString() == fingerprint else { return [:] }
            let count = try reader.readInt()
            guard count >= 0 && count <= bytes.count else { return [:] }
            records.reserveCapacity(count)
            for _ in 0..<count {
                let file = try reader.readString()
                let status = FileSystem.Status(
                    size: try reader.readUInt64(), isDirectory: false, isRegular: true,
                    modified: try reader.readInt64(), changed: try reader.readInt64(), inode: try reader.readUInt64())
                let length = try reader.readInt()
                records[file] = Record(status: status, bytes: bytes, offset: reader.offset)
                try reader.skip(length)
            }
        } catch {
            return [:]
        }
        return records
    }

    private func writeIndex(_ entries: [Entry]) {
        var writer = ByteWriter()
        writer.write(fingerprint)
        var written: [(String, FileSystem.Status, [UInt8])] = []
        for entry in entries {
            // A file that changed while being read is left out, to be read again next time.
            guard let status = FileSystem.status(entry.file), status.isRegular else { continue }
            var record = ByteWriter()
            ManifestCodec.write(entry.result, to: &record)
            written.append((entry.file, status, record.bytes))
        }
        writer.write(written.count)
        for (file, status, record) in written {
            writer.write(file)
            writer.write(status.size)
            writer.write(status.modified)
            writer.write(status.changed)
            writer.write(status.inode)
            writer.write(record.count)
            writer.append(raw: record)
        }
        do {
            try FileSystem.createDirectories(directory)
            try FileSystem.writeAtomically(writer.bytes, to: file)
        } catch {
            // The index is only a speed-up; without a writable cache, manifests are parsed each time.
        }
    }
}
