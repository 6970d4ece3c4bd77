import ActShareCore

/// The folder the last file was written in, kept open: the files of a folder arrive one
/// after the other, and opening it again for each (with `O_NOFOLLOW` at every step) was a
/// third of a receiver's system calls for a folder of small files.
struct FolderCache {
    let root: FolderDescriptor
    private var last: (relative: String, folder: FolderDescriptor)?

    init(_ root: FolderDescriptor) {
        self.root = root
    }

    mutating func folder(_ relative: String) -> Result<FolderDescriptor, FolderDescriptor.Errno> {
        if let last, last.relative == relative { return .success(last.folder) }
        let opened = root.folder(relative)
        if case .success(let folder) = opened { last = (relative, folder) }
        return opened
    }
}
