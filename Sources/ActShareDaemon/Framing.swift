import NIOCore

/// Splits the control socket's stream into lines (without the newline); a line over
/// the limit closes the connection.
struct LineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer
    static let limit = 2 << 20

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.limit { throw FrameTooLarge() }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        let line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(Self.wrapInboundOut(line))
        return .continue
    }
}

/// A peer frame: a 32-bit big-endian length, then that many bytes of JSON, at most 1 MiB.
struct FrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer
    static let limit = 1 << 20

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return .needMoreData }
        // Capped before a byte of it is buffered: a peer cannot make us hold more.
        guard length <= Self.limit else { throw FrameTooLarge() }
        guard buffer.readableBytes >= 4 + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 4)
        context.fireChannelRead(Self.wrapInboundOut(buffer.readSlice(length: Int(length))!))
        return .continue
    }
}

struct FrameEncoder: MessageToByteEncoder {
    typealias OutboundIn = ByteBuffer

    func encode(data: ByteBuffer, out: inout ByteBuffer) throws {
        guard data.readableBytes <= FrameDecoder.limit else { throw FrameTooLarge() }
        out.writeInteger(UInt32(data.readableBytes))
        out.writeImmutableBuffer(data)
    }
}

struct FrameTooLarge: Error {}
