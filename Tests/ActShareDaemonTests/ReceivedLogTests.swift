import ActShareHandoff
import Foundation
import Testing

@testable import ActShareDaemon

#if canImport(Glibc)
import Glibc
#endif

/// The record of received transfers: appended to without being read, bounded by dropping
/// the oldest, and taken over from the array file of earlier versions.
@Suite struct ReceivedLogTests {
    static func folder() -> String {
        let path = "/tmp/actshare-received-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(path, 0o700)
        return path
    }

    static func transfer(_ number: Int, files: Int = 1) -> ReceivedTransfer {
        ReceivedTransfer(from: "beta", fromID: "0123456789abcdef", when: Double(number), paths: ["/home/u/Downloads/t\(number)"],
                         files: (0..<files).map { Delivery.File(name: "t\(number)/file-\($0).txt", bytes: 100, sha256: String(repeating: "a", count: 64)) })
    }

    @Test func transfersAreAppendedWithoutReadingWhatIsThere() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = ReceivedLog(file: "\(folder)/received.jsonl")
        try log.append(Self.transfer(1))
        // A line no decoder reads (a crash mid-write, an edit): appending does not care.
        let handle = try #require(FileHandle(forWritingAtPath: log.file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{not json\n".utf8))
        try handle.close()
        try log.append(Self.transfer(2))
        try log.append(Self.transfer(3))
        #expect(log.all().map(\.when) == [1, 2, 3])
        var info = stat()
        #expect(stat(log.file, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func theLogKeepsItsNewestHalfPastItsBound() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = ReceivedLog(file: "\(folder)/received.jsonl")
        // 5,000-file transfers of about 640 KB each: 40 of them pass the 16 MiB bound.
        for number in 1...40 { try log.append(Self.transfer(number, files: 5000)) }
        var info = stat()
        #expect(stat(log.file, &info) == 0 && Int(info.st_size) <= ReceivedLog.maximumBytes, "\(info.st_size) bytes")
        let kept = log.all().map(\.when)
        #expect(kept.last == 40 && kept.count >= 10 && kept.first! > 1, "\(kept)")
        #expect(kept == kept.sorted() && Set(kept).count == kept.count)
    }

    @Test func theArrayOfEarlierVersionsIsTakenOverOnce() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let old = "\(folder)/received.json", file = "\(folder)/received.jsonl"
        try JSONEncoder().encode([Self.transfer(1), Self.transfer(2)]).write(to: URL(fileURLWithPath: old))
        ReceivedLog.migrate(from: old, to: file)
        #expect(ReceivedLog(file: file).all().map(\.when) == [1, 2])
        #expect(!FileManager.default.fileExists(atPath: old))
        // One that cannot be read is set aside, not lost.
        try Data("[{broken".utf8).write(to: URL(fileURLWithPath: old))
        try FileManager.default.removeItem(atPath: file)
        ReceivedLog.migrate(from: old, to: file)
        #expect(FileManager.default.fileExists(atPath: old + ".old") && !FileManager.default.fileExists(atPath: old))
    }
}
