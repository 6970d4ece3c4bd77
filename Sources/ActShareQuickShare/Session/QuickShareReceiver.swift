import ActShareCrypto

/// One incoming Quick Share connection, from the receiving side, as a state machine: it
/// is given each frame the peer sends (``receive(_:)``) and the user's answer
/// (``answer(accept:)``), and says what to do — frames to send, what to show, bytes to
/// write. It does no I/O itself, so every step and every refusal is tested without a
/// network.
///
/// The order it holds the peer to (NearDrop's PROTOCOL.md, from the receiver's side):
/// connection request; UKEY2 ClientInit → ServerInit; ClientFinished; then plain
/// connection responses both ways; then, secured, paired-key encryption and result both
/// ways; an introduction; the user's answer; the payloads offered, each in order, to
/// their declared size; a disconnection. Keep-alives may come at any secured step.
public struct QuickShareReceiver: Sendable {
    public enum Event: Equatable, Sendable {
        /// A frame to send (the connection layer puts its length before it).
        case send([UInt8])
        /// Who connected, from its connection request.
        case peer(endpointID: String, info: QuickShareEndpointInfo)
        /// The PIN both screens show, once the keys are agreed.
        case pin(String)
        /// What the peer offers: ask the user, then call ``answer(accept:)``.
        case introduction(QuickShareOffer)
        /// Bytes of file payload `payloadID` at `offset`; `last` once the file is whole.
        case fileData(payloadID: Int64, offset: UInt64, bytes: [UInt8], last: Bool)
        /// A text offered, whole.
        case text(payloadID: Int64, text: [UInt8])
        /// Every item offered is whole.
        case finished
        /// After the share, the sender hung up: the connection can close.
        case senderLeft
    }

    private enum Phase {
        case connectionRequest, clientInit, clientFinished, connectionResponse, pairedKeyEncryption, pairedKeyResult
        case introduction, answering, receiving, done
    }

    private var phase = Phase.connectionRequest
    private var handshake: Ukey2Server
    private var channel: SecureChannel?
    private var offer: QuickShareOffer?
    /// Bytes payloads being assembled (negotiation frames, texts), by id.
    private var assembling: [Int64: [UInt8]] = [:]
    /// Each file offered: its size and how much of it has come.
    private var files: [Int64: (size: UInt64, received: UInt64)] = [:]
    private var textsLeft: Set<Int64> = []
    private var keepAliveSequence: UInt32 = 0

    public init(keyPair: P256KeyPair) {
        handshake = Ukey2Server(keyPair: keyPair)
    }

    /// Whether the share ended whole (then a disconnection or the socket's end is fine).
    public var isFinished: Bool { phase == .done }

