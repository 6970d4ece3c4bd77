import ActShareCrypto

/// One outgoing Quick Share connection, from the sending side, as a state machine (see
/// ``QuickShareReceiver`` for the order): it opens with a connection request and UKEY2,
/// answers the paired-key exchange, introduces what it offers, and once the receiver
/// accepts, seals the payloads the caller reads from disk. It does no I/O itself.
public struct QuickShareSender: Sendable {
    public enum Event: Equatable, Sendable {
        /// A frame to send (the connection layer puts its length before it).
        case send([UInt8])
        /// The PIN both screens show, once the keys are agreed.
        case pin(String)
        /// The receiver accepted: send the payloads (``fileChunk``, ``textPayloads``).
        case accepted
        /// The receiver declined, or cannot take the share (why).
        case refused(SharingFrame.Response)
        /// After everything was sent, the receiver hung up: it has it all.
        case receiverLeft
    }

    /// A text to send, whole.
    public struct Text: Sendable {
        public var kind: SharingFrame.TextOffer.Kind
        public var text: [UInt8]

        public init(kind: SharingFrame.TextOffer.Kind, text: [UInt8]) {
            self.kind = kind
            self.text = text
        }
    }

    private enum Phase { case serverInit, connectionResponse, pairedKeyEncryption, pairedKeyResult, answer, sending, done, refused }

    private var phase = Phase.serverInit
    private var handshake: Ukey2Client
    private var channel: SecureChannel?
    private let endpointID: String
    private let info: QuickShareEndpointInfo
    private let files: [SharingFrame.FileOffer]
    private let texts: [(offer: SharingFrame.TextOffer, text: [UInt8])]
    private var keepAliveSequence: UInt32 = 0
    /// Files whose last chunk is not sealed yet, and whether the texts are.
    private var filesLeft: Set<Int64> = []
    private var textsSealed = false
    /// The QR code the receiver scanned, whose owner this side proves to be.
    private let qrCode: QuickShareQRCode?
    private var authString: [UInt8] = []

    /// A sender that connects as `endpointID` with `info`, offering `files` (their payload
    /// ids chosen by the caller) and `texts`; to a receiver that scanned `qrCode`, signing
    /// the handshake with its key.
    public init(keyPair: P256KeyPair, endpointID: String, info: QuickShareEndpointInfo, files: [SharingFrame.FileOffer], texts: [Text],
                qrCode: QuickShareQRCode? = nil) {
        handshake = Ukey2Client(keyPair: keyPair)
        self.qrCode = qrCode
        self.endpointID = endpointID
        self.info = info
        self.files = files
        var used = Set(files.map(\.payloadID))
        self.texts = texts.map { text in
            var id = Int64.random(in: 1...Int64.max)
            while !used.insert(id).inserted { id = Int64.random(in: 1...Int64.max) }
            // The title is the text's first words, as Android shows them.
            let title = Array(String(decoding: text.text.prefix(60), as: UTF8.self).utf8)
            return (SharingFrame.TextOffer(title: title, kind: text.kind, payloadID: id, size: Int64(text.text.count)), text.text)
        }
    }

    /// The first frames: the connection request and the UKEY2 ClientInit.
    public func start() -> [Event] {
        [.send(ConnectionFrame.connectionRequest(endpointID: endpointID, endpointInfo: info.encoded()).encoded()), .send(handshake.clientInit)]
    }

    /// What to do about `frame`, the next one the receiver sent (without its length).
    public mutating func receive(_ frame: [UInt8]) throws(QuickShareSessionError) -> [Event] {
        switch phase {
        case .serverInit:
            let (finished, keys): ([UInt8], QuickShareKeychain)
            do { (finished, keys) = try handshake.receiveServerInit(frame) } catch { throw .handshake(error) }
            channel = SecureChannel(keys: keys)
            authString = keys.authString
            phase = .connectionResponse
            // Our connection response goes at once, plain: the receiver may wait for it
            // before it sends its own (Android's does).
            return [.pin(keys.pin), .send(finished), .send(ConnectionFrame.connectionResponse(accepted: true).encoded())]
        case .connectionResponse:
            guard case let .connectionResponse(accepted)? = ConnectionFrame(decoding: frame) else {
                throw .unexpectedFrame("a connection response")
            }
            guard accepted else { throw .peerRefused }
            phase = .pairedKeyEncryption
            // Signing fails only short of memory; unsigned, the phone then declines.
            let signature = (try? qrCode?.handshakeData(authString: authString)) ?? nil
            return try sealSharing(.pairedKeyEncryption(secretIDHash: RandomBytes.make(6), signedData: RandomBytes.make(72), qrCodeHandshakeData: signature))
        case .pairedKeyEncryption, .pairedKeyResult, .answer, .sending, .done, .refused:
            return try receiveSecured(frame)
        }
    }

    /// A sealed chunk of file payload `payloadID` (`bytes` at `offset`).
    public mutating func fileChunk(payloadID: Int64, offset: Int64, bytes: [UInt8], last: Bool) throws(QuickShareSessionError) -> [UInt8] {
        guard phase == .sending, let file = files.first(where: { $0.payloadID == payloadID }) else { throw .unexpectedFrame("not accepted") }
        if last { filesLeft.remove(payloadID) }
        return try seal(.payloadTransfer(PayloadTransfer(id: payloadID, kind: .file, totalSize: file.size,
                                                         content: .chunk(offset: offset, body: bytes, last: last))))
    }

