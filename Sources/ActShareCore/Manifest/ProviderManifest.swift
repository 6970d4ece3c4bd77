/// A provider as its manifest (schema `actshare/provider@1`) describes it.
public struct ProviderManifest: Sendable {
    /// The schema this type reads.
    public static let schema = "actshare/provider@1"

    /// The manifest file's path.
    public var file: String
    /// Reverse-DNS, unique (`org.example.hello`).
    public var id: String
    public var name: String
    public var version: String
    /// The absolute path of the shared library.
    public var library: String
    /// Where `library:` is declared, for errors found when loading it.
    public var libraryLocation: SourceLocation
    public var isolation: Isolation
    /// The time limit for each hook call, in milliseconds.
    public var timeoutMilliseconds: Int
    public var activities: [ActivityDeclaration]

    public init(
        file: String, id: String, name: String, version: String, library: String,
        libraryLocation: SourceLocation, isolation: Isolation, timeoutMilliseconds: Int,
        activities: [ActivityDeclaration]
    ) {
        self.file = file
        self.id = id
        self.name = name
        self.version = version
        self.library = library
        self.libraryLocation = libraryLocation
        self.isolation = isolation
        self.timeoutMilliseconds = timeoutMilliseconds
        self.activities = activities
    }
}
