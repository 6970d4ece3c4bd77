import NIOCore

/// A frame between the daemon and `actshare-clipboard-agent`, as
/// Sources/actshare-clipboard-agent/agent_protocol.h specifies it: a 32-bit big-endian
/// header length, the header (JSON), a 32-bit big-endian data length, the data. Read by
/// ``AgentFrameDecoder``; written by ``ClipboardAgent/send(_:more:)`` as ``wire(more:)``
/// gives it (Tests/Fixtures/AgentFrames holds golden frames of both ways).
struct AgentFrame: Sendable {
    var header: AgentMessage
    var data: ByteBuffer

    init(_ header: AgentMessage, data: ByteBuffer = ByteBuffer()) {
        self.header = header
        self.data = data
    }

    /// The frame's bytes, its data followed by `more` (one data length for all), in the
    /// pieces it is written in: the lengths and header, then each piece not copied.
    func wire(more: [ByteBuffer] = []) throws -> [ByteBuffer] {
        let header = try Wire.encode(self.header)
        let pieces = [data] + more
        var prefix = ByteBuffer()
        prefix.writeInteger(UInt32(header.readableBytes))
        prefix.writeImmutableBuffer(header)
        prefix.writeInteger(UInt32(pieces.reduce(0) { $0 + $1.readableBytes }))
        return [prefix] + pieces.filter { $0.readableBytes > 0 }
    }
}

/// A frame's header. From the agent: `ready`, `changed` (what a new owner holds, or a push's
/// reading), `owner-changed` (manual mode: only that it changed), `fetch` (a paste needs a
/// target's bytes), `owned`, `released`. To it: `read`, `own`, `release`, `data`.
struct AgentMessage: Codable, Sendable {
    struct Target: Codable, Sendable {
        var name: String
        var size: UInt64
        var hash: String?
        /// Made when fetched (a list of files): any size.
        var anySize: Bool?

        enum CodingKeys: String, CodingKey {
            case name, size, hash
            case anySize = "any-size"
        }
    }

    var type: String
    /// `ready`: the display it watches.
    var display: String?
    var offer: String?
    var hash: String?
    var target: String?
    var ok: Bool?
    /// `data`: a piece, more to come (the last `data` has `ok` instead).
    var more: Bool?
    var push: Bool?
    var secret: Bool?
    var tooLarge: Bool?
    var total: UInt64?
    var unanswered: Bool?
    /// With `secret`: the owner offered a password hint and did not answer it in time.
    var hintUnread: Bool?
    var targets: [Target]?

    init(_ type: String, offer: String? = nil, hash: String? = nil, ok: Bool? = nil, more: Bool? = nil, targets: [Target]? = nil) {
        self.type = type
        self.offer = offer
        self.hash = hash
        self.ok = ok
        self.more = more
        self.targets = targets
    }

    enum CodingKeys: String, CodingKey {
        case type, display, offer, hash, target, ok, more, push, secret, total, unanswered, targets
        case tooLarge = "too-large"
        case hintUnread = "hint-unread"
    }
}

struct AgentFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = (header: ByteBuffer, data: ByteBuffer)
    static let headerLimit = 64 << 10
    /// The most data a frame may carry: the clipboard's limit and a little.
    let dataLimit: Int

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let start = buffer.readerIndex
        guard let headerLength = buffer.getInteger(at: start, as: UInt32.self) else { return .needMoreData }
        guard headerLength > 0, headerLength <= Self.headerLimit else { throw FrameTooLarge() }
        guard let dataLength = buffer.getInteger(at: start + 4 + Int(headerLength), as: UInt32.self) else { return .needMoreData }
        guard dataLength <= dataLimit else { throw FrameTooLarge() }
        let whole = 8 + Int(headerLength) + Int(dataLength)
        guard buffer.readableBytes >= whole else {
            // Room for the whole frame at once: a 20 MiB image is not copied at every doubling.
            buffer.reserveCapacity(minimumWritableBytes: whole - buffer.readableBytes)
            return .needMoreData
        }
        buffer.moveReaderIndex(forwardBy: 4)
        let header = buffer.readSlice(length: Int(headerLength))!
        buffer.moveReaderIndex(forwardBy: 4)
        let data = buffer.readSlice(length: Int(dataLength))!
        context.fireChannelRead(Self.wrapInboundOut((header, data)))
        return .continue
    }
}
