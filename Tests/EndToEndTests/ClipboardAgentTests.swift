import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `actshare-clipboard-agent` alone, on an Xvfb of the test's own, driven through its
/// socket as the daemon drives it (frames: Sources/actshare-clipboard-agent/agent.h), so
/// that what depends on the order of frames can be made to happen.
@Suite(.serialized) struct ClipboardAgentTests {
    static let agent = "\(Sandbox.repository)/.build/bin/actshare-clipboard-agent"

    /// The agent, running, and our end of its socket.
    final class Agent {
        let process = Process()
        let socket: Int32
        /// What the agent says on standard error (the daemon's log, when the daemon runs it).
        let errors = NSTemporaryDirectory() + "actshare-agent-" + UUID().uuidString + ".log"
        var said: String { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }

        init(display: ClipboardTests.Display, arguments: [String] = []) throws {
            var pair: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
            socket = pair[0]
            process.executableURL = URL(fileURLWithPath: ClipboardAgentTests.agent)
            process.arguments = arguments
            // Under scripts/sanitize, its options too: its reports go where the run reads them.
            process.environment = Sandbox.sanitizerEnvironment.merging(["DISPLAY": display.name]) { $1 }
            // Closed here once the agent has it (not by the handle as well: a descriptor closed
            // twice closes whatever another test opened under its number in between).
            let theirs = FileHandle(fileDescriptor: pair[1], closeOnDealloc: false)
            process.standardInput = theirs
            process.standardOutput = theirs
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: errors)
            try process.run()
            close(pair[1])
        }

