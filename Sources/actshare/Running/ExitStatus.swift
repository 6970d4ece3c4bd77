/// The exit codes of actshare, as DESIGN.md gives them.
enum ExitStatus: Int32 {
    /// The activity completed (or the command did what was asked).
    case completed = 0
    /// The activity failed.
    case failed = 1
    /// Bad usage or bad input.
    case badInput = 2
    /// No activity can perform on the items, or the named one is unknown or excluded.
    case noActivity = 3
    /// The user cancelled.
    case cancelled = 4
}
