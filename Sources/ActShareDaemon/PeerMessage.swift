import ActShareHandoff

/// What daemons say to each other, one JSON object per frame (docs/PROTOCOL.md).
struct PeerMessage: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        // Pairing, on a connection whose certificate is not pinned yet.
        case pairRequest = "pair-request", pairResponse = "pair-response", pairReveal = "pair-reveal", pairConfirm = "pair-confirm"
        // Between paired devices.
        case list, activities, fetch, activity, continued, send, ok, error
    }

    var type: Kind
    var name: String?
    var port: Int?
    var commitment: String?
    var nonce: String?
    var accepted: Bool?
    var id: String?
    var by: String?
    var activity: UserActivity?
    var activities: [UserActivity]?
    var message: String?

    init(_ type: Kind, name: String? = nil, port: Int? = nil, commitment: String? = nil, nonce: String? = nil, accepted: Bool? = nil,
         id: String? = nil, by: String? = nil, activity: UserActivity? = nil, activities: [UserActivity]? = nil, message: String? = nil) {
        self.type = type
        self.name = name
        self.port = port
        self.commitment = commitment
        self.nonce = nonce
        self.accepted = accepted
        self.id = id
        self.by = by
        self.activity = activity
        self.activities = activities
        self.message = message
    }
}
