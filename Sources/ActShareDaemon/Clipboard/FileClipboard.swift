import ActShareCore

/// A list of files on the clipboard, in the formats file managers and text fields read —
/// the ones the Copy activity offers (docs/CLIPBOARD.md, "Targets by item kind"): made
/// from the paths where files copied on another device landed here.
enum FileClipboard {
    /// The targets of a list of files that are offered between devices; others (a file
    /// manager's private format) are left out of an offer of files.
    static let targets: Set<String> = [
        "text/uri-list", "x-special/gnome-copied-files", "x-special/mate-copied-files", "application/x-kde-cutselection",
        "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING", "TEXT",
    ]

    /// The local paths a `text/uri-list` names, if it names only files that are here;
    /// nil for anything else (web URLs, a missing file).
    static func paths(inURIList bytes: [UInt8]) -> [String]? {
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" })
        let uris = lines.map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard !uris.isEmpty else { return nil }
        var paths: [String] = []
        for uri in uris {
            guard let path = FileURI.path(of: uri), FileSystem.exists(path) else { return nil }
            paths.append(path)
        }
        return paths
    }

    /// `target`'s bytes for `paths`, or nil if it is not a format of files.
    static func bytes(for target: String, paths: [String]) -> [UInt8]? {
        let uris = paths.map(FileURI.make)
        switch target {
        case "text/uri-list":
            return Array(uris.map { $0 + "\r\n" }.joined().utf8)
        case "x-special/gnome-copied-files", "x-special/mate-copied-files":
            return Array((["copy"] + uris).joined(separator: "\n").utf8)
        case "application/x-kde-cutselection":
            return Array("0".utf8)
        case "STRING":
            // ISO-8859-1: what it lacks becomes `?`, as Copy does.
            return paths.joined(separator: "\n").unicodeScalars.map { $0.value < 0x100 ? UInt8($0.value) : UInt8(ascii: "?") }
        case "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "TEXT":
            return Array(paths.joined(separator: "\n").utf8)
        default:
            return nil
        }
    }
}
