/// A device found on the local network, as `handoff discover` shows it. All of it is what
/// the device said of itself: `paired` only means that it claims the id of a paired
/// device, which the pinned key proves or refutes on connecting.
public struct DiscoveredDevice: Codable, Sendable, Equatable {
    /// The first 16 hex digits of the SHA-256 of its public key, as it claims.
    public var id: String
    /// The name it gives itself.
    public var name: String
    public var address: String
    public var port: Int
    /// Whether the id is one of a paired device…
    public var paired: Bool
    /// …and the name it was paired under.
    public var pairedName: String?

    public init(id: String, name: String, address: String, port: Int, paired: Bool = false, pairedName: String? = nil) {
        self.id = id
        self.name = name
        self.address = address
        self.port = port
        self.paired = paired
        self.pairedName = pairedName
    }

    enum CodingKeys: String, CodingKey {
        case id, name, address, port, paired
        case pairedName = "paired_name"
    }
}