        deinit {
            close(socket)
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: errors)
        }

        func send(_ header: [String: Any], data: Data = Data()) throws {
            let json = try JSONSerialization.data(withJSONObject: header)
            var frame = Data()
            for piece in [json, data] {
                frame.append(contentsOf: withUnsafeBytes(of: UInt32(piece.count).bigEndian, Array.init))
                frame.append(piece)
            }
            try frame.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(socket, bytes.baseAddress! + offset, bytes.count - offset)
                    try #require(written > 0, "the agent's socket: \(String(cString: strerror(errno)))")
                    offset += written
                }
            }
        }

        /// The next frame's header, waiting at most `seconds`: a guard against a hang, far
        /// above any wait under load, never a measure.
        func receive(seconds: Double = 60) throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(seconds)
            func exactly(_ count: Int) throws -> Data {
                var bytes = [UInt8](repeating: 0, count: count)
                var got = 0
                while got < count {
                    var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                    let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
                    try #require(poll(&ready, 1, left) == 1, "no frame from the agent within \(seconds) s")
                    let count = bytes.withUnsafeMutableBytes { read(socket, $0.baseAddress! + got, count - got) }
                    try #require(count > 0, "the agent closed its socket")
                    got += count
                }
                return Data(bytes)
            }
            func length() throws -> Int { Int(try exactly(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }) }
            let header = try exactly(try length())
            _ = try exactly(try length())
            return try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
        }
    }

    @Test func aLargePasteDoesNotEndBeforeItsBytesAreChecked() throws {
        let display = try ClipboardTests.Display()
        let agent = try Agent(display: display)
        #expect(try agent.receive()["type"] as? String == "ready")
        let size = 3 << 20 + 12_345
        let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try agent.send(["type": "own", "offer": "o1", "targets": [["name": "image/png", "size": size, "hash": "h1"]]])
        let owned = try agent.receive()
        #expect(owned["type"] as? String == "owned" && owned["ok"] as? Bool == true, "\(owned)")

        // A paste: the agent asks for the bytes; all of them come, but not yet the verdict.
        let first = HandoffTests.background { [name = display.name] in try? ClipboardTests.paste("image/png", displayName: name, seconds: 3) }
        let fetch = try agent.receive()
        #expect(fetch["type"] as? String == "fetch" && fetch["hash"] as? String == "h1", "\(fetch)")
        for offset in stride(from: 0, to: size, by: 1 << 20) {
            try agent.send(["type": "data", "offer": "o1", "hash": "h1", "more": true], data: bytes[offset..<min(size, offset + (1 << 20))])
        }
        // The paste has had the bytes as they came, but not their end: it never completes.
        let unfinished = first() ?? Data()
        #expect(unfinished.count < size, "the paste ended with all \(unfinished.count) bytes before they were checked")

        // Checked: the next paste has them all, at once.
        try agent.send(["type": "data", "offer": "o1", "hash": "h1", "ok": true])
        let whole = try ClipboardTests.paste("image/png", display: display, seconds: 3)
        let same = whole == bytes // compared before: a failing #expect would diff 3 MiB
        #expect(same, "\(whole.count) of \(size) bytes")
    }

    @Test func bytesThatFailTheirCheckEndNoPaste() throws {
        let display = try ClipboardTests.Display()
        let agent = try Agent(display: display)
        #expect(try agent.receive()["type"] as? String == "ready")
        let size = 2 << 20
        try agent.send(["type": "own", "offer": "o2", "targets": [["name": "image/png", "size": size, "hash": "h2"]]])
        _ = try agent.receive()
        let paste = HandoffTests.background { [name = display.name] in try? ClipboardTests.paste("image/png", displayName: name, seconds: 3) }
        _ = try agent.receive()
        try agent.send(["type": "data", "offer": "o2", "hash": "h2", "more": true], data: Data(count: size))
        try agent.send(["type": "data", "offer": "o2", "hash": "h2", "ok": false])
        #expect((paste() ?? Data()).count < size)
        // Failed is failed: a later paste is refused, not left waiting for the bytes.
        let later = try ClipboardTests.pasteAnswer("image/png", displayName: display.name)
        #expect(later.data.isEmpty && later.status == 1, "refused (xclip's status 1), not waited on: status \(later.status)")
    }

    /// An owner busy as the copy is made (serving another client's paste: a clipboard
    /// manager reads every copy at once) answers nothing for a while: the agent reads the
    /// copy again while it still owns the clipboard, and says what it holds.
    @Test func aCopyWhoseOwnerIsBusyAtFirstIsReadAgain() throws {
        let display = try ClipboardTests.Display()
        let agent = try Agent(display: display, arguments: ["--watch"])
        #expect(try agent.receive()["type"] as? String == "ready")
        let owner = try ClipboardTests.Server(["/usr/bin/python3", "\(Sandbox.repository)/Tests/Fixtures/qt-copy.py", "busy words", "--busy", "2"],
                                              environment: ["DISPLAY=\(display.name)", "QT_QPA_PLATFORM=xcb", "PATH=/usr/bin:/bin"])
        let changed = try agent.receive()
        #expect(changed["unanswered"] == nil, "\(changed)")
        #expect((changed["targets"] as? [[String: Any]])?.contains { $0["name"] as? String == "UTF8_STRING" && $0["size"] as? Int == 10 } == true, "\(changed)")
        _ = owner
    }

    @Test func anOwnerWhoseTransferNeverEndsIsGivenUpAfterTenSeconds() throws {
        let display = try ClipboardTests.Display()
        let agent = try Agent(display: display, arguments: ["--watch"])
        #expect(try agent.receive()["type"] as? String == "ready")
        // An owner that answers UTF8_STRING by INCR, a byte every 400 ms, never ending.
        let owner = try ClipboardTests.Server(["\(Sandbox.repository)/.build/bin/endless-incr", "30"], environment: ["DISPLAY=\(display.name)"])
        let changed = try agent.receive()
        // Given up for its 10 s for a whole read, by the agent's own clock: the target it
        // never finished is not offered.
        #expect(changed["type"] as? String == "changed" && (changed["targets"] as? [Any])?.isEmpty == true, "\(changed)")
        let gaveUp = try #require(agent.said.firstMatch(of: /gave up a read after (\d+) ms: the owner did not end it within 10 s/), "\(agent.said)")
        #expect((Int(gaveUp.1) ?? 0) >= 10_000, "\(agent.said)")
        // And the agent goes on: the next copy is read.
        let copy = try ClipboardTests.Server(["/usr/bin/xclip", "-quiet", "-selection", "clipboard", "-i", "/dev/null"], environment: ["DISPLAY=\(display.name)"])
        let next = try agent.receive()
        #expect(next["type"] as? String == "changed", "\(next)")
        _ = (owner, copy)
    }
}
