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

    func show(_ bytes: UInt64, of total: UInt64) {
        let now = Self.now()
        guard now - drawn >= 0.1, total > 0 else { return }
        drawn = now
        let fraction = min(1, Double(bytes) / Double(total))
        let filled = Int(fraction * 24)
        let rate = Double(bytes) / max(0.001, now - start)
        let left = rate > 0 ? Int((Double(total - min(bytes, total)) / rate).rounded(.up)) : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 24 - filled)
        StandardStreams.err("\r[\(bar)] \(Int(fraction * 100))%  \(ByteCount.describe(bytes)) of \(ByteCount.describe(total)), "
            + "\(ByteCount.describe(UInt64(rate)))/s, \(left) s left \u{1B}[K")
    }

    func finish() {
        if drawn > 0 { StandardStreams.err("\r\u{1B}[K") }
    }
}
