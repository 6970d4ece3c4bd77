/// A type guessed from a name and/or some bytes.
public struct GuessedType: Equatable, Sendable {
    public var type: String
    /// The name's globs disagreed, or nothing but the fallback spoke: reading the file's
    /// first bytes may say more.
    public var uncertain: Bool
}
