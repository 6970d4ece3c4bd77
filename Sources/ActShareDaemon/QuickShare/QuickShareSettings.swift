/// Quick Share's settings (config `handoff.quickshare`; docs/CONFIG.md).
public struct QuickShareSettings: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Phones' shares taken (asked about); sends to phones.
        case on
        /// No Quick Share port, nothing advertised.
        case off
        /// Phones' shares taken; nothing sent to them.
        case receiveOnly = "receive-only"
    }

    public var mode: Mode

    public init(mode: Mode = .on) {
        self.mode = mode
    }
}
