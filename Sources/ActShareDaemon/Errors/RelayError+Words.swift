import ActShareCore
import ActShareHandoff

/// The words of a ``RelayError`` and its exit code (``WordedError``): a sentence each, lower
/// case, saying what to do where there is something to do.
extension RelayError: WordedError {
    var phrase: Phrase {
        switch self {
        case .activityRefused(let problem):
            return "the activity is refused: \(problem)"
        case .noCurrentActivity(let id):
            return "no current activity has the id \(id)"
        case .noRemoteActivity(let id):
            return id.map { "no paired device has the activity \($0)" } ?? "no paired device has a current activity"
        case .nothingToContinue(let id):
            return "\(id) carries nothing to continue"
        case .originNoLongerPaired(let id):
            return "the device of \(id) is no longer paired"
        case .didNotSendActivity(let device, let reason):
            return reason.map { Phrase(verbatim: $0) } ?? "\(device) did not send the activity"
        case .sentAnotherActivity(let device, let id):
            return "\(device) sent another activity than \(id)"
        case .sentRefusedActivity(let device, let problem):
            return "\(device) sent an activity that is refused: \(problem)"
        case .cannotHandOff(let problem):
            return "cannot hand it off: \(problem)"
        case .handOffRefused(let device, let reason):
            return reason.map { "\(device) refused it: \($0)" } ?? "\(device) refused it: no reason given"
        case .handlerOfAnotherTeam(let handler, let type, let handlerTeam, let activityTeam):
            return "\(handler) continues \(type), but for \(HandoffError.team(handlerTeam)), not \(HandoffError.team(activityTeam)) as the activity says"
        case .activityTooNew(let type, let version, let handler, let maxVersion):
            return "\(type) version \(version) is newer than \(handler) accepts (max-version \(maxVersion))"
        case .noHandler(let type, let team):
            return team.map { "no application here continues \(type) (team \($0))" } ?? "no application here continues \(type)"
        case .onlyURLsAndTextHandedOff:
            return "only URLs and text can be handed off"
        case .notAWebURL:
            return "refused: only http and https URLs are opened"
        case .noHandedOffText:
            return "refused: no text"
        case .noSuchActivity:
            return "no current activity has that id"
        }
    }

    /// The exit code the CLI ends with (``HandoffFailureCode``, docs/CLI.md): every case by
    /// name, so that a new one is the compiler's question.
    var exitCode: HandoffFailureCode {
        switch self {
        case .activityRefused, .noCurrentActivity, .cannotHandOff:
            return .badInput
        case .onlyURLsAndTextHandedOff, .notAWebURL, .noHandedOffText, .noSuchActivity:
            return .failed
        case .noRemoteActivity, .nothingToContinue, .originNoLongerPaired, .didNotSendActivity, .handlerOfAnotherTeam, .activityTooNew, .noHandler:
            return .notFound
        case .sentAnotherActivity, .sentRefusedActivity, .handOffRefused:
            return .failed
        }
    }
}
