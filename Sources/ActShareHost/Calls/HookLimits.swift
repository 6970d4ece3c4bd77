/// The time limits of an isolated provider's hook calls.
///
/// `timeout` bounds a call that reports nothing: every can-perform call, and a prepare
/// or perform until its first report. Each report (progress, a log line, a returned
/// item, an error message) starts the idle limit anew, so a perform that keeps
/// reporting is not stopped however long it runs; the user can still cancel it.
struct HookLimits {
    var timeoutMilliseconds: Int
    var idleMilliseconds: Int

    /// "5s", "0.3s": a limit as a person writes it in a manifest.
    static func words(_ milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(Double(milliseconds) / 1000)s"
    }
}
