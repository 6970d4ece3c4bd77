import ActShareCore

/// Ends a command with an exit status and, unless already reported, a message.
struct CommandFailure: Error {
    var status: ExitStatus
    /// One line for stderr (printed as `actshare: MESSAGE`), or nil if already reported.
    var message: String?

    init(_ status: ExitStatus, _ message: String?) {
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
        message = error.description
    }
}
