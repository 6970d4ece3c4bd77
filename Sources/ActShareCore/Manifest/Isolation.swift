/// How a provider's library is run.
public enum Isolation: String, Sendable, CaseIterable {
    /// In a helper process of its own, so a fault cannot reach the host (the default).
    case process
    /// Inside the host process; for trusted providers only.
    case inProcess = "in-process"
}
