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

    @Option(name: .customLong("items-from"), help: ArgumentHelp(
        "For programs: read the items, the subject and option values from descriptor FD (0: standard input), as one JSON object, so that they are not on the command line, which every user can read (docs/CLI.md).",
        valueName: "fd"))
    var itemsFrom: Int32?

    /// The items as plain values.
    var selection: ItemSelection {
        ItemSelection(arguments: items, texts: texts, stdinType: stdinType, itemsFrom: itemsFrom)
    }
}
