/// A place an activity can go to — a device, a person, an app, a folder — offered by its
/// provider's `can-perform` hook (`actshare_add_target`, provider.h ABI 3). The user picks
/// one in the share sheet or the terminal picker, a script passes `--target ID`, and the
/// provider's perform hook is told its id.
public struct ActivityTarget: Sendable, Equatable {
    /// What a target is: the share sheet shows devices and people in one row, apps in
    /// another. The raw values are the names `list --json` prints.
    public enum Kind: String, Sendable, CaseIterable {
        case device, person, app, place

        /// The kind of `actshare_target_kind` value `value`, in the C enum's order.
        public init?(cValue value: Int32) {
            guard value >= 0, Int(value) < Self.allCases.count else { return nil }
            self = Self.allCases[Int(value)]
        }
    }

    /// Stable across runs, printable and unique in its activity: what perform is given.
    public var id: String
    /// What the user reads: "beta", "GNU Image Manipulation Program".
    public var title: String
    /// A second line, such as "not reachable now" or "KDE Connect".
    public var subtitle: String?
    /// A freedesktop icon name, or an absolute image path.
    public var image: String?
    public var kind: Kind

    public init(id: String, title: String, subtitle: String? = nil, image: String? = nil, kind: Kind) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.image = image
        self.kind = kind
    }
}
