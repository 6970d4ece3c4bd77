/// A message about a provider or the config that does not stop actshare: a provider
/// that was skipped, or a conflict that was resolved.
public struct Diagnostic: Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        case error
        case warning
        /// What a provider's author should know (what a permission gives), not a fault.
        case note
    }

    public var severity: Severity
    public var message: String
    public var location: SourceLocation?

    public init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// The diagnostic for an error that made a provider or file unusable.
    public init(_ error: ActShareError) {
        self.init(.error, error.message, at: error.location)
    }

    /// `FILE:LINE:COLUMN: error: MESSAGE`, or `actshare: MESSAGE` without a location.
    public var description: String {
        guard let location else { return "actshare: \(severity == .error ? "" : "\(severity.rawValue): ")\(message)" }
        return "\(location): \(severity.rawValue): \(message)"
    }
}
