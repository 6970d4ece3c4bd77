/// URL schemes (RFC 3986): a letter, then letters, digits, `+`, `-` or `.`.
public enum URLScheme {
    public static func isValid(_ scheme: String) -> Bool {
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}

extension URLScheme {
    /// The scheme of `text` if it starts with one followed by `:`.
    public static func of(_ text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = String(text[..<colon])
        return isValid(scheme) && scheme.count > 1 ? scheme : nil
    }
}
