import ActShareCore
import ActShareHandoff
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The transfers that arrived here, newest last, for `handoff received`: one JSON line
/// each in `$XDG_STATE_HOME/actshare/received.jsonl` (0600).
///
/// Appended to, never read, when something arrives: a receive costs the same whether the
/// log holds one transfer or thousands of 5,000-file ones. Bounded: past ``maximumBytes``
/// the newest half is kept (read from the file's end, once in a long while) and the log
/// says how many older transfers went. `handoff received` reads it, and lists the last
/// ``limit``. A `received.json` of earlier versions (one array, read whole) is taken over
/// once, when the daemon starts.
struct ReceivedLog {
    static let limit = 200
    static let maximumBytes = 16 << 20
    let file: String

    /// The last ``limit`` transfers, oldest first.
    func all() -> [ReceivedTransfer] {
        guard let bytes = try? FileSystem.readRegularFile(file, limit: Self.maximumBytes * 2) else { return [] }
        let decoder = JSONDecoder()
        let lines = bytes.split(separator: 0x0A)
        return lines.suffix(Self.limit).compactMap { try? decoder.decode(ReceivedTransfer.self, from: Data($0)) }
    }

    /// Adds `transfer` at the end, then keeps the log within ``maximumBytes``.
    func append(_ transfer: ReceivedTransfer) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = Array(try encoder.encode(transfer)) + [0x0A]
        let fd = PathName.withCString(file) { open($0, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw ActShareError(.io, "cannot write \(file): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard FileSystem.writeAll(line, to: fd) else { throw ActShareError(.io, "cannot write \(file): \(String(cString: strerror(errno)))") }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size > off_t(Self.maximumBytes) { try trim(fd, size: Int(info.st_size)) }
    }

    /// Keeps the newest half of the log: its last ``maximumBytes``/2, from the first whole
    /// line on, written in its place.
    private func trim(_ fd: Int32, size: Int) throws {
        let keep = Self.maximumBytes / 2
        var tail = [UInt8](repeating: 0, count: keep)
        let read = tail.withUnsafeMutableBytes { pread(fd, $0.baseAddress, keep, off_t(size - keep)) }
        guard read == keep, let newline = tail.firstIndex(of: 0x0A) else { return }
        let kept = Array(tail[(newline + 1)...])
        // How many transfers go: the lines before the cut, counted a mebibyte at a time.
        let cut = size - keep + newline + 1
        var dropped = 0, offset = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while offset < cut {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, min($0.count, cut - offset), off_t(offset)) }
            guard count > 0 else { break }
            dropped += chunk[..<count].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            offset += count
        }
        try FileSystem.writeAtomically(kept, to: file)
        chmod(file, 0o600)
        DaemonLog.line("the record of received transfers (\(file)) reached \(ByteCount.describe(UInt64(size))): the oldest \(dropped) were dropped from it")
    }

    /// Takes over `received.json` of earlier versions (an array): its transfers become the
    /// first lines here, and it goes. Over 64 MiB it cannot be read, and is set aside as
    /// `received.json.old`, said in the log.
    static func migrate(from old: String, to file: String) {
        guard FileSystem.exists(old), !FileSystem.exists(file) else { return }
        guard let bytes = try? FileSystem.readRegularFile(old, limit: 64 << 20),
              let transfers = try? JSONDecoder().decode([ReceivedTransfer].self, from: Data(bytes))
        else {
            _ = rename(old, old + ".old")
            DaemonLog.line("the earlier record of received transfers (\(old)) could not be read: kept as \(old).old")
            return
        }
        let log = ReceivedLog(file: file)
        for transfer in transfers.suffix(limit) { try? log.append(transfer) }
        unlink(old)
    }
}
