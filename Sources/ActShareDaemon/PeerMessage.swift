import ActShareHandoff

/// What daemons say to each other, one JSON object per frame (docs/PROTOCOL.md).
struct PeerMessage: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        // Pairing, on a connection whose certificate is not pinned yet.
        case pairRequest = "pair-request", pairResponse = "pair-response", pairReveal = "pair-reveal", pairConfirm = "pair-confirm"
        // Between paired devices.
        case list, activities, fetch, activity, continued, send, ok, error
        // A transfer of files: the offer and its answer, then each file's data frames
        // between its begin and end, then the receiver's account (docs/PROTOCOL.md).
        case transferOffer = "transfer-offer", transferAccept = "transfer-accept"
        case fileBegin = "file-begin", fileEnd = "file-end", transferDone = "transfer-done", transferCancel = "transfer-cancel"
        // Universal Clipboard: an offer, its withdrawal, and a fetch of one target, answered
        // by `clipboard-data` (its size) and the bytes in data frames (docs/PROTOCOL.md).
        case clipboardOffer = "clipboard-offer", clipboardWithdraw = "clipboard-withdraw"
        case clipboardFetch = "clipboard-fetch", clipboardData = "clipboard-data"
        // The files of a clipboard offer: sent as a transfer, then `clipboard-data` with
        // the names they got there (`received`).
        case clipboardFiles = "clipboard-files"
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
    var transfer: String?
    var entries: [TransferEntry]?
    var index: Int?
    var sha256: String?
    var received: [String]?
    /// With `file-begin`: the byte the data starts at (what the receiver already has).
    var offset: UInt64?
    /// With `transfer-accept`: what the receiver kept of an earlier attempt.
    var have: [TransferPart]?
    /// With `clipboard-offer`: the offer.
    var clipboard: ClipboardOffer?
    /// With `clipboard-data`: how many bytes follow.
    var size: UInt64?

    init(_ type: Kind, name: String? = nil, port: Int? = nil, commitment: String? = nil, nonce: String? = nil, accepted: Bool? = nil,
         id: String? = nil, by: String? = nil, activity: UserActivity? = nil, activities: [UserActivity]? = nil, message: String? = nil,
         transfer: String? = nil, entries: [TransferEntry]? = nil, index: Int? = nil, sha256: String? = nil, received: [String]? = nil,
         offset: UInt64? = nil, have: [TransferPart]? = nil, clipboard: ClipboardOffer? = nil, size: UInt64? = nil) {
        self.clipboard = clipboard
        self.size = size
        self.offset = offset
        self.have = have
        self.transfer = transfer
        self.entries = entries
        self.index = index
        self.sha256 = sha256
        self.received = received
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

/// What a receiver kept of one file from an earlier attempt: its first `bytes` and their
/// SHA-256, which the sender compares with its own before it sends only the rest.
struct TransferPart: Codable, Sendable {
    var index: Int
    var bytes: UInt64
    var sha256: String
}
