import CNIOBoringSSL

/// SHA-256, incremental, over the BoringSSL that swift-nio-ssl links for TLS: the one
/// hash of the handoff daemon (transfers, pairing, the clipboard) and Quick Share.
///
/// A value type: a copy goes on from where the original was (transfers keep a part's
/// hasher and finish a copy of it). The daemon used swift-crypto for this and for the
/// identity's key, which linked a second BoringSSL, 5 MB (docs/PACKAGING.md); Quick
/// Share's first version used the system's libcrypto, a third copy.
///
/// `CNIOBoringSSL` is swift-nio-ssl's own copy of BoringSSL, which it does not promise
/// as API: a later swift-nio-ssl may change what this module and the daemon's
/// `SelfSignedIdentity` use, and they are all that would need changing.
public struct SHA256: Sendable {
    private var context = SHA256_CTX()

    public init() { SHA256_Init(&context) }

    /// The digest of `bytes`.
    public static func hash(data bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: bytes)
        return hasher.finalize()
    }

    public mutating func update(data bytes: [UInt8]) {
        bytes.withUnsafeBytes { update(bufferPointer: $0) }
    }

    public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        SHA256_Update(&context, base, bytes.count)
    }

    /// The digest of everything added; this value can still be added to.
    public func finalize() -> [UInt8] {
        var copy = context
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        SHA256_Final(&digest, &copy)
        return digest
    }
}
