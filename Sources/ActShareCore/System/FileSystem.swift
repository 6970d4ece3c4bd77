#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Small, allocation-light file system helpers over libc.
///
/// Start-up time of `actshare list` matters, so the hot paths use `stat` and `read`
/// directly instead of Foundation's file APIs.
public enum FileSystem {
    /// Facts about a file from one `stat` call.
    public struct Status: Sendable, Equatable {
        public var size: UInt64
        public var isDirectory: Bool
        public var isRegular: Bool
        /// Modification time in nanoseconds since the epoch.
        public var modified: Int64
        /// Change time in nanoseconds; catches same-second edits that keep the size.
        public var changed: Int64
        public var inode: UInt64

        init(_ info: stat) {
            let type = info.st_mode & S_IFMT
            self.init(
                size: UInt64(info.st_size), isDirectory: type == S_IFDIR, isRegular: type == S_IFREG,
                modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
                inode: UInt64(info.st_ino))
        }

        public init(size: UInt64, isDirectory: Bool, isRegular: Bool, modified: Int64, changed: Int64, inode: UInt64) {
            self.size = size
            self.isDirectory = isDirectory
            self.isRegular = isRegular
            self.modified = modified
            self.changed = changed
            self.inode = inode
        }

        /// Whether both describe the same version of one file's contents.
        public func isSameVersion(as other: Status) -> Bool {
            size == other.size && modified == other.modified && changed == other.changed && inode == other.inode
        }
    }

    /// The executable `name` in the first folder of `$PATH` that has one (else in
    /// /usr/bin:/bin), or nil.
    public static func programOnPath(_ name: String) -> String? {
        pathList(Environment.value("PATH") ?? "/usr/bin:/bin").map { join($0, name) }.first { access($0, X_OK) == 0 }
    }

    /// The status of `path` (following links), or nil if it cannot be read.
    public static func status(_ path: String) -> Status? {
        var info = stat()
        guard PathName.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        return Status(info)
    }

    /// Why the directory at `path` cannot be searched and read ("Permission denied"), or
    /// nil if it can, or does not exist.
    public static func unreadableDirectory(_ path: String) -> String? {
        guard isDirectory(path) else { return nil }
        let result = PathName.withCString(path) { access($0, R_OK | X_OK) }
        guard result != 0, errno != ENOENT, errno != ENOTDIR else { return nil }
        return String(cString: strerror(errno))
    }

    public static func exists(_ path: String) -> Bool { PathName.withCString(path) { access($0, F_OK) } == 0 }

