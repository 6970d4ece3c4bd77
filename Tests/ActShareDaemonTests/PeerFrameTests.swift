import NIOCore
import NIOEmbedded
import Testing

@testable import ActShareDaemon

/// The frames between daemons: what ``PeerFrameWriter`` writes, ``PeerFrameReader`` reads
/// back however TLS cut the stream — messages whole, a data frame's bytes in order and not
/// one more, an oversized length refused before its bytes are held.
@Suite struct PeerFrameTests {
    /// A message, a data frame of 3,000 bytes, an empty data frame, another message.
    static func stream() throws -> (bytes: [UInt8], messages: [String], data: [UInt8]) {
        let channel = EmbeddedChannel(handler: PeerFrameWriter())
        let data = (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var dataFrame = ByteBuffer(integer: PeerFrame.dataTag)
        dataFrame.writeBytes(data)
        let messages = [#"{"type":"file-begin"}"#, #"{"type":"file-end"}"#]
        for frame in [ByteBuffer(string: messages[0]), dataFrame, ByteBuffer(integer: PeerFrame.dataTag), ByteBuffer(string: messages[1])] {
            try channel.writeOutbound(frame)
        }
        var bytes: [UInt8] = []
        while let written = try channel.readOutbound(as: ByteBuffer.self) { bytes += Array(written.readableBytesView) }
        _ = try channel.finish()
        return (bytes, messages, data)
    }

    /// Reads `bytes` cut into pieces of the sizes given (the last size repeats).
    static func read(_ bytes: [UInt8], cutInto sizes: [Int]) throws -> (messages: [String], data: [UInt8]) {
        let channel = EmbeddedChannel(handler: PeerFrameReader())
        var offset = 0, index = 0
        while offset < bytes.count {
            let size = min(sizes[min(index, sizes.count - 1)], bytes.count - offset)
            try channel.writeInbound(ByteBuffer(bytes: bytes[offset..<offset + size]))
            offset += size
            index += 1
        }
        var messages: [String] = [], data: [UInt8] = []
        while let frame = try channel.readInbound(as: PeerFrame.self) {
            switch frame {
            case .message(let buffer): messages.append(String(buffer: buffer))
            case .data(let buffer): data += Array(buffer.readableBytesView)
            }
        }
        _ = try channel.finish()
        return (messages, data)
    }

    @Test func framesReadBackWholeHoweverTheStreamIsCut() throws {
        let (bytes, messages, data) = try Self.stream()
        #expect(bytes.count == 4 + messages[0].utf8.count + 4 + 1 + data.count + 4 + 1 + 4 + messages[1].utf8.count)
        for cut in [[bytes.count], [1], [3], [5, 1], [4, 9, 2, 700], [64]] {
            let read = try Self.read(bytes, cutInto: cut)
            #expect(read.messages == messages, "cut into \(cut)")
            #expect(read.data == data, "cut into \(cut)")
        }
    }

    @Test func aDataFrameComesInThePiecesItArrivedIn() throws {
        let (bytes, _, _) = try Self.stream()
        let channel = EmbeddedChannel(handler: PeerFrameReader())
        let firstMessage = 4 + 21
        // The first message and the start of the data frame, then the rest in 1,000s.
        try channel.writeInbound(ByteBuffer(bytes: bytes[..<(firstMessage + 5 + 500)]))
        #expect(try channel.readInbound(as: PeerFrame.self).map { if case .message = $0 { true } else { false } } == true)
        guard case .data(let first) = try channel.readInbound(as: PeerFrame.self) else {
            Issue.record("no data piece")
            return
        }
        #expect(first.readableBytes == 500, "handed on as it came, not gathered to the frame's 3,000")
        _ = try channel.finish()
    }

    @Test func aLengthOverTheLimitIsRefusedBeforeItsBytes() throws {
        let channel = EmbeddedChannel(handler: PeerFrameReader())
        var input = ByteBuffer(integer: UInt32(PeerFrame.limit + 1))
        input.writeString(#"{"type":"file-begin"}"#)
        #expect(throws: FrameTooLarge.self) { try channel.writeInbound(input) }
        try channel.writeInbound(ByteBuffer(bytes: [0, 0, 0, 2, 0x7b, 0x7d]))
        #expect(try channel.readInbound(as: PeerFrame.self) == nil, "nothing after the refused length is read")
        _ = try? channel.finish()

        let writer = EmbeddedChannel(handler: PeerFrameWriter())
        #expect(throws: FrameTooLarge.self) { try writer.writeOutbound(ByteBuffer(repeating: 1, count: PeerFrame.limit + 1)) }
        _ = try? writer.finish()
    }
}
