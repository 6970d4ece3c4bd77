import CLibCrypto

/// AES-256-CBC with PKCS #7 padding, as a SecureMessage's body is encrypted, and the
/// HMAC-SHA256 that signs it, in the system's libcrypto.
public enum AES256CBC {
    /// `plaintext` encrypted with the 32-byte `key` and 16-byte `iv`.
    public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        try run(plaintext, key: key, iv: iv, encrypting: true)
    }

    /// What `ciphertext` holds; a wrong key or a forged text mostly fails its padding, an
    /// error, never a crash (the caller checks the HMAC first, so no padding oracle).
    public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else { throw QuickShareError.cryptography("the ciphertext is not whole blocks") }
        return try run(ciphertext, key: key, iv: iv, encrypting: false)
    }

    /// Whether `signature` is the HMAC-SHA256 of `bytes` under `key`, compared in constant time.
    public static func isSigned(_ bytes: [UInt8], signature: [UInt8], key: [UInt8]) throws -> Bool {
        let expected = try SHA256.hmac(key: key, bytes)
        return signature.count == expected.count && CRYPTO_memcmp(signature, expected, expected.count) == 0
    }

    /// The HMAC-SHA256 of `bytes` under `key`.
    public static func signature(of bytes: [UInt8], key: [UInt8]) throws -> [UInt8] {
        try SHA256.hmac(key: key, bytes)
    }

    private static func run(_ input: [UInt8], key: [UInt8], iv: [UInt8], encrypting: Bool) throws -> [UInt8] {
        guard key.count == 32, iv.count == 16 else { throw QuickShareError.cryptography("AES-256-CBC takes a 32-byte key and a 16-byte IV") }
        guard let context = EVP_CIPHER_CTX_new() else { throw QuickShareError.cryptography("no cipher context") }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: input.count + 16)
        var written: Int32 = 0, last: Int32 = 0
        guard EVP_CipherInit_ex(context, EVP_aes_256_cbc(), nil, key, iv, encrypting ? 1 : 0) == 1,
              EVP_CipherUpdate(context, &output, &written, input, Int32(input.count)) == 1 else {
            throw QuickShareError.cryptography("AES-256-CBC failed")
        }
        let ended = output.withUnsafeMutableBufferPointer { EVP_CipherFinal_ex(context, $0.baseAddress! + Int(written), &last) }
        guard ended == 1 else { throw QuickShareError.cryptography(encrypting ? "AES-256-CBC failed" : "the message does not decrypt") }
        return Array(output.prefix(Int(written + last)))
    }
}
