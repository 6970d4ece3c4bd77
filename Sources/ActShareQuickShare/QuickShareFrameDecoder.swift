import NIOCore

/// Quick Share's framing over TCP: every message (an offline frame, a UKEY2 message, a
/// SecureMessage) after its length, four bytes big-endian. A length over the limit is
/// refused as soon as it is read, before any of its bytes are held.
public struct QuickShareFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = ByteBuffer

    /// The longest frame read: Android's payload chunks are 512 KiB; this leaves room for
    /// larger ones and their envelopes, and no more.
    public static let maxFrameLength = 5 << 20

    public init() {}

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return .needMoreData }
        guard Int(length) <= Self.maxFrameLength else { throw QuickShareError.frameTooLarge(Int(length)) }
        guard buffer.readableBytes >= 4 + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 4)
        context.fireChannelRead(Self.wrapInboundOut(buffer.readSlice(length: Int(length))!))
        return .continue
    }
}

/// Writes each message after its length (see ``QuickShareFrameDecoder``).
public struct QuickShareFrameEncoder: MessageToByteEncoder {
    public typealias OutboundIn = ByteBuffer

    public init() {}

    public func encode(data: ByteBuffer, out: inout ByteBuffer) throws {
        guard data.readableBytes <= QuickShareFrameDecoder.maxFrameLength else { throw QuickShareError.frameTooLarge(data.readableBytes) }
        out.writeInteger(UInt32(data.readableBytes))
        out.writeImmutableBuffer(data)
    }
}
