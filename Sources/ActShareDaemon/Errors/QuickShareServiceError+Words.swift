import ActShareCore
import ActShareHandoff

/// The words of a ``QuickShareServiceError`` and its exit code (``WordedError``): a sentence each, lower
/// case, saying what to do where there is something to do.
extension QuickShareServiceError: WordedError {
    var phrase: Phrase {
        switch self {
        case .off:
            return "Quick Share is off here (config handoff.quickshare: on turns it on)"
        case .needsMulticast:
            return "phones cannot see this device: Quick Share is found by multicast DNS, and discovery is static here (config handoff.discovery)"
        case .sendingOff:
            return "sending to phones with Quick Share is off here (config handoff.quickshare: receive-only)"
        case .filesOnly:
            return "Quick Share sends files, not folders: send the files themselves"
        case .failed(let device, let why):
            return "the files did not reach \(device): \(why)"
        case .notScanned(let seconds):
            return "no phone scanned the QR code within \(seconds) seconds: nothing was sent"
        case .codesWaiting(let limit):
            return "\(limit) QR codes already wait for their phones: scan one, or let them lapse (2 minutes), first"
        }
    }

    /// The exit code the CLI ends with (``HandoffFailureCode``, docs/CLI.md): every case by
    /// name, so that a new one is the compiler's question.
    var exitCode: HandoffFailureCode {
        switch self {
        case .off, .needsMulticast, .sendingOff, .filesOnly:
            return .badInput
        case .failed, .notScanned, .codesWaiting:
            return .failed
        }
    }
}
