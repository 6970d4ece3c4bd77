/// Whether one of the other apps' protocols the daemon speaks runs (config
/// `handoff.localsend`, `handoff.quickshare`; docs/CONFIG.md).
public enum ServiceMode: String, Sendable, CaseIterable {
    /// Announced and found; sends to their devices; their shares asked about.
    case on
    /// Nothing on the network for it.
    case off
    /// Announced, and their shares asked about; nothing sent to them.
    case receiveOnly = "receive-only"
}
