/// A transfer that arrived here, as `handoff received` lists it.
public struct ReceivedTransfer: Codable, Sendable, Equatable {
    public var from: String
    /// The sender's device id.
    public var fromID: String
    /// Seconds since 1970.
    public var when: Double
    /// The top-level files and folders, where they are now.
    public var paths: [String]
    public var files: [Delivery.File]

    public init(from: String, fromID: String, when: Double, paths: [String], files: [Delivery.File]) {
        self.from = from
        self.fromID = fromID
        self.when = when
        self.paths = paths
        self.files = files
    }

    enum CodingKeys: String, CodingKey {
        case from, when, paths, files
        case fromID = "from_id"
    }

    public var bytes: UInt64 { files.reduce(0) { $0 + $1.bytes } }
}
