import ActShareCore
import ActShareHost
#if canImport(Glibc)
import Glibc
#endif

/// The share sheet's window, `actshare-sheet` (GTK 4), for launches without a terminal
/// on a desktop: what is shared at the top, the activities' targets (devices and people,
/// then applications), a search field, and the activities as a grid of icons in offer
/// order. It then asks for options, shows the
/// progress and the result (``SheetSession``).
struct SheetPicker {
    let executable: String

    /// The window could not be shown (no usable display, GTK could not start): a picker
    /// of `--picker auto` asks with zenity or kdialog instead.
    struct Unavailable: Error {
        var status: Int32
    }

    /// The window at `path`, when it is built and there is a display (X11 or Wayland).
    static func find(_ path: String) -> SheetPicker? {
        guard DialogPicker.hasDisplay, access(path, X_OK) == 0 else { return nil }
        return SheetPicker(executable: path)
    }

    /// Opens the window on `offers` and their `targets` for `items`, over the application
    /// window `parentWindow` (`x11:XID` or `wayland:HANDLE`) if given.
    func open(offers: [Offer], targets: [String: [ActivityTarget]], items: [Item], parentWindow: String?) throws -> SheetSession {
        try SheetSession(
            executable: executable, request: Self.request(offers: offers, targets: targets, items: items, parentWindow: parentWindow))
    }

    /// Opens the window for `offer`, chosen already (`--activity`): on its progress, to
    /// ask its options and show its result. Returns once the window is up; throws
    /// ``Unavailable`` when it could not be shown.
    func open(performing offer: Offer, items: [Item], parentWindow: String?) throws -> SheetSession {
        let session = try SheetSession(
            executable: executable,
            request: Self.request(offers: [offer], items: items, parentWindow: parentWindow, performing: offer.title))
        try session.waitUntilShown()
        return session
    }

    /// How many items' names the window shows for several (then "and N more").
    static let namesShown = 3

    /// What the window names an item by: a file's name, a URL, a text's first line.
    static func shownName(_ item: Item) -> String {
        item.path.map(FileSystem.baseName) ?? item.url ?? item.text.map(Self.firstLine) ?? item.displayName
    }

    /// A text's first line, at most 80 characters: what the header shows of shared text.
    static func firstLine(_ text: String) -> String {
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return line.count > 80 ? String(line.prefix(79)) + "…" : line
    }

    /// What the window shows, its first line of JSON (see Sources/actshare-sheet).
    static func request(offers: [Offer], targets: [String: [ActivityTarget]] = [:], items: [Item], parentWindow: String? = nil,
                        performing: String? = nil) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        if items.count == 1 {
            let item = items[0]
            writer.member("heading", .string(Self.shownName(item)))
            // The window words the size, in the person's language.
            if item.kind == .file { writer.member("size", .number(item.size)) }
            writer.member("content-type", .string(item.contentType))
            // One image: the window shows it small (it checks the file's size and pixels).
            if item.kind == .file, item.contentType.hasPrefix("image/"), let path = item.path {
                writer.member("thumbnail", .string(path))
            }
        } else {
            // Several: the window says how many, the first names and the total size.
            writer.member("count", .number(UInt64(items.count)))
            writer.member("size", .number(items.reduce(UInt64(0)) { $0 &+ ($1.kind == .file ? $1.size : 0) }))
            writer.key("names")
            writer.beginArray()
            for item in items.prefix(Self.namesShown) {
                writer.value(.string(Self.shownName(item)))
            }
            writer.endArray()
        }
        if let parentWindow { writer.member("parent-window", .string(parentWindow)) }
        if let performing { writer.member("performing", .string(performing)) }
        writer.key("activities")
        writer.beginArray()
        for offer in offers {
            writer.beginObject()
            writer.member("type", .string(offer.type))
            writer.member("title", .string(offer.title))
            writer.member("image", .string(offer.image))
            writer.member("provider", .string(offer.providerID))
            // Its place among its provider's activities: a device two of them offer is one
            // tile, whose large button is the first's.
            if let (provider, _) = try? offer.declaration(), let position = provider.activities.firstIndex(where: { $0.type == offer.type }) {
                writer.member("position", .number(UInt64(position)))
            }
            JSONShapes.write(targets[offer.type] ?? [], to: &writer)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.text
    }
}
