import ActShareCore

/// Why something a LocalSend device sent is refused (docs/PROTOCOL.md, "LocalSend"). Every
/// field comes from another machine that proved nothing yet, so each is checked before use.
public enum LocalSendError: Error, Sendable, Equatable {
    /// More bytes than a message of its kind may have (the limit, in bytes).
    case tooLarge(limit: Int)
    /// Not a JSON object of the expected shape.
    case malformed
    /// A field that is missing or outside what the protocol allows: its name and why.
    case invalidField(String, String)
    /// A protocol version actshare does not speak (the version it gave).
    case unsupportedVersion(String)
}

extension LocalSendError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .tooLarge(let limit): return "a LocalSend message larger than \(limit) bytes, which is refused"
        case .malformed: return "a LocalSend message that is not the JSON object it should be"
        case .invalidField(let name, let why): return "a LocalSend message whose '\(name)' \(why)"
        case .unsupportedVersion(let version): return "LocalSend protocol version \(TerminalText.visible(version)), where actshare speaks 2.x"
        }
    }
}
