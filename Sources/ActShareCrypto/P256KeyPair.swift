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

extension P256KeyPair {
    /// An ECDSA signature of SHA-256(`message`) with the private key, as Quick Share's QR
    /// handshake carries it: r and s, 32 bytes each, big-endian.
    public func signature(of message: [UInt8]) throws -> [UInt8] {
        let digest = SHA256.hash(data: message)
        guard let signature = ECDSA_do_sign(digest, digest.count, key) else {
            ERR_clear_error()
            throw CryptoError.failed("ECDSA signing")
        }
        defer { ECDSA_SIG_free(signature) }
        var r: UnsafePointer<BIGNUM>?, s: UnsafePointer<BIGNUM>?
        ECDSA_SIG_get0(signature, &r, &s)
        var out = [UInt8](repeating: 0, count: 64)
        let written = out.withUnsafeMutableBufferPointer { buffer in
            BN_bn2bin_padded(buffer.baseAddress, 32, r) == 1 && BN_bn2bin_padded(buffer.baseAddress! + 32, 32, s) == 1
        }
        guard written else { throw CryptoError.failed("ECDSA signing") }
        return out
    }

    /// Whether `signature` (r and s, 32 bytes each) is one of SHA-256(`message`) by the
    /// P-256 key with these coordinates.
    public static func verify(_ signature: [UInt8], of message: [UInt8], x: [UInt8], y: [UInt8]) -> Bool {
        guard signature.count == 64, x.count == 32, y.count == 32,
              let key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1) else { return false }
        defer { EC_KEY_free(key) }
        let group = EC_KEY_get0_group(key)
        guard let point = EC_POINT_new(group) else { return false }
        defer { EC_POINT_free(point) }
        let encoded = [4] + x + y
        guard EC_POINT_oct2point(group, point, encoded, encoded.count, nil) == 1, EC_KEY_set_public_key(key, point) == 1,
              let parsed = ECDSA_SIG_new()
        else {
            ERR_clear_error()
            return false
        }
        defer { ECDSA_SIG_free(parsed) }
        let r = BN_bin2bn(signature, 32, nil), s = signature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(parsed, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return false
        }
        let digest = SHA256.hash(data: message)
        let valid = ECDSA_do_verify(digest, digest.count, parsed, key) == 1
        ERR_clear_error()
        return valid
    }
}

extension P256KeyPair {
    /// The y coordinates of the P-256 points with this x (the even one first); none when
    /// x is on no point.
    public static func yCoordinates(x: [UInt8]) -> [[UInt8]] {
        guard x.count == 32, let key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1) else { return [] }
        defer { EC_KEY_free(key) }
        let group = EC_KEY_get0_group(key)
        guard let point = EC_POINT_new(group) else { return [] }
        defer { EC_POINT_free(point) }
        var found: [[UInt8]] = []
        for prefix: UInt8 in [2, 3] {
            let compressed = [prefix] + x
            guard EC_POINT_oct2point(group, point, compressed, compressed.count, nil) == 1 else {
                ERR_clear_error()
                continue
            }
            var full = [UInt8](repeating: 0, count: 65)
            if EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, &full, full.count, nil) == 65 { found.append(Array(full[33...])) }
        }
        return found
    }
}
