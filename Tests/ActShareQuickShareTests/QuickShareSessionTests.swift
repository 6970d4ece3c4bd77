import ActShareCrypto
import Testing

@testable import ActShareQuickShare

/// A sender and a receiver talking in memory, frame by frame: a share from the first
/// frame to the last, a refusal, and a sender that lies at each step it could.
@Suite struct QuickShareSessionTests {
    /// Both sides, and what each said besides frames.
    struct Link {
        var sender: QuickShareSender
        var receiver = QuickShareReceiver(keyPair: try! P256KeyPair())
        var toReceiver: [[UInt8]] = []
        var toSender: [[UInt8]] = []
        var heard: [QuickShareReceiver.Event] = []
        var told: [QuickShareSender.Event] = []

        init(files: [SharingFrame.FileOffer] = [], texts: [QuickShareSender.Text] = []) throws {
            sender = QuickShareSender(keyPair: try P256KeyPair(), endpointID: "PH01",
                                      info: QuickShareEndpointInfo(deviceType: .phone, name: "Pixel"), files: files, texts: texts)
            take(sender.start())
        }

        mutating func take(_ events: [QuickShareSender.Event]) {
            for event in events {
                if case let .send(frame) = event { toReceiver.append(frame) } else { told.append(event) }
            }
        }

        mutating func hear(_ events: [QuickShareReceiver.Event]) {
            for event in events {
                if case let .send(frame) = event { toSender.append(frame) } else { heard.append(event) }
            }
        }

        /// Delivers every frame waiting, both ways, until none is left (bounded).
        mutating func pump() throws(QuickShareSessionError) {
            for _ in 0..<1000 where !toReceiver.isEmpty || !toSender.isEmpty {
                if !toReceiver.isEmpty { hear(try receiver.receive(toReceiver.removeFirst())) }
                if !toSender.isEmpty { take(try sender.receive(toSender.removeFirst())) }
            }
        }

        /// The offer the receiver was shown.
        var offer: QuickShareOffer? {
            heard.lazy.compactMap { if case let .introduction(offer) = $0 { offer } else { nil } }.first
        }
    }

    static func file(_ name: String, _ size: Int64, id: Int64) -> SharingFrame.FileOffer {
        SharingFrame.FileOffer(name: Array(name.utf8), mimeType: Array("text/plain".utf8), payloadID: id, size: size)
    }

    @Test func aShareOfFilesAndATextArrivesWhole() throws {
        let text = Array("https://example.org/ünïcode".utf8)
        var link = try Link(files: [Self.file("a.txt", 5, id: 10), Self.file("empty", 0, id: 11)], texts: [.init(kind: .url, text: text)])
        try link.pump()
        let offer = try #require(link.offer)
        #expect(offer.files.map(\.name) == ["a.txt", "empty"] && offer.files.map(\.size) == [5, 0])
        #expect(offer.texts.map(\.kind) == [.url] && offer.texts.first?.title == "https://example.org/ünïcode")
        // The PIN is the same on both screens.
        let pins = link.heard.compactMap { if case let .pin(pin) = $0 { pin } else { nil } }
        #expect(pins.count == 1 && link.told.contains(.pin(pins[0])))
        let peers = link.heard.compactMap { if case let .peer(id, info) = $0 { (id, info.name, info.deviceType) } else { nil } }
        #expect(peers.count == 1 && peers.first?.0 == "PH01" && peers.first?.1 == "Pixel" && peers.first?.2 == .phone)
        link.hear(try link.receiver.answer(accept: true))
        try link.pump()
        #expect(link.told.contains(.accepted))
        link.toReceiver.append(try link.sender.fileChunk(payloadID: 10, offset: 0, bytes: [1, 2], last: false))
        link.toReceiver.append(try link.sender.fileChunk(payloadID: 10, offset: 2, bytes: [3, 4, 5], last: true))
        link.toReceiver += try link.sender.textPayloads()
        try link.pump()
        #expect(link.heard.contains(.fileData(payloadID: 11, offset: 0, bytes: [], last: true)))
        #expect(link.heard.contains(.fileData(payloadID: 10, offset: 2, bytes: [3, 4, 5], last: true)))
        #expect(link.heard.contains(.text(payloadID: offer.texts[0].payloadID, text: text)))
        #expect(link.heard.last == .finished && link.receiver.isFinished)
        link.toReceiver.append(try link.sender.disconnection())
        try link.pump()
    }

    /// Android's way: the bytes in chunks not flagged last, then an empty chunk flagged
    /// last. The file is whole, and said so, once; nothing after that may carry bytes.
    @Test func aFileWholeBeforeItsEmptyLastChunkIsWholeOnce() throws {
        var link = try Link(files: [Self.file("a.txt", 4, id: 7), Self.file("b.txt", 1, id: 8)])
        try link.pump()
        link.hear(try link.receiver.answer(accept: true))
        try link.pump()
        link.toReceiver += [
            try link.sender.fileChunk(payloadID: 7, offset: 0, bytes: [1, 2], last: false),
            try link.sender.fileChunk(payloadID: 7, offset: 2, bytes: [3, 4], last: false),
            try link.sender.fileChunk(payloadID: 7, offset: 4, bytes: [], last: true),
        ]
        try link.pump()
        let lasts = link.heard.filter { if case .fileData(7, _, _, true) = $0 { true } else { false } }
        #expect(lasts == [.fileData(payloadID: 7, offset: 2, bytes: [3, 4], last: true)])
        link.toReceiver.append(try link.sender.fileChunk(payloadID: 7, offset: 4, bytes: [9], last: true))
        #expect(throws: QuickShareSessionError.badChunk(7)) { try link.pump() }
    }

