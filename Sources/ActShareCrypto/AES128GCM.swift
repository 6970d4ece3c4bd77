import CNIOBoringSSL

/// AES-128-GCM with a 12-byte nonce and a 16-byte tag, as a hidden Quick Share device
/// encrypts its name for whoever holds the QR code's key.
public enum AES128GCM {
    /// `plaintext` sealed with the 16-byte `key`: the ciphertext with its tag after it.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], authenticating data: [UInt8]) throws -> [UInt8] {
        try withContext(key: key, nonce: nonce) { context in
            var output = [UInt8](repeating: 0, count: plaintext.count + 16)
            var written = 0
            guard EVP_AEAD_CTX_seal(context, &output, &written, output.count, nonce, nonce.count, plaintext, plaintext.count, data, data.count) == 1 else {
                throw CryptoError.failed("AES-128-GCM")
            }
            return Array(output.prefix(written))
        }
    }

    /// What `sealed` (ciphertext, then the tag) holds; a wrong key or any changed byte
    /// fails with ``CryptoError/doesNotDecrypt``.
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], authenticating data: [UInt8]) throws -> [UInt8] {
        guard sealed.count >= 16 else { throw CryptoError.doesNotDecrypt }
        return try withContext(key: key, nonce: nonce) { context in
            var output = [UInt8](repeating: 0, count: sealed.count)
            var written = 0
            guard EVP_AEAD_CTX_open(context, &output, &written, output.count, nonce, nonce.count, sealed, sealed.count, data, data.count) == 1 else {
                ERR_clear_error()
                throw CryptoError.doesNotDecrypt
            }
            return Array(output.prefix(written))
        }
    }

    private static func withContext<T>(key: [UInt8], nonce: [UInt8], _ body: (UnsafeMutablePointer<EVP_AEAD_CTX>) throws -> T) throws -> T {
        guard key.count == 16, nonce.count == 12 else { throw CryptoError.wrongLength("AES-128-GCM takes a 16-byte key and a 12-byte nonce") }
        var context = EVP_AEAD_CTX()
        guard EVP_AEAD_CTX_init(&context, EVP_aead_aes_128_gcm(), key, key.count, 16, nil) == 1 else { throw CryptoError.failed("AES-128-GCM") }
        defer { EVP_AEAD_CTX_cleanup(&context) }
        return try body(&context)
    }
}
