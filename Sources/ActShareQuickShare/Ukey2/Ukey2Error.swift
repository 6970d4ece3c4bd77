/// Why a UKEY2 handshake failed. Each case but ``alert(_:_:)`` is something the peer sent
/// that the handshake refuses; the connection is closed after it (a server first sends
/// the matching ``Ukey2Alert``), never used for a frame.
public enum Ukey2Error: Error, Equatable, Sendable {
    /// Bytes that are not a UKEY2 message, or whose inner message does not decode.
    case badMessage
    /// A message of another type than the handshake expects at this step.
    case unexpectedMessage
    /// A version other than 1.
    case badVersion
    /// A random value that is not 32 bytes.
    case badRandom
    /// No commitment for P-256 with SHA-512, the one cipher Quick Share uses.
    case badHandshakeCipher
    /// A next protocol other than AES-256-CBC with HMAC-SHA256.
    case badNextProtocol
    /// A public key that is not a P-256 point.
    case badPublicKey
    /// A ClientFinished whose SHA-512 is not what the ClientInit committed to: the key
    /// was changed after the client committed to it (or by someone in between).
    case commitmentMismatch
    /// The peer's own alert (its type number and message, as it sent them).
    case alert(Int32, String)
}
