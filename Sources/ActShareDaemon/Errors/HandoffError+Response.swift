import ActShareHandoff

/// The one place a ``HandoffError`` becomes a code: the exit code the CLI ends with
/// (``HandoffFailureCode``, docs/CLI.md) and the control protocol's failed answer.
extension HandoffError {
    var exitCode: HandoffFailureCode {
        switch self {
        case .noDevicePaired, .severalDevicesPaired, .noDeviceNamed, .noDeviceOrPhoneNamed, .deviceNotPaired, .noDeviceWithID, .ambiguousNearbyName,
             .alreadyRunning, .notAControlRequest, .badControlRequest, .restrictedAlready, .notAllowedWhenRestricted,
             .notTrustedForProvider, .notAnItemOfTheProvider, .linkNotFollowedForProvider,
             .notExpectedHere, .updateWithoutWillSave, .continuedNeedsDevice, .discoveryOff,
             .activityRefused, .noCurrentActivity, .cannotHandOff,
             .cannotStat, .twoItemsNamed, .tooManyToSend, .unreadable, .nestedTooDeep, .linkInFolder, .notFileOrFolder,
             .nothingToSend, .noQueuedSend, .sourceGone, .sourceNotRegular, .sourceReplaced:
            return .badInput
        case .noRemoteActivity, .nothingToContinue, .originNoLongerPaired, .didNotSendActivity,
             .handlerOfAnotherTeam, .activityTooNew, .noHandler, .noLocalSendRequest:
            return .notFound
        case .cancelled:
            return .cancelled
        case .localSendOff, .localSendSendingOff, .localSendPinRequired, .localSendPinWrong, .quickShareOff, .quickShareNeedsMulticast,
             .quickShareSendingOff, .quickShareFilesOnly:
            return .badInput
        case .clipboardOff, .clipboardEmpty, .clipboardSecret, .clipboardTooLarge:
            return .badInput
        default:
            return .failed
        }
    }
}

extension ControlResponse {
    /// The control protocol's answer for `error`: its words and its exit code.
    static func failure(_ error: HandoffError) -> ControlResponse {
        .failure(error.phrase, exitCode: error.exitCode)
    }
}
