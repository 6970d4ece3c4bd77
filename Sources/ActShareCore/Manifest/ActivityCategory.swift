/// Where an activity appears in a share sheet: sharing with someone, or acting on the items.
public enum ActivityCategory: String, Sendable, CaseIterable {
    /// Does something with the items here (copy, print, save).
    case action
    /// Sends the items somewhere else (mail, another device).
    case share
}
