/// A send waiting for its device to be reachable again (`handoff queue`): kept in
/// `$XDG_STATE_HOME/actshare/queue.json`, so a daemon restart loses nothing.
public struct QueuedTransfer: Codable, Sendable, Equatable {
    public var id: String
    /// The device's id and name.
    public var deviceID: String
    public var deviceName: String
    /// What is sent: the user's paths, or with `--copy` the copies made of them.
    public var paths: [String]
    public var copied: Bool
    /// Seconds since 1970.
    public var created: Double
    public var attempts: Int
    public var nextTry: Double
    public var lastError: String?

    public init(id: String, deviceID: String, deviceName: String, paths: [String], copied: Bool, created: Double) {
        self.id = id
        self.deviceID = deviceID
        self.deviceName = deviceName
        self.paths = paths
        self.copied = copied
        self.created = created
        attempts = 0
        nextTry = created
        lastError = nil
    }

    enum CodingKeys: String, CodingKey {
        case id, paths, copied, created, attempts
        case deviceID = "device_id", deviceName = "device_name", nextTry = "next_try", lastError = "last_error"
    }
}
