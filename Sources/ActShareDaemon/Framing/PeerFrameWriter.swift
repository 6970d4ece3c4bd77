import NIOCore

/// Writes each outgoing buffer as one frame: its length, then the buffer. A large one (a
/// file's bytes) as two writes, so its bytes are not copied again behind a length.
final class PeerFrameWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        guard frame.readableBytes <= PeerFrame.limit else {
            promise?.fail(FrameTooLarge())
            return
        }
        if frame.readableBytes < Self.separateFrom {
            var whole = context.channel.allocator.buffer(capacity: 4 + frame.readableBytes)
            whole.writeInteger(UInt32(frame.readableBytes))
            whole.writeImmutableBuffer(frame)
            context.write(wrapOutboundOut(whole), promise: promise)
        } else {
            var length = context.channel.allocator.buffer(capacity: 4)
            length.writeInteger(UInt32(frame.readableBytes))
            context.write(wrapOutboundOut(length), promise: nil)
            context.write(wrapOutboundOut(frame), promise: promise)
        }
    }

    /// From this size a frame's length goes in a write of its own: below, copying the
    /// bytes costs less than TLS sealing a record for the four bytes of the length.
    static let separateFrom = 64 << 10
}
