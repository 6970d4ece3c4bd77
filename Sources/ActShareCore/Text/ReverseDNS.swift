/// Checks reverse-DNS names such as `org.example.hello.greet`.
public enum ReverseDNS {
    /// At least two dot-separated labels of ASCII letters, digits, `-` and `_`; the first
    /// starts with a letter; no label starts or ends with `-`.
    public static func isValid(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let first = labels.first?.first, first.isASCII, first.isLetter else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
    }
}
