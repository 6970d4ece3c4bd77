import ActShareCore
import ActShareCrypto
import ActShareHandoff
#if canImport(Glibc)
import Glibc
#endif

/// What a `handoff send` of local paths offers: each file and folder under them, with the
/// local path it is read from.
///
/// A path the user names is followed if it is a symbolic link, as `cp` does; a link found
/// inside a folder is refused, and so is the whole transfer, before a byte is sent: a link
/// could point anywhere on this machine (`~/.ssh`), and the receiver never makes links.
/// FIFOs, devices and sockets are refused too. Each file is listed with its device and
/// inode, and the sender reads only that file: one swapped for another (a link to `~/.ssh`)
/// between the listing and its turn stops the send.
struct LocalTree {
    struct Item {
        var entry: TransferEntry
        /// Where it is read from: never a link (a link the user named is resolved here).
        var source: String
        /// The file's version (inode, size, modification time), for the transfer's id.
        var version: String = ""
        /// The file listed: its device and inode.
        var identity: (device: UInt64, inode: UInt64) = (0, 0)

        /// The file listed, opened to be read: not through a link, and only that file
        /// (PROTOCOL.md). One swapped in since stops the send before a byte of it goes.
        func openListedFile() throws(HandoffError) -> Int32 {
            let fd = PathName.withCString(source) { open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
            guard fd >= 0 else { throw .transfer(.sourceGone(path: source, errno: errno)) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                close(fd)
                throw .transfer(.sourceNotRegular(path: source))
            }
            guard UInt64(info.st_dev) == identity.device, UInt64(info.st_ino) == identity.inode else {
                close(fd)
                throw .transfer(.sourceReplaced(path: source))
            }
            return fd
        }
    }

    /// The most entries one transfer takes: the offer must fit one frame.
    static let maximumEntries = 20_000

    private(set) var items: [Item] = []

    var totalBytes: UInt64 { items.reduce(0) { $0 + $1.entry.size } }

    /// The transfer's id: the same for the same files, unchanged, so that sending them
    /// again resumes what a broken transfer left on the receiver (16 hex digits).
    var transferID: String {
        var hasher = SHA256()
        for item in items {
            hasher.update(data: Array("\(item.entry.path)\u{0}\(item.entry.kind.rawValue)\u{0}\(item.entry.size)\u{0}\(item.entry.mode)\u{0}\(item.version)\n".utf8))
        }
        return String(Hex.string(hasher.finalize()).prefix(16))
    }

    /// The tree of `paths`. With `grants` (a sandboxed provider's restricted connection),
    /// each path must be an item or beneath one, and is found from that item's descriptor
    /// without following a link, the one named included.
    init(paths: [String], grants: ItemGrants? = nil) throws {
        var names = Set<String>()
        for path in paths {
            var name = FileSystem.baseName(path)
            if name.isEmpty || name == "/" || name == "." || name == ".." { name = "files" }
            // Two items of one name (a/x and b/x) cannot sit side by side on the receiver.
            guard names.insert(name).inserted else {
                throw HandoffError.transfer(.twoItemsNamed(name))
            }
            let fd: Int32, source: String
            if let grants {
                fd = try grants.open(path)
                source = path
            } else {
                // Named by the user, a link is followed, as cp does: read from what it points to.
                source = FileSystem.resolved(path) ?? path
                fd = PathName.withCString(source) { open($0, FileSystem.openPathOnly | O_NOFOLLOW | O_CLOEXEC) }
                guard fd >= 0 else { throw HandoffError.transfer(.cannotStat(path: path, errno: errno)) }
            }
            defer { close(fd) }
            try add(fd, source: source, as: name)
        }
    }

    /// The file or folder open (`O_PATH`) on `fd`, read from `path`, and what is in it:
    /// listed through descriptors, so that a folder swapped for a link midway is not
    /// followed.
    private mutating func add(_ fd: Int32, source path: String, as name: String) throws {
        guard items.count < Self.maximumEntries else {
            throw HandoffError.transfer(.tooManyToSend(limit: Self.maximumEntries))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw HandoffError.transfer(.cannotStat(path: path, errno: errno)) }
        let mode = UInt32(info.st_mode) & 0o777
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard PathName.withCString(path, { access($0, R_OK) }) == 0 else {
                throw HandoffError.transfer(.unreadable(path: path, errno: errno))
            }
            let version = "\(info.st_ino):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            items.append(Item(entry: TransferEntry(path: name, kind: .file, size: UInt64(info.st_size), mode: mode), source: path, version: version,
                              identity: (UInt64(info.st_dev), UInt64(info.st_ino))))
        case S_IFDIR:
            items.append(Item(entry: TransferEntry(path: name, kind: .folder, size: 0, mode: mode), source: path))
            guard let children = FileSystem.contents(ofDirectoryAt: fd) else {
                throw HandoffError.transfer(.unreadable(path: path, errno: errno))
            }
            guard name.split(separator: "/").count < ReceivedName.maximumDepth else {
                throw HandoffError.transfer(.nestedTooDeep(path: path, limit: ReceivedName.maximumDepth))
            }
            for child in children {
                let childPath = FileSystem.join(path, child)
                let childFD = PathName.withCString(child) { openat(fd, $0, FileSystem.openPathOnly | O_NOFOLLOW | O_CLOEXEC) }
                guard childFD >= 0 else { throw HandoffError.transfer(.cannotStat(path: childPath, errno: errno)) }
                defer { close(childFD) }
                var childInfo = stat()
                guard fstat(childFD, &childInfo) == 0 else { throw HandoffError.transfer(.cannotStat(path: childPath, errno: errno)) }
                if childInfo.st_mode & S_IFMT == S_IFLNK {
                    throw HandoffError.transfer(.linkInFolder(path: childPath))
                }
                try add(childFD, source: childPath, as: name + "/" + child)
            }
        case S_IFLNK:
            throw HandoffError.transfer(.linkNotFollowedForProvider(path: path))
        default:
            throw HandoffError.transfer(.notFileOrFolder(path: path, kind: FileSystem.kindName(info.st_mode)))
        }
    }
}
