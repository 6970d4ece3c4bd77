import ActShareCore

/// What an activity's `can-perform` hook answered: why not when it said no, the targets
/// it offered when it said yes.
public struct CanPerformAnswer: Sendable, Equatable {
    /// Whether the activity can perform on the request's items.
    public var canPerform: Bool
    /// The targets offered (`actshare_add_target`, ABI 3), checked, in the provider's order.
    public var targets: [ActivityTarget] = []
    /// One sentence for each target left out, for the provider's author.
    public var warnings: [String] = []
    /// What the provider said through `actshare_decline` (ABI 2) when it answered no: one
    /// sentence for a person, cut and with control characters made visible. `nil` when it
    /// said nothing, as providers built for ABI 1 never do.
    public var reason: String?

    /// The most of a reason kept, in characters: a sentence, not a page.
    public static let maximumReason = 300

    public init(_ canPerform: Bool, reason: String? = nil, targets: [ActivityTarget] = [], warnings: [String] = []) {
        self.canPerform = canPerform
        self.warnings = warnings
        if canPerform { self.targets = targets }
        guard !canPerform, let reason else { return }
        // One line: its breaks become spaces; what a terminal would obey is shown instead.
        let line = TerminalText.visible(String(reason.map { $0.isNewline || $0 == "\t" ? " " : $0 }))
        self.reason = line.count > Self.maximumReason ? line.prefix(Self.maximumReason) + "…" : line
    }
}
