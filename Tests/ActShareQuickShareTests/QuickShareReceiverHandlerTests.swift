import ActShareCrypto
import NIOCore
import NIOEmbedded
import Testing

@testable import ActShareQuickShare

/// The receiving connection in a NIO pipeline (EmbeddedChannel, virtual time): the whole
/// exchange with a sender, keep-alives on the clock, the user's answer, and the pace rule.
@Suite struct QuickShareReceiverHandlerTests {
    /// What the handler told its owner.
    final class Recorder: QuickShareReceiverDelegate {
        var offers: [(QuickSharePeer, QuickShareOffer, String)] = []
        var answer: (@Sendable (Bool) -> Void)?
        var bytes: [Int64: [UInt8]] = [:]
        var texts: [Int64: [UInt8]] = [:]
        var finished = false
        var ended: [QuickShareSessionError?] = []

        func quickShare(_ peer: QuickSharePeer, offers offer: QuickShareOffer, pin: String, answer: @escaping @Sendable (Bool) -> Void) {
            offers.append((peer, offer, pin))
            self.answer = answer
        }

        func quickShare(file payloadID: Int64, offset: UInt64, bytes: [UInt8], last: Bool) throws {
            #expect(UInt64(self.bytes[payloadID, default: []].count) == offset)
            self.bytes[payloadID, default: []] += bytes
        }

        func quickShare(text payloadID: Int64, _ text: [UInt8]) throws { texts[payloadID] = text }
        func quickShareFinished() { finished = true }
        func quickShareEnded(_ error: QuickShareSessionError?) { ended.append(error) }
    }

    struct Harness {
        let channel: EmbeddedChannel
        let recorder = Recorder()
        var sender: QuickShareSender
        var senderEvents: [QuickShareSender.Event] = []

        init(files: [SharingFrame.FileOffer], texts: [QuickShareSender.Text] = []) throws {
            let recorder = self.recorder
            channel = EmbeddedChannel(handler: QuickShareReceiverHandler(keyPair: try P256KeyPair(), address: "192.0.2.7", delegate: recorder))
            try channel.connect(to: SocketAddress(ipAddress: "192.0.2.7", port: 1)).wait()
            sender = QuickShareSender(keyPair: try P256KeyPair(), endpointID: "PH01", info: QuickShareEndpointInfo(deviceType: .phone, name: "Pixel"),
                                      files: files, texts: texts)
            try send(sender.start())
        }

        /// Gives the handler the sender's frames, and the sender the handler's, until both are quiet.
        mutating func send(_ events: [QuickShareSender.Event]) throws {
            var pending = events
            for _ in 0..<1000 {
                for event in pending {
                    if case let .send(frame) = event { try channel.writeInbound(ByteBuffer(bytes: frame)) } else { senderEvents.append(event) }
                }
                pending = []
                channel.embeddedEventLoop.run()
                while let out = try channel.readOutbound(as: ByteBuffer.self) {
                    pending += try sender.receive(Array(out.readableBytesView))
                }
                if pending.isEmpty { return }
            }
        }
    }

    @Test func aShareIsAskedAcceptedAndReceived() throws {
        var harness = try Harness(files: [SharingFrame.FileOffer(name: Array("a.txt".utf8), mimeType: [], payloadID: 4, size: 3)],
                                  texts: [.init(kind: .text, text: Array("hello".utf8))])
        let (peer, offer, pin) = try #require(harness.recorder.offers.first)
        #expect(peer.name == "Pixel" && peer.address == "192.0.2.7" && offer.files.first?.mimeType == "application/octet-stream")
        #expect(harness.senderEvents.contains(.pin(pin)))
        // A keep-alive each 10 s while the user thinks, which the sender reads.
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        try harness.send([])
        harness.recorder.answer?(true)
        try harness.send([])
        #expect(harness.senderEvents.contains(.accepted))
        try harness.send([.send(try harness.sender.fileChunk(payloadID: 4, offset: 0, bytes: [1, 2, 3], last: true))]
                         + (try harness.sender.textPayloads()).map(QuickShareSender.Event.send)
                         + [.send(try harness.sender.disconnection())])
        #expect(harness.recorder.bytes[4] == [1, 2, 3] && harness.recorder.texts.values.first == Array("hello".utf8))
        #expect(harness.recorder.finished && harness.recorder.ended.isEmpty)
        // The receiver hangs up first, and the sender hears it did.
        #expect(!harness.channel.isActive && harness.senderEvents.last == .receiverLeft)
    }

    /// Nobody answers in a minute: declined, and the sender is told.
    @Test func anUnansweredShareIsDeclined() throws {
        var harness = try Harness(files: [SharingFrame.FileOffer(name: Array("a".utf8), mimeType: [], payloadID: 4, size: 3)])
        #expect(harness.recorder.offers.count == 1)
        harness.channel.embeddedEventLoop.advanceTime(by: .seconds(QuickShareReceiverHandler.answerSeconds))
        try harness.send([])
        #expect(harness.senderEvents.contains(.refused(.reject)))
        #expect(harness.recorder.ended == [nil] && !harness.channel.isActive)
        // A late answer changes nothing.
        harness.recorder.answer?(true)
        harness.channel.embeddedEventLoop.run()
        #expect(harness.recorder.ended == [nil])
    }

    /// A peer silent past the pace before the introduction is dropped; so is one that
    /// sends a frame the handshake does not allow.
    @Test func aSilentOrBrokenPeerIsDropped() throws {
        let recorder = Recorder()
        let channel = EmbeddedChannel(handler: QuickShareReceiverHandler(keyPair: try P256KeyPair(), address: "192.0.2.9", delegate: recorder))
        try channel.connect(to: SocketAddress(ipAddress: "192.0.2.9", port: 1)).wait()
        channel.embeddedEventLoop.advanceTime(by: .seconds(QuickShareReceiverHandler.silenceSeconds))
        #expect(recorder.ended == [.unexpectedFrame("a frame in time")] && !channel.isActive)

        let other = Recorder()
        let broken = EmbeddedChannel(handler: QuickShareReceiverHandler(keyPair: try P256KeyPair(), address: "192.0.2.9", delegate: other))
        try broken.connect(to: SocketAddress(ipAddress: "192.0.2.9", port: 1)).wait()
        try broken.writeInbound(ByteBuffer(bytes: [0xFF, 0x00]))
        broken.embeddedEventLoop.run()
        #expect(other.ended == [.unexpectedFrame("a connection request")] && !broken.isActive && other.offers.isEmpty)
    }
}
