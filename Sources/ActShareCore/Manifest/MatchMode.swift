/// How per-item answers combine into one answer for all the items.
public enum MatchMode: String, Sendable, CaseIterable {
    /// Every item must match.
    case all
    /// At least one item must match.
    case any
}
