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
