import ActShareCore
import ActShareHost

/// Shows a provider's progress (a bar) and log lines on stderr.
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
        // A bar of 20 cells redrawn in place: `activity [#########...........]  45%`.
        let clamped = min(1, max(0, fraction))
        let filled = Int(clamped * 20)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
        let percent = String(Int(clamped * 100))
        StandardStreams.err("\r\(activity) [\(bar)] \(String(repeating: " ", count: 3 - percent.count))\(percent)%")
        progressShown = true
    }

    func log(_ level: LogLevel, _ message: String, provider: String) {
        guard level >= .warning || verbose else { return }
        finishProgressLine()
        let label = level >= .warning ? "\(level == .error ? "error" : "warning"): " : ""
        StandardStreams.err("actshare: \(provider): \(label)\(TerminalText.visible(message))\n")
    }

    /// Ends a progress line so the next output starts on its own line.
    func finishProgressLine() {
        if progressShown { StandardStreams.err("\n") }
        progressShown = false
    }
}
