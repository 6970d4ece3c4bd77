@_exported import CActShare

/// One thing the user shares, borrowed from the host for the length of the hook.
public struct ProviderItem {
    /// The kind of an item (`actshare_item_kind`).
    public enum Kind: Int32, Sendable {
        case file = 0, url = 1, text = 2, data = 3
    }

    let raw: actshare_item

    /// The kind, or nil for one this library does not know.
    public var kind: Kind? { Kind(rawValue: raw.kind) }
    /// A file's path. File names need not be UTF-8: ``pathBytes`` has them exactly.
    public var path: String? { raw.path.map { String(cString: $0) } }
    /// A file's path as bytes.
    public var pathBytes: [UInt8]? {
        raw.path.map { path in
            var length = 0
            while path[length] != 0 { length += 1 }
            return Array(UnsafeRawBufferPointer(start: path, count: length))
        }
    }
    /// A file's `file://` URI, or a URL item's URL.
    public var uri: String? { raw.uri.map { String(cString: $0) } }
    /// A text item's text.
    public var text: String? { raw.text.map { String(cString: $0) } }
    /// The freedesktop MIME type.
    public var contentType: String { raw.content_type.map { String(cString: $0) } ?? "application/octet-stream" }
    /// The size in bytes.
    public var size: UInt64 { raw.size }
    /// A text or data item's bytes (a file's are read from its path).
    public var data: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: raw.data, count: raw.data == nil ? 0 : raw.data_length) }
}
