import NIOCore

/// What a sender writes to a connection, gathered: frames are written together once
/// ``limit`` bytes of them wait, so a folder of small files goes in writes of 256 KiB
/// (one trip to the event loop, one flush through TLS, one system call), not three of
/// each for every file.
///
/// It also bounds what waits on the event loop. An `NIOAsyncChannel`'s writer waits only
/// when the socket is full; until then each write is queued on the loop as it is made,
/// so a sender that reads its file faster than TLS seals it queued the file there (20 MiB
/// of a 2 GiB send, 36 MiB sending to two devices at once). After each write a marker is
/// queued behind it, and the sender waits for the one before: at most two writes wait on
/// the loop, and it always has one to work on. What is in flight on the link is the
/// kernel's socket buffer, which TCP sizes to the link.
struct FrameBatch {
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    let eventLoop: any EventLoop
    /// The bytes gathered before they are written.
    static let limit = 256 << 10

    private var frames: [ByteBuffer] = []
    private var bytes = 0
    private var marker: EventLoopFuture<Void>?

    init(outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, eventLoop: any EventLoop) {
        self.outbound = outbound
        self.eventLoop = eventLoop
    }

    /// Adds a frame; writes what is gathered once it reaches ``limit``.
    mutating func add(_ frame: ByteBuffer) async throws {
        frames.append(frame)
        bytes += frame.readableBytes
        if bytes >= Self.limit { try await write() }
    }

    /// Writes what is gathered (before waiting for an answer, and at the end).
    mutating func write() async throws {
        guard !frames.isEmpty else { return }
        try await outbound.write(contentsOf: frames)
        frames.removeAll(keepingCapacity: true)
        bytes = 0
        let next = eventLoop.submit {}
        if let marker { try await marker.get() }
        marker = next
    }
}
