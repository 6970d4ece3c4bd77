import NIOCore
import NIOHTTP1

/// A file sent as an HTTP request's body from its channel's event loop: a piece is read
/// and written while the channel is writable, the next when it is writable again, then
/// the request's end.
///
/// One thread does the whole body, as curl does. A task that read each piece and handed
/// it to the loop to be sealed kept two threads and the receiver on two cores, and the
/// cores idled four tenths of the send between their hand-overs
/// (Benchmarks/localsend-transfer). The reads are from a regular file the sender opened
/// and checked; a slow disk delays the loop by one piece at most.
final class FileBodyStreamer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Never
    typealias OutboundOut = HTTPClientRequestPart

    static let pieceSize = 256 << 10

    private let fd: Int32
    private let size: UInt64
    /// The file's path, for the error if it becomes shorter.
    private let path: String
    private var written: UInt64 = 0
    /// Told the bytes of the body written so far, after each piece (on the event loop).
    private let sent: @Sendable (UInt64) -> Void
    /// Succeeds once the request's end is written; fails if the channel closes first, or
    /// the file becomes shorter than promised.
    private let done: EventLoopPromise<Void>
    private var finished = false
    /// The piece read into, again each time: TLS has sealed the one before by the time it
    /// is flushed. (A new one for each piece had the kernel zero a fresh mapping of it, and
    /// that was half of the sending.)
    private var piece: ByteBuffer?

    init(fd: Int32, size: UInt64, path: String, sent: @escaping @Sendable (UInt64) -> Void, done: EventLoopPromise<Void>) {
        self.fd = fd
        self.size = size
        self.path = path
        self.sent = sent
        self.done = done
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard context.channel.isActive else { return finish(context, .failure(ChannelError.ioOnClosedChannel)) }
        pump(context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pump(context) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context, .failure(ChannelError.ioOnClosedChannel))
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if !finished {
            finished = true
            done.fail(ChannelError.ioOnClosedChannel)
        }
    }

    /// Writes pieces until the channel is full or the file is all written.
    private func pump(_ context: ChannelHandlerContext) {
        while !finished, written < size, context.channel.isWritable {
            let wanted = Int(min(UInt64(Self.pieceSize), size - written))
            var piece = self.piece.take() ?? context.channel.allocator.buffer(capacity: Self.pieceSize)
            piece.clear()
            guard piece.writeFromFile(fd, count: wanted) == wanted else {
                return finish(context, .failure(HandoffError.transfer(.sourceShrank(path: path))))
            }
            written += UInt64(wanted)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(piece))), promise: nil)
            self.piece = piece
            sent(written)
        }
        guard !finished, written == size else { return }
        finished = true
        let done = done
        context.writeAndFlush(wrapOutboundOut(.end(nil))).cascade(to: done)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func finish(_ context: ChannelHandlerContext, _ result: Result<Void, any Error>) {
        guard !finished else { return }
        finished = true
        done.completeWith(result)
    }
}
