/// A device found on the local network, as `handoff discover` shows it: an actshare daemon
/// or a LocalSend device. All of it is what the device said of itself: `paired` only means
/// that it claims the id of a paired device, `pinned` that it announces a certificate
/// pinned here; the certificate proves or refutes it on connecting.
public struct DiscoveredDevice: Codable, Sendable, Equatable {
    /// How it is reached: ``actshare``, ``localSend`` or ``quickShare``.
    public enum ProtocolName: String, Codable, Sendable {
        case actshare
        case localSend = "localsend"
        /// A phone (or any Quick Share receiver) that advertises itself.
        case quickShare = "quickshare"
    }

    /// The first 16 hex digits of the SHA-256 of its public key, as it claims; for a
    /// LocalSend device, the first 16 of its certificate's fingerprint.
    public var id: String
    /// The name it gives itself.
    public var name: String
    public var address: String
    public var port: Int
    /// Whether the id is one of a paired device…
    public var paired: Bool
    /// …and the name it was paired under.
    public var pairedName: String?
    public var protocolName: ProtocolName
    /// A LocalSend device's model and kind (`mobile`, `desktop`…), as it says.
    public var model: String?
    public var kind: String?
    /// A LocalSend device's certificate fingerprint (SHA-256, capitals), as it announces…
    public var fingerprint: String?
    /// …and whether that certificate is pinned here.
    public var pinned: Bool?

    public init(id: String, name: String, address: String, port: Int, paired: Bool = false, pairedName: String? = nil) {
        self.id = id
        self.name = name
        self.address = address
        self.port = port
        self.paired = paired
        self.pairedName = pairedName
        protocolName = .actshare
    }

    /// A LocalSend device as it announced itself at `address`.
    public init(localSend info: LocalSendDeviceInfo, address: String, pinned: Bool) {
        self.init(id: String(info.fingerprint.uppercased().prefix(16)), name: info.alias, address: address, port: info.port)
        protocolName = .localSend
        model = info.deviceModel
        kind = info.deviceType?.rawValue
        fingerprint = info.fingerprint.uppercased()
        self.pinned = pinned
    }

    /// A Quick Share receiver as it advertises itself: its endpoint id, name and kind
    /// (`phone`, `tablet`, `laptop`…).
    public init(quickShare endpointID: String, name: String, kind: String, address: String, port: Int) {
        self.init(id: endpointID, name: name, address: address, port: port)
        protocolName = .quickShare
        self.kind = kind
    }

    enum CodingKeys: String, CodingKey {
        case id, name, address, port, paired, model, kind, fingerprint, pinned
        case pairedName = "paired_name"
        case protocolName = "protocol"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.decode(String.self, forKey: .id)
        name = try fields.decode(String.self, forKey: .name)
        address = try fields.decode(String.self, forKey: .address)
        port = try fields.decode(Int.self, forKey: .port)
        paired = try fields.decode(Bool.self, forKey: .paired)
        pairedName = try fields.decodeIfPresent(String.self, forKey: .pairedName)
        protocolName = try fields.decodeIfPresent(ProtocolName.self, forKey: .protocolName) ?? .actshare
        model = try fields.decodeIfPresent(String.self, forKey: .model)
        kind = try fields.decodeIfPresent(String.self, forKey: .kind)
        fingerprint = try fields.decodeIfPresent(String.self, forKey: .fingerprint)
        pinned = try fields.decodeIfPresent(Bool.self, forKey: .pinned)
    }
}
