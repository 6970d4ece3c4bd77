import ActShareCore
import ActShareHandoff
#if canImport(Glibc)
import Glibc
#endif

/// Files a sandboxed provider made in its private `$TMPDIR` and returned: that folder is
/// removed when its helper ends, so they are placed where the user keeps them or dropped
/// with a reason that says how to keep them.
///
/// With `write: [beside-items]` each goes into the folder of the first shared file as a
/// new file — under its own name made safe, `name (1).ext` when that is taken, never
/// replacing anything. actshare does this, not the sandbox: Landlock cannot allow making
/// a file without allowing to write the files already there. It reads the provider's file
/// through descriptors from the private directory down (`O_NOFOLLOW` at each step), so a
/// link the provider left there is refused, never followed to a file of the user's, and it
/// copies into a hidden partial file first: nothing incomplete under a real name. What it
/// places is bounded in total by the provider's `temporary-files` limit (a file returned
/// again is placed once, and a sparse file counts at its full size, as it is copied), and
/// each file only where the disk has room for it.
enum ReturnedFiles {
    /// The largest file placed (the helper's own file size limit is larger; a provider
    /// that makes more than this should write to an `output` folder).
    static let maximumBytes: UInt64 = 4 << 30

    /// `outcome`'s returned files that lie in the `temporary` folder, placed beside the first
    /// shared file (`besideItems`) or moved to the dropped items with their reason.
    static func settle(_ outcome: inout PerformOutcome, temporary: TemporaryDirectoryView, besideItems: Bool, request: ActivityRequest,
                       trace: Trace?) {
        let destination = request.items.first { $0.kind == .file }?.path.map(FileSystem.directoryName)
        var kept: [Item] = []
        var allowance = Allowance(limit: temporary.limit)
        for item in outcome.returnedItems {
            guard item.kind == .file, let path = item.path, let relative = temporary.relative(path) else {
                kept.append(item)
                continue
            }
            let result: Result<String, Failure>
            if !besideItems {
                result = .failure(.notDeclared)
            } else if let destination {
                result = place(relative, from: temporary.view, into: destination, allowance: &allowance)
            } else {
                result = .failure(.noFileShared)
            }
            switch result {
            case .success(let placed):
                trace?("placed returned file \(PathName.display(relative)) at \(PathName.display(placed))")
                var moved = item
                moved.path = placed
                moved.url = FileURI.make(placed)
                kept.append(moved)
            case .failure(let failure):
                let dropped = DroppedItem(kind: ItemKind.file.rawValue, value: PathName.display(path), reason: failure.reason)
                trace?("dropped a returned file item '\(dropped.value)': \(dropped.reason)")
                outcome.droppedItems.append(dropped)
            }
        }
        outcome.returnedItems = kept
    }

    /// Why a returned file was not placed.
    enum Failure: Error, Equatable {
        case notDeclared
        case noFileShared
        case notRegular
        case tooLarge
        /// More than the provider's `temporary-files` limit in all.
        case overTotal(limit: UInt64)
        case returnedAgain
        case noSpace(folder: String)
        case unsafeName
        case system(String)

        var reason: String {
            switch self {
            case .notDeclared:
                return "it is in the provider's private temporary folder, which is removed when it ends (a manifest with 'write: [beside-items]' has it placed beside the items)"
            case .noFileShared: return "there is no shared file to place it beside"
            case .notRegular: return "it is not a regular file in the provider's temporary folder (a link is not followed)"
            case .tooLarge: return "it is larger than \(ReturnedFiles.maximumBytes >> 30) GiB"
            case .overTotal(let limit):
                return "the files placed beside the items would come to more than the provider's temporary-files limit (\(ByteCount.describe(limit)))"
            case .returnedAgain: return "it was returned before, and is placed once"
            case .noSpace(let folder): return "\(PathName.display(folder)) has not enough free space for it"
            case .unsafeName: return "its name cannot be made safe"
            case .system(let words): return words
            }
        }
    }

