/// One thing the user shares: a file, a URL, a text or some bytes, with its MIME type.
public struct Item: Sendable {
    public var kind: ItemKind
    /// File items: the absolute path.
    public var path: String?
    /// URL items: the URL. File items: their file:// URI.
    public var url: String?
    /// Text items: the text.
    public var text: String?
    /// Data items: the bytes (text items keep theirs in ``text``).
    public var data: [UInt8]?
    /// A freedesktop MIME type.
    public var contentType: String
    /// Bytes: a file's size, a text's UTF-8 length, the data's length, a URL's length.
    public var size: UInt64
    /// File items a program handed over with the file's identity (the D-Bus service's):
    /// checked to name that file by a path through no link, and granted to a sandbox only
    /// while it still does, so that a path swapped for a link later grants nothing.
    public var pinned = false

    public init(kind: ItemKind, path: String? = nil, url: String? = nil, text: String? = nil,
                data: [UInt8]? = nil, contentType: String, size: UInt64) {
        self.kind = kind
        self.path = path
        self.url = url
        self.text = text
        self.data = data
        self.contentType = contentType
        self.size = size
    }

    /// A file item for an existing path, typed by name and content.
    public static func file(_ path: String, status: FileSystem.Status) -> Item {
        Item(kind: .file, path: path, url: FileURI.make(path), contentType: ContentType.of(path: path, status: status), size: status.size)
    }

    /// A URL item. Its type is `x-scheme-handler/SCHEME`, as freedesktop names URL handlers.
    public static func url(_ url: String) -> Item {
        let scheme = URLScheme.of(url)?.lowercased() ?? "unknown"
        return Item(kind: .url, url: url, contentType: "x-scheme-handler/\(scheme)", size: UInt64(url.utf8.count))
    }

    /// A text item: `text/plain`, or the text type it is known to be (standard input is
    /// sniffed, so HTML there stays `text/html`).
    ///
    /// Text a person typed (`--text`) is not sniffed: it is text, as a string is plain
    /// text in a share sheet, and sniffing would read shared-mime-info's database, which
    /// costs more than a copy.
    public static func text(_ text: String, contentType: String? = nil) -> Item {
        var type = contentType ?? ContentType.plainText
        if !ContentType.isA(type, ContentType.plainText) { type = ContentType.plainText }
        return Item(kind: .text, text: text, contentType: type, size: UInt64(text.utf8.count))
    }

    /// The URL scheme of a URL item, lowercased.
    public var urlScheme: String? {
        guard kind == .url, let url else { return nil }
        return URLScheme.of(url)?.lowercased()
    }

    /// The item's bytes for `item.data`: text and data as given, a URL's characters;
    /// nil for files, whose contents are read when a hook asks for them.
    public var inlineBytes: [UInt8]? {
        switch kind {
        case .text: return text.map { Array($0.utf8) }
        case .data: return data
        case .url: return url.map { Array($0.utf8) }
        case .file: return nil
        }
    }
}

extension Item {
    /// How messages name the item: a file's name, a URL, the start of a text, or the
    /// kind and size of data.
    public var displayName: String {
        switch kind {
        case .file: return path.map { PathName.display(FileSystem.baseName($0)) } ?? "a file"
        case .url: return url ?? "a URL"
        case .text:
            let text = self.text ?? ""
            return text.count > 24 ? "text \"\(text.prefix(24))…\"" : "text \"\(text)\""
        case .data: return "\(size) bytes of \(contentType)"
        }
    }
}
