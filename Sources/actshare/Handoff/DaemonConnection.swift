import ActShareCore
import ActShareHandoff

/// The local daemon, as the CLI reaches it: one call per command, failures as exit codes.
struct DaemonConnection {
    let client: ControlClient

    init() throws {
        do {
            client = try ControlClient(path: HandoffPaths.fromEnvironment().controlSocket)
        } catch let error as ActShareError {
            throw CommandFailure(.failed, error.phrase)
        }
    }

    /// The daemon's answer to `request`; a failure ends the command with its exit code.
    func call(_ request: ControlRequest) throws -> ControlResponse {
        var response: ControlResponse
        do {
            response = try client.call(request)
            // A text to a phone (Quick Share): its PIN comes first, to compare.
            while response.event == "pin" {
                StandardStreams.err(Self.pinLine(response) + "\n")
                response = try client.receive()
            }
        } catch let error as ActShareError {
            throw CommandFailure(.failed, error.phrase)
        }
        try Self.check(response)
        return response
    }

    /// A `pin` event in words: the PIN both screens show.
    static func pinLine(_ event: ControlResponse) -> String {
        Localized.text("Quick Share PIN for %s: %s (the phone shows the same, or someone is in between: press Ctrl-C)",
                       TerminalText.visible(event.device?.name ?? "the phone"), event.code ?? "?")
    }

    static func check(_ response: ControlResponse) throws {
        guard response.ok else {
            let status: ExitStatus = switch response.exitCode.map(HandoffFailureCode.init) {
            case .badInput?: .badInput
            case .notFound?: .noActivity
            case .cancelled?: .cancelled
            default: .failed
            }
            throw CommandFailure(status, response.phrase ?? response.error.map { Phrase(verbatim: $0) } ?? "the daemon failed without saying why")
        }
    }
}
