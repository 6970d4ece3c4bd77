import ActShareCore

/// Turns what a provider hands back with `return_item` into an item, or says why not.
enum ReturnedItem {
    /// The item for `kind` and `value`, or why it is refused: an unknown kind, a
    /// malformed content type, a file that does not exist, a URL without a scheme, text
    /// that is not UTF-8. A file in the helper's private `temporary` folder is looked for
    /// where actshare sees that folder (its items are settled by ``ReturnedFiles``).
    static func make(kind: Int32, value: [UInt8], contentType: [UInt8]?, temporary: TemporaryDirectoryView?) -> Result<Item, DroppedItem> {
        let shown = PathName.display(PathName.decode(value))
        func refuse(_ reason: String) -> Result<Item, DroppedItem> {
            .failure(DroppedItem(kind: ItemKind(cValue: kind)?.rawValue ?? "kind \(kind)", value: shown, reason: reason))
        }
        guard let itemKind = ItemKind(cValue: kind) else { return refuse("\(kind) is not an item kind (0 file, 1 url, 2 text, 3 data)") }
        var type: String?
        if let contentType {
            guard let text = String(validatingUTF8Bytes: contentType), ContentType.isValid(text) else {
                return refuse("its content type '\(PathName.display(PathName.decode(contentType)))' is not a MIME type")
            }
            type = text
        }
        switch itemKind {
        case .file:
            let path = FileSystem.absolute(PathName.decode(value))
            let seen = temporary?.reached(path) ?? path
            guard let status = FileSystem.status(seen) else { return refuse("there is no such file") }
            // Typed by its bytes where actshare sees them, named as the provider did.
            var file = Item.file(seen, status: status)
            file.path = path
            file.url = FileURI.make(path)
            if let type { file.contentType = type }
            return .success(file)
        case .url:
            guard let url = String(validatingUTF8Bytes: value), URLScheme.of(url) != nil else { return refuse("it is not a URL (no scheme)") }
            return .success(.url(url))
        case .text:
            guard let text = String(validatingUTF8Bytes: value) else { return refuse("it is text that is not UTF-8") }
            return .success(.text(text, contentType: type))
        case .data:
            return .success(Item(kind: .data, data: value, contentType: type ?? ContentType.sniff(value), size: UInt64(value.count)))
        }
    }
}
