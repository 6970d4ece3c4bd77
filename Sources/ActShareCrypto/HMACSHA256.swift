import CNIOBoringSSL

/// HMAC-SHA256 (RFC 2104) and HKDF-SHA256 (RFC 5869): what UKEY2's key schedule and a
/// SecureMessage's signature are made of.
public enum HMACSHA256 {
    /// The 32-byte HMAC-SHA256 of `bytes` under `key`.
    public static func authenticationCode(key: [UInt8], _ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var length: UInt32 = 0
        let made = HMAC(EVP_sha256(), key, key.count, bytes, bytes.count, &out, &length)
        // HMAC fails only when it cannot allocate, which Swift's own allocations trap on too.
        precondition(made != nil && length == 32, "HMAC-SHA256 failed")
        return out
    }

    /// Whether `code` is the HMAC-SHA256 of `bytes` under `key`, compared in constant time.
    public static func isAuthentic(_ bytes: [UInt8], code: [UInt8], key: [UInt8]) -> Bool {
        ConstantTime.isEqual(code, authenticationCode(key: key, bytes))
    }

    /// `length` bytes (1 to 8,160) derived by HKDF-SHA256 from `key`, `salt` and `info`;
    /// an empty salt is a hash's length of zeros (RFC 5869, 2.2).
    public static func derive(_ key: [UInt8], salt: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        guard (1...255 * 32).contains(length) else { throw CryptoError.wrongLength("HKDF-SHA256 gives 1 to 8160 bytes") }
        var out = [UInt8](repeating: 0, count: length)
        guard HKDF(&out, length, EVP_sha256(), key, key.count, salt, salt.count, info, info.count) == 1 else {
            throw CryptoError.failed("HKDF-SHA256")
        }
        return out
    }
}
