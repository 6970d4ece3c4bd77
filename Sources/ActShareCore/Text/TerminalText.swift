/// Text from outside (a provider, a file name, a peer) made safe to show on a terminal.
///
/// A terminal obeys what it is sent: escape sequences move the cursor, rewrite lines
/// already shown, set the window title or (OSC 52) the clipboard; bidirectional overrides
/// reverse what is read; a line or paragraph separator starts a line that seems to be
/// someone else's. Each such character is shown as a visible escape instead (`\e`, `\x07`,
/// `\u{202E}`, `\u{2028}`); line feeds and tabs are kept. Bytes of a file name that are
/// not UTF-8 (PathName) show as `\xE9`.
public enum TerminalText {
    public static func visible(_ text: String) -> String {
        escaping(text, where: isHidden)
    }

    /// `text` as ``visible(_:)`` shows it, its line feeds and tabs escaped too: a name or
    /// other one-line field of a notice, where a line break would be a fake second line.
    public static func oneLine(_ text: String) -> String {
        escaping(text) { isHidden($0) || isControl($0) }
    }

    private static func escaping(_ text: String, where isHidden: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var shown = ""
        shown.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard isHidden(scalar) else {
                shown.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case PathName.escapeBase..<PathName.escapeBase + 0x80: shown += "\\x" + hex(scalar.value - PathName.escapeBase + 0x80, digits: 2)
            case 0x1B: shown += "\\e"
            case 0..<0x100: shown += "\\x" + hex(scalar.value, digits: 2)
            default: shown += "\\u{" + hex(scalar.value, digits: 4) + "}"
            }
        }
        return shown
    }

    /// What a terminal or a notification obeys rather than shows: C0 controls (line feed
    /// and tab too), DEL, C1 controls (NEL among them), the line and paragraph separators
    /// (U+2028, U+2029), and every bidirectional control: the marks (U+061C, U+200E,
    /// U+200F), embeddings, overrides and isolates.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)
            || value == 0x061C || value == 0x200E || value == 0x200F || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    /// What ``visible(_:)`` escapes: controls but line feed and tab, and the bytes of a
    /// file name that are not UTF-8.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        (isControl(scalar) && scalar != "\n" && scalar != "\t")
            || (PathName.escapeBase..<PathName.escapeBase + 0x80).contains(scalar.value)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
