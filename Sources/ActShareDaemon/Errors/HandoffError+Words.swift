import ActShareCore
import ActShareHandoff
#if canImport(Glibc)
import Glibc
#endif

/// A ``HandoffError``'s words and code are its part's: what the CLI prints after
/// "actshare: " (in the person's language: the control protocol carries the phrase), the
/// sheet and the daemon's log show, and a peer reads in an `error` frame (in English).
extension HandoffError: WordedError {
    var phrase: Phrase {
        switch self {
        case .peer(let error): return error.phrase
        case .pairing(let error): return error.phrase
        case .control(let error): return error.phrase
        case .relay(let error): return error.phrase
        case .transfer(let error): return error.phrase
        case .clipboard(let error): return error.phrase
        case .quickShare(let error): return error.phrase
        case .localSend(let error): return error.phrase
        case .local(let error): return error.phrase
        }
    }

    /// The exit code the CLI ends with (``HandoffFailureCode``, docs/CLI.md).
    var exitCode: HandoffFailureCode {
        switch self {
        case .peer(let error): return error.exitCode
        case .pairing(let error): return error.exitCode
        case .control(let error): return error.exitCode
        case .relay(let error): return error.exitCode
        case .transfer(let error): return error.exitCode
        case .clipboard(let error): return error.exitCode
        case .quickShare(let error): return error.exitCode
        case .localSend(let error): return error.exitCode
        case .local(let error):
            // What was given is wrong, or the user gave up; else it failed.
            return error.code == .badInput ? .badInput : error.code == .cancelled ? .cancelled : .failed
        }
    }

    /// "team ID", or "no team".
    static func team(_ id: String?) -> Phrase {
        id.map { "team \($0)" } ?? "no team"
    }

    /// The system's words for `errno`.
    static func words(_ code: Int32) -> String { String(cString: strerror(code)) }
}

extension ControlResponse {
    /// The control protocol's answer for `error`: its words and its exit code.
    static func failure(_ error: HandoffError) -> ControlResponse {
        .failure(error.phrase, exitCode: error.exitCode)
    }
}

extension Phrase.StringInterpolation {
    /// An error inside an error's words is said in the same language.
    mutating func appendInterpolation(_ error: HandoffError) {
        appendInterpolation(error.phrase)
    }
}
