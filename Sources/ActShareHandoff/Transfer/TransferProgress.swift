import ActShareCore

/// How far a send to one device is, in a `progress` event of `send-files`.
public struct TransferProgress: Codable, Sendable, Equatable {
    public var device: String
    public var bytes: UInt64
    public var total: UInt64

    public init(device: String, bytes: UInt64, total: UInt64) {
        self.device = device
        self.bytes = bytes
        self.total = total
    }

    /// "beta 60%, gamma 30%": each device's share, for a progress line.
    public static func describe(_ devices: [TransferProgress]) -> String {
        devices.map { part in
            let percent = part.total == 0 ? 100 : Int(min(1, Double(part.bytes) / Double(part.total)) * 100)
            return "\(TerminalText.visible(part.device)) \(percent)%"
        }.joined(separator: ", ")
    }
}
