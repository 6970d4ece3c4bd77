/// How per-item answers combine into one answer for all the items.
public enum MatchMode: String, Sendable, CaseIterable {
    /// Every item must match.
    case all
    /// At least one item must match.
    case any

    /// One answer from per-item answers: all true, or any true.
    public func combine(_ answers: [Bool]) -> Bool {
        switch self {
        case .all: return answers.allSatisfy { $0 }
        case .any: return answers.contains(true)
        }
    }
}
