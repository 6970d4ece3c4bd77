/// `actshare handoff clipboard status`: the Universal Clipboard here, as the daemon sees
/// it (docs/CLIPBOARD.md).
public struct ClipboardStatus: Codable, Sendable, Equatable {
    /// `off`, `manual` or `auto` (config `handoff.clipboard`).
    public var mode: String
    /// Whose clipboard the daemon reaches (`Wayland display wayland-1`, `X11 display :1`), or nil.
    public var display: String?
    /// Why it reaches none, if it does not (no display, the agent failed).
    public var problem: String?
    /// What this device offers its paired devices now.
    public var offered: ClipboardOfferSummary?
    /// What a paired device offered and this device's clipboard now carries.
    public var received: ClipboardOfferSummary?
    /// The last offer that was not taken, and why (too large, older than a copy here).
    public var notice: String?

    public init(mode: String, display: String? = nil, problem: String? = nil, offered: ClipboardOfferSummary? = nil,
                received: ClipboardOfferSummary? = nil, notice: String? = nil) {
        self.mode = mode
        self.display = display
        self.problem = problem
        self.offered = offered
        self.received = received
        self.notice = notice
    }
}

/// One clipboard offer: by whom, when, until when, what.
public struct ClipboardOfferSummary: Codable, Sendable, Equatable {
    public var id: String
    /// The device it comes from (its paired name; this device's own name for its offers).
    public var device: String
    public var deviceID: String
    /// Seconds since 1970, on the offering device's clock.
    public var created: Double
    public var expires: Double
    public var targets: [ClipboardTargetSummary]
    /// The start of its text, if it is text.
    public var preview: String?
    /// The names of its files, if it is files (they travel when pasted).
    public var files: [String]?
    /// For this device's offers: the devices that took it.
    public var to: [String]?

    public init(id: String, device: String, deviceID: String, created: Double, expires: Double, targets: [ClipboardTargetSummary],
                preview: String? = nil, files: [String]? = nil, to: [String]? = nil) {
        self.files = files
        self.id = id
        self.device = device
        self.deviceID = deviceID
        self.created = created
        self.expires = expires
        self.targets = targets
        self.preview = preview
        self.to = to
    }

    enum CodingKeys: String, CodingKey {
        case id, device, created, expires, targets, preview, files, to
        case deviceID = "device_id"
    }
}

/// One target of an offer: its name (`UTF8_STRING`, `image/png`) and size in bytes.
public struct ClipboardTargetSummary: Codable, Sendable, Equatable {
    public var name: String
    public var size: UInt64

    public init(name: String, size: UInt64) {
        self.name = name
        self.size = size
    }
}
