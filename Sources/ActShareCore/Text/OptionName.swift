/// Option names: lowercase ASCII letters, digits and `-`, starting with a letter.
public enum OptionName {
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLowercase else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
    }
}
