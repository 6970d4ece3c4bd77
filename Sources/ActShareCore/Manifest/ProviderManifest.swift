/// A provider as its manifest (schema `actshare/provider@1`) describes it.
///
/// Immutable, and a class so that the thousands of copies routing makes are one
/// reference count each rather than one per field.
public final class ProviderManifest: Sendable {
    /// The schema this type reads.
    public static let schema = "actshare/provider@1"

    /// The manifest file's path.
    public let file: String
    /// Reverse-DNS, unique (`org.example.hello`).
    public let id: String
    public let name: String
    public let version: String
    /// The absolute path of the shared library.
    public let library: String
    /// Where `library:` is declared, for errors found when loading it.
    public let libraryLocation: SourceLocation
    public let isolation: Isolation
    /// The time limit of a hook call that reports nothing, in milliseconds (`timeout:`).
    public let timeoutMilliseconds: Int
    /// The longest a prepare or perform that has reported may go without reporting again,
    /// in milliseconds (`idle-timeout:`, by default the same as `timeout:`).
    public let idleTimeoutMilliseconds: Int
    /// What the provider may do in its helper process (`permissions:`).
    public let permissions: ProviderPermissions
    public let activities: [ActivityDeclaration]

    public init(
        file: String, id: String, name: String, version: String, library: String,
        libraryLocation: SourceLocation, isolation: Isolation, timeoutMilliseconds: Int,
        idleTimeoutMilliseconds: Int? = nil, permissions: ProviderPermissions = .standard, activities: [ActivityDeclaration]
    ) {
        self.file = file
        self.id = id
        self.name = name
        self.version = version
        self.library = library
        self.libraryLocation = libraryLocation
        self.isolation = isolation
        self.timeoutMilliseconds = timeoutMilliseconds
        self.idleTimeoutMilliseconds = idleTimeoutMilliseconds ?? timeoutMilliseconds
        self.permissions = permissions
        self.activities = activities
    }

    /// The same provider offering only `activities` (after a type conflict was resolved).
    public func keeping(_ activities: [ActivityDeclaration]) -> ProviderManifest {
        ProviderManifest(
            file: file, id: id, name: name, version: version, library: library, libraryLocation: libraryLocation,
            isolation: isolation, timeoutMilliseconds: timeoutMilliseconds,
            idleTimeoutMilliseconds: idleTimeoutMilliseconds, permissions: permissions, activities: activities)
    }
}
