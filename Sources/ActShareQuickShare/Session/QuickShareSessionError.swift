/// Why a Quick Share connection ended early. Every case but ``peerCancelled``,
/// ``peerRefused`` and ``stoppedHere`` is the peer breaking the protocol or a limit: the connection is closed
/// and whatever was received of the transfer is removed.
public enum QuickShareSessionError: Error, Equatable, Sendable {
    /// The UKEY2 handshake failed.
    case handshake(Ukey2Error)
    /// A frame after the handshake was forged, replayed or damaged.
    case secureChannel(SecureChannelError)
    /// Bytes that are not the frame expected (or any frame).
    case badFrame
    /// A frame that the protocol does not allow at this step (which step).
    case unexpectedFrame(String)
    /// The connection request's endpoint info or id cannot be read.
    case badEndpoint(QuickShareError)
    /// An introduction offering nothing, more than ``QuickShareSession/maximumItems``, a
    /// payload id twice, a negative size, a text over ``QuickShareSession/maximumTextBytes``,
    /// or a name that is not UTF-8 or holds a NUL (what).
    case badIntroduction(String)
    /// A payload chunk that is not where the payload stands, goes past its size, ends
    /// short, or belongs to no payload offered (which payload).
    case badChunk(Int64)
    /// A bytes payload (a negotiation frame) larger than ``QuickShareSession/maximumFrameBytes``.
    case payloadTooLarge(Int64)
    /// The peer cancelled the share.
    case peerCancelled
    /// The peer refused the connection, or disconnected before the share was whole.
    case peerRefused
    /// This side stopped the share: the user declined it once under way, or what came
    /// could not be written (the peer is sent a cancel).
    case stoppedHere
}
