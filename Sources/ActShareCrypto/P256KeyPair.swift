import CNIOBoringSSL

/// A P-256 key pair for UKEY2's ECDH and Quick Share's QR code. Its public key is given
/// as the two 32-byte coordinates, as UKEY2's messages carry it.
public final class P256KeyPair: @unchecked Sendable {
    // Never changed after init; BoringSSL's EC_KEY is safe to read from several threads.
    private let key: OpaquePointer

    /// A new key pair from the system's random numbers.
    public init() throws {
        guard let made = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1) else { throw CryptoError.failed("no P-256") }
        guard EC_KEY_generate_key(made) == 1 else {
            EC_KEY_free(made)
            throw CryptoError.failed("P-256 key generation")
        }
        key = made
    }

    deinit { EC_KEY_free(key) }

    /// The public key's x and y coordinates, 32 bytes each.
    public func publicCoordinates() -> (x: [UInt8], y: [UInt8]) {
        var point = [UInt8](repeating: 0, count: 65)
        let written = EC_POINT_point2oct(EC_KEY_get0_group(key), EC_KEY_get0_public_key(key), POINT_CONVERSION_UNCOMPRESSED,
                                         &point, point.count, nil)
        // A generated key always has its public point, and P-256's uncompressed form is 65 bytes.
        precondition(written == 65, "a P-256 public key is 65 bytes uncompressed")
        return (Array(point[1...32]), Array(point[33...64]))
    }

    /// The ECDH shared secret (the x coordinate of the shared point, 32 bytes) with the
    /// peer whose public key has these coordinates; a point not on the curve is refused
    /// (BoringSSL checks it when it reads the point: an invalid-curve attack fails there).
    public func sharedSecret(peerX: [UInt8], peerY: [UInt8]) throws -> [UInt8] {
        guard peerX.count == 32, peerY.count == 32 else { throw CryptoError.notAP256Point }
        let group = EC_KEY_get0_group(key)
        guard let peer = EC_POINT_new(group) else { throw CryptoError.failed("EC_POINT_new") }
        defer { EC_POINT_free(peer) }
        let encoded = [4] + peerX + peerY
        guard EC_POINT_oct2point(group, peer, encoded, encoded.count, nil) == 1 else {
            ERR_clear_error()
            throw CryptoError.notAP256Point
        }
        var secret = [UInt8](repeating: 0, count: 32)
        guard ECDH_compute_key(&secret, secret.count, peer, key, nil) == 32 else {
            ERR_clear_error()
            throw CryptoError.notAP256Point
        }
        return secret
    }
}
