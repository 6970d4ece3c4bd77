import ActShareCore
import ActShareHost

/// The line that tells a person what a completed activity did: where its file went
/// ("Saved notes.pdf in ~/Documents"), or that it is done ("Copy: done.").
struct SuccessMessage {
    let line: String
    /// The file the activity made, to offer to open; nil when it made none.
    let file: String?

    init(offer: Offer, itemCount: Int, returnedItems: [Item]) {
        let files = returnedItems.compactMap { $0.kind == .file ? $0.path : nil }
        file = files.count == 1 ? files[0] : nil
        guard let first = files.first else {
            // Copy leaves nothing to show: how much it copied is the news.
            line = offer.type == CopyActivity.type
                ? Localized.plural("Copied %d item", "Copied %d items", count: itemCount, itemCount)
                : Localized.text("%s: done.", offer.title)
            return
        }
        // An image made with words of its own (Show QR Code: the code, and the text it
        // holds): the words are what the person reads under it.
        if files.count == 1, returnedItems.contains(where: { $0.kind == .file && $0.contentType == "image/png" }),
           let words = returnedItems.last(where: { $0.kind == .text })?.text {
            line = words
            return
        }
        let folder = FileSystem.abbreviatingHome(FileSystem.directoryName(first))
        line = files.count == 1
            ? Localized.text("Saved %s in %s", FileSystem.baseName(first), folder)
            : Localized.plural("Saved %d file in %s", "Saved %d files in %s", count: files.count, files.count, folder)
    }
}
