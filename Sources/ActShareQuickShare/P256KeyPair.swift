import CLibCrypto

/// A P-256 key pair for UKEY2's ECDH and Quick Share's QR code, in the system's libcrypto.
/// Its public key is given as the two 32-byte coordinates, as UKEY2's messages carry it.
public final class P256KeyPair: @unchecked Sendable {
    // Never changed after init; libcrypto's EVP_PKEY is safe to read from several threads.
    private let key: OpaquePointer

    /// A new key pair from the system's random numbers.
    public init() throws {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw QuickShareError.cryptography("no EC in libcrypto") }
        defer { EVP_PKEY_CTX_free(context) }
        var made: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
              EVP_PKEY_generate(context, &made) == 1, let made else {
            throw QuickShareError.cryptography("cannot make a P-256 key")
        }
        key = made
    }

    deinit { EVP_PKEY_free(key) }

    /// The public key's x and y coordinates, 32 bytes each.
    public func publicCoordinates() throws -> (x: [UInt8], y: [UInt8]) {
        (try Self.coordinate(OSSL_PKEY_PARAM_EC_PUB_X, of: key), try Self.coordinate(OSSL_PKEY_PARAM_EC_PUB_Y, of: key))
    }

    /// The ECDH shared secret (the x coordinate of the shared point, 32 bytes) with the
    /// peer whose public key has these coordinates; a point not on the curve is refused.
    public func sharedSecret(peerX: [UInt8], peerY: [UInt8]) throws -> [UInt8] {
        guard peerX.count == 32, peerY.count == 32 else { throw QuickShareError.cryptography("a P-256 coordinate has 32 bytes") }
        let peer = try Self.publicKey(uncompressed: [4] + peerX + peerY)
        defer { EVP_PKEY_free(peer) }
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { throw QuickShareError.cryptography("no ECDH context") }
        defer { EVP_PKEY_CTX_free(context) }
        var length = 32
        var secret = [UInt8](repeating: 0, count: 32)
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer) == 1,
              EVP_PKEY_derive(context, &secret, &length) == 1, length == 32 else {
            throw QuickShareError.cryptography("ECDH failed: the peer's key is not a P-256 point")
        }
        return secret
    }

    private static func coordinate(_ name: UnsafePointer<CChar>, of key: OpaquePointer) throws -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else { throw QuickShareError.cryptography("no public key") }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: 32)
        guard BN_bn2binpad(number, &bytes, 32) == 32 else { throw QuickShareError.cryptography("a coordinate longer than 32 bytes") }
        return bytes
    }

    /// A P-256 public key from its uncompressed point (0x04, x, y); libcrypto checks that
    /// the point is on the curve.
    private static func publicKey(uncompressed point: [UInt8]) throws -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw QuickShareError.cryptography("no EC in libcrypto") }
        defer { EVP_PKEY_CTX_free(context) }
        var made: OpaquePointer?
        // Every string an OSSL_PARAM points at must outlive the call that reads it.
        var bytes = point
        let status: Int32 = OSSL_PKEY_PARAM_GROUP_NAME.withCString { groupKey in
            OSSL_PKEY_PARAM_PUB_KEY.withCString { publicKey in
                "P-256".withCString { group in
                    bytes.withUnsafeMutableBytes { raw in
                        var parameters = [
                            OSSL_PARAM_construct_utf8_string(groupKey, UnsafeMutablePointer(mutating: group), 0),
                            OSSL_PARAM_construct_octet_string(publicKey, raw.baseAddress, raw.count),
                            OSSL_PARAM_construct_end(),
                        ]
                        guard EVP_PKEY_fromdata_init(context) == 1 else { return 0 }
                        return EVP_PKEY_fromdata(context, &made, CLibCryptoPublicKeySelection, &parameters)
                    }
                }
            }
        }
        guard status == 1, let made else { throw QuickShareError.cryptography("the peer's key is not a P-256 point") }
        // fromdata takes any bytes: the point is checked here.
        guard let check = EVP_PKEY_CTX_new_from_pkey(nil, made, nil) else {
            EVP_PKEY_free(made)
            throw QuickShareError.cryptography("no key check")
        }
        defer { EVP_PKEY_CTX_free(check) }
        guard EVP_PKEY_public_check(check) == 1 else {
            EVP_PKEY_free(made)
            throw QuickShareError.cryptography("the peer's key is not a P-256 point")
        }
        return made
    }
}
