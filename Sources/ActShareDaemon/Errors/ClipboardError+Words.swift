import ActShareCore
import ActShareHandoff

/// The words of a ``ClipboardError`` and its exit code (``WordedError``): a sentence each, lower
/// case, saying what to do where there is something to do.
extension ClipboardError: WordedError {
    var phrase: Phrase {
        switch self {
        case .off:
            return "the Universal Clipboard is off here (config handoff.clipboard: manual or auto turns it on)"
        case .unreachable(let why):
            return "this device's clipboard cannot be reached: \(why)"
        case .empty:
            return "the clipboard is empty: copy something first"
        case .secret:
            return "the clipboard holds a password (a password manager marked it): it is never sent"
        case .tooLarge(let total, let maximum):
            return "the clipboard holds \(ByteCount.describe(total)), more than clipboard-max (\(ByteCount.describe(maximum))): send it as a file (actshare handoff send)"
        case .notAnswered:
            return "the application that owns the clipboard did not answer"
        case .notTaken(let devices):
            return devices.isEmpty ? "no paired device took the clipboard" : "no paired device took the clipboard (\(devices.joined(separator: "; ")))"
        case .offerRefused(let why):
            return "refused: \(why)"
        case .offOn(let device):
            return "the Universal Clipboard is off on \(device)"
        case .noOfferGiven:
            return "refused: no offer"
        case .noSuchOffer:
            return "no such clipboard offer (withdrawn or expired)"
        case .noSuchOfferOfFiles:
            return "no such clipboard offer of files (withdrawn or expired)"
        }
    }

    /// The exit code the CLI ends with (``HandoffFailureCode``, docs/CLI.md): every case by
    /// name, so that a new one is the compiler's question.
    var exitCode: HandoffFailureCode {
        switch self {
        case .off, .empty, .secret, .tooLarge:
            return .badInput
        case .unreachable, .notAnswered, .notTaken, .offerRefused, .offOn, .noOfferGiven, .noSuchOffer, .noSuchOfferOfFiles:
            return .failed
        }
    }
}
