import ActShareCore

/// Ends a command with an exit status and, unless already reported, a message.
struct CommandFailure: Error {
    var status: ExitStatus
    /// One line for stderr (printed as `actshare: MESSAGE` in the person's language), or
    /// nil if already reported.
    var message: Phrase?

    init(_ status: ExitStatus, _ message: Phrase?) {
        self.status = status
        self.message = message
    }

    /// The failure for an error from the core or the host.
    init(_ error: ActShareError) {
        switch error.code {
        case .badInput, .badManifest, .badConfig, .io: status = .badInput
        case .noActivity: status = .noActivity
        case .cancelled: status = .cancelled
        default: status = .failed
        }
        // A place in a file keeps its `FILE:LINE:COLUMN: error:`, which editors match.
        message = error.location.map { "\($0): error: \(error.phrase)" } ?? error.phrase
    }
}
