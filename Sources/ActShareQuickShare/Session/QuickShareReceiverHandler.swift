import ActShareCrypto
import NIOCore

/// A receiving Quick Share connection in a NIO pipeline, after ``QuickShareFrameDecoder``
/// and ``QuickShareFrameEncoder``: it feeds each frame to a ``QuickShareReceiver``,
/// writes what it answers, sends a keep-alive every ``QuickShareSession/keepAliveSeconds``
/// once the connection is secure, and hands the user's question and the bytes to its
/// delegate. The first refusal closes the connection.
///
/// The pace rule (as LocalSend's): until the share is offered and after it is accepted,
/// a frame must come within ``silenceSeconds``; while the user is asked, the peer's
/// keep-alives are all that is expected, and the question waits at most
/// ``answerSeconds``.
public final class QuickShareReceiverHandler: ChannelInboundHandler {
    public typealias InboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    /// The longest silence from the peer outside the question.
    public static let silenceSeconds: Int64 = 30
    /// How long the user is given, as Android waits.
    public static let answerSeconds: Int64 = 60

    private var receiver: QuickShareReceiver
    private let delegate: QuickShareReceiverDelegate
    private let address: String
    private var peer: QuickSharePeer?
    private var pin = ""
    /// The delegate heard the end (finished, failed or declined); nothing more is read.
    private var ended = false
    private var finished = false
    private var asking = false
    private var lastWrite: EventLoopFuture<Void>?
    private var keepAlive: RepeatedTask?
    private var deadline: Scheduled<Void>?

    public init(keyPair: P256KeyPair, address: String, delegate: QuickShareReceiverDelegate) {
        receiver = QuickShareReceiver(keyPair: keyPair)
        self.address = address
        self.delegate = delegate
    }

    public func channelActive(context: ChannelHandlerContext) {
        restartDeadline(context, seconds: Self.silenceSeconds)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        keepAlive = context.eventLoop.scheduleRepeatedTask(
            initialDelay: .seconds(Int64(QuickShareSession.keepAliveSeconds)), delay: .seconds(Int64(QuickShareSession.keepAliveSeconds))
        ) { _ in
            let (handler, context) = bound.value
            handler.sendKeepAlive(context)
        }
        context.fireChannelActive()
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !ended else { return }
        let frame = Array(unwrapInboundIn(data).readableBytesView)
        if !asking { restartDeadline(context, seconds: Self.silenceSeconds) }
        do {
            handle(try receiver.receive(frame), context)
        } catch .peerCancelled {
            // Its CANCEL comes before its DISCONNECTION, and it hangs up after: closing now,
            // with those unread, would reset its connection under it. Told at once; closed
            // when it hangs up, or after ``silenceSeconds``.
            end(context, .peerCancelled, close: false)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: .seconds(Self.silenceSeconds)) { bound.value.close(promise: nil) }
        } catch {
            end(context, error)
        }
    }

    public func channelInactive(context: ChannelHandlerContext) {
        // A socket that ends before the share is whole is a refusal (or a cancel).
        if !ended { end(context, finished ? nil : .peerRefused, close: false) }
        deadline?.cancel()
        context.fireChannelInactive()
    }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        end(context, error as? QuickShareSessionError ?? .badFrame)
    }

    private func handle(_ events: [QuickShareReceiver.Event], _ context: ChannelHandlerContext) {
        for event in events where !ended {
            switch event {
            case let .send(frame):
                lastWrite = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: frame)))
            case let .peer(endpointID, info):
                peer = QuickSharePeer(endpointID: endpointID, info: info, address: address)
            case let .pin(code):
                pin = code
            case let .introduction(offer):
                ask(offer, context)
            case let .fileData(payloadID, offset, bytes, last):
                do { try delegate.quickShare(file: payloadID, offset: offset, bytes: bytes, last: last) } catch { stop(context) }
            case let .text(payloadID, text):
                do { try delegate.quickShare(text: payloadID, text) } catch { stop(context) }
            case .finished:
                // The receiver says it is done first, as Android's does; the socket closes
                // once the sender hung up too (closing with its last frame unread would
                // reset the connection, and the sender could lose ours).
                finished = true
                keepAlive?.cancel()
                delegate.quickShareFinished()
                if let frame = try? receiver.disconnection() { lastWrite = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: frame))) }
            case .senderLeft:
                end(context, nil)
            }
        }
    }

    private func ask(_ offer: QuickShareOffer, _ context: ChannelHandlerContext) {
        guard let peer else { return end(context, .unexpectedFrame("a connection request")) }
        asking = true
        restartDeadline(context, seconds: Self.answerSeconds)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let loop = context.eventLoop
        delegate.quickShare(peer, offers: offer, pin: pin) { accept in
            loop.execute {
                let (handler, context) = bound.value
                handler.answer(accept, context)
            }
        }
    }

    private func answer(_ accept: Bool, _ context: ChannelHandlerContext) {
        guard asking, !ended else { return }
        asking = false
        restartDeadline(context, seconds: Self.silenceSeconds)
        do {
            handle(try receiver.answer(accept: accept), context)
        } catch {
            return end(context, error)
        }
        if !accept { end(context, nil) }
    }

    /// This side stops the share: the sender is told (a cancel), then the connection ends.
    private func stop(_ context: ChannelHandlerContext) {
        if let events = try? receiver.cancel() {
            for case let .send(frame) in events { lastWrite = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: frame))) }
        }
        end(context, .stoppedHere)
    }

    private func sendKeepAlive(_ context: ChannelHandlerContext) {
        guard !ended, let frame = try? receiver.keepAlive() else { return }
        lastWrite = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: frame)))
    }

    /// Closes the connection unless the peer did not keep to the time: a silence past the
    /// pace, or no answer from the user.
    private func restartDeadline(_ context: ChannelHandlerContext, seconds: Int64) {
        deadline?.cancel()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let waitingForUser = asking
        deadline = context.eventLoop.scheduleTask(in: .seconds(seconds)) {
            let (handler, context) = bound.value
            if waitingForUser {
                handler.answer(false, context)
            } else {
                handler.end(context, handler.finished ? nil : .unexpectedFrame("a frame in time"))
            }
        }
    }

    private func cancelTimers() {
        keepAlive?.cancel()
        deadline?.cancel()
        keepAlive = nil
        deadline = nil
    }

    private func end(_ context: ChannelHandlerContext, _ error: QuickShareSessionError?, close: Bool = true) {
        guard !ended else { return }
        ended = true
        cancelTimers()
        if !finished { delegate.quickShareEnded(error) }
        guard close else { return }
        // What was written last (a refusal, a disconnection) goes before the socket closes.
        if let lastWrite {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            lastWrite.whenComplete { _ in bound.value.close(promise: nil) }
        } else {
            context.close(promise: nil)
        }
    }
}
