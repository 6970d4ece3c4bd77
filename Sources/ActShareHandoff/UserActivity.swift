/// What the user is doing in an app, published so another of their devices can continue
/// it: NSUserActivity for actshare.
public struct UserActivity: Codable, Sendable, Equatable {
    /// Given by the publishing daemon.
    public var id: String
    /// Reverse-DNS, what a handler's `continues:` names.
    public var type: String
    public var title: String
    /// A JSON object of at most ``maximumUserInfoSize`` bytes.
    public var userInfo: [String: JSONValue]
    /// An http or https URL, opened in a browser where no handler continues the type.
    public var webpageURL: String?
    public var team: String?
    public var version: Int
    /// Run on the origin before the activity is fetched (the `userActivityWillSave`
    /// moment): a program's absolute path and its arguments, run without a shell; what it
    /// prints on stdout, if a JSON object, becomes the new userInfo.
    public var needsSaveCommand: [String]?
    /// Run on the origin once another device continued it, as `needsSaveCommand` is, in a
    /// session of its own; it gets the device's name in `ACTSHARE_CONTINUED_BY`.
    public var onContinued: [String]?
    /// Seconds since 1970 when it became current.
    public var created: Double
    /// The device it comes from, as the continuing side knows it: its id and name.
    public var origin: String?
    public var originName: String?
    /// The devices that continued it, on the origin.
    public var continuedBy: [String]

    public static let maximumUserInfoSize = 64 * 1024
    /// What the Hand Off activity sends: a URL (continued in the browser) or text
    /// (continued onto the clipboard), in `user_info` as `url` or `text`.
    public static let handedOffURL = "org.actshare.handoff.url"
    public static let handedOffText = "org.actshare.handoff.text"

    public init(id: String = "", type: String, title: String, userInfo: [String: JSONValue] = [:], webpageURL: String? = nil,
                team: String? = nil, version: Int = 1, needsSaveCommand: [String]? = nil, onContinued: [String]? = nil,
                created: Double = 0, origin: String? = nil, continuedBy: [String] = []) {
        self.id = id
        self.type = type
        self.title = title
        self.userInfo = userInfo
        self.webpageURL = webpageURL
        self.team = team
        self.version = version
        self.needsSaveCommand = needsSaveCommand
        self.onContinued = onContinued
        self.created = created
        self.origin = origin
        self.continuedBy = continuedBy
    }

    enum CodingKeys: String, CodingKey {
        case id, type, title, team, version, created, origin
        case userInfo = "user_info"
        case originName = "origin_name"
        case webpageURL = "webpage_url"
        case needsSaveCommand = "needs_save_command"
        case onContinued = "on_continued"
        case continuedBy = "continued_by"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(String.self, forKey: .id) ?? ""
        type = try c.decode(String.self, forKey: .type)
        title = try c.decodeIfPresent(String.self, forKey: .title) ?? ""
        userInfo = try c.decodeIfPresent([String: JSONValue].self, forKey: .userInfo) ?? [:]
        webpageURL = try c.decodeIfPresent(String.self, forKey: .webpageURL)
        team = try c.decodeIfPresent(String.self, forKey: .team)
        version = try c.decodeIfPresent(Int.self, forKey: .version) ?? 1
        needsSaveCommand = Self.command(in: c, at: .needsSaveCommand)
        onContinued = Self.command(in: c, at: .onContinued)
        created = try c.decodeIfPresent(Double.self, forKey: .created) ?? 0
        origin = try c.decodeIfPresent(String.self, forKey: .origin)
        originName = try c.decodeIfPresent(String.self, forKey: .originName)
        continuedBy = try c.decodeIfPresent([String].self, forKey: .continuedBy) ?? []
    }

    /// A command's words; a command of another form (the shell text of actshare before
    /// 0.2, which is never run) is read as no words, which ``ActivityChecks`` refuses.
    private static func command(in container: KeyedDecodingContainer<CodingKeys>, at key: CodingKeys) -> [String]? {
        guard container.contains(key), (try? container.decodeNil(forKey: key)) == false else { return nil }
        return (try? container.decode([String].self, forKey: key)) ?? []
    }

    /// What a peer may see in a list, before it fetches the whole activity: no userInfo,
    /// no commands.
    public var summary: UserActivity {
        UserActivity(id: id, type: type, title: title, team: team, version: version, created: created, origin: origin)
    }
}
