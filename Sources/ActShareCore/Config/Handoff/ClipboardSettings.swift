/// The Universal Clipboard's settings (config `handoff.clipboard`, `clipboard-max`,
/// `clipboard-expires`, `clipboard-primary`; docs/CLIPBOARD.md).
public struct ClipboardSettings: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Nothing offered, nothing taken.
        case off
        /// Offered only when asked (`actshare handoff clipboard push`); offers taken.
        case manual
        /// Every copy offered to the paired devices; offers taken.
        case auto
    }

    public var mode: Mode
    /// Above this many bytes (all targets together) a copy is not offered, only noticed.
    public var maximumBytes: UInt64
    /// How long an offer lasts (config `handoff.clipboard-expires`).
    public var offerSeconds: Double
    /// The PRIMARY selection (middle-click) too: offered when it changes (mode `auto`), and
    /// set with the CLIPBOARD when an offer is taken (config `handoff.clipboard-primary`).
    public var primary: Bool
    /// The agent program (`actshare-clipboard-agent`): where the daemon finds it, not a
    /// setting of the config.
    public var agent = "actshare-clipboard-agent"

    /// 64 MiB: a screenshot of a 4K screen as PNG is 5–30 MiB.
    public static let defaultMaximumBytes: UInt64 = 64 << 20
    /// 2 minutes: long enough to walk to the other machine, short enough that a
    /// forgotten copy does not linger on every device.
    public static let defaultOfferSeconds = 120.0

    public init(mode: Mode = .manual, maximumBytes: UInt64 = Self.defaultMaximumBytes, offerSeconds: Double = Self.defaultOfferSeconds,
                primary: Bool = false) {
        self.mode = mode
        self.maximumBytes = maximumBytes
        self.offerSeconds = offerSeconds
        self.primary = primary
    }
}
