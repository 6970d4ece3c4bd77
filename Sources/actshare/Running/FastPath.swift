/// Recognises the invocations made on every right-click and every scripted copy or mail —
/// `actshare list [--json] ITEM…` and `actshare perform TYPE [--json] ITEM…` (items may
/// include `--text VALUE`, options `-o KEY=VALUE`, `--subject VALUE` and `--target ID`) — and runs them
/// without argument-parser.
///
/// argument-parser builds its command tree by reflection, which costs about 1 ms at
/// start-up here: as much as the rest of `list` together. Only plain paths and URLs,
/// `--text VALUE`, `-o`/`--option VALUE`, one `--subject VALUE`, one `-t`/`--target ID`, `--json` and `--explain` are
/// recognised (values are checked later, as on the other path); anything else (another flag, `-`,
/// `--help`, a path starting with `-`) returns nil and goes through argument-parser as
/// usual, so behaviour and messages are defined there. The end-to-end tests run both paths.
enum FastPath {
    /// A recognised command.
    enum Command {
        case list(ItemSelection, ActivitySelection)
        case perform(type: String, ItemSelection, ActivitySelection)
    }

    static func command(_ arguments: [String]) -> Command? {
        guard let verb = arguments.first, verb == "list" || verb == "perform" else { return nil }
        var items = ItemSelection()
        var options = ActivitySelection()
        var type: String?
        var rest = arguments.dropFirst()
        if verb == "perform" {
            guard let first = rest.first, !first.hasPrefix("-") else { return nil }
            type = first
            rest = rest.dropFirst()
        }
        while let argument = rest.popFirst() {
            if argument == "--json" {
                options.json = true
            } else if argument == "--explain" {
                options.explain = true
            } else if argument == "--text" {
                guard let text = rest.popFirst() else { return nil }
                items.texts.append(text)
            } else if argument == "-o" || argument == "--option" {
                guard let option = rest.popFirst() else { return nil }
                options.options.append(option)
            } else if argument == "--subject" {
                guard let subject = rest.popFirst(), options.subject == nil else { return nil }
                options.subject = subject
            } else if argument == "-t" || argument == "--target" {
                guard let target = rest.popFirst(), options.target == nil else { return nil }
                options.target = target
            } else if argument.isEmpty || argument.hasPrefix("-") {
                return nil
            } else {
                items.arguments.append(argument)
            }
        }
        if let type { return .perform(type: type, items, options) }
        return .list(items, options)
    }
}