    /// Stopped here once under way: the sender hears a cancel.
    @Test func aShareStoppedHereIsCancelledForTheSender() throws {
        var link = try Link(files: [Self.file("a.txt", 5, id: 7)])
        try link.pump()
        link.hear(try link.receiver.answer(accept: true))
        try link.pump()
        link.hear(try link.receiver.cancel())
        #expect(throws: QuickShareSessionError.peerCancelled) { try link.pump() }
    }

    @Test func aDeclinedShareTellsTheSender() throws {
        var link = try Link(files: [Self.file("a.txt", 5, id: 1)])
        try link.pump()
        link.hear(try link.receiver.answer(accept: false))
        try link.pump()
        #expect(link.told.last == .refused(.reject))
        #expect(link.receiver.isFinished)
        #expect(throws: QuickShareSessionError.self) { _ = try link.sender.fileChunk(payloadID: 1, offset: 0, bytes: [1], last: false) }
    }

    /// Chunks that lie about where they are or how much there is.
    @Test(arguments: [
        (0, 6, false),  // past the declared size
        (1, 2, false),  // not where the file stands
        (0, 2, true),  // the last, yet short
    ])
    func aChunkThatLiesEndsTheConnection(_ offset: Int64, _ count: Int, _ last: Bool) throws {
        var link = try Link(files: [Self.file("a.txt", 5, id: 7)])
        try link.pump()
        link.hear(try link.receiver.answer(accept: true))
        try link.pump()
        link.toReceiver.append(try link.sender.fileChunk(payloadID: 7, offset: offset, bytes: [UInt8](repeating: 1, count: count), last: last))
        #expect(throws: QuickShareSessionError.badChunk(7)) { try link.pump() }
    }

    /// A chunk sent twice (replayed by someone on the path) is refused by its sequence
    /// number; a chunk of a payload never offered by its id.
    @Test func aReplayedOrUnofferedChunkIsRefused() throws {
        var link = try Link(files: [Self.file("a.txt", 5, id: 7)])
        try link.pump()
        link.hear(try link.receiver.answer(accept: true))
        try link.pump()
        link.toReceiver.append(try link.sender.fileChunk(payloadID: 7, offset: 0, bytes: [1], last: false))
        try link.pump()
        let replay = try link.sender.fileChunk(payloadID: 7, offset: 1, bytes: [2], last: false)
        link.toReceiver += [replay, replay]
        let error = #expect(throws: QuickShareSessionError.self) { try link.pump() }
        guard case let .secureChannel(.badSequenceNumber(expected, received))? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(expected == received + 1)

        var other = try Link(files: [Self.file("a.txt", 5, id: 7)])
        try other.pump()
        other.hear(try other.receiver.answer(accept: true))
        try other.pump()
        // A frame the sender's own rules would never make, sealed with its keys.
        let stray = PayloadTransfer(id: 99, kind: .file, totalSize: 1, content: .chunk(offset: 0, body: [1], last: true))
        other.toReceiver.append(try other.sender.seal(.payloadTransfer(stray)))
        #expect(throws: QuickShareSessionError.badChunk(99)) { try other.pump() }
    }

    @Test(arguments: [
        ([String](repeating: "x", count: 1001), "1001 items"),
        (["a\u{0}b"], "UTF-8 text"),
        ([""], "UTF-8 text"),
    ])
    func anIntroductionOutOfBoundsIsRefused(_ names: [String], _ why: String) throws {
        var link = try Link(files: names.enumerated().map { Self.file($1, 1, id: Int64($0 + 1)) })
        let refusal: QuickShareSessionError?
        do {
            try link.pump()
            refusal = nil
        } catch {
            refusal = error
        }
        guard case let .badIntroduction(reason)? = refusal else {
            Issue.record("not refused as an introduction: \(String(describing: refusal))")
            return
        }
        #expect(reason.contains(why), "\(reason)")
        #expect(link.offer == nil)
    }

    @Test func twoFilesUnderOnePayloadIDAreRefused() throws {
        var link = try Link(files: [Self.file("a", 1, id: 3), Self.file("b", 1, id: 3)])
        #expect(throws: QuickShareSessionError.badIntroduction("payload 3 is offered twice")) { try link.pump() }
    }

    /// Frames out of order: a second connection request, a share before the handshake.
    @Test func framesOutOfOrderAreRefused() throws {
        var receiver = QuickShareReceiver(keyPair: try P256KeyPair())
        #expect(throws: QuickShareSessionError.unexpectedFrame("a connection request")) {
            _ = try receiver.receive(ConnectionFrame.disconnection.encoded())
        }
        var link = try Link(files: [Self.file("a", 1, id: 3)])
        let request = link.toReceiver[0]
        link.toReceiver.insert(request, at: 1)
        #expect(throws: QuickShareSessionError.handshake(.unexpectedMessage)) { try link.pump() }
        // A peer that hangs up before the share is whole has refused it.
        var early = try Link(files: [Self.file("a", 1, id: 3)])
        try early.pump()
        early.toReceiver.append(try early.sender.disconnection())
        #expect(throws: QuickShareSessionError.peerRefused) { try early.pump() }
    }
}
