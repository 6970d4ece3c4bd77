import ActShareCore

#if canImport(Glibc)
import Glibc
#endif

/// An output file granted alone to a sandboxed provider (``SandboxPolicy/outputFiles``):
/// made empty before the helper starts if it is not there, since a sandbox rule names only
/// what exists, and removed again when the helper is done if it is still the empty file
/// made here (the activity failed or wrote elsewhere): nothing is left under its name.
final class OutputFile {
    let path: String
    /// The file made here (device, inode), or nil when it was there already.
    private let made: (device: UInt64, inode: UInt64)?

    /// Makes `path` if missing (not through a link: O_NOFOLLOW and O_EXCL).
    init(_ path: String) {
        self.path = path
        let fd = PathName.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666) }
        var status = stat()
        if fd >= 0 && fstat(fd, &status) == 0 {
            made = (UInt64(status.st_dev), UInt64(status.st_ino))
        } else {
            made = nil
        }
        if fd >= 0 { close(fd) }
    }

    deinit {
        guard let made else { return }
        var status = stat()
        let same =
            PathName.withCString(path) { lstat($0, &status) } == 0 && UInt64(status.st_dev) == made.device
            && UInt64(status.st_ino) == made.inode && status.st_size == 0
        if same { _ = PathName.withCString(path) { unlink($0) } }
    }
}