    /// The status of each file, in order. Files in one directory are looked up relative
    /// to it, which saves walking the whole path a thousand times over.
    public static func statuses(_ paths: [String]) -> [Status?] {
        var results: [Status?] = []
        results.reserveCapacity(paths.count)
        var directory: [UInt8] = []
        var directoryFD: Int32 = -1
        defer { if directoryFD >= 0 { close(directoryFD) } }
        for path in paths {
            // Byte-level work on the path's C string: no Strings are made per file.
            let found: Status? = path.withCString { cPath in
                guard let slash = strrchr(cPath, Int32(UInt8(ascii: "/"))) else { return FileSystem.status(path) }
                let parentLength = cPath.distance(to: slash)
                let sameParent = directoryFD >= 0 && parentLength == directory.count
                    && (parentLength == 0 || directory.withUnsafeBytes { memcmp($0.baseAddress!, cPath, parentLength) == 0 })
                if !sameParent {
                    if directoryFD >= 0 { close(directoryFD) }
                    directory = Array(UnsafeRawBufferPointer(start: cPath, count: parentLength))
                    directoryFD = open(parentLength == 0 ? "/" : String(decoding: directory, as: UTF8.self), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                }
                var info = stat()
                guard directoryFD >= 0, fstatat(directoryFD, slash + 1, &info, 0) == 0 else { return nil }
                return Status(info)
            }
            results.append(found)
        }
        return results
    }

    /// Whether `name` ends with `suffix` (ASCII), compared as bytes.
    public static func hasSuffix(_ name: String, _ suffix: StaticString) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            let count = suffix.utf8CodeUnitCount
            return bytes.count >= count && memcmp(bytes.baseAddress! + bytes.count - count, suffix.utf8Start, count) == 0
        }
    }

    public static func isDirectory(_ path: String) -> Bool { status(path)?.isDirectory ?? false }

    /// `path` with every link, `.` and `..` resolved (realpath), or nil if it cannot be.
    public static func resolved(_ path: String) -> String? {
        guard let pointer = PathName.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(pointer) }
        return PathName.decode(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
    }

    /// The name of a directory entry `readdir` returned, its bytes up to the NUL. Read in
    /// place: an entry is only as long as its name (`d_reclen`), so a copy of the whole
    /// `d_name` array would read past the end of the last entry of readdir's buffer.
    public static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> UnsafeRawBufferPointer {
        let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)))
    }

    /// The names in a directory in byte order, without `.` and `..`, each after `prefix`
    /// (say the directory and a slash, for full paths); nil if it cannot be read.
    public static func contents(ofDirectory path: String, prefixedWith prefix: String = "") -> [String]? {
        guard let dir = opendir(path) else { return nil }
        return contents(of: dir, prefixedWith: prefix)
    }

    /// Linux's `O_PATH` (a descriptor that names a file without opening it for reading):
    /// Glibc's module does not export it, as it is behind `_GNU_SOURCE`.
    public static let openPathOnly: Int32 = 0o10_000_000

    /// The names in the directory open on `descriptor` (any open descriptor of it, `O_PATH`
    /// too; it stays open), as ``contents(ofDirectory:prefixedWith:)`` lists them.
    public static func contents(ofDirectoryAt descriptor: Int32, prefixedWith prefix: String = "") -> [String]? {
        let fd = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard let dir = fdopendir(fd) else {
            close(fd)
            return nil
        }
        return contents(of: dir, prefixedWith: prefix)
    }

    private static func contents(of dir: OpaquePointer, prefixedWith prefix: String) -> [String]? {
        defer { closedir(dir) }
        // The names are collected in one buffer and sorted there by memcmp (the C locale's
        // order), before any String is made: sorting Strings costs far more.
        var buffer: [UInt8] = []
        var names: [(start: Int, count: Int)] = []
        while let entry = readdir(dir) {
            let name = entryName(entry)
            if (name.count == 1 && name[0] == UInt8(ascii: ".")) || (name.count == 2 && name[0] == UInt8(ascii: ".") && name[1] == UInt8(ascii: ".")) {
                continue
            }
            names.append((buffer.count, name.count))
            buffer.append(contentsOf: name)
        }
        return buffer.withUnsafeBytes { bytes in
            names.sort { left, right in
                let order = memcmp(bytes.baseAddress! + left.start, bytes.baseAddress! + right.start, min(left.count, right.count))
                return order != 0 ? order < 0 : left.count < right.count
            }
            let prefixBytes = Array(prefix.utf8)
            return names.map { name in
                String(unsafeUninitializedCapacity: prefixBytes.count + name.count) { storage in
                    _ = storage.initialize(from: prefixBytes)
                    _ = UnsafeMutableBufferPointer(rebasing: storage[prefixBytes.count...])
                        .initialize(from: UnsafeRawBufferPointer(rebasing: bytes[name.start..<name.start + name.count]))
                    return prefixBytes.count + name.count
                }
            }
        }
    }

    /// Reads up to `limit` bytes of a file (all of it by default).
    public static func read(_ path: String, limit: Int = .max) throws -> [UInt8] {
        let fd = PathName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw ioError("cannot read \(path)", errno) }
        defer { close(fd) }
        var info = stat()
        var bytes: [UInt8] = []
        // One buffer of the file's size, so a large index is not copied as it grows, and
        // reads of the same size (one byte more, to see it grow): a 64 KiB buffer for an
        // index of 800 bytes cost every list 16 page faults.
        let size = fstat(fd, &info) == 0 && info.st_size > 0 ? Int(info.st_size) + 1 : nil
        if let size { bytes.reserveCapacity(min(limit, size)) }
        var chunk = [UInt8](repeating: 0, count: min(limit, size ?? 65536, 65536))
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot read \(path)", errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// Why ``readToEnd(_:limit:)`` stopped.
    public enum ReadToEndFailure: Error {
        /// More than the limit came.
        case tooLarge
        /// The read failed with this errno.
        case failed(Int32)
    }

    /// read(2) of at most `count` bytes from `fd`, appended to `bytes`: what read returned
    /// (0 at the end, -1 with `errno` set). The buffer read into is not zeroed first: zeroing
    /// 64 KiB cost more than reading a reply of ten bytes from a helper.
    public static func read(_ fd: Int32, appendingTo bytes: inout [UInt8], atMost count: Int) -> Int {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { chunk.deallocate() }
        let result = Glibc.read(fd, chunk.baseAddress, count)
        let error = errno
        if result > 0 { bytes.append(contentsOf: chunk[0..<result]) }
        errno = error
        return result
    }

    /// Reads `fd` (a pipe, standard input) to its end, at most `limit` bytes.
    public static func readToEnd(_ fd: Int32, limit: Int) throws(ReadToEndFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let count = read(fd, appendingTo: &bytes, atMost: 65536)
            if count < 0 {
                if errno == EINTR { continue }
                throw .failed(errno)
            }
            if count == 0 { return bytes }
            guard bytes.count <= limit else { throw .tooLarge }
        }
    }

    /// `path` opened to read without blocking (the open of a FIFO waits for no writer), and
    /// the status of what was opened, so that what is read is what was checked; nil with
    /// `errno` set when either fails.
    private static func openWithoutBlocking(_ path: String) -> (fd: Int32, status: stat)? {
        let fd = PathName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            errno = code
            return nil
        }
        return (fd, info)
    }

    /// The first `count` bytes of a regular file (fewer if it is shorter), or nil when it
    /// is not one or cannot be read. Opened without blocking and checked after the open,
    /// so a FIFO put in its place after a `stat` cannot hold the caller.
    public static func readHead(_ path: String, count: Int) -> [UInt8]? {
        guard let (fd, info) = openWithoutBlocking(path) else { return nil }
        defer { close(fd) }
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        // Sized by the file (one byte more, to see it grow), not by `count`: a cache's
        // bound is far above its size.
        let wanted = min(count, max(Int(info.st_size), 0) + 1)
        // Read into memory not zeroed first: the MIME cache is 150 KiB, read at every list.
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            var filled = 0
            while filled < wanted {
                let read = Glibc.read(fd, buffer.baseAddress! + filled, wanted - filled)
                if read < 0 && errno == EINTR { continue }
                guard read >= 0 else { failed = true; break }
                if read == 0 { break }
                filled += read
            }
            initialized = filled
        }
        return failed ? nil : bytes
    }

    /// Reads a regular file of at most `limit` bytes, or says why not: a FIFO would block
    /// the read forever, a device (`/dev/zero`) never end, a huge file fill memory.
    /// Opened without blocking, so not even the open of a FIFO waits.
    public static func readRegularFile(_ path: String, limit: Int) throws -> [UInt8] {
        guard let (fd, info) = openWithoutBlocking(path) else { throw ioError("cannot read \(path)", errno) }
        defer { close(fd) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ActShareError(.io, "\(path) is \(kindName(info.st_mode)), not a regular file")
        }
        guard info.st_size <= limit else {
            throw ActShareError(.io, "\(path) is \(info.st_size) bytes; at most \(describe(bytes: limit)) is read")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size) + 1)
        while true {
            let count = read(fd, appendingTo: &bytes, atMost: min(max(Int(info.st_size) + 1 - bytes.count, 4096), 65536))
            if count < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot read \(path)", errno)
            }
            if count == 0 { break }
            // It grew while being read.
            guard bytes.count <= limit else { throw ActShareError(.io, "\(path) is larger than \(describe(bytes: limit)); at most that is read") }
        }
        return bytes
    }

    /// `limit` in the largest binary unit that divides it: "1 MiB", "64 KiB", "100 bytes".
    public static func describe(bytes: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) bytes"
    }

    /// "a FIFO", "a device", "a socket", "a directory": what a path is when not a file.
    public static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a directory"
        case S_IFREG: return "a regular file"
        default: return "a special file"
        }
    }

    /// Reads a whole file as UTF-8 text (invalid bytes are replaced).
    public static func readText(_ path: String) throws -> String {
        String(decoding: try read(path), as: UTF8.self)
    }

    /// Writes `bytes` to `path` atomically: a temporary file beside it (of `mode`), then rename.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws {
        let temporary = "\(path).tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ioError("cannot write \(temporary)", errno) }
        guard writeAll(bytes, to: fd) else {
            let code = errno
            close(fd)
            unlink(temporary)
            throw ioError("cannot write \(temporary)", code)
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw ioError("cannot write \(path)", code)
        }
    }

    /// Removes the file `path` (a link itself, never what it points to): whether there was
    /// one to remove.
    @discardableResult
    public static func removeFile(_ path: String) throws -> Bool {
        guard PathName.withCString(path, { unlink($0) }) == 0 else {
            if errno == ENOENT { return false }
            throw ioError("cannot delete \(path)", errno)
        }
        return true
    }

    /// Writes all of `bytes` to `fd`, retrying after interruptions; false on an error
    /// (`errno` says which).
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    /// Creates a directory and its parents (mode 0700 for new ones, as XDG asks).
    public static func createDirectories(_ path: String) throws {
        if isDirectory(path) { return }
        let parent = directoryName(path)
        if parent != path && !parent.isEmpty { try createDirectories(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw ioError("cannot create \(path)", errno)
        }
    }

    /// `path` made absolute against the working directory (not resolving links).
    public static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return join(currentDirectory, path)
    }

    public static var currentDirectory: String {
        guard let cwd = getcwd(nil, 0) else { return "/" }
        defer { free(cwd) }
        return PathName.decode(UnsafeRawBufferPointer(start: cwd, count: strlen(cwd)))
    }

    /// The directory part of a path (`/a/b` → `/a`, `b` → `.`).
    public static func directoryName(_ path: String) -> String {
        let utf8 = path.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        if slash == utf8.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component of a path.
    public static func baseName(_ path: String) -> String {
        let utf8 = path.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[utf8.index(after: slash)...])
    }

    public static func join(_ directory: String, _ name: String) -> String {
        if name.hasPrefix("/") { return name }
        return directory.hasSuffix("/") ? directory + name : "\(directory)/\(name)"
    }

    /// The non-empty parts of a colon-separated list such as `$XDG_DATA_DIRS`.
    public static func pathList(_ list: String, separator: Character = ":") -> [String] {
        var parts: [String] = []
        var current = ""
        for character in list {
            if character == separator {
                if !current.isEmpty { parts.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// The user's home directory, from `$HOME` or the password database.
    public static var homeDirectory: String {
        if let home = Environment.value("HOME"), !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }

    /// `~` and `~/…` expanded to the home directory.
    public static func expandingTilde(_ path: String) -> String {
        if path == "~" { return homeDirectory }
        if path.hasPrefix("~/") { return join(homeDirectory, String(path.dropFirst(2))) }
        return path
    }

    /// `path` with the home directory written `~` (the inverse of `expandingTilde`), for
    /// what people read.
    public static func abbreviatingHome(_ path: String) -> String {
        let home = homeDirectory
        guard home != "/" else { return path }
        if path == home { return "~" }
        return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }

    /// The path of the running executable (the kernel's link is already resolved).
    public static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func ioError(_ message: String, _ code: Int32) -> ActShareError {
        ActShareError(.io, "\(message): \(String(cString: strerror(code)))")
    }
}
