/// The activity types the user performed most recently, most recent first, kept in
/// `$XDG_STATE_HOME/actshare/recents` one type per line.
public struct Recents: Sendable {
    /// How many types are remembered.
    public static let limit = 50

    public private(set) var types: [String]
    public let file: String

    /// Reads the recents in `stateDirectory`; a missing or unreadable file is empty.
    public init(stateDirectory: String) {
        file = FileSystem.join(stateDirectory, "recents")
        let text = (try? FileSystem.readText(file)) ?? ""
        types = FileSystem.pathList(text, separator: "\n").filter { ReverseDNS.isValid($0) }
    }

    /// Deletes the list: whether there was one.
    @discardableResult
    public func forget() throws -> Bool {
        try FileSystem.removeFile(file)
    }

    /// Puts `type` first and saves the list.
    ///
    /// Nothing is written when `type` is first already: replacing a file costs about a
    /// millisecond on ext4 (the data is flushed before the rename), as much as a copy.
    public mutating func record(_ type: String) throws {
        if types.first == type { return }
        types.removeAll { $0 == type }
        types.insert(type, at: 0)
        if types.count > Self.limit { types.removeLast(types.count - Self.limit) }
        try FileSystem.createDirectories(FileSystem.directoryName(file))
        try FileSystem.writeAtomically(Array((types.joined(separator: "\n") + "\n").utf8), to: file)
    }
}
