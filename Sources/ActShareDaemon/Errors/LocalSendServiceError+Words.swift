import ActShareCore
import ActShareHandoff

/// The words of a ``LocalSendServiceError`` and its exit code (``WordedError``): a sentence each, lower
/// case, saying what to do where there is something to do.
extension LocalSendServiceError: WordedError {
    var phrase: Phrase {
        switch self {
        case .off:
            return "LocalSend is off here (config handoff.localsend: on turns it on)"
        case .sendingOff:
            return "sending to LocalSend devices is off here (config handoff.localsend: receive-only)"
        case .certificateChanged(let device, let pinned, let announced):
            return "\(device) announces another certificate than the one pinned for it: pinned \(pinned), now \(announced). Another device may be posing as it. If \(device) was reset or its app reinstalled, forget the old one (actshare handoff unpair '\(device)') and send again"
        case .certificateNotAnnounced(let device, let announced, let presented):
            return "\(device) presented another certificate than the one it announced (announced \(announced), presented \(presented)): nothing was sent"
        case .pinRequired(let device):
            return "\(device) asks for a PIN: give the one it shows with --pin"
        case .pinWrong(let device):
            return "\(device) refused the PIN: give the one it shows with --pin"
        case .busy(let device):
            return "\(device) is busy with another transfer: try again when it is done"
        case .tooManyAttempts(let device):
            return "\(device) refuses for now after too many attempts: wait a minute"
        case .answered(let device, let status):
            return "\(device) answered with HTTP status \(status)"
        case .cancelledThere(let device):
            return "\(device) cancelled the transfer"
        case .noAnswer(let device, let address):
            return "\(device) does not answer at \(address.host):\(address.port): is LocalSend open on it, and the device awake?"
        case .badAnswer(let device):
            return "\(device) answered with something that is not LocalSend's answer"
        case .noRequest(let id):
            return "no LocalSend device waits for an answer under \(id) (actshare handoff requests lists those that do)"
        }
    }

    /// The exit code the CLI ends with (``HandoffFailureCode``, docs/CLI.md): every case by
    /// name, so that a new one is the compiler's question.
    var exitCode: HandoffFailureCode {
        switch self {
        case .off, .sendingOff, .pinRequired, .pinWrong:
            return .badInput
        case .certificateChanged, .certificateNotAnnounced, .busy, .tooManyAttempts, .answered, .cancelledThere, .noAnswer, .badAnswer:
            return .failed
        case .noRequest:
            return .notFound
        }
    }
}
