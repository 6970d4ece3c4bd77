import NIOCore

/// Bounds the bytes a sender has handed to a connection's event loop that the loop has
/// not yet taken through TLS into the socket.
///
/// An `NIOAsyncChannel`'s writer waits only when the socket is full; until then each
/// write is queued on the event loop as it is made, so a sender that reads its file
/// faster than TLS seals it queued the file there (20 MiB of a 2 GiB send, 36 MiB sending
/// to two devices at once). So after each ``span`` bytes a marker is queued behind the
/// writes, and the sender waits for the one before it: at most two spans wait on the loop,
/// and it always has one to work on. What is in flight on the link is the kernel's socket
/// buffer, which TCP sizes to the link.
struct WriteWindow {
    let eventLoop: any EventLoop
    /// The bytes between markers.
    static let span = 512 << 10

    private var sinceMarker = 0
    private var marker: EventLoopFuture<Void>?

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Called after writing `count` bytes; returns once no more than two spans wait.
    mutating func wrote(_ count: Int) async throws {
        sinceMarker += count
        guard sinceMarker >= Self.span else { return }
        sinceMarker = 0
        let next = eventLoop.submit {}
        if let marker { try await marker.get() }
        marker = next
    }
}
