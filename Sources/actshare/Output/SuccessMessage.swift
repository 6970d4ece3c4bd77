import ActShareCore

/// The line that tells a person what a completed activity did: where its file went
/// ("Saved notes.pdf in ~/Documents"), or that it is done ("Copy: done.").
struct SuccessMessage {
    let line: String
    /// The file the activity made, to offer to open; nil when it made none.
    let file: String?

    init(title: String, returnedItems: [Item]) {
        let files = returnedItems.compactMap { $0.kind == .file ? $0.path : nil }
        file = files.count == 1 ? files[0] : nil
        guard let first = files.first else {
            line = "\(title): done."
            return
        }
        let folder = FileSystem.abbreviatingHome(FileSystem.directoryName(first))
        line = files.count == 1
            ? "Saved \(FileSystem.baseName(first)) in \(folder)"
            : "Saved \(files.count) files in \(folder)"
    }
}
