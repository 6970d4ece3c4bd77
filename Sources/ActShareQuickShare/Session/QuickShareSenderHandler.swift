import ActShareCrypto
import NIOCore

/// A sending Quick Share connection in a NIO pipeline, after ``QuickShareFrameDecoder``
/// and ``QuickShareFrameEncoder``: it opens with ``QuickShareSender``'s first frames,
/// answers what the receiver sends, and once accepted, sends each file in chunks of
/// ``chunkSize`` while the socket takes them (no more is read from disk than it can
/// send), then the texts and a disconnection.
public final class QuickShareSenderHandler: ChannelDuplexHandler {
    public typealias OutboundIn = ByteBuffer
    public typealias InboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    /// Android's chunk size.
    public static let chunkSize = 512 << 10
    /// The longest silence from the receiver (its answer may take the user a minute).
    public static let silenceSeconds: Int64 = 90
    /// How long the receiver is given to hang up after the last frame.
    public static let lingerSeconds: Int64 = 30

    private var sender: QuickShareSender
    private let delegate: QuickShareSenderDelegate
    private let files: [SharingFrame.FileOffer]
    /// The file being sent and how far.
    private var fileIndex = 0
    private var offset: Int64 = 0
    private var sending = false
    /// In ``pump(_:)`` (a write can call it again through a writability change).
    private var pumping = false
    /// Every payload and the disconnection are written; the receiver is to hang up.
    private var sentAll = false
    /// The receiver's answer when it declined; it is to hang up.
    private var refusal: SharingFrame.Response?
    private var ended = false
    private var keepAlive: RepeatedTask?
    private var deadline: Scheduled<Void>?
    private var lastWrite: EventLoopFuture<Void>?

    public init(sender: QuickShareSender, files: [SharingFrame.FileOffer], delegate: QuickShareSenderDelegate) {
        self.sender = sender
        self.files = files
        self.delegate = delegate
    }

    public func channelActive(context: ChannelHandlerContext) {
        restartDeadline(context)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        keepAlive = context.eventLoop.scheduleRepeatedTask(
            initialDelay: .seconds(Int64(QuickShareSession.keepAliveSeconds)), delay: .seconds(Int64(QuickShareSession.keepAliveSeconds))
        ) { _ in
            let (handler, context) = bound.value
            guard !handler.ended, let frame = try? handler.sender.keepAlive() else { return }
            handler.write(frame, context)
        }
        handle(sender.start(), context)
        context.fireChannelActive()
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !ended else { return }
        if !sentAll, refusal == nil { restartDeadline(context) }
        do {
            handle(try sender.receive(Array(unwrapInboundIn(data).readableBytesView)), context)
        } catch .peerCancelled {
            // Its CANCEL comes before its DISCONNECTION, and it hangs up after: closing now,
            // with those unread, would reset its connection under it. Told at once; nothing
            // more is sent (the end of our stream once what was written has gone, which it
            // reads up to), and what it sends is read until it hangs up, or for
            // ``lingerSeconds``.
            end(context, .peerCancelled, close: false)
            context.close(mode: .output, promise: nil)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: .seconds(Self.lingerSeconds)) { bound.value.close(promise: nil) }
        } catch {
            end(context, error)
        }
    }

    public func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pump(context) }
        context.fireChannelWritabilityChanged()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        if !ended { endAsThingsStand(context, close: false) }
        deadline?.cancel()
        context.fireChannelInactive()
    }

    /// Sent down the pipeline (`triggerUserOutboundEvent`) to stop the share: the receiver
    /// is told so (``QuickShareSender/cancellation()``) before the connection closes.
    public struct Cancel: Sendable {
        public init() {}
    }

    public func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is Cancel else { return context.triggerUserOutboundEvent(event, promise: promise) }
        if !ended, let frames = try? sender.cancellation() {
            for frame in frames { write(frame, context) }
        }
        end(context, .stoppedHere)
        promise?.succeed(())
    }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let error = error as? QuickShareSessionError { return end(context, error) }
        // The socket failed (a reset): after everything went, that is the receiver closing
        // with our last frames unread; before, the share did not arrive.
        endAsThingsStand(context, close: true)
    }

    private func handle(_ events: [QuickShareSender.Event], _ context: ChannelHandlerContext) {
        for event in events where !ended {
            switch event {
            case let .send(frame):
                write(frame, context)
            case let .pin(pin):
                delegate.quickShare(pin: pin)
            case .accepted:
                delegate.quickShareAccepted()
                sending = true
                pump(context)
            case let .refused(response):
                // The receiver hangs up after its answer; closing first would cut it off.
                refusal = response
                linger(context)
            case .receiverLeft:
                end(context, nil)
            }
        }
    }

    /// Sends chunks while the socket takes them; then the texts and the disconnection.
    private func pump(_ context: ChannelHandlerContext) {
        guard !pumping else { return }
        pumping = true
        defer { pumping = false }
        while sending, !ended, context.channel.isWritable {
            guard fileIndex < files.count else {
                sending = false
                do {
                    for frame in try sender.textPayloads() { write(frame, context) }
                    write(try sender.disconnection(), context)
                } catch {
                    return end(context, error)
                }
                // The receiver hangs up once it has read everything; it is given a while.
                sentAll = true
                return linger(context)
            }
            let file = files[fileIndex]
            do {
                let bytes = file.size == 0 ? [] : try delegate.quickShare(read: file.payloadID, offset: offset, limit: Self.chunkSize)
                guard !bytes.isEmpty || file.size == offset else { return end(context, .badChunk(file.payloadID)) }
                let last = offset + Int64(bytes.count) >= file.size
                guard offset + Int64(bytes.count) <= file.size else { return end(context, .badChunk(file.payloadID)) }
                let chunk = try sender.fileChunk(payloadID: file.payloadID, offset: offset, bytes: bytes, last: last)
                // Where the next chunk starts is settled before the write: a write can
                // change the channel's writability and so come back into this loop.
                offset += Int64(bytes.count)
                delegate.quickShare(sent: file.payloadID, bytes: offset)
                if last {
                    fileIndex += 1
                    offset = 0
                }
                write(chunk, context)
            } catch let error as QuickShareSessionError {
                return end(context, error)
            } catch {
                return end(context, .badChunk(file.payloadID))
            }
        }
    }

    /// Waits at most ``lingerSeconds`` for the receiver to hang up, then ends as things stand.
    private func linger(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: .seconds(Self.lingerSeconds)) {
            let (handler, context) = bound.value
            handler.endAsThingsStand(context, close: true)
        }
    }

    /// The end once nothing more is to be sent: the refusal heard, or every item sent.
    private func endAsThingsStand(_ context: ChannelHandlerContext, close: Bool) {
        if let refusal {
            end(context, .peerRefused, response: refusal, close: close)
        } else {
            end(context, sentAll ? nil : .peerRefused, close: close)
        }
    }

    private func write(_ frame: [UInt8], _ context: ChannelHandlerContext) {
        lastWrite = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: frame)))
    }

    private func restartDeadline(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: .seconds(Self.silenceSeconds)) {
            let (handler, context) = bound.value
            handler.end(context, .unexpectedFrame("a frame in time"))
        }
    }

    private func end(_ context: ChannelHandlerContext, _ error: QuickShareSessionError?, response: SharingFrame.Response? = nil, close: Bool = true) {
        guard !ended else { return }
        ended = true
        keepAlive?.cancel()
        deadline?.cancel()
        delegate.quickShareEnded(error, response: response)
        guard close else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        if let lastWrite { lastWrite.whenComplete { _ in bound.value.close(promise: nil) } } else { context.close(promise: nil) }
    }
}
