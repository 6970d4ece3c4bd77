/// Quick Share's Bluetooth LE signal, the one that makes phones nearby look for a receiver
/// (docs/PROTOCOL.md, "Quick Share"): sent from an adapter, or not and why. The daemon
/// gives it with `send-qr`'s `bluetooth` event and with `discover`.
public struct BluetoothSignal: Codable, Sendable, Equatable {
    /// Why it is not sent: stable names for programs.
    public enum Unavailable: String, Codable, Sendable, CaseIterable {
        /// No system bus, or no BlueZ on it.
        case noBus = "no-bus", noBlueZ = "no-bluez"
        /// BlueZ has no adapter; none is powered; none can advertise over LE.
        case noAdapter = "no-adapter", poweredOff = "powered-off", noLE = "no-le"
        /// BlueZ refused the advertisement (too many, or another reason it gave).
        case refused
        /// actshare's helper that sends it is not installed, or did not answer.
        case noHelper = "no-helper", failed
    }

    /// The adapter it is sent from (`hci0`), when it is.
    public var adapter: String?
    public var unavailable: Unavailable?

    public init(adapter: String) {
        self.adapter = adapter
    }

    public init(unavailable: Unavailable) {
        self.unavailable = unavailable
    }
}
