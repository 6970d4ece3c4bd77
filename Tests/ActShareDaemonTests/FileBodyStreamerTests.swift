import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import ActShareDaemon

#if canImport(Glibc)
import Glibc
#endif

/// A LocalSend upload's body, streamed from its file by ``FileBodyStreamer`` in an
/// `EmbeddedChannel`: pieces while the channel is writable, the rest when it is again,
/// then the request's end; a file that became shorter is the send's error, not a short body.
@Suite struct FileBodyStreamerTests {
    /// A file of `size` bytes (each byte its offset's low byte), open for reading.
    static func file(size: Int) throws -> (fd: Int32, path: String) {
        var template = Array("/tmp/actshare-body.XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0) }
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, size) } == size)
        lseek(fd, 0, SEEK_SET)
        return (fd, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    /// What the channel wrote: the body's bytes, and whether its end came.
    static func written(_ channel: EmbeddedChannel) throws -> (body: [UInt8], ended: Bool) {
        var body: [UInt8] = [], ended = false
        while let part = try channel.readOutbound(as: HTTPClientRequestPart.self) {
            switch part {
            case .body(.byteBuffer(let buffer)): body += buffer.readableBytesView
            case .end: ended = true
            case .head, .body: Issue.record("not a body piece: \(part)")
            }
        }
        return (body, ended)
    }

    @Test func theWholeFileGoesInPiecesWhileTheChannelIsWritable() throws {
        let size = FileBodyStreamer.pieceSize * 2 + 1000
        let (fd, path) = try Self.file(size: size)
        defer { close(fd); unlink(path) }
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let done = channel.eventLoop.makePromise(of: Void.self)
        let sent = SentCounter()
        // Full after the first piece: the rest waits for the channel to be writable again.
        channel.isWritable = true
        try channel.pipeline.syncOperations.addHandler(FileBodyStreamer(fd: fd, size: UInt64(size), path: path, sent: { sent.set($0) }, done: done))
        var (body, ended) = try Self.written(channel)
        #expect(body.count == size && ended, "writable throughout: all of it and the end")
        #expect(body == (0..<size).map { UInt8(truncatingIfNeeded: $0) }, "the file's bytes in order")
        #expect(sent.value == UInt64(size))
        try done.futureResult.wait()
        (body, ended) = try Self.written(channel)
        #expect(body.isEmpty && !ended, "nothing after the end")
        _ = try channel.finish()
    }

    @Test func aChannelThatIsFullIsWaitedFor() throws {
        let size = FileBodyStreamer.pieceSize * 3
        let (fd, path) = try Self.file(size: size)
        defer { close(fd); unlink(path) }
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        channel.isWritable = false
        let done = channel.eventLoop.makePromise(of: Void.self)
        try channel.pipeline.syncOperations.addHandler(FileBodyStreamer(fd: fd, size: UInt64(size), path: path, sent: { _ in }, done: done))
        var (body, ended) = try Self.written(channel)
        #expect(body.isEmpty && !ended, "not writable: nothing read or written yet")
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        (body, ended) = try Self.written(channel)
        #expect(body.count == size && ended)
        try done.futureResult.wait()
        _ = try channel.finish()
    }

    @Test func aFileThatBecameShorterIsTheSendsError() throws {
        let (fd, path) = try Self.file(size: 1000)
        defer { close(fd); unlink(path) }
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let done = channel.eventLoop.makePromise(of: Void.self)
        // 4,000 bytes promised (the size listed), 1,000 there.
        try channel.pipeline.syncOperations.addHandler(FileBodyStreamer(fd: fd, size: 4000, path: path, sent: { _ in }, done: done))
        let (_, ended) = try Self.written(channel)
        #expect(!ended, "no end for a body shorter than its length")
        #expect {
            try done.futureResult.wait()
        } throws: { error in
            guard case .transfer(.sourceShrank(let shrank))? = error as? HandoffError else { return false }
            return shrank == path
        }
        _ = try? channel.finish()
    }

    @Test func aClosedChannelEndsTheSend() throws {
        let (fd, path) = try Self.file(size: FileBodyStreamer.pieceSize * 2)
        defer { close(fd); unlink(path) }
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        channel.isWritable = false
        let done = channel.eventLoop.makePromise(of: Void.self)
        try channel.pipeline.syncOperations.addHandler(FileBodyStreamer(fd: fd, size: UInt64(FileBodyStreamer.pieceSize * 2), path: path, sent: { _ in }, done: done))
        _ = try? channel.finish()
        #expect(throws: ChannelError.ioOnClosedChannel) { try done.futureResult.wait() }
    }
}

/// The last count a streamer reported.
final class SentCounter: @unchecked Sendable {
    private(set) var value: UInt64 = 0
    func set(_ value: UInt64) { self.value = value }  // the embedded loop's thread only
}
