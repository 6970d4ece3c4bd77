import NIOCore

/// What a connection between daemons carries, as ``PeerFrameReader`` hands it on.
///
/// On the wire a frame is a 32-bit big-endian length, then that many bytes
/// (docs/PROTOCOL.md, "Between daemons"): a message (JSON, starting with `{`), or a data frame
/// (``dataTag``, then bytes of a file or the clipboard). A message is handed on whole; a
/// data frame's bytes in the pieces TLS decrypted them in, so that a file's bytes are
/// hashed and written while they are still in the cache, and never gathered first.
enum PeerFrame: Sendable {
    case message(ByteBuffer)
    /// Some bytes of a data frame; a frame's pieces follow each other, and where one
    /// frame ends and the next begins is not kept (only the count of bytes matters).
    case data(ByteBuffer)

    /// The most bytes in one frame, its tag included: 1 MiB. Capped before a byte of it
    /// is buffered, so a peer cannot make a daemon hold more.
    static let limit = 1 << 20
    /// The first byte of a data frame; a message's is `{`.
    static let dataTag: UInt8 = 0
    /// The most bytes of a file or of the clipboard one data frame holds (a sender may put
    /// fewer: transfers use 256 KiB frames, ``TransferSender/chunkSize``).
    static let dataLimit = limit - 1
}

/// A connection to or from another daemon, with ``PeerFrameReader`` and ``PeerFrameWriter``.
typealias PeerChannel = NIOAsyncChannel<PeerFrame, ByteBuffer>
/// The frames still to come on a ``PeerChannel``.
typealias PeerFrames = NIOAsyncChannelInboundStream<PeerFrame>.AsyncIterator
