/// What goes wrong in actshare's cryptography: what a peer sent is not a key or a
/// message these functions can take, or BoringSSL failed (it does not, short of memory).
public enum CryptoError: Error, Equatable, Sendable {
    /// A P-256 public key that is not a point on the curve, or not 2 × 32 bytes.
    case notAP256Point
    /// A key, IV or output length the algorithm does not take (what it takes).
    case wrongLength(String)
    /// A ciphertext that is not whole blocks, or whose padding is wrong once decrypted.
    case doesNotDecrypt
    /// BoringSSL refused an operation that cannot fail on good input (which one).
    case failed(String)
}
