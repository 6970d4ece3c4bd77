import CLibCrypto

/// SHA-256 and HMAC-SHA256 from the system's libcrypto: what HKDF and UKEY2 are made of.
enum SHA256 {
    static func digest(_ bytes: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_Digest(bytes, bytes.count, &out, &length, EVP_sha256(), nil) == 1, length == 32 else {
            throw QuickShareError.cryptography("SHA-256 failed")
        }
        return out
    }

    static func hmac(key: [UInt8], _ bytes: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length = 0
        guard EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, key, key.count, bytes, bytes.count, &out, out.count, &length) != nil,
              length == 32 else {
            throw QuickShareError.cryptography("HMAC-SHA256 failed")
        }
        return out
    }

    /// HKDF-SHA256 (RFC 5869): `length` bytes (at most 8,160) from `ikm`, `salt` and `info`.
    static func hkdf(_ ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        precondition(length <= 255 * 32)
        // An empty salt is a string of zeros as long as the hash (RFC 5869, 2.2).
        let key = try hmac(key: salt.isEmpty ? [UInt8](repeating: 0, count: 32) : salt, ikm)
        var out: [UInt8] = [], block: [UInt8] = []
        var counter: UInt8 = 1
        while out.count < length {
            block = try hmac(key: key, block + info + [counter])
            out += block
            counter &+= 1
        }
        return Array(out.prefix(length))
    }
}
