import ActShareCore

/// What one device got of a `handoff send`, or why not: `handoff send --json` prints one
/// for each device.
public struct Delivery: Codable, Sendable, Equatable {
    /// A file as it arrived: its path inside the transfer, its bytes and their SHA-256 (empty
    /// for a LocalSend device, which checks none: docs/PROTOCOL.md, "LocalSend").
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
    /// Why the device did not get the files, in English.
    public var error: String?
    /// The same words as a phrase, for the CLI to say in its person's language.
    public var phrase: Phrase?
    /// A LocalSend device met for the first time: the fingerprint of its certificate, now
    /// pinned under its name.
    public var pinned: String?

    public init(device: String, delivered: [File] = [], received: [String] = [], transferred: UInt64 = 0, error: Phrase? = nil) {
        self.device = device
        self.delivered = delivered
        self.received = received
        self.transferred = transferred
        self.error = error?.description
        self.phrase = error
    }

    /// Why the device did not get the files, in the person's language.
    public var translatedError: String? {
        phrase?.translated ?? error
    }
}

