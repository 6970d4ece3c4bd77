/// The static rules of an activity: which items it can take, checked before any code loads.
public struct AcceptRules: Sendable {
    /// The kinds of item accepted; nil accepts every kind.
    public var kinds: ItemKinds?
    /// MIME types or patterns (`text/*`, `image/png`); subclasses match. Nil accepts all.
    public var contentTypes: [String]?
    /// URL schemes accepted for URL items (lowercase); nil accepts every scheme.
    public var urlSchemes: [String]?
    /// The fewest items the activity takes.
    public var minItems: Int
    /// The most items the activity takes, if limited.
    public var maxItems: Int?
    /// The largest total size of all items in bytes, if limited.
    public var maxTotalSize: UInt64?
    /// Whether every item must match, or any one.
    public var match: MatchMode

    public init(
        kinds: ItemKinds? = nil, contentTypes: [String]? = nil, urlSchemes: [String]? = nil,
        minItems: Int = 1, maxItems: Int? = nil, maxTotalSize: UInt64? = nil, match: MatchMode = .all
    ) {
        self.kinds = kinds
        self.contentTypes = contentTypes
        self.urlSchemes = urlSchemes
        self.minItems = minItems
        self.maxItems = maxItems
        self.maxTotalSize = maxTotalSize
        self.match = match
    }
}
