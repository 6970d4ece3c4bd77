import ActShareCrypto
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import ActShareQuickShare

/// The receiving and sending connections over real TCP on loopback against a stand-in
/// phone that is not ours: Tests/Fixtures/quickshare-phone.py, on pyquickshare's protocol
/// buffers and key derivation (scripts/install-deps puts it in .build-venv).
@Suite(.serialized) struct StandInPhoneTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let python = "\(repository)/.build-venv/bin/python"
    static let phone = "\(repository)/Tests/Fixtures/quickshare-phone.py"

    /// The phone, run with `arguments`: its events as they come, and its exit status.
    final class Phone: Sendable {
        private let process = Process()
        private let lines = Mutex<[[String: Any]]>([])
        private let output = Pipe()

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: StandInPhoneTests.python)
            process.arguments = [StandInPhoneTests.phone] + arguments
            process.standardOutput = output
            process.standardError = FileHandle.standardError
            try process.run()
        }

        /// Every event, once the phone has ended.
        func finish() -> (status: Int32, events: [[String: Any]]) {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let events = data.split(separator: 10).compactMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
            return (process.terminationStatus, events)
        }

        /// The first line (the phone says where it listens), read as it comes.
        func firstEvent() -> [String: Any]? {
            var line = Data()
            while !line.contains(10) {
                let part = output.fileHandleForReading.availableData
                if part.isEmpty { break }
                line += part
            }
            return line.split(separator: 10).first.flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
        }
    }

    /// A receiver's owner that answers `accept` and keeps what comes.
    final class Keeper: QuickShareReceiverDelegate, @unchecked Sendable {
        let accept: Bool
        let done: EventLoopPromise<QuickShareSessionError?>
        var offer: QuickShareOffer?
        var pin: String?
        var files: [Int64: [UInt8]] = [:]
        var texts: [[UInt8]] = []

        init(accept: Bool, done: EventLoopPromise<QuickShareSessionError?>) {
            self.accept = accept
            self.done = done
        }

        func quickShare(_ peer: QuickSharePeer, offers offer: QuickShareOffer, pin: String, answer: @escaping @Sendable (Bool) -> Void) {
            self.offer = offer
            self.pin = pin
            answer(accept)
        }

        func quickShare(file payloadID: Int64, offset: UInt64, bytes: [UInt8], last: Bool) throws { files[payloadID, default: []] += bytes }
        func quickShare(text payloadID: Int64, _ text: [UInt8]) throws { texts.append(text) }
        func quickShareFinished() { done.succeed(nil) }
        func quickShareEnded(_ error: QuickShareSessionError?) { done.succeed(error) }
    }

    /// A sender's owner that reads from memory.
    final class Source: QuickShareSenderDelegate, @unchecked Sendable {
        let data: [Int64: [UInt8]]
        let done: EventLoopPromise<(QuickShareSessionError?, SharingFrame.Response?)>
        var pin: String?

        init(_ data: [Int64: [UInt8]], done: EventLoopPromise<(QuickShareSessionError?, SharingFrame.Response?)>) {
            self.data = data
            self.done = done
        }

        func quickShare(pin: String) { self.pin = pin }
        func quickShareAccepted() {}
        func quickShare(read payloadID: Int64, offset: Int64, limit: Int) throws -> [UInt8] {
            let bytes = data[payloadID] ?? []
            return Array(bytes[Int(offset)..<min(Int(offset) + limit, bytes.count)])
        }
        func quickShare(sent payloadID: Int64, bytes: Int64) {}
        func quickShareEnded(_ error: QuickShareSessionError?, response: SharingFrame.Response?) { done.succeed((error, response)) }
    }

    static let group = MultiThreadedEventLoopGroup.singleton

    /// A listener on loopback (a port from the kernel) whose one connection `keeper` owns.
    static func listen(_ keeper: Keeper) throws -> Channel {
        let key = try P256KeyPair()
        return try ServerBootstrap(group: group).childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(QuickShareFrameDecoder()))
                try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(QuickShareFrameEncoder()))
                try channel.pipeline.syncOperations.addHandler(QuickShareReceiverHandler(keyPair: key, address: "127.0.0.1", delegate: keeper))
            }
        }.bind(host: "127.0.0.1", port: 0).wait()
    }

    static func received(_ events: [[String: Any]]) -> [[String: Any]] { events.filter { $0["event"] as? String == "received" } }

    static func sha256(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    @Test func thePhoneSendsFilesThatArriveWhole() throws {
        let folder = NSTemporaryDirectory() + "quickshare-phone-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let big = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try Data(big).write(to: URL(fileURLWithPath: "\(folder)/photo.jpg"))
        try Data().write(to: URL(fileURLWithPath: "\(folder)/empty"))
        let keeper = Keeper(accept: true, done: Self.group.next().makePromise())
        let server = try Self.listen(keeper)
        let phone = try Phone(["send", "--to", "127.0.0.1:\(server.localAddress!.port!)", "\(folder)/photo.jpg", "\(folder)/empty"])
        let (status, events) = phone.finish()
        #expect(try keeper.done.futureResult.wait() == nil)
        #expect(status == 0, "\(events)")
        let offer = try #require(keeper.offer)
        #expect(offer.files.map(\.name) == ["photo.jpg", "empty"] && offer.files.map(\.size) == [3_000_000, 0])
        #expect(keeper.files[offer.files[0].payloadID] == big && (keeper.files[offer.files[1].payloadID] ?? []).isEmpty)
        // Both screens show one PIN: the phone's is the one derived here.
        #expect(keeper.pin != nil && events.contains { $0["event"] as? String == "pin" && $0["pin"] as? String == keeper.pin }, "\(events)")
        try server.close().wait()
    }

    @Test func thePhoneSendsALinkAndADeclineIsHeard() throws {
        let keeper = Keeper(accept: true, done: Self.group.next().makePromise())
        let server = try Self.listen(keeper)
        let phone = try Phone(["send", "--to", "127.0.0.1:\(server.localAddress!.port!)", "--text", "https://example.org/ä?x=1"])
        #expect(phone.finish().status == 0)
        #expect(try keeper.done.futureResult.wait() == nil)
        #expect(keeper.texts == [Array("https://example.org/ä?x=1".utf8)] && keeper.offer?.texts.first?.kind == .url)
        try server.close().wait()

        let declining = Keeper(accept: false, done: Self.group.next().makePromise())
        let other = try Self.listen(declining)
        let declined = try Phone(["send", "--to", "127.0.0.1:\(other.localAddress!.port!)", "--text", "hello"])
        #expect(declined.finish().status == 2)
        #expect(try declining.done.futureResult.wait() == nil && declining.texts.isEmpty)
        try other.close().wait()
    }

    /// A chunk frame sent twice (a replay on the path) ends the connection at once.
    @Test func aReplayedFrameFromThePhoneIsDropped() throws {
        let folder = NSTemporaryDirectory() + "quickshare-phone-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0) }).write(to: URL(fileURLWithPath: "\(folder)/a.bin"))
        let keeper = Keeper(accept: true, done: Self.group.next().makePromise())
        let server = try Self.listen(keeper)
        let phone = try Phone(["send", "--to", "127.0.0.1:\(server.localAddress!.port!)", "--replay", "\(folder)/a.bin"])
        let error = try keeper.done.futureResult.wait()
        guard case .secureChannel(.badSequenceNumber)? = error else {
            Issue.record("not refused by its sequence number: \(String(describing: error))")
            return
        }
        #expect(phone.finish().status == 1)
        try server.close().wait()
    }

    /// actshare sends a 5 MB file, an empty one, then a link, to the phone; and is told
    /// when it declines.
    @Test(arguments: [true, false])
    func filesAndALinkGoToThePhone(_ accepting: Bool) throws {
        let folder = NSTemporaryDirectory() + "quickshare-phone-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let big = (0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let files = [SharingFrame.FileOffer(name: Array("big.bin".utf8), mimeType: Array("application/octet-stream".utf8), payloadID: 11, size: Int64(big.count)),
                     SharingFrame.FileOffer(name: Array("empty.txt".utf8), mimeType: Array("text/plain".utf8), payloadID: 12, size: 0)]
        for (offered, texts) in [(files, [QuickShareSender.Text]()), ([], [QuickShareSender.Text(kind: .url, text: Array("https://example.org/".utf8))])] {
            let phone = try Phone(["receive", "--dir", folder, accepting ? "--accept" : "--decline"])
            let port = try #require(phone.firstEvent()?["port"] as? Int)
            let source = Source([11: big, 12: []], done: Self.group.next().makePromise())
            let sender = QuickShareSender(keyPair: try P256KeyPair(), endpointID: "AS01", info: QuickShareEndpointInfo(deviceType: .laptop, name: "actshare"),
                                          files: offered, texts: texts)
            _ = try ClientBootstrap(group: Self.group).channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(QuickShareFrameDecoder()))
                    try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(QuickShareFrameEncoder()))
                    try channel.pipeline.syncOperations.addHandler(QuickShareSenderHandler(sender: sender, files: offered, delegate: source))
                }
            }.connect(host: "127.0.0.1", port: port).wait()
            let (error, response) = try source.done.futureResult.wait()
            let (status, events) = phone.finish()
            #expect(status == 0, "\(events)")
            #expect(source.pin != nil && events.contains { $0["event"] as? String == "pin" && $0["pin"] as? String == source.pin }, "\(events)")
            if accepting {
                #expect(error == nil && response == nil, "\(String(describing: error)) \(events)")
                let received = Self.received(events)
                if offered.isEmpty {
                    #expect(received.map { $0["text"] as? String } == ["https://example.org/"])
                } else {
                    #expect(received.map { $0["sha256"] as? String } == [Self.sha256(big), Self.sha256([])])
                    #expect(received.map { $0["name"] as? String } == ["big.bin", "empty.txt"])
                }
            } else {
                #expect(error == .peerRefused && response == .reject)
            }
        }
    }
}
