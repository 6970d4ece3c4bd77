import ActShareCore
import ActShareHandoff
#if canImport(Glibc)
import Glibc
#endif

/// One line on a terminal's standard error, redrawn: a bar, the bytes, the rate and the
/// time left. Drawn at most every 100 ms.
final class ProgressLine {
    private let start = ProgressLine.now()
    private var drawn = 0.0

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The whole, and with several devices each one's share after it.
    func show(_ bytes: UInt64, of total: UInt64, devices: [TransferProgress] = []) {
        let now = Self.now()
        guard now - drawn >= 0.1, total > 0 else { return }
        drawn = now
        let fraction = min(1, Double(bytes) / Double(total))
        let filled = Int(fraction * 24)
        let rate = Double(bytes) / max(0.001, now - start)
        let left = rate > 0 ? Int((Double(total - min(bytes, total)) / rate).rounded(.up)) : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 24 - filled)
        StandardStreams.err("\r[\(bar)] \(Int(fraction * 100))%  \(ByteCount.describe(bytes)) of \(ByteCount.describe(total)), "
            + "\(ByteCount.describe(UInt64(rate)))/s, \(left) s left" + Self.perDevice(devices) + " \u{1B}[K")
    }

    /// "  (beta 60%, gamma 30%)" for two devices or more.
    static func perDevice(_ devices: [TransferProgress]) -> String {
        devices.count > 1 ? "  (" + TransferProgress.describe(devices) + ")" : ""
    }

    func finish() {
        if drawn > 0 { StandardStreams.err("\r\u{1B}[K") }
    }
}
