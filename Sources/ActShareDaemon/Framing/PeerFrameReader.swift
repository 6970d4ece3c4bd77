import NIOCore

/// Reads ``PeerFrame``s from the decrypted stream without gathering data frames: each
/// piece of a data frame goes on as a slice of the buffer it arrived in (no copy); a
/// message is gathered only when it spans several reads. A length over
/// ``PeerFrame/limit`` is ``FrameTooLarge`` and nothing after it is read.
final class PeerFrameReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = PeerFrame

    private enum State {
        /// Reading a length; the bytes of it that came so far.
        case length(ByteBuffer)
        /// A frame of this many bytes begins: its first byte says which kind.
        case kind(Int)
        /// This many bytes of a data frame are still to come.
        case data(Int)
        /// A message of this many bytes, and what came of it so far.
        case message(Int, ByteBuffer)
        /// A frame was too large: the rest is dropped until the connection closes.
        case failed
    }

    private var state: State = .length(ByteBuffer())

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var input = unwrapInboundIn(data)
        while input.readableBytes > 0 {
            switch state {
            case .failed:
                return
            case .length(var gathered):
                if gathered.readableBytes == 0, let length = input.readInteger(as: UInt32.self) {
                    begin(Int(length), context: context)
                    continue
                }
                var piece = input.readSlice(length: min(4 - gathered.readableBytes, input.readableBytes))!
                gathered.writeBuffer(&piece)
                if let length = gathered.getInteger(at: gathered.readerIndex, as: UInt32.self) {
                    begin(Int(length), context: context)
                } else {
                    state = .length(gathered)
                }
            case .kind(let length):
                if input.getInteger(at: input.readerIndex, as: UInt8.self) == PeerFrame.dataTag {
                    input.moveReaderIndex(forwardBy: 1)
                    state = length > 1 ? .data(length - 1) : .length(ByteBuffer())
                } else if input.readableBytes >= length {
                    // Whole in this read: handed on as it is.
                    context.fireChannelRead(wrapInboundOut(.message(input.readSlice(length: length)!)))
                    state = .length(ByteBuffer())
                } else {
                    var gathered = context.channel.allocator.buffer(capacity: length)
                    gathered.writeBuffer(&input)
                    state = .message(length, gathered)
                }
            case .data(let left):
                let piece = input.readSlice(length: min(left, input.readableBytes))!
                state = left > piece.readableBytes ? .data(left - piece.readableBytes) : .length(ByteBuffer())
                context.fireChannelRead(wrapInboundOut(.data(piece)))
            case .message(let length, var gathered):
                var piece = input.readSlice(length: min(length - gathered.readableBytes, input.readableBytes))!
                gathered.writeBuffer(&piece)
                if gathered.readableBytes == length {
                    state = .length(ByteBuffer())
                    context.fireChannelRead(wrapInboundOut(.message(gathered)))
                } else {
                    state = .message(length, gathered)
                }
            }
        }
    }

    /// A frame's length is read: refused if too large; an empty frame is an empty message.
    private func begin(_ length: Int, context: ChannelHandlerContext) {
        if length > PeerFrame.limit {
            state = .failed
            context.fireErrorCaught(FrameTooLarge())
        } else if length == 0 {
            state = .length(ByteBuffer())
            context.fireChannelRead(wrapInboundOut(.message(ByteBuffer())))
        } else {
            state = .kind(length)
        }
    }
}
