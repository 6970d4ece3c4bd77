/// A type the magic rules gave some bytes, with the rule's priority (0-100).
struct MagicMatch: Equatable, Sendable {
    var type: String
    var priority: Int
}
