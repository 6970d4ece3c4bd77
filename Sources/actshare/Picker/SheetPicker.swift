import ActShareCore
import ActShareHandoff
import ActShareHost
#if canImport(Glibc)
import Glibc
#endif

/// The share sheet's window, `actshare-sheet` (GTK 4), for launches without a terminal
/// on a desktop: what is shared at the top, the paired devices, a search field, and the
/// activities as a grid of icons in offer order. It then asks for options, shows the
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

    /// Opens the window on `offers` for `items`, over the application window
    /// `parentWindow` (`x11:XID` or `wayland:HANDLE`) if given.
    func open(offers: [Offer], items: [Item], parentWindow: String?) throws -> SheetSession {
        let session = try SheetSession(
            executable: executable, request: Self.request(offers: offers, items: items, parentWindow: parentWindow))
        if offers.contains(where: { $0.type == HandOffActivity.type }) { session.showPairedDevices() }
        return session
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

    /// A text's first line, at most 80 characters: what the header shows of shared text.
    static func firstLine(_ text: String) -> String {
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return line.count > 80 ? String(line.prefix(79)) + "…" : line
    }

    /// A size as people read it: 11 bytes, 248 KiB, 3.1 MiB.
    static func size(_ bytes: UInt64) -> String {
        if bytes < 1024 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes) / 1024
        var unit = "KiB"
        for next in ["MiB", "GiB", "TiB"] where value >= 1024 {
            value /= 1024
            unit = next
        }
        let tenths = Int((value * 10).rounded())
        return value >= 100 || tenths % 10 == 0 ? "\(Int(value.rounded())) \(unit)" : "\(tenths / 10).\(tenths % 10) \(unit)"
    }

    /// What the window shows, its first line of JSON (see Sources/actshare-sheet).
    static func request(offers: [Offer], items: [Item], parentWindow: String? = nil, performing: String? = nil) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        if items.count == 1 {
            let item = items[0]
            writer.member("heading", .string(item.path.map(FileSystem.baseName) ?? item.url ?? item.text.map(Self.firstLine) ?? item.displayName))
            writer.member("detail", .string(item.kind == .file ? Self.size(item.size) : nil))
            writer.member("content-type", .string(item.contentType))
            // One image: the window shows it small (it checks the file's size and pixels).
            if item.kind == .file, item.contentType.hasPrefix("image/"), let path = item.path {
                writer.member("thumbnail", .string(path))
            }
        } else {
            writer.member("heading", .string("\(items.count) items"))
            writer.member("detail", .string(nil))
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
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.text
    }
}
