/// One argument word of a declaratively bound hook (`args:` in a manifest).
public enum HookArgument: Sendable, Hashable {
    /// `item.path`: `const char *`, the item's path (NULL unless a file).
    case itemPath
    /// `item.uri`: `const char *`, a file:// URI or the URL.
    case itemURI
    /// `item.text`: `const char *`, the text of a text item (NULL otherwise).
    case itemText
    /// `item.content-type`: `const char *`, the MIME type.
    case itemContentType
    /// `item.size`: `uint64_t`, the size in bytes.
    case itemSize
    /// `item.data`: two arguments, `const void *` and `size_t`: the item's bytes
    /// (a file's contents, a text's UTF-8, a URL's characters).
    case itemData
    /// `items.count`: `size_t`, how many items there are.
    case itemsCount
    /// `activity.type`: `const char *`.
    case activityType
    /// `option.NAME`: `const char *`, the option's value or NULL.
    case option(String)
    /// `request`: `const actshare_request *`.
    case request
    /// `session`: `actshare_session *`.
    case session

    /// Parses a manifest word such as `item.path` or `option.greeting`.
    public init?(word: String) {
        switch word {
        case "item.path": self = .itemPath
        case "item.uri": self = .itemURI
        case "item.text": self = .itemText
        case "item.content-type": self = .itemContentType
        case "item.size": self = .itemSize
        case "item.data": self = .itemData
        case "items.count": self = .itemsCount
        case "activity.type": self = .activityType
        case "request": self = .request
        case "session": self = .session
        default:
            guard word.hasPrefix("option."), word.count > 7 else { return nil }
            self = .option(String(word.dropFirst(7)))
        }
    }

    /// The manifest word of this argument.
    public var word: String {
        switch self {
        case .itemPath: return "item.path"
        case .itemURI: return "item.uri"
        case .itemText: return "item.text"
        case .itemContentType: return "item.content-type"
        case .itemSize: return "item.size"
        case .itemData: return "item.data"
        case .itemsCount: return "items.count"
        case .activityType: return "activity.type"
        case .option(let name): return "option.\(name)"
        case .request: return "request"
        case .session: return "session"
        }
    }

    /// Whether this argument is per item, which makes the hook run once for each item.
    public var isPerItem: Bool {
        switch self {
        case .itemPath, .itemURI, .itemText, .itemContentType, .itemSize, .itemData: return true
        default: return false
        }
    }

    /// Every word a manifest may use, for messages (`option.NAME` stands for the family).
    public static let words = [
        "item.path", "item.uri", "item.text", "item.content-type", "item.size", "item.data",
        "items.count", "activity.type", "option.NAME", "request", "session",
    ]
}
