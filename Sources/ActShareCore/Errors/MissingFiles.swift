/// The cause of an error that holds only while these files are absent (a manifest's
/// `library:` or image not built yet). The manifest index watches them: once one appears,
/// the manifest is read again rather than its error repeated.
public struct MissingFiles: Error, Sendable {
    /// Every place that was looked in, in the order they were tried.
    public let paths: [String]

    public init(_ paths: [String]) {
        self.paths = paths
    }
}