    /// What to do about `frame`, the next one the peer sent (without its length).
    public mutating func receive(_ frame: [UInt8]) throws(QuickShareSessionError) -> [Event] {
        switch phase {
        case .connectionRequest:
            guard case let .connectionRequest(endpointID, info)? = ConnectionFrame(decoding: frame) else {
                throw .unexpectedFrame("a connection request")
            }
            guard endpointID.utf8.count == 4, endpointID.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw .badEndpoint(.malformedServiceName)
            }
            let decoded: QuickShareEndpointInfo
            do { decoded = try QuickShareEndpointInfo(decoding: info) } catch { throw .badEndpoint(error) }
            phase = .clientInit
            return [.peer(endpointID: endpointID, info: decoded)]
        case .clientInit:
            do {
                let reply = try handshake.receiveClientInit(frame)
                phase = .clientFinished
                return [.send(reply)]
            } catch {
                throw .handshake(error)
            }
        case .clientFinished:
            let keys: QuickShareKeychain
            do { keys = try handshake.receiveClientFinished(frame) } catch { throw .handshake(error) }
            channel = SecureChannel(keys: keys)
            phase = .connectionResponse
            // Our own response is plain, like the peer's that comes next.
            return [.pin(keys.pin), .send(ConnectionFrame.connectionResponse(accepted: true).encoded())]
        case .connectionResponse:
            guard case let .connectionResponse(accepted)? = ConnectionFrame(decoding: frame) else {
                throw .unexpectedFrame("a connection response")
            }
            guard accepted else { throw .peerRefused }
            phase = .pairedKeyEncryption
            return try sealSharing(.pairedKeyEncryption(secretIDHash: RandomBytes.make(6), signedData: RandomBytes.make(72)))
        case .pairedKeyEncryption, .pairedKeyResult, .introduction, .answering, .receiving, .done:
            return try receiveSecured(frame)
        }
    }

    /// The user's answer to the introduction: a response to send, and, declined, the end.
    public mutating func answer(accept: Bool) throws(QuickShareSessionError) -> [Event] {
        guard phase == .answering, let offer else { throw .unexpectedFrame("no introduction waits for an answer") }
        var events = try sealSharing(.response(accept ? .accept : .reject))
        if accept {
            files = Dictionary(uniqueKeysWithValues: offer.files.map { ($0.payloadID, (size: $0.size, received: UInt64(0))) })
            textsLeft = Set(offer.texts.map(\.payloadID))
            phase = .receiving
            // Empty files are whole already.
            for file in offer.files where file.size == 0 {
                events.append(.fileData(payloadID: file.payloadID, offset: 0, bytes: [], last: true))
            }
            events += finishedIfWhole()
        } else {
            events.append(.send(try seal(.disconnection)))
            phase = .done
        }
        return events
    }

    /// A keep-alive to send now (every ``QuickShareSession/keepAliveSeconds``), once both
    /// connection responses are through (frames are sealed from then on); nil before.
    public mutating func keepAlive() throws(QuickShareSessionError) -> [UInt8]? {
        guard channel != nil, phase != .connectionResponse, phase != .done else { return nil }
        keepAliveSequence &+= 1
        return try seal(.keepAlive(ack: false, sequence: keepAliveSequence))
    }

    /// The frames that tell the sender this side stopped the share (a sharing CANCEL);
    /// nothing more is taken.
    public mutating func cancel() throws(QuickShareSessionError) -> [Event] {
        let events = try sealSharing(.cancel)
        phase = .done
        return events
    }

    /// The disconnection to send once the share is whole: the receiver hangs up first.
    public mutating func disconnection() throws(QuickShareSessionError) -> [UInt8] {
        try seal(.disconnection)
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
            guard phase == .done else { throw .peerRefused }
            return [.senderLeft]
        case let .payloadTransfer(transfer):
            return try receivePayload(transfer)
        case .connectionRequest, .connectionResponse:
            throw .unexpectedFrame("a payload")
        }
    }

    private mutating func receivePayload(_ transfer: PayloadTransfer) throws(QuickShareSessionError) -> [Event] {
        guard case let .chunk(offset, body, last) = transfer.content else {
            // The sender cancelled a payload: the share cannot be whole.
            throw .peerCancelled
        }
        if transfer.kind == .file {
            // Once all is here (done), only the empty last chunks of whole files may follow.
            guard phase == .receiving || phase == .done, let file = files[transfer.id] else { throw .badChunk(transfer.id) }
            guard offset >= 0, UInt64(offset) == file.received, transfer.totalSize >= 0, UInt64(transfer.totalSize) == file.size else {
                throw .badChunk(transfer.id)
            }
            // A file is whole once its bytes are all here: Android then sends an empty
            // chunk flagged last (nothing more is said of it), others flag the last bytes.
            if file.received == file.size {
                guard body.isEmpty else { throw .badChunk(transfer.id) }
                return []
            }
            let end = file.received + UInt64(body.count)
            guard end <= file.size, !last || end == file.size else { throw .badChunk(transfer.id) }
            files[transfer.id]?.received = end
            return [.fileData(payloadID: transfer.id, offset: file.received, bytes: body, last: end == file.size)] + finishedIfWhole()
        }
        // A BYTES payload: a negotiation frame, or a text offered.
        let isText = phase == .receiving && textsLeft.contains(transfer.id)
        let limit = isText ? QuickShareSession.maximumTextBytes : QuickShareSession.maximumFrameBytes
        guard transfer.totalSize >= 0, transfer.totalSize <= limit else { throw .payloadTooLarge(transfer.totalSize) }
        var bytes = assembling[transfer.id] ?? []
        guard assembling[transfer.id] != nil || assembling.count < QuickShareSession.maximumPayloadsInFlight else {
            throw .payloadTooLarge(transfer.totalSize)
        }
        guard offset == Int64(bytes.count), bytes.count + body.count <= Int(transfer.totalSize),
              !last || bytes.count + body.count == Int(transfer.totalSize)
        else { throw .badChunk(transfer.id) }
        bytes += body
        guard last else {
            assembling[transfer.id] = bytes
            return []
        }
        assembling[transfer.id] = nil
        if isText {
            textsLeft.remove(transfer.id)
            return [.text(payloadID: transfer.id, text: bytes)] + finishedIfWhole()
        }
        guard let sharing = SharingFrame(decoding: bytes) else { throw .badFrame }
        return try receiveSharing(sharing)
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
            phase = .introduction
            return []
        case let (.introduction, .introduction(files, texts)):
            let offer = try QuickShareOffer(files: files, texts: texts)
            self.offer = offer
            phase = .answering
            return [.introduction(offer)]
        default:
            throw .unexpectedFrame("another sharing frame")
        }
    }

    private mutating func finishedIfWhole() -> [Event] {
        guard phase == .receiving, textsLeft.isEmpty, files.values.allSatisfy({ $0.received == $0.size }) else { return [] }
        phase = .done
        return [.finished]
    }

    // MARK: - Sending

    private mutating func seal(_ frame: ConnectionFrame) throws(QuickShareSessionError) -> [UInt8] {
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
