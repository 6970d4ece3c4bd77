import Foundation
import NIOCore
import NIOEmbedded
import TestSupport
import Testing

@testable import ActShareDaemon

/// The frames between the daemon and its clipboard agent, against the golden frames
/// written from their specification (Sources/actshare-clipboard-agent/agent_protocol.h;
/// Tests/Fixtures/AgentFrames/make-golden.py): the daemon's decoder and messages read each
/// as specified however the stream is cut, the agent's C reads them the same, and the
/// frames the daemon sends are the golden ones byte for byte.
@Suite struct AgentFrameGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/AgentFrames")

    static func golden() throws -> (frames: [[UInt8]], readings: [String]) { try GoldenFrames.read(from: directory) }

    /// A message's canonical reading (make-golden.py): the type, the other keys sorted.
    static func reading(_ message: AgentMessage, data: ByteBuffer) -> String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var members: [(String, String)] = []
        func add(_ key: String, _ value: String?) { if let value { members.append((key, value)) } }
        add("display", message.display.map(quoted))
        add("offer", message.offer.map(quoted))
        add("hash", message.hash.map(quoted))
        add("target", message.target.map(quoted))
        add("ok", message.ok.map { "\($0)" })
        add("more", message.more.map { "\($0)" })
        add("push", message.push.map { "\($0)" })
        add("secret", message.secret.map { "\($0)" })
        add("too-large", message.tooLarge.map { "\($0)" })
        add("total", message.total.map { "\($0)" })
        add("unanswered", message.unanswered.map { "\($0)" })
        add("hint-unread", message.hintUnread.map { "\($0)" })
        add("targets", message.targets.map { targets in
            "[" + targets.map { target in
                var fields = [("name", quoted(target.name)), ("size", "\(target.size)")]
                if let hash = target.hash { fields.append(("hash", quoted(hash))) }
                if let anySize = target.anySize { fields.append(("any-size", "\(anySize)")) }
                return "{" + fields.sorted { $0.0 < $1.0 }.map { "\($0)=\($1)" }.joined(separator: " ") + "}"
            }.joined(separator: " ") + "]"
        })
        let bytes = Array(data.readableBytesView)
        let hex = bytes.isEmpty ? "-" : bytes.map { String(format: "%02x", $0) }.joined()
        return ([message.type] + members.sorted { $0.0 < $1.0 }.map { "\($0)=\($1)" } + ["data=\(hex)"]).joined(separator: " ")
    }

    @Test(arguments: [1, 7, 4096])
    func theDaemonReadsEachGoldenFrameAsSpecified(cutEvery size: Int) throws {
        let (frames, readings) = try Self.golden()
        let stream = frames.flatMap { $0 }
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(AgentFrameDecoder(dataLimit: 1 << 20)))
        for start in stride(from: 0, to: stream.count, by: size) {
            try channel.writeInbound(ByteBuffer(bytes: stream[start..<min(start + size, stream.count)]))
        }
        var read: [String] = []
        while let (header, data) = try channel.readInbound(as: AgentFrameDecoder.InboundOut.self) {
            read.append(Self.reading(try Wire.decode(AgentMessage.self, from: header), data: data))
        }
        _ = try channel.finish()
        #expect(read == readings)
    }

    /// The agent's C (its channel.c, in actshare-agent-frame-dump built by meson) gives the
    /// same readings.
    @Test func theAgentReadsThemTheSame() throws {
        let (frames, readings) = try Self.golden()
        let dump = Self.directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/bin/actshare-agent-frame-dump")
        #expect(try GoldenFrames.readings(by: dump, of: frames) == readings)
    }

    /// What the daemon sends (read, own, release, data) is the golden frames, byte for byte.
    @Test func theDaemonsFramesAreTheGoldenOnes() throws {
        let (frames, _) = try Self.golden()
        let d = String(repeating: "d", count: 64), e = String(repeating: "e", count: 64)
        let sent: [AgentFrame] = [
            AgentFrame(AgentMessage("read")),
            AgentFrame(AgentMessage("own", offer: "7f3a", targets: [
                .init(name: "text/uri-list", size: 0, hash: d, anySize: true), .init(name: "UTF8_STRING", size: 5, hash: e),
            ])),
            AgentFrame(AgentMessage("release", offer: "7f3a")),
            AgentFrame(AgentMessage("data", offer: "7f3a", hash: e, more: true), data: ByteBuffer(string: "hel")),
            AgentFrame(AgentMessage("data", offer: "7f3a", hash: e, ok: true)),
            AgentFrame(AgentMessage("data", offer: "7f3a", hash: e, ok: false)),
        ]
        var bytes = try sent.map { frame in try frame.wire().flatMap { Array($0.readableBytesView) } }
        // A piece sent after the frame's own data, as a fetched target's next bytes are.
        bytes[3] = try sent[3].wire(more: [ByteBuffer(string: "lo")]).flatMap { Array($0.readableBytesView) }
        #expect(bytes == Array(frames.suffix(6)))
    }
}
