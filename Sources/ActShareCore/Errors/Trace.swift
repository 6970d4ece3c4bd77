/// Where `--explain` (or `ACTSHARE_TRACE=1`) writes why each thing happened: which
/// manifests and libraries were found, why each activity was or was not offered, every
/// hook call and its result, every returned item that was dropped.
///
/// Code that traces takes a `Trace?`; with none (the default) nothing is formatted.
/// Every line goes to standard error as one write, `actshare: explain: …`, with what a
/// provider supplied made visible (no control sequences reach the terminal).
public final class Trace: Sendable {
    private let sink: @Sendable (String) -> Void

    /// A trace that hands each line to `sink` (for tests and other front ends).
    public init(sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// The trace of the command line: standard error.
    public static let standardError = Trace { line in
        FileSystem.writeAll(Array("actshare: explain: \(TerminalText.visible(line))\n".utf8), to: 2)
    }

    /// The trace the environment asks for: `ACTSHARE_TRACE=1` (any value but empty or 0).
    public static var fromEnvironment: Trace? {
        guard let value = Environment.value("ACTSHARE_TRACE"), !value.isEmpty, value != "0" else { return nil }
        return standardError
    }

    /// Writes one line.
    public func callAsFunction(_ line: String) {
        sink(line)
    }
}
