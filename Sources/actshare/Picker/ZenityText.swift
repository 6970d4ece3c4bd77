import ActShareCore

/// Text made safe for zenity's labels, which do not show their arguments as given.
///
/// zenity 3.44 runs `--text` through `g_strcompress` (so `\n` and `\\` are escapes) and
/// then, for `--list` and `--progress`, through Pango markup (so `&` or `<` in a file name
/// blanks the label), and for `--entry` through GTK's mnemonics (so `_` vanishes).
enum ZenityText {
    /// `text` for a label that is read as Pango markup.
    static func markup(_ text: String) -> String {
        MarkupText.escaped(TerminalText.visible(text), also: ["\\": "\\\\"])
    }

    /// `text` for a label that is read with mnemonics (`_` marks an access key).
    static func mnemonic(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "_": escaped += "__"
            case "\\": escaped += "\\\\"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
