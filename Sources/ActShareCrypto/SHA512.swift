import CNIOBoringSSL

/// SHA-512, of one whole message: UKEY2's commitment to the client's key.
public enum SHA512 {
    public static func hash(data bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA512_DIGEST_LENGTH))
        _ = CNIOBoringSSL.SHA512(bytes, bytes.count, &digest)
        return digest
    }
}
