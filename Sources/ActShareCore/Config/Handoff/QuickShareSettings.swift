/// Quick Share's settings (config `handoff.quickshare`; docs/CONFIG.md).
public struct QuickShareSettings: Sendable, Equatable {
    public typealias Mode = ServiceMode

    public var mode: Mode
    /// `actshare-bluetooth-trigger`, which sends the Bluetooth LE signal that makes phones
    /// look for receivers; nil: the signal is not sent (said so where it matters).
    public var bluetoothTrigger: String?

    public init(mode: Mode = .on, bluetoothTrigger: String? = nil) {
        self.mode = mode
        self.bluetoothTrigger = bluetoothTrigger
    }
}
