/// A set of item kinds, as `accepts.kinds` lists them. A bit set: routing checks it for
/// every activity of every provider.
public struct ItemKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let file = ItemKinds(.file)
    public static let url = ItemKinds(.url)
    public static let text = ItemKinds(.text)
    public static let data = ItemKinds(.data)

    /// The set holding just `kind`.
    public init(_ kind: ItemKind) {
        self.init(rawValue: 1 << UInt8(kind.cValue))
    }

    /// Whether the set holds `kind`.
    public func contains(_ kind: ItemKind) -> Bool {
        contains(ItemKinds(kind))
    }
}
