import NIOCore
import NIOEmbedded
import Testing

@testable import ActShareQuickShare

/// Quick Share's length-prefixed frames, read however TCP cut the stream, and an
/// oversized length refused before its bytes are held.
@Suite struct QuickShareFrameTests {
    static let frames: [[UInt8]] = [Array("ukey2 client init".utf8), [], (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 13) }, [7]]

    /// The frames as the encoder writes them.
    static func stream() throws -> [UInt8] {
        let channel = EmbeddedChannel(handler: MessageToByteHandler(QuickShareFrameEncoder()))
        for frame in frames { try channel.writeOutbound(ByteBuffer(bytes: frame)) }
        var bytes: [UInt8] = []
        while let written = try channel.readOutbound(as: ByteBuffer.self) { bytes += Array(written.readableBytesView) }
        _ = try channel.finish()
        return bytes
    }

    @Test func framesReadBackWholeHoweverTheStreamIsCut() throws {
        let bytes = try Self.stream()
        #expect(bytes.count == Self.frames.reduce(0) { $0 + 4 + $1.count })
        #expect(Array(bytes.prefix(4)) == [0, 0, 0, 17], "big-endian length first")
        for size in [bytes.count, 1, 3, 5, 700] {
            let channel = EmbeddedChannel(handler: ByteToMessageHandler(QuickShareFrameDecoder()))
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + size, bytes.count)
                try channel.writeInbound(ByteBuffer(bytes: bytes[offset..<end]))
                offset = end
            }
            var read: [[UInt8]] = []
            while let frame = try channel.readInbound(as: ByteBuffer.self) { read.append(Array(frame.readableBytesView)) }
            #expect(read == Self.frames, "cut into \(size)s")
            _ = try channel.finish()
        }
    }

    @Test func aLengthOverTheLimitIsRefusedBeforeItsBytes() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(QuickShareFrameDecoder()))
        let length = QuickShareFrameDecoder.maxFrameLength + 1
        #expect(throws: QuickShareError.frameTooLarge(length)) { try channel.writeInbound(ByteBuffer(integer: UInt32(length))) }
        _ = try? channel.finish()
        let writer = EmbeddedChannel(handler: MessageToByteHandler(QuickShareFrameEncoder()))
        #expect(throws: QuickShareError.frameTooLarge(length)) { try writer.writeOutbound(ByteBuffer(repeating: 1, count: length)) }
        _ = try? writer.finish()
    }
}
