#if canImport(Glibc)
import Glibc
#endif

/// Freedesktop MIME types from shared-mime-info's database (``MimeDatabase``), with its
/// subclass and alias tables (`text/x-python` is a `text/plain`), as GIO gives them.
public enum ContentType {
    /// Every type that is not `inode/*` is one of these.
    public static let octetStream = "application/octet-stream"
    public static let plainText = "text/plain"

    /// The type of a local file the way `gio info` finds it: by name first, and by its
    /// first bytes (as far as the magic rules look, at most 4 KiB) only when the name is
    /// not conclusive. Like GIO, an empty file is
    /// `text/plain` whatever its name (it is never read, as `/proc` files look empty).
    public static func of(path: String, status: FileSystem.Status, database: MimeDatabase = .shared) -> String {
        if status.isDirectory { return "inode/directory" }
        if !status.isRegular { return specialFileType(path) }
        if status.size == 0 { return plainText }
        let name = PathName.bytes(FileSystem.baseName(path))
        let byName = database.guess(name: name, data: nil)
        guard byName.uncertain else { return byName.type }
        // Not a regular file any more (swapped since its stat), or unreadable: the name's word.
        guard let head = FileSystem.readHead(path, count: database.sniffLength) else { return byName.type }
        return database.guess(name: name, data: head).type
    }

    /// The type of some bytes, judged by their content alone.
    public static func sniff(_ bytes: [UInt8]) -> String {
        MimeDatabase.shared.guess(name: nil, data: Array(bytes.prefix(4096))).type
    }

    /// Whether `type` is `supertype` or a subclass of it, aliases included.
    public static func isA(_ type: String, _ supertype: String) -> Bool {
        // Answered here when it can be, so that a text item never reads the database.
        if type == supertype { return true }
        return MimeDatabase.shared.isSubclass(type, of: supertype)
    }

    /// Whether `type` matches a manifest pattern: `*/*`, `major/*` or a MIME type.
    ///
    /// A type matches a MIME type it is a subclass of. It matches `major/*` when its own
    /// major type is `major`, and `text/*` also when it is a subclass of `text/plain`
    /// (every text type is), so `text/*` takes `application/json` and shell scripts.
    public static func matches(_ type: String, pattern: String) -> Bool {
        if pattern == "*/*" || pattern == "*" { return true }
        if pattern.hasSuffix("/*") {
            let major = pattern.dropLast(2)
            if type.split(separator: "/").first == major { return true }
            return major == "text" && isA(type, plainText)
        }
        return isA(type, pattern)
    }

    /// Whether `pattern` is a MIME type or a wildcard a manifest may use.
    public static func isValidPattern(_ pattern: String) -> Bool {
        if pattern == "*/*" || pattern == "*" { return true }
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, isToken(parts[0]), parts[1] == "*" || isToken(parts[1]) else { return false }
        return true
    }

    /// Whether `type` is a well-formed MIME type (no wildcards).
    public static func isValid(_ type: String) -> Bool {
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && isToken(parts[0]) && isToken(parts[1])
    }

    private static func specialFileType(_ path: String) -> String {
        var info = stat()
        guard PathName.withCString(path, { stat($0, &info) }) == 0 else { return octetStream }
        switch info.st_mode & S_IFMT {
        case S_IFCHR: return "inode/chardevice"
        case S_IFBLK: return "inode/blockdevice"
        case S_IFIFO: return "inode/fifo"
        case S_IFSOCK: return "inode/socket"
        default: return octetStream
        }
    }

    private static func isToken<S: StringProtocol>(_ part: S) -> Bool {
        !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "!#$&-^_.+".contains($0)) }
    }
}
