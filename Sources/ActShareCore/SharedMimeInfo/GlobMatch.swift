/// A type a file name's glob gave, with the glob's weight (0-100; 50 unless said).
struct GlobMatch: Equatable, Sendable {
    var type: String
    var weight: Int
}
