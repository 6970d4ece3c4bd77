import ActShareHandoff

extension PeerMessage {
    enum CodingKeys: String, CodingKey {
        case type, name, port, commitment, nonce, accepted, id, by, activity, activities, message, transfer, entries, index, sha256
        case received, offset, have, clipboard, size
    }

    /// Decodes only the keys the message has: a `file-begin` has three of the twenty, and
    /// asking for each absent one took a fifth of a receiver's time for a folder of small
    /// files. A key whose value is `null` is absent, as before.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(Kind.self, forKey: .type))
        for key in container.allKeys {
            switch key {
            case .type: break
            case .name: name = try container.decodeIfPresent(String.self, forKey: key)
            case .port: port = try container.decodeIfPresent(Int.self, forKey: key)
            case .commitment: commitment = try container.decodeIfPresent(String.self, forKey: key)
            case .nonce: nonce = try container.decodeIfPresent(String.self, forKey: key)
            case .accepted: accepted = try container.decodeIfPresent(Bool.self, forKey: key)
            case .id: id = try container.decodeIfPresent(String.self, forKey: key)
            case .by: by = try container.decodeIfPresent(String.self, forKey: key)
            case .activity: activity = try container.decodeIfPresent(UserActivity.self, forKey: key)
            case .activities: activities = try container.decodeIfPresent([UserActivity].self, forKey: key)
            case .message: message = try container.decodeIfPresent(String.self, forKey: key)
            case .transfer: transfer = try container.decodeIfPresent(String.self, forKey: key)
            case .entries: entries = try container.decodeIfPresent([TransferEntry].self, forKey: key)
            case .index: index = try container.decodeIfPresent(Int.self, forKey: key)
            case .sha256: sha256 = try container.decodeIfPresent(String.self, forKey: key)
            case .received: received = try container.decodeIfPresent([String].self, forKey: key)
            case .offset: offset = try container.decodeIfPresent(UInt64.self, forKey: key)
            case .have: have = try container.decodeIfPresent([TransferPart].self, forKey: key)
            case .clipboard: clipboard = try container.decodeIfPresent(ClipboardOffer.self, forKey: key)
            case .size: size = try container.decodeIfPresent(UInt64.self, forKey: key)
            }
        }
    }
}
