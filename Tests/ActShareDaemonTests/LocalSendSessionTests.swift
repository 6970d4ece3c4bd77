import ActShareHandoff
import Foundation
import Testing

@testable import ActShareDaemon

/// A LocalSend session being received (``LocalSendSession``): each file once, by its own
/// token, not twice at a time; placed when all are whole; nothing kept when discarded.
@Suite struct LocalSendSessionTests {
    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "actshare-session-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let files = [LocalSendFile(id: "a", fileName: "Trip/a.txt", size: 3, fileType: "text/plain"),
                        LocalSendFile(id: "b", fileName: "b.bin", size: 0, fileType: "application/octet-stream")]

    static func session(in directory: String) throws -> LocalSendSession {
        try LocalSendSession(id: "s1", requestID: "r1", files: files, from: "Pixel", senderID: "pixel", address: "10.0.0.2", directory: directory, ownName: "desk")
    }

    /// Writes `bytes` into an upload that was begun.
    static func write(_ upload: LocalSendSession.Upload, _ bytes: String) throws {
        guard case .write(let fd, let size, _) = upload else {
            Issue.record("expected an upload to write, got \(upload)")
            return
        }
        #expect(Int(size) == bytes.utf8.count)
        #expect(Array(bytes.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.utf8.count)
        close(fd)
    }

    @Test func eachFileOnceByItsOwnTokenThenPlaced() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = try Self.session(in: directory)
        let a = try #require(session.slots["a"]), b = try #require(session.slots["b"])
        #expect(throws: LocalSendSessionError.forbidden) { try session.beginUpload("a", token: b.token) }
        #expect(throws: LocalSendSessionError.forbidden) { try session.beginUpload("nope", token: a.token) }

        let upload = try session.beginUpload("a", token: a.token)
        #expect(throws: LocalSendSessionError.busy) { try session.beginUpload("a", token: a.token) }
        try Self.write(upload, "abc")
        #expect(try session.endUpload("a", sha256: nil) == nil, "failed: removed, to be sent again")
        try Self.write(try session.beginUpload("a", token: a.token), "abc")
        #expect(try session.endUpload("a", sha256: "aa") == nil, "one of two: nothing placed yet")
        guard case .alreadyHere = try session.beginUpload("a", token: a.token) else {
            Issue.record("a file received is not written again")
            return
        }
        _ = try session.endUpload("a", sha256: "aa")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy { $0.hasPrefix(TransferReceiver.partialPrefix) })

        try Self.write(try session.beginUpload("b", token: b.token), "")
        let received = try #require(try session.endUpload("b", sha256: "bb"), "the last file places them all")
        #expect(received.files.map(\.name).sorted() == ["\(directory)/Trip/a.txt", "\(directory)/b.bin"], "named where they are")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["Trip", "b.bin"], "placed, no partial folder left")
        #expect(try String(contentsOfFile: "\(directory)/Trip/a.txt", encoding: .utf8) == "abc")
        #expect(session.hasEnded)
        #expect(throws: LocalSendSessionError.forbidden) { try session.beginUpload("b", token: b.token) }
    }

    @Test func aDiscardedSessionKeepsNothing() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = try Self.session(in: directory)
        let a = try #require(session.slots["a"])
        try Self.write(try session.beginUpload("a", token: a.token), "abc")
        _ = try session.endUpload("a", sha256: "aa")
        session.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        #expect(throws: LocalSendSessionError.forbidden) { try session.beginUpload("a", token: a.token) }
    }
}

/// The pairing window (``PairingGate``): one at a time, taken by the first request, open
/// for TLS while it is; at most three attempts in ten seconds.
@Suite struct PairingGateTests {
    @Test func oneWindowTakenOnce() async {
        let gate = PairingGate()
        #expect(await gate.take() == nil, "no window: a request is refused")
        let window = await gate.open()
        #expect(window != nil && gate.isOpen.withLockedValue { $0 })
        #expect(await gate.open() == nil, "one window at a time")
        #expect(await gate.take() === window)
        let again = await gate.take()
        #expect(!gate.isOpen.withLockedValue { $0 } && again == nil, "taken once, then closed")
    }

    @Test func aClosedWindowIsClosedOnlyIfItIsTheOpenOne() async throws {
        let gate = PairingGate()
        let first = try #require(await gate.open())
        await gate.close(first)
        let second = try #require(await gate.open())
        await gate.close(first)
        #expect(gate.isOpen.withLockedValue { $0 }, "an old window's close leaves the new one open")
        #expect(await gate.take() === second)
    }

    @Test func threeAttemptsAtMost() async {
        let gate = PairingGate()
        var allowed: [Bool] = []
        for _ in 1...5 { allowed.append(await gate.mayAttempt()) }
        #expect(allowed == [true, true, true, false, false])
    }
}
