/// Quick Share's settings (config `handoff.quickshare`; docs/CONFIG.md).
public struct QuickShareSettings: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Phones' shares taken (asked about); sends to phones.
        case on
        /// No Quick Share port, nothing advertised.
        case off
        /// Phones' shares taken; nothing sent to them.
        case receiveOnly = "receive-only"
    }

    public var mode: Mode
    /// `actshare-bluetooth-trigger`, which sends the Bluetooth LE signal that makes phones
    /// look for receivers; nil: the signal is not sent (said so where it matters).
    public var bluetoothTrigger: String?

    public init(mode: Mode = .on, bluetoothTrigger: String? = nil) {
        self.mode = mode
        self.bluetoothTrigger = bluetoothTrigger
    }
}
