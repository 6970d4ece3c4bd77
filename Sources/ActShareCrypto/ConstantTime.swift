import CNIOBoringSSL

/// Comparison whose time does not depend on where two secrets differ.
public enum ConstantTime {
    /// Whether `one` and `other` are the same bytes (their lengths are not secret).
    public static func isEqual(_ one: [UInt8], _ other: [UInt8]) -> Bool {
        one.count == other.count && CRYPTO_memcmp(one, other, one.count) == 0
    }
}
