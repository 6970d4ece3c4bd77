/// The items a command was given, as plain values (see ``ItemOptions`` for the flags).
struct ItemSelection {
    /// Paths, URLs, and `-` for standard input.
    var arguments: [String] = []
    /// `--text` values.
    var texts: [String] = []
    /// `--type`: the MIME type of standard input.
    var stdinType: String?
    /// `--items-from`: the descriptor the items are read from instead (``ItemRequest``).
    var itemsFrom: Int32?
    /// What was read from it (``resolved(_:)``).
    var request: ItemRequest?

    /// The selection with its request read, and `options` with the request's subject and
    /// options in them: once, before anything is read of the items.
    func resolved(_ options: ActivitySelection) throws -> (ItemSelection, ActivitySelection) {
        guard let itemsFrom, request == nil else { return (self, options) }
        var selection = self, options = options
        selection.request = try ItemRequest.read(from: itemsFrom)
        selection.request?.apply(to: &options)
        options.fromProgram = true
        return (selection, options)
    }

    /// Whether standard input is read as an item.
    var readsStandardInput: Bool { arguments.contains("-") }
}
