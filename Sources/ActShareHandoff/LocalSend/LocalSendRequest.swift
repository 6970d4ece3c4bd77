/// A LocalSend device asking to send files here, waiting for the user's answer
/// (`actshare handoff requests`, the notification's Accept and Decline).
public struct LocalSendRequest: Codable, Sendable, Equatable {
    public struct File: Codable, Sendable, Equatable {
        public var name: String
        public var size: UInt64

        public init(name: String, size: UInt64) {
            self.name = name
            self.size = size
        }
    }

    /// What `accept ID` and `decline ID` name.
    public var id: String
    /// The name it gives itself, and where it asks from.
    public var device: String
    public var address: String
    /// The certificate fingerprint it claims, and whether that certificate is pinned here
    /// and was proved by the device (a connection to it presented it).
    public var fingerprint: String
    public var pinned: Bool
    public var files: [File]
    public var bytes: UInt64
    /// A message's text (one `text/plain` file with a `preview`, as LocalSend sends text),
    /// at most ``messageShown`` characters of it; accepted, it lands as its file.
    public var message: String?
    /// Seconds left to answer.
    public var expires: Double
    /// How it came: nil for LocalSend, `quickshare` for a phone's Quick Share (which has
    /// no certificate: `fingerprint` is empty and `pinned` false).
    public var via: String?
    /// The four digits Quick Share shows on both screens, to compare before accepting.
    public var pin: String?

    /// The characters of a message shown with its question.
    public static let messageShown = 500

    public init(id: String, device: String, address: String, fingerprint: String, pinned: Bool, files: [File], bytes: UInt64,
                message: String? = nil, expires: Double, via: String? = nil, pin: String? = nil) {
        self.via = via
        self.pin = pin
        self.id = id
        self.device = device
        self.address = address
        self.fingerprint = fingerprint
        self.pinned = pinned
        self.files = files
        self.bytes = bytes
        self.message = message.map { String($0.prefix(Self.messageShown)) }
        self.expires = expires
    }
}
