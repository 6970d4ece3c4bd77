/// Recognises the one invocation a file manager makes on every right-click,
/// `actshare list [--json] ITEM…`, and runs it without argument-parser.
///
/// argument-parser builds its command tree by reflection, which costs about 1 ms at
/// start-up here: as much as the rest of `list` together. Only plain paths and URLs
/// and `--json` are recognised; anything else (a flag, `-`, `--help`, a value starting
/// with `-`) returns nil and goes through argument-parser as usual, so behaviour and
/// messages are defined there. The end-to-end tests compare both paths' output.
enum FastPath {
    /// The list request in `arguments` (without the program name), if it is that simple.
    static func listRequest(_ arguments: [String]) -> (ItemSelection, ActivitySelection)? {
        guard arguments.first == "list" else { return nil }
        var items = ItemSelection()
        var options = ActivitySelection()
        for argument in arguments.dropFirst() {
            if argument == "--json" {
                options.json = true
            } else if argument.isEmpty || argument.hasPrefix("-") {
                return nil
            } else {
                items.arguments.append(argument)
            }
        }
        return (items, options)
    }
}
