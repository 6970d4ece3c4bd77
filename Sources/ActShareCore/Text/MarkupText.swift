/// Text made safe for a label read as markup (Pango's, the notification spec's): `&`, `<`
/// and `>` as entities, so a file name shows as written and does not blank the label.
public enum MarkupText {
    /// `text` escaped, and each character of `also` replaced as it says (zenity's `\\`).
    public static func escaped(_ text: String, also extra: [Character: String] = [:]) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped += extra[character] ?? String(character)
            }
        }
        return escaped
    }
}
