import ActShareCore
import ActShareHandoff

/// The words of a ``PairingError`` and its exit code (``WordedError``): a sentence each, lower
/// case, saying what to do where there is something to do.
extension PairingError: WordedError {
    var phrase: Phrase {
        switch self {
        case .notAnswered(let address):
            return "\(address) refused to pair (is `actshare handoff pair --wait` running there?)"
        case .refused(let address, let reason):
            return reason.map { "\(address) refused to pair: \($0)" } ?? "\(address) refused to pair: not waiting for a pairing"
        case .tooManyAttempts:
            return "too many pairing attempts: wait ten seconds"
        case .refusedNameOrPort(let address):
            return "\(address) gave a name or port that is refused (control characters, or too long)"
        case .leftBeforeConfirming(let device):
            return "\(device) went away before confirming"
        case .unexpectedDevice(let name, let id, let expected):
            return "\(name) (\(id)) asked to pair, not the expected device \(expected ?? ""): refused"
        case .alreadyWaiting:
            return "another pairing is already waiting"
        case .noRequest(let seconds):
            return "no device asked to pair within \(seconds) s"
        case .cancelled:
            return "the pairing was cancelled"
        case .unanswered:
            return "the pairing ended without an answer"
        case .anonymousRequest:
            return "a device asked to pair without saying who it is"
        case .refusedRequestNameOrPort:
            return "a device asked to pair with a name or port that is refused (control characters, or too long)"
        case .brokenCommitment(let device):
            return "\(device) broke its commitment: the pairing is refused"
        case .declinedHere(let device):
            return "pairing with \(device) declined here"
        case .declinedThere(let device):
            return "pairing declined on \(device)"
        case .ambiguousNearbyName(let name, let ids):
            return "several devices nearby are called \(name): pair by id (\(ids.joined(separator: ", ")))"
        case .failed(let why):
            return "cannot pair: \(why)"
        }
    }

    /// The exit code the CLI ends with (``HandoffFailureCode``, docs/CLI.md): every case by
    /// name, so that a new one is the compiler's question.
    var exitCode: HandoffFailureCode {
        switch self {
        case .notAnswered, .refused, .tooManyAttempts, .refusedNameOrPort, .leftBeforeConfirming, .unexpectedDevice, .alreadyWaiting,
             .noRequest, .cancelled, .unanswered, .anonymousRequest, .refusedRequestNameOrPort, .brokenCommitment, .declinedHere,
             .declinedThere, .failed:
            return .failed
        case .ambiguousNearbyName:
            return .badInput
        }
    }
}
