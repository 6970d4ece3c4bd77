/// Why a frame from the peer was refused after the handshake. The connection ends at the
/// first one: a frame that fails is a forgery, a replay or a broken peer, never data.
public enum SecureChannelError: Error, Equatable, Sendable {
    /// Not a SecureMessage, or its inside (header, device-to-device message) is not one.
    case badMessage
    /// The HMAC-SHA256 is not the one the receive key gives: forged or damaged.
    case badSignature
    /// A scheme other than AES-256-CBC with HMAC-SHA256, or an IV that is not 16 bytes.
    case badHeader
    /// Authentic, yet it does not decrypt (only a peer with broken keys sends this).
    case doesNotDecrypt
    /// A sequence number other than the next one: a frame replayed, dropped or reordered.
    case badSequenceNumber(expected: Int32, received: Int32)
    /// 2³¹ − 1 frames one way: the counter cannot go further without repeating.
    case exhausted
}
