/// Remembers which content types match which patterns during one routing pass.
///
/// With many providers the same few (type, pattern) pairs are asked about again and
/// again, and each answer walks shared-mime-info's subclass lists.
public final class ContentTypeMatcher {
    private var answers: [String: [String: Bool]] = [:]

    public init() {}

    /// ``ContentType/matches(_:pattern:)``, remembered.
    public func matches(_ type: String, pattern: String) -> Bool {
        if let answer = answers[type]?[pattern] { return answer }
        let answer = ContentType.matches(type, pattern: pattern)
        answers[type, default: [:]][pattern] = answer
        return answer
    }
}
