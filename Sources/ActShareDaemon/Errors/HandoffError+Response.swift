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
        // Every other case by name: a new case is the compiler's question, not a default.
        case .noAnswer, .connectionFailed, .timedOut, .frameTooLarge, .refusedThisDevice, .notWaitingToPair,
             .closedConnection, .brokeOff, .peerFailure, .unreachable, .pairingNotAnswered, .pairingRefused,
             .tooManyPairingAttempts, .refusedNameOrPort, .leftBeforeConfirming, .unexpectedDevice,
             .pairingAlreadyWaiting, .noPairingRequest, .pairingCancelled, .pairingUnanswered,
             .anonymousPairingRequest, .refusedPairingNameOrPort, .brokenCommitment, .pairingDeclinedHere,
             .pairingDeclinedThere, .cannotListen, .tooManyPairedConnections, .sandboxedCaller, .sentAnotherActivity,
             .sentRefusedActivity, .handOffRefused, .sourceShrank, .sourceUnreadableAgain, .receiverClosed,
             .filesRefused, .transferStopped, .filesNotKept, .notEveryDeviceGotFiles, .queueFull, .cannotQueue,
             .noTransferID, .emptyOffer, .tooManyOffered, .offeredTooDeep, .fileBeforeFolder, .emptyName,
             .tooManyOfOneName, .sizesOverflow, .diskFull, .receiveFolderUnusable, .receiverCannot, .cannotWrite,
             .diskWriteFailed, .noFreeName, .unexpectedFrame, .resumeWithoutPart, .moreBytesThanOffered,
             .fewerBytesThanOffered, .arrivedDamaged, .largeFrame, .clipboardUnreachable, .clipboardNotAnswered,
             .clipboardNotTaken, .clipboardOfferRefused, .clipboardOffOn, .quickShareFailed, .quickShareNotScanned,
             .quickShareCodesWaiting, .declinedFiles, .localSendCertificateChanged, .localSendCertificateNotAnnounced,
             .localSendBusy, .localSendTooManyAttempts, .localSendAnswered, .localSendCancelledThere,
             .localSendNoAnswer, .localSendBadAnswer, .cannotPair, .deviceUnreachable, .other:
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
