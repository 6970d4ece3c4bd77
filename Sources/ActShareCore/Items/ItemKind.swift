/// What an item is: a local file, a URL, a piece of text, or raw bytes.
///
/// The raw values are the words used in manifests (`accepts.kinds`) and JSON output,
/// and the order matches `actshare_item_kind` in `provider.h`.
public enum ItemKind: String, Sendable, CaseIterable, Hashable {
    case file
    case url
    case text
    case data

    /// The `actshare_item_kind` value of this kind.
    public var cValue: Int32 {
        switch self {
        case .file: return 0
        case .url: return 1
        case .text: return 2
        case .data: return 3
        }
    }

    /// The kind for an `actshare_item_kind` value, if it is one.
    public init?(cValue: Int32) {
        guard let kind = ItemKind.allCases.first(where: { $0.cValue == cValue }) else { return nil }
        self = kind
    }
}
