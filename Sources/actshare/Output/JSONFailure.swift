/// The `--json` result of a share or perform that failed before it ran (a missing file,
/// a bad option value): the same object a failed activity gives, so a script reading
/// standard output always gets one.
enum JSONFailure {
    /// Prints `{"activity","completed":false,"returned_items":[],"error"}` when
    /// `arguments` ask for JSON from `share` (the default command) or `perform`.
    static func printIfAsked(_ arguments: [String], error: String) {
        guard arguments.contains("--json"), !StandardStreams.wroteOutput, let command = resultCommand(arguments) else { return }
        StandardStreams.out(JSONShapes.result(activity: command.activity, completed: false, returnedItems: [], error: error) + "\n")
    }

    /// The activity named, for `perform TYPE` or `share -a TYPE`; nil for commands with
    /// other output.
    private static func resultCommand(_ arguments: [String]) -> (activity: String?, Void)? {
        let others = ActShareCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
            .filter { $0 != "perform" && $0 != "share" }
        guard let first = arguments.first, !others.contains(first) else { return nil }
        if first == "perform" { return (arguments.dropFirst().first { !$0.hasPrefix("-") }, ()) }
        let named = arguments.firstIndex { $0 == "-a" || $0 == "--activity" }.flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        return (named, ())
    }
}
