import ActShareCore
#if canImport(Glibc)
import Glibc
#endif

/// The items actshare gave a sandboxed provider, as a restricted connection holds them
/// (`restrict`, docs/SECURITY.md): each opened when actshare named it, before the provider
/// ran, and kept open while the connection lasts.
///
/// A path the provider names is found from its item's descriptor down, one component at a
/// time and never through a link: a link the provider placed in an item folder it may
/// write, or an item swapped for one since, leads nowhere. What is found is listed with its
/// device and inode, and only that file is sent (``LocalTree/Item/openListedFile()``).
final class ItemGrants: Sendable {
    private struct Grant: Sendable {
        /// As actshare named it, without a trailing slash.
        let path: String
        /// `O_PATH`, opened as the user named it (a link the user chose is followed, as a
        /// send from the shell follows it).
        let descriptor: Int32
    }

    private let grants: [Grant]

    /// The items at `paths` (absolute), opened now; an item that cannot be opened grants
    /// nothing.
    init(paths: [String]) {
        grants = paths.compactMap { path -> Grant? in
            guard path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return nil }
            let fd = PathName.withCString(path) { Glibc.open($0, FileSystem.openPathOnly | O_CLOEXEC) }
            guard fd >= 0 else { return nil }
            var trimmed = path
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
            return Grant(path: trimmed, descriptor: fd)
        }
    }

    deinit { for grant in grants { close(grant.descriptor) } }

    /// `path` opened `O_PATH` from the item it is, or is beneath, without following a link;
    /// the caller closes it. Throws when no item holds it or a link is on the way.
    func open(_ path: String) throws(HandoffError) -> Int32 {
        guard path.hasPrefix("/"), !path.split(separator: "/").contains(".."),
              let grant = grants.first(where: { path == $0.path || path.hasPrefix($0.path == "/" ? "/" : $0.path + "/") })
        else { throw .transfer(.notAnItemOfTheProvider(path: path)) }
        let names = path.dropFirst(grant.path.count).split(separator: "/").filter { $0 != "." }.map(String.init)
        guard let last = names.last else {
            let fd = dup(grant.descriptor)
            guard fd >= 0 else { throw .transfer(.cannotStat(path: path, errno: errno)) }
            return fd
        }
        // The folders on the way, each opened without following a link (a link there fails
        // as a folder that is none, ENOTDIR, as FolderDescriptor words it)…
        let folder: FolderDescriptor
        switch FolderDescriptor.open(at: grant.descriptor, path: grant.path).flatMap({ $0.folder(names.dropLast().joined(separator: "/")) }) {
        case .success(let opened): folder = opened
        case .failure(let error): throw error.code == ELOOP || error.code == ENOTDIR ? .transfer(.linkNotFollowedForProvider(path: path)) : .transfer(.cannotStat(path: path, errno: error.code))
        }
        // …and the last name itself: a link there is opened as the link, and refused.
        let fd = folder.openFile(last, flags: FileSystem.openPathOnly)
        guard fd >= 0 else { throw .transfer(.cannotStat(path: path, errno: errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else {
            close(fd)
            throw .transfer(.linkNotFollowedForProvider(path: path))
        }
        return fd
    }
}