    /// Every text offered, as sealed payload frames.
    public mutating func textPayloads() throws(QuickShareSessionError) -> [[UInt8]] {
        guard phase == .sending else { throw .unexpectedFrame("not accepted") }
        textsSealed = true
        var frames: [[UInt8]] = []
        for (offer, text) in texts {
            frames.append(try seal(.payloadTransfer(PayloadTransfer(id: offer.payloadID, kind: .bytes, totalSize: offer.size,
                                                                    content: .chunk(offset: 0, body: text, last: false)))))
            frames.append(try seal(.payloadTransfer(PayloadTransfer(id: offer.payloadID, kind: .bytes, totalSize: offer.size,
                                                                    content: .chunk(offset: offer.size, body: [], last: true)))))
        }
        return frames
    }

    /// The frames that stop the share (the person here cancelled it): a CANCEL sharing
    /// frame, then a disconnection, as Android's sender sends them; the receiver then says
    /// the sender cancelled, and keeps nothing. None before frames are sealed.
    public mutating func cancellation() throws(QuickShareSessionError) -> [[UInt8]] {
        guard var channel, phase != .serverInit, phase != .connectionResponse, phase != .done else { return [] }
        let frames = try channel.sealSharing(.cancel)
        self.channel = channel
        return frames + [try disconnection()]
    }

    /// The last frame: a disconnection.
    public mutating func disconnection() throws(QuickShareSessionError) -> [UInt8] {
        phase = .done
        return try seal(.disconnection)
    }

    /// A keep-alive to send now, once both connection responses are through (frames are
    /// sealed from then on); nil before.
    public mutating func keepAlive() throws(QuickShareSessionError) -> [UInt8]? {
        guard channel != nil, phase != .serverInit, phase != .connectionResponse, phase != .done, phase != .refused else { return nil }
        keepAliveSequence &+= 1
        return try seal(.keepAlive(ack: false, sequence: keepAliveSequence))
    }

    // MARK: - Secured frames

    private mutating func receiveSecured(_ bytes: [UInt8]) throws(QuickShareSessionError) -> [Event] {
        guard var channel else { throw .unexpectedFrame("the handshake") }
        let frame = try channel.openFrame(bytes)
        self.channel = channel
        switch frame {
        case .keepAlive(ack: false, _):
            return [.send(try seal(.keepAlive(ack: true, sequence: 0)))]
        case .keepAlive(ack: true, _), .unsupported:
            return []
        case .disconnection:
            // After everything, the receiver hangs up; before, that is a refusal.
            if phase == .refused { return [] }
            // Everything sealed is everything sent: the receiver may hang up before our
            // own disconnection went.
            guard phase == .done || (phase == .sending && filesLeft.isEmpty && textsSealed) else { throw .peerRefused }
            phase = .done
            return [.receiverLeft]
        case let .payloadTransfer(transfer):
            // The receiver sends only negotiation frames: each whole in one chunk.
            guard transfer.kind == .bytes, case let .chunk(offset, body, last) = transfer.content else { throw .peerCancelled }
            if last && body.isEmpty { return [] }
            guard offset == 0, Int64(body.count) == transfer.totalSize, body.count <= QuickShareSession.maximumFrameBytes,
                  let sharing = SharingFrame(decoding: body)
            else { throw .badChunk(transfer.id) }
            return try receiveSharing(sharing)
        case .connectionRequest, .connectionResponse:
            throw .unexpectedFrame("a payload")
        }
    }

    private mutating func receiveSharing(_ frame: SharingFrame) throws(QuickShareSessionError) -> [Event] {
        switch (phase, frame) {
        case (_, .cancel):
            phase = .done
            throw .peerCancelled
        case (_, .unsupported):
            return []
        case (.pairedKeyEncryption, .pairedKeyEncryption):
            phase = .pairedKeyResult
            return try sealSharing(.pairedKeyResult)
        case (.pairedKeyResult, .pairedKeyResult):
            phase = .answer
            return try sealSharing(.introduction(files: files, texts: texts.map(\.offer)))
        case let (.answer, .response(status)):
            guard status == .accept else {
                phase = .refused
                return [.refused(status)]
            }
            phase = .sending
            filesLeft = Set(files.map(\.payloadID))
            textsSealed = texts.isEmpty
            return [.accepted]
        default:
            throw .unexpectedFrame("another sharing frame")
        }
    }

    // MARK: - Sending

    /// Internal, not private: tests forge frames with a real sender's keys through it.
    mutating func seal(_ frame: ConnectionFrame) throws(QuickShareSessionError) -> [UInt8] {
        guard var channel else { throw .unexpectedFrame("the handshake") }
        defer { self.channel = channel }
        return try channel.seal(frame)
    }

    private mutating func sealSharing(_ frame: SharingFrame) throws(QuickShareSessionError) -> [Event] {
        guard var channel else { throw .unexpectedFrame("the handshake") }
        defer { self.channel = channel }
        return try channel.sealSharing(frame).map(Event.send)
    }
}
