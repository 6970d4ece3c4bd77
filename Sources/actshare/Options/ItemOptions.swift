import ArgumentParser

/// The items a command acts on.
struct ItemOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "Files, URLs (anything with a scheme, such as https: or mailto:), or - for standard input.",
        valueName: "item"), completion: .file())
    var items: [String] = []

    @Option(name: .customLong("text"), help: ArgumentHelp("Share this text as an item (repeatable).", valueName: "string"))
    var texts: [String] = []

    @Option(name: .customLong("type"), help: ArgumentHelp(
        "The MIME type of standard input, instead of detecting it (e.g. text/html).", valueName: "mime"))
    var stdinType: String?

    /// The items as plain values.
    var selection: ItemSelection {
        ItemSelection(arguments: items, texts: texts, stdinType: stdinType)
    }
}
