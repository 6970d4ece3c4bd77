import ActShareCore

/// Which activities a command may offer and with what values, as plain values (see
/// ``ActivityOptions`` for the flags).
struct ActivitySelection {
    var activity: String?
    var exclude: [String] = []
    var only: [String] = []
    /// `--target`: the id of a target the activity offers.
    var target: String?
    /// `-o` values, as given (`KEY=VALUE`).
    var options: [String] = []
    var subject: String?
    var json = false
    /// `--explain`: trace on standard error.
    var explain = false
    var picker: PickerStyle = .auto
    /// `--parent-window`: the application window the share sheet's window belongs to.
    var parentWindow: String?
    var config: String?
    /// Whether a program gave the items and option values (`--items-from`, the D-Bus
    /// service): then messages name options, not command-line flags it never typed.
    var fromProgram = false

    /// The trace `--explain` or `ACTSHARE_TRACE=1` asks for, if any.
    var trace: Trace? { explain ? .standardError : Trace.fromEnvironment }

    /// `-o` values split into names and values, or a usage failure naming the bad one.
    func optionPairs() throws -> [(name: String, value: String)] {
        try options.map { pair in
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                // A program gave `options` as names and values: said in its words, not a flag's.
                throw CommandFailure(.badInput, fromProgram ? "'options' has an option without a name (its value: '\(pair.drop { $0 != "=" }.dropFirst())')"
                                                            : "-o \(pair): expected KEY=VALUE")
            }
            return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
        }
    }
}
