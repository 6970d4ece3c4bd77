import CNIOBoringSSL

/// AES-256-CBC with PKCS #7 padding, as a Quick Share SecureMessage's body is encrypted.
/// A caller checks the body's HMAC (``HMACSHA256``) before decrypting it, so a wrong
/// padding is never an oracle.
public enum AES256CBC {
    /// `plaintext` encrypted with the 32-byte `key` and 16-byte `iv`.
    public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        try run(plaintext, key: key, iv: iv, encrypting: true)
    }

    /// What `ciphertext` holds; a wrong key or a forged text fails (mostly its padding):
    /// an error, never a crash.
    public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else { throw CryptoError.doesNotDecrypt }
        return try run(ciphertext, key: key, iv: iv, encrypting: false)
    }

    private static func run(_ input: [UInt8], key: [UInt8], iv: [UInt8], encrypting: Bool) throws -> [UInt8] {
        guard key.count == 32, iv.count == 16 else { throw CryptoError.wrongLength("AES-256-CBC takes a 32-byte key and a 16-byte IV") }
        var context = EVP_CIPHER_CTX()
        EVP_CIPHER_CTX_init(&context)
        defer { EVP_CIPHER_CTX_cleanup(&context) }
        var output = [UInt8](repeating: 0, count: input.count + 16)
        var written: Int32 = 0, last: Int32 = 0
        guard EVP_CipherInit_ex(&context, EVP_aes_256_cbc(), nil, key, iv, encrypting ? 1 : 0) == 1,
              EVP_CipherUpdate(&context, &output, &written, input, Int32(input.count)) == 1 else {
            throw CryptoError.failed("AES-256-CBC")
        }
        let ended = output.withUnsafeMutableBufferPointer { EVP_CipherFinal_ex(&context, $0.baseAddress! + Int(written), &last) }
        guard ended == 1 else {
            if encrypting { throw CryptoError.failed("AES-256-CBC") }
            throw CryptoError.doesNotDecrypt
        }
        return Array(output.prefix(Int(written + last)))
    }
}
