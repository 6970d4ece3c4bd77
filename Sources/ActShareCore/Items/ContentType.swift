import CGIO
#if canImport(Glibc)
import Glibc
#endif

/// Freedesktop MIME types through GIO, which reads shared-mime-info with its subclass
/// and alias tables (`text/x-python` is a `text/plain`).
public enum ContentType {
    /// Every type that is not `inode/*` is one of these.
    public static let octetStream = "application/octet-stream"
    public static let plainText = "text/plain"

    /// The type of a local file the way `gio info` finds it: by name first, and by its
    /// first 4 KiB only when the name is not conclusive. Like GIO, an empty file is
    /// `text/plain` whatever its name (it is never read, as `/proc` files look empty).
    public static func of(path: String, status: FileSystem.Status) -> String {
        if status.isDirectory { return "inode/directory" }
        if !status.isRegular { return specialFileType(path) }
        if status.size == 0 { return plainText }
        let name = FileSystem.baseName(path)
        var uncertain: Int32 = 0
        let byName = guess(name: name, bytes: nil, uncertain: &uncertain)
        guard uncertain != 0 else { return byName }
        let head = (try? FileSystem.read(path, limit: 4096)) ?? []
        return guess(name: name, bytes: head, uncertain: &uncertain)
    }

    /// The type of some bytes, judged by their content alone.
    public static func sniff(_ bytes: [UInt8]) -> String {
        var uncertain: Int32 = 0
        return guess(name: nil, bytes: Array(bytes.prefix(4096)), uncertain: &uncertain)
    }

    /// Whether `type` is `supertype` or a subclass of it, aliases included.
    public static func isA(_ type: String, _ supertype: String) -> Bool {
        // Answered here when it can be, so that a text item never loads GIO.
        if type == supertype { return true }
        return cgio_content_type_is_a(type, supertype) != 0
    }

    /// Whether `type` matches a manifest pattern: `*/*`, `major/*` or a MIME type.
    ///
    /// A type matches a MIME type it is a subclass of. It matches `major/*` when its own
    /// major type is `major`, or when it is a subclass of a type under `major` that
    /// shared-mime-info relates it to; every text type is a `text/plain`, so
    /// `text/*` also takes `application/json` and shell scripts.
    public static func matches(_ type: String, pattern: String) -> Bool {
        if pattern == "*/*" || pattern == "*" { return true }
        if pattern.hasSuffix("/*") {
            let major = pattern.dropLast(2)
            if type.split(separator: "/").first == major { return true }
            if major == "text" { return isA(type, plainText) }
            let canonical = canonicalName(type)
            return canonical.split(separator: "/").first == major
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

    // MARK: GIO

    private static func guess(name: String?, bytes: [UInt8]?, uncertain: inout Int32) -> String {
        // The name as the file system has it (GIO matches globs on its bytes).
        func guess(_ cName: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
            guard let bytes else { return cgio_content_type_guess(cName, nil, 0, &uncertain) }
            return bytes.withUnsafeBufferPointer { buffer in cgio_content_type_guess(cName, buffer.baseAddress, buffer.count, &uncertain) }
        }
        let result = name.map { PathName.withCString($0, guess) } ?? guess(nil)
        guard let result else { return octetStream }
        defer { cgio_free(result) }
        return String(cString: result)
    }

    private static func canonicalName(_ type: String) -> String {
        guard let mime = cgio_content_type_get_mime_type(type) else { return type }
        defer { cgio_free(mime) }
        return String(cString: mime)
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
