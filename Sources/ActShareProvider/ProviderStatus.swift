@_exported import CActShare

/// How a prepare or perform hook ended (`ACTSHARE_STATUS_*`).
public enum ProviderStatus: Int32, Sendable {
    /// Completed.
    case done = 0
    /// Failed: say why with ``ProviderSession/setError(_:)`` (or throw).
    case failed = 1
    /// The user cancelled: a normal outcome.
    case cancelled = 2
    /// The items or options cannot be used as given; nothing was done.
    case badInput = 3
}
