import ActShareCore
import ActShareCrypto

/// The short authentication string both sides show when pairing.
///
/// The initiator commits to its nonce (sends SHA-256 of it) before it sees the
/// responder's, then reveals it; the code hashes both public keys as each side saw them
/// in the TLS handshake (initiator first) and both nonces. A man in the middle presents
/// its own keys to each side, so the two codes differ, and it must fix its nonces before
/// it can know what the code will be: one guess in a million.
enum Pairing {
    static func nonce() -> [UInt8] { RandomBytes.make(32) }

    /// A new activity id: 16 hex digits.
    static func newID() -> String { Hex.string(RandomBytes.make(8)) }

    static func commitment(_ nonce: [UInt8]) -> String { Hex.string(SHA256.hash(data: nonce)) }

    static func code(initiatorKey: [UInt8], responderKey: [UInt8], initiatorNonce: [UInt8], responderNonce: [UInt8]) -> String {
        var hasher = SHA256()
        for part in [initiatorKey, responderKey, initiatorNonce, responderNonce] {
            hasher.update(data: [UInt8(part.count >> 8), UInt8(part.count & 0xFF)])
            hasher.update(data: part)
        }
        let digest = Array(hasher.finalize())
        // 32 bits, then mod 10^6: 20 bits would be biased.
        let value = UInt32(digest[0]) << 24 | UInt32(digest[1]) << 16 | UInt32(digest[2]) << 8 | UInt32(digest[3])
        let code = String(value % 1_000_000)
        return String(repeating: "0", count: 6 - code.count) + code
    }
}
