import NIOCore
import NIOTLS

/// Completes `done` when the TLS handshake before it in the pipeline completes, and fails
/// it when the connection closes first.
///
/// A body streamed from the event loop waits for it: until then TLS keeps what is written
/// in memory without making the channel unwritable, and a whole file would be read into it.
final class TLSHandshakeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    let done: EventLoopPromise<Void>

    init(done: EventLoopPromise<Void>) {
        self.done = done
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted? = event as? TLSUserEvent { done.succeed() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        done.fail(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        done.fail(ChannelError.ioOnClosedChannel)
    }
}
