import ActShareCore

/// A helper's private `$TMPDIR` as the provider names it and as actshare reaches it.
///
/// Where user namespaces are allowed the helper's worker (the process that runs the
/// provider, the first child of the helper actshare started) mounts a file system of its
/// own there, seen only in its mount namespace: actshare reaches it through the worker's
/// root, `/proc/PID/root` (the same user, so allowed), while the worker lives.
struct TemporaryDirectoryView: Sendable {
    /// The path the provider uses.
    let path: String
    /// The same folder, reachable from actshare.
    let view: String
    /// The most it may hold (the sandbox's `temporary-files` limit): also the most actshare
    /// places of it beside the items, however often a file is returned.
    let limit: UInt64

    init(path: String, helper pid: Int32, limit: UInt64) {
        self.path = path
        self.limit = limit
        view = "/proc/\(Self.worker(of: pid))/root" + path
    }

    /// The part of `path` beneath this folder, or nil if it is not in it.
    func relative(_ path: String) -> String? {
        let prefix = self.path.hasSuffix("/") ? self.path : self.path + "/"
        guard path.hasPrefix(prefix), path.utf8.count > prefix.utf8.count else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    /// Where actshare reaches `path`, when it is in this folder.
    func reached(_ path: String) -> String? {
        relative(path).map { FileSystem.join(view, $0) }
    }

    /// The helper's first child, its worker; the helper itself if it has none (it did
    /// not fork, or the kernel does not list children).
    private static func worker(of helper: Int32) -> Int32 {
        let children = (try? FileSystem.read("/proc/\(helper)/task/\(helper)/children", limit: 4096)) ?? []
        let first = children.prefix { $0 != 0x20 && $0 != 0x0A }
        return Int32(String(decoding: first, as: UTF8.self)) ?? helper
    }
}
