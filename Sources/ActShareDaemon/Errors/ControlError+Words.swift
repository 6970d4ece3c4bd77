import ActShareCore
import ActShareHandoff

/// The words of a ``ControlError`` and its exit code (``WordedError``): a sentence each, lower
/// case, saying what to do where there is something to do.
extension ControlError: WordedError {
    var phrase: Phrase {
        switch self {
        case .alreadyRunning(let socket):
            return "another actshare daemon is running for this user (its control socket \(socket) answers)"
        case .cannotListen(let address, let port, let reason):
            return "cannot listen for peers on \(address) port \(port): \(reason) (another actshare daemon? give it another --port)"
        case .tooManyPairedConnections:
            return "too many connections of paired devices"
        case .sandboxedCaller(let pid):
            return "actshare's daemon does not act for a sandboxed process (pid \(pid)): a provider hands off only through the connection actshare opens for it (permissions: handoff: true)"
        case .notAControlRequest:
            return "not a control request"
        case .badRequest(let message):
            return Phrase(verbatim: message)
        case .restrictedAlready:
            return "this connection is restricted already"
        case .notAllowedWhenRestricted(let operation):
            return "this connection may only hand off the items actshare gave the provider, to a paired device (\(operation) is not allowed)"
        case .notTrustedForProvider(let device):
            return "a provider may hand off only to a paired device, or to a LocalSend device pinned with \"always\" (handoff accept --always): \(device) is neither"
        case .notExpectedHere(let operation):
            return "\(operation) is not expected here"
        case .updateWithoutWillSave:
            return "update answers a will-save event"
        case .continuedNeedsDevice:
            return "continued needs a device"
        case .discoveryOff:
            return "discovery is off here (config handoff.discovery: static, or the daemon's log says why)"
        }
    }

    /// The exit code the CLI ends with (``HandoffFailureCode``, docs/CLI.md): every case by
    /// name, so that a new one is the compiler's question.
    var exitCode: HandoffFailureCode {
        switch self {
        case .alreadyRunning, .notAControlRequest, .badRequest, .restrictedAlready, .notAllowedWhenRestricted, .notTrustedForProvider,
             .notExpectedHere, .updateWithoutWillSave, .continuedNeedsDevice, .discoveryOff:
            return .badInput
        case .cannotListen, .tooManyPairedConnections, .sandboxedCaller:
            return .failed
        }
    }
}
