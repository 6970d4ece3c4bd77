/// A command line as words, split as a shell splits plain words and quotes, and never run
/// by a shell: no variables, globs, redirections or `;` (a handler's `exec`, an app's
/// `--needs-save-command`). A program that wants a shell names it: `sh -c '…'`.
public enum CommandWords {
    public static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
