import ActShareCore

/// Receives what a provider reports while it works: progress and log lines.
public protocol SessionObserver: AnyObject {
    /// Progress of the running activity, from 0 to 1.
    func progress(_ fraction: Double, activity: String)
    /// A log line from the provider.
    func log(_ level: LogLevel, _ message: String, provider: String)
}

/// The levels of `actshare_log_level`.
public enum LogLevel: Int32, Sendable, Comparable {
    case debug = 0
    case info = 1
    case warning = 2
    case error = 3

    public static func < (left: LogLevel, right: LogLevel) -> Bool { left.rawValue < right.rawValue }
}
