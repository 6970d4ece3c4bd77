/// The items a command was given, as plain values (see ``ItemOptions`` for the flags).
struct ItemSelection {
    /// Paths, URLs, and `-` for standard input.
    var arguments: [String] = []
    /// `--text` values.
    var texts: [String] = []
    /// `--type`: the MIME type of standard input.
    var stdinType: String?

    /// Whether standard input is read as an item.
    var readsStandardInput: Bool { arguments.contains("-") }
}
