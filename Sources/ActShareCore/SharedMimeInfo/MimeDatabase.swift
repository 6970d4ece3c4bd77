/// shared-mime-info's database as GIO reads it: the `mime.cache` of `$XDG_DATA_HOME/mime`
/// and of each `$XDG_DATA_DIRS` entry's `mime/`, in that order, with GIO's rules for
/// names, magic, aliases and subclasses (its xdgmime), so a file has the type `gio info`
/// gives it.
///
/// Read directly rather than through GIO: loading libgio and the eight libraries under
/// it cost more than the rest of a `list` (docs/PACKAGING.md, "Start-up"). A directory
/// without a cache adds nothing (update-mime-database writes one wherever shared-mime-info
/// is installed); with none at all every file is `text/plain` or
/// `application/octet-stream`, as GIO's answer would be.
public final class MimeDatabase: Sendable {
    /// GIO's names for what no rule names.
    static let unknown = "application/octet-stream"
    static let plainText = "text/plain"
    static let empty = "application/x-zerosize"

    /// The most types a name's globs give (GIO's bound).
    static let nameMatchLimit = 10

    let caches: [MimeCache]

    init(caches: [MimeCache]) { self.caches = caches }

    /// The caches under `dataDirectories` (each `DIR/mime/mime.cache`), first first.
    public convenience init(dataDirectories: [String]) {
        self.init(caches: dataDirectories.compactMap { MimeCache(path: FileSystem.join($0, "mime/mime.cache")) })
    }

    /// The user's database, read at first use.
    public static let shared: MimeDatabase = {
        let xdg = XDGDirectories.fromEnvironment()
        return MimeDatabase(dataDirectories: [xdg.dataHome] + xdg.dataDirs)
    }()

    /// How many bytes of a file to read to sniff its type: as far as the magic rules look,
    /// at most 4 KiB (GIO's bound).
    public var sniffLength: Int {
        let extent = caches.map(\.magicExtent).max() ?? 0
        return extent == 0 || extent > 4096 ? 4096 : extent
    }

    /// The type an alias stands for, or `type` itself.
    public func canonicalType(_ type: String) -> String {
        for cache in caches {
            if let canonical = cache.canonicalType(ofAlias: type) { return canonical }
        }
        return type
    }

    /// Whether `type` is `base`, an alias of it, or a subclass of it. As in GIO, every
    /// `text/` type is a `text/plain`, everything but `inode/` types is an
    /// `application/octet-stream`, and a `base` of `major/*` takes every type under `major`.
    public func isSubclass(_ type: String, of base: String) -> Bool {
        let type = canonicalType(type), base = canonicalType(base)
        // Most questions are answered here, without a walk (list asks one per item and activity).
        if Self.matches(type, base) { return true }
        // The subclass graph comes from files on disk: each type is visited once (a cycle,
        // or a corrupt cache whose types each list 64 parents, would otherwise take
        // exponential time), and at most `visitLimit` of them.
        var pending = [type], seen = Set<String>()
        while let next = pending.popLast() {
            if Self.matches(next, base) { return true }
            guard seen.count < Self.visitLimit, seen.insert(next).inserted else { continue }
            for cache in caches { pending += (cache.parents(of: next) ?? []).map(canonicalType) }
        }
        return false
    }

    /// The most types one subclass question visits: shared-mime-info's deepest chains are
    /// a few types long, its widest a few dozen.
    static let visitLimit = 512

    /// Whether `type` is `base` itself, or in it by the rules no cache lists: a `type/*`,
    /// every `text/*` a `text/plain`, everything but `inode/*` an
    /// `application/octet-stream`.
    private static func matches(_ type: String, _ base: String) -> Bool {
        if type == base { return true }
        if base.hasSuffix("/*"), type.split(separator: "/").first == base.split(separator: "/").first { return true }
        if base == plainText && type.hasPrefix("text/") { return true }
        return base == unknown && !type.hasPrefix("inode/")
    }
}
