import CActShareSystem
#if canImport(Glibc)
import Glibc
#endif

/// A folder held open by descriptor, through which everything in it is made, written,
/// moved and removed (openat, mkdirat, renameat2, fchmod, unlinkat), each name opened with
/// `O_NOFOLLOW`: a link swapped in for a folder or a file meanwhile is refused (ELOOP,
/// ENOTDIR), never followed, so nothing is read, written or chmod-ed through it outside
/// the folder. Hand Off's receiver works through it, and so does the placing of files a
/// sandboxed provider made (`write: [beside-items]`).
public final class FolderDescriptor: Sendable {
    public let fd: Int32
    /// Its path, for messages only: never used to reach it again.
    public let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Opens the folder at `path`, which must not be a link (its last component; the
    /// errno otherwise).
    public static func open(_ path: String) -> Result<FolderDescriptor, Errno> {
        let fd = PathName.withCString(path) { Glibc.open($0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        return fd >= 0 ? .success(FolderDescriptor(fd: fd, path: path)) : .failure(Errno(errno))
    }

    /// The folder open on `descriptor` (any descriptor of it, `O_PATH` too; it stays the
    /// caller's), held by a descriptor of its own.
    public static func open(at descriptor: Int32, path: String) -> Result<FolderDescriptor, Errno> {
        let fd = PathName.withCString(".") { openat(descriptor, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        return fd >= 0 ? .success(FolderDescriptor(fd: fd, path: path)) : .failure(Errno(errno))
    }

    /// The folder `relative` (names separated by `/`) beneath this one, each step opened
    /// without following a link; with `creating`, missing ones are made with that mode.
    public func folder(_ relative: String, creating mode: mode_t? = nil) -> Result<FolderDescriptor, Errno> {
        var current = self
        for name in relative.split(separator: "/").map(String.init) {
            var child = PathName.withCString(name) { openat(current.fd, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            if child < 0, errno == ENOENT, let mode {
                guard PathName.withCString(name, { mkdirat(current.fd, $0, mode) }) == 0 || errno == EEXIST else { return .failure(Errno(errno)) }
                child = PathName.withCString(name) { openat(current.fd, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            }
            guard child >= 0 else { return .failure(Errno(errno)) }
            current = FolderDescriptor(fd: child, path: FileSystem.join(current.path, name))
        }
        return .success(current)
    }

    /// Opens the file `name` here (`O_NOFOLLOW` added to `flags`): a descriptor, or -1.
    public func openFile(_ name: String, flags: Int32, mode: mode_t = 0o600) -> Int32 {
        PathName.withCString(name) { openat(fd, $0, flags | O_NOFOLLOW | O_CLOEXEC, mode) }
    }

    /// Makes the folder `name` here.
    public func makeFolder(_ name: String, mode: mode_t) -> Errno? {
        PathName.withCString(name) { mkdirat(fd, $0, mode) } == 0 ? nil : Errno(errno)
    }

    /// What is at `name` here, a link itself and not what it points to; nil if nothing.
    public func status(_ name: String) -> stat? {
        var info = stat()
        return PathName.withCString(name, { fstatat(fd, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 ? info : nil
    }

    /// Moves `name` here to `target` in `folder`, only if nothing is there.
    public func move(_ name: String, to target: String, in folder: FolderDescriptor) -> Errno? {
        let moved = PathName.withCString(name) { from in PathName.withCString(target) { cactshare_renameat_noreplace(fd, from, folder.fd, $0) } }
        return moved == 0 ? nil : Errno(errno)
    }

    /// Removes `name` here: a file or link itself, a folder with all it holds.
    public func remove(_ name: String) {
        _ = PathName.withCString(name) { cactshare_remove_tree_at(fd, $0) }
    }

    /// Sets this folder's mode.
    public func setMode(_ mode: mode_t) { fchmod(fd, mode) }

    /// Sets the modification time of `name` here to now (a link's own).
    public func touch(_ name: String) {
        _ = PathName.withCString(name) { utimensat(fd, $0, nil, AT_SYMLINK_NOFOLLOW) }
    }

    /// The names in this folder (a second descriptor, so this one's offset is kept).
    public func names() -> [String] {
        let copy = PathName.withCString(".") { openat(fd, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = PathName.decode(FileSystem.entryName(entry))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// A system call's error number, with its words.
    public struct Errno: Error {
        public var code: Int32
        public init(_ code: Int32) { self.code = code }
        public var words: String { code == ELOOP || code == ENOTDIR ? "it is a link now, which is not followed" : String(cString: strerror(code)) }
    }
}
