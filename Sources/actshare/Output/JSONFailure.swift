/// The `--json` result of a share or perform that failed before it ran (a missing file,
/// a bad option value): the same object a failed activity gives, so a script reading
/// standard output always gets one.
enum JSONFailure {
    /// Prints `{"activity","completed":false,"returned_items":[],"error"}` when
    /// `arguments` ask for JSON from `share` (the default command) or `perform`.
    static func printIfAsked(_ arguments: [String], error: String) {
        guard arguments.contains("--json"), !StandardStreams.wroteOutput.load(ordering: .relaxed), printsAResult(arguments) else { return }
        StandardStreams.out(JSONShapes.result(activity: activity(named: arguments), completed: false, returnedItems: [], error: error) + "\n")
    }

    /// Whether the command is `perform`, `share` or the default (share): the others print
    /// other shapes.
    private static func printsAResult(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return true }
        let others = ActShareCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        return first == "perform" || first == "share" || !others.contains(first)
    }

    /// The activity named: `perform TYPE`, or `-a`/`--activity TYPE`.
    private static func activity(named arguments: [String]) -> String? {
        if arguments.first == "perform" { return arguments.dropFirst().first { !$0.hasPrefix("-") } }
        guard let flag = arguments.firstIndex(where: { $0 == "-a" || $0 == "--activity" }), flag + 1 < arguments.count else { return nil }
        return arguments[flag + 1]
    }
}
