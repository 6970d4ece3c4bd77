import ActShareCore
import ActShareHost

/// Shows a provider's progress and log lines on stderr.
///
/// Progress appears only on a terminal and never with `--json`. Warnings and errors are
/// always shown; info and debug lines only when `ACTSHARE_DEBUG` is set.
final class TerminalObserver: SessionObserver {
    private let showProgress: Bool
    private let verbose: Bool
    private var progressShown = false

    init(json: Bool) {
        showProgress = !json && StandardStreams.isTerminal(2)
        verbose = Environment.value("ACTSHARE_DEBUG").map { !$0.isEmpty && $0 != "0" } ?? false
    }

    func progress(_ fraction: Double, activity: String) {
        guard showProgress else { return }
        StandardStreams.err("\r\(activity): \(Int(fraction * 100))%")
        progressShown = true
    }

    func log(_ level: LogLevel, _ message: String, provider: String) {
        guard level >= .warning || verbose else { return }
        finishProgressLine()
        let label = level >= .warning ? "\(level == .error ? "error" : "warning"): " : ""
        StandardStreams.err("actshare: \(provider): \(label)\(message)\n")
    }

    /// Ends a progress line so the next output starts on its own line.
    func finishProgressLine() {
        if progressShown { StandardStreams.err("\n") }
        progressShown = false
    }
}
