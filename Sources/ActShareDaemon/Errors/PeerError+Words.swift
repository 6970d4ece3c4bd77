import ActShareCore
import ActShareHandoff

/// The words of a ``PeerError`` and its exit code (``WordedError``): a sentence each, lower
/// case, saying what to do where there is something to do.
extension PeerError: WordedError {
    var phrase: Phrase {
        switch self {
        case .noAnswer(let address):
            return "nothing answers at \(address) (is `actshare daemon` running there, on that port?)"
        case .connectionFailed(let address, let code):
            return "nothing answers at \(address): \(HandoffError.words(code))"
        case .timedOut(let address):
            return "\(address) did not answer in time"
        case .frameTooLarge(let address):
            return "\(address) sent a message larger than 1 MiB, which is refused"
        case .refusedThisDevice(let address):
            return "\(address) refused this device (it is no longer paired with it, or another device answers there)"
        case .notWaitingToPair(let address):
            return "\(address) refused to pair: it is not waiting for a pairing (run `actshare handoff pair --wait` there first)"
        case .closedConnection(let address):
            return "\(address) closed the connection"
        case .failure(let address, let what):
            return "\(address): \(what)"
        case .unreachable(let device):
            return "\(device) is not reachable"
        case .deviceUnreachable(let device, let why):
            return "\(device) is not reachable: \(why)"
        case .noDevicePaired:
            return "no device is paired: pair one with `actshare handoff pair`"
        case .severalDevicesPaired(let howToChoose):
            return "several devices are paired: \(howToChoose)"
        case .noDeviceNamed(let name):
            return "no paired device is called \(name)"
        case .noDeviceOrPhoneNamed(let name):
            return "no paired device, LocalSend device or phone showing its Quick Share is called \(name). A phone shows here only while its Quick Share looks for receivers, which this device cannot start (that takes Bluetooth): send with `actshare handoff send --qr` and scan the code with the phone instead"
        case .deviceNotPaired(let name):
            return "\(name) is nearby but not paired: pair it first, with `actshare handoff pair \(ShellWord.quoted(name))` here and `actshare handoff pair --wait` on \(name)"
        case .noDeviceWithID(let id):
            return "no paired device has the id \(id)"
        case .notPairedHere:
            return "not paired with this device"
        case .notARequest(let kind):
            return "\(kind) is not a request"
        }
    }

    /// The exit code the CLI ends with (``HandoffFailureCode``, docs/CLI.md): every case by
    /// name, so that a new one is the compiler's question.
    var exitCode: HandoffFailureCode {
        switch self {
        case .noAnswer, .connectionFailed, .timedOut, .frameTooLarge, .refusedThisDevice, .notWaitingToPair, .closedConnection, .failure,
             .unreachable, .deviceUnreachable, .notPairedHere, .notARequest:
            return .failed
        case .noDevicePaired, .severalDevicesPaired, .noDeviceNamed, .noDeviceOrPhoneNamed, .deviceNotPaired, .noDeviceWithID:
            return .badInput
        }
    }
}
