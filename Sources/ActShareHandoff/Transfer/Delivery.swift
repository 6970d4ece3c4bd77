import ActShareCore

/// What one device got of a `handoff send`, or why not: `handoff send --json` prints one
/// for each device.
public struct Delivery: Codable, Sendable, Equatable {
    /// A file as it arrived: its path inside the transfer, its bytes and their SHA-256.
    public struct File: Codable, Sendable, Equatable {
        public var name: String
        public var bytes: UInt64
        public var sha256: String

        public init(name: String, bytes: UInt64, sha256: String) {
            self.name = name
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    public var device: String
    public var delivered: [File]
    /// The names the top-level items got on the device (`a (1).txt` when `a.txt` was there).
    public var received: [String]
    /// The bytes sent this time: less than the files' sizes when the device kept part of
    /// them from an interrupted attempt.
    public var transferred: UInt64
    /// Set when the device was not reachable and the files wait in the queue under this id.
    public var queued: String?
    public var error: String?

    public init(device: String, delivered: [File] = [], received: [String] = [], transferred: UInt64 = 0, error: String? = nil) {
        self.device = device
        self.delivered = delivered
        self.received = received
        self.transferred = transferred
        self.error = error
    }
}

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
