/// An error from actshare, with a stable code, a message for people and an optional cause.
///
/// The message is one line. When the error is about a place in a file (a manifest or
/// the config), ``location`` names it and ``description`` reads
/// `FILE:LINE:COLUMN: error: MESSAGE`, the form editors and compilers use.
public struct ActShareError: Error, Sendable, CustomStringConvertible {
    /// The stable code of an error, for programs that react to kinds of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Value: String, Sendable {
            case badInput = "bad-input"
            case badManifest = "bad-manifest"
            case badConfig = "bad-config"
            case noActivity = "no-activity"
            case providerFailed = "provider-failed"
            case activityFailed = "activity-failed"
            case cancelled
            case io
        }

        let value: Value

        /// An item, flag or option the user gave is wrong (exit code 2).
        public static let badInput = Code(value: .badInput)
        /// A provider manifest is invalid.
        public static let badManifest = Code(value: .badManifest)
        /// The configuration file is invalid.
        public static let badConfig = Code(value: .badConfig)
        /// No activity can perform on the items, or the named one is unknown or excluded.
        public static let noActivity = Code(value: .noActivity)
        /// A provider's library could not be loaded or called.
        public static let providerFailed = Code(value: .providerFailed)
        /// The activity ran and reported failure.
        public static let activityFailed = Code(value: .activityFailed)
        /// The user cancelled.
        public static let cancelled = Code(value: .cancelled)
        /// Reading or writing a file failed.
        public static let io = Code(value: .io)

        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A one-line message for people, kept so that it can be said in their language.
    public let phrase: Phrase
    /// The message in English: for `--json`, logs and other programs.
    public var message: String { phrase.description }
    /// The place in a file the error is about, if any.
    public let location: SourceLocation?
    /// The underlying error, if any.
    public let cause: (any Error & Sendable)?

    public init(
        _ code: Code, _ message: Phrase, at location: SourceLocation? = nil,
        cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.phrase = message
        self.location = location
        self.cause = cause
    }

    /// `error` itself if it is an ``ActShareError``, else one with the given code wrapping it.
    public static func wrapping(_ error: any Error) -> ActShareError {
        if let error = error as? ActShareError { return error }
        return ActShareError(.io, Phrase(verbatim: "\(error)"))
    }

    public var description: String {
        guard let location else { return message }
        return "\(location): error: \(message)"
    }
}
