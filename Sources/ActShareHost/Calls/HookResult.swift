import ActShareCore

/// What a hook's raw return value means, the same wherever the hook ran.
enum HookResult {
    /// A can-perform answer (`verdict`: non-zero int32; `bool`).
    static func verdict(_ raw: UInt64, returns: HookReturn) -> Bool {
        returns == .bool ? (raw & 0xFF) != 0 : Int32(truncatingIfNeeded: raw) != 0
    }

    /// A prepare or perform outcome. A `string` hook succeeds when it returned a string
    /// (`text`, already copied), which becomes a returned text item.
    static func status(_ raw: UInt64, returns: HookReturn, text: String?) -> PerformOutcome.Status {
        switch returns {
        case .status, .verdict:
            switch Int32(truncatingIfNeeded: raw) {
            case 0: return .done
            case 2: return .cancelled
            case 3: return .badInput
            default: return .failed
            }
        case .bool: return (raw & 0xFF) != 0 ? .done : .failed
        case .string: return text == nil ? .failed : .done
        case .void: return .done
        }
    }
}

/// Turns what a provider hands back with `return_item` into an item, or refuses it.
enum ReturnedItem {
    /// The item for `kind` and `value`, or nil for a file that does not exist, a URL
    /// without a scheme, a malformed content type or an unknown kind.
    static func make(kind: Int32, value: String, contentType: String?) -> Item? {
        guard let itemKind = ItemKind(cValue: kind) else { return nil }
        if let contentType, !ContentType.isValid(contentType) { return nil }
        switch itemKind {
        case .file:
            let path = FileSystem.absolute(value)
            guard let status = FileSystem.status(path) else { return nil }
            var file = Item.file(path, status: status)
            if let contentType { file.contentType = contentType }
            return file
        case .url:
            return URLScheme.of(value) != nil ? .url(value) : nil
        case .text:
            return .text(value, contentType: contentType)
        case .data:
            let bytes = Array(value.utf8)
            return Item(kind: .data, data: bytes, contentType: contentType ?? ContentType.sniff(bytes), size: UInt64(bytes.count))
        }
    }
}
