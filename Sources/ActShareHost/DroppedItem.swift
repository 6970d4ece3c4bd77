/// An item a provider returned that actshare refused, and why.
public struct DroppedItem: Error, Sendable, Equatable {
    /// `file`, `url`, `text`, `data`, or the unknown kind given.
    public var kind: String
    /// The value as given, shown with `\xNN` for bytes that are not UTF-8.
    public var value: String
    /// Why it was refused: "there is no such file".
    public var reason: String

    public init(kind: String, value: String, reason: String) {
        self.kind = kind
        self.value = value
        self.reason = reason
    }
}
