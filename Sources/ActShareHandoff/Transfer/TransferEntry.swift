/// One file or folder of a transfer, as the sender offers it: its path inside the
/// transfer ("Photos/2024/a.jpg"), its kind, size and permission bits.
///
/// What a peer says here is hostile until checked: the receiver makes a name of each
/// path component with ``ReceivedName/sanitised(_:)`` and never trusts `size` beyond the
/// bytes that actually arrive.
public struct TransferEntry: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case file, folder
    }

    public var path: String
    public var kind: Kind
    public var size: UInt64
    /// Permission bits (`0o644`, `0o755`); set-id and sticky bits are never sent.
    public var mode: UInt32

    public init(path: String, kind: Kind, size: UInt64, mode: UInt32) {
        self.path = path
        self.kind = kind
        self.size = size
        self.mode = mode & 0o777
    }

    /// The path's components, "/"-separated.
    public var components: [Substring] { path.split(separator: "/", omittingEmptySubsequences: false) }
}