    /// What may still be placed in one call: bytes, and the files placed already.
    struct Allowance {
        /// The provider's `temporary-files` limit.
        let limit: UInt64
        var used: UInt64 = 0
        /// The files placed, by device and inode.
        var placed = Set<[UInt64]>()
        var left: UInt64 { limit - used }
    }

    /// Copies the regular file `relative` (beneath `privateDirectory`, as actshare sees
    /// it) into `folder` as a new file, within `allowance`; its path there.
    static func place(_ relative: String, from privateDirectory: String, into folder: String, allowance: inout Allowance) -> Result<String, Failure> {
        let components = relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let last = components.last, !components.contains(".."), !components.contains("."),
              let name = ReceivedName.sanitised(last)
        else { return .failure(.unsafeName) }
        guard case .success(let root) = FolderDescriptor.open(privateDirectory),
              case .success(let parent) = root.folder(components.dropLast().joined(separator: "/"))
        else { return .failure(.notRegular) }
        let source = parent.openFile(last, flags: O_RDONLY | O_NONBLOCK)
        guard source >= 0 else { return .failure(.notRegular) }
        defer { close(source) }
        var info = stat()
        guard fstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegular) }
        guard UInt64(info.st_size) <= maximumBytes else { return .failure(.tooLarge) }
        let identity = [UInt64(info.st_dev), UInt64(info.st_ino)]
        guard !allowance.placed.contains(identity) else { return .failure(.returnedAgain) }
        guard UInt64(info.st_size) <= allowance.left else { return .failure(.overTotal(limit: allowance.limit)) }

        let target: FolderDescriptor
        switch FolderDescriptor.open(folder) {
        case .success(let opened): target = opened
        case .failure(let error): return .failure(.system("cannot open \(PathName.display(folder)): \(error.words)"))
        }
        var space = statvfs()
        guard fstatvfs(target.fd, &space) == 0, UInt64(info.st_size) <= UInt64(space.f_bavail) * UInt64(space.f_frsize) else {
            return .failure(.noSpace(folder: folder))
        }
        let partial = ".actshare-partial-\(UInt32.random(in: 0...UInt32.max))"
        let copy = target.openFile(partial, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        guard copy >= 0 else { return .failure(.system("cannot write in \(PathName.display(folder)): \(String(cString: strerror(errno)))")) }
        var placed: String?
        defer {
            close(copy)
            if placed == nil { target.remove(partial) }
        }
        if let problem = copyAll(from: source, to: copy, limit: min(maximumBytes, allowance.left)) {
            return .failure(problem == .tooLarge && allowance.left < maximumBytes ? .overTotal(limit: allowance.limit) : problem)
        }
        fchmod(copy, 0o644)
        var problem: FolderDescriptor.Errno?
        placed = ReceivedName.unique(name) { candidate in
            guard let error = target.move(partial, to: candidate, in: target) else { return false }
            if error.code == EEXIST { return true }
            problem = error
            return false
        }
        if let problem {
            placed = nil
            return .failure(.system("cannot place it in \(PathName.display(folder)): \(problem.words)"))
        }
        guard let placed else { return .failure(.system("every name for it in \(PathName.display(folder)) is taken")) }
        allowance.placed.insert(identity)
        allowance.used += UInt64(info.st_size)
        return .success(FileSystem.join(folder, placed))
    }

    /// Copies `source` to `target` to its end, at most `limit` bytes; the problem, if any.
    private static func copyAll(from source: Int32, to target: Int32, limit: UInt64) -> Failure? {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total: UInt64 = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .system("cannot read it: \(String(cString: strerror(errno)))") }
            if count == 0 { return nil }
            total += UInt64(count)
            // It grew after it was measured: the provider is still writing it.
            guard total <= limit else { return .tooLarge }
            guard FileSystem.writeAll(Array(buffer.prefix(count)), to: target) else {
                return .system("cannot write it: \(String(cString: strerror(errno)))")
            }
        }
    }
}
