import ActShareCore
import ActShareHandoff
import NIOCore
import Testing

@testable import ActShareDaemon

#if canImport(Glibc)
import Glibc
#endif

/// ``HandoffError``: what a library's error means for the user, the words, and the code
/// the CLI ends with.
@Suite struct HandoffErrorTests {
    let address = PeerAddress(host: "192.0.2.7", port: 27_100)

    @Test func libraryErrorsBecomeCasesThatSayWhatToDo() {
        #expect("\(HandoffError(TimedOut(), reaching: address))" == "192.0.2.7:27100 did not answer in time")
        #expect("\(HandoffError(FrameTooLarge(), reaching: address))" == "192.0.2.7:27100 sent a message larger than 1 MiB, which is refused")
        #expect("\(HandoffError(ChannelError.ioOnClosedChannel, reaching: address))"
            == "nothing answers at 192.0.2.7:27100 (is `actshare daemon` running there, on that port?)")
        let refused = IOError(errnoCode: ECONNREFUSED, reason: "connect")
        #expect("\(HandoffError(refused, reaching: address))" == "nothing answers at 192.0.2.7:27100: Connection refused")
    }

    @Test func aHandoffErrorPassesThroughUnchanged() {
        guard case .pairing(.tooManyAttempts) = HandoffError(HandoffError.pairing(.tooManyAttempts), reaching: address) else {
            Issue.record("a HandoffError was converted")
            return
        }
    }

    @Test func anIPv6AddressIsBracketed() {
        #expect("\(HandoffError.peer(.timedOut(PeerAddress(host: "fe80::1", port: 27_100))))" == "[fe80::1]:27100 did not answer in time")
    }

    @Test func exitCodesFollowWhatTheUserCanDo() {
        #expect(HandoffError.peer(.noDeviceNamed("x")).exitCode == .badInput)
        #expect(HandoffError.relay(.noHandler(type: "t", team: nil)).exitCode == .notFound)
        #expect(HandoffError.transfer(.cancelled).exitCode == .cancelled)
        #expect(HandoffError.peer(.unreachable(device: "x")).exitCode == .failed)
        let response = ControlResponse.failure(.transfer(.noQueuedSend(id: "q1")))
        #expect(response.error == "no queued send has the id q1" && response.exitCode == HandoffFailureCode.badInput.rawValue)
    }

    @Test func wrappedCausesAreWorded() {
        #expect("\(HandoffError.peer(.deviceUnreachable(device: "Büro", .peer(.timedOut(address)))))" == "Büro is not reachable: 192.0.2.7:27100 did not answer in time")
        #expect("\(HandoffError.pairing(.failed(.peer(.notWaitingToPair(address)))))".hasPrefix("cannot pair: 192.0.2.7:27100 refused to pair: it is not waiting"))
    }

    @Test func eachPartsErrorKeepsItsCase() {
        guard case .clipboard(.empty) = HandoffError(ClipboardError.empty),
              case .localSend(.busy(device: "Pixel")) = HandoffError(LocalSendServiceError.busy(device: "Pixel")),
              case .transfer(.cancelled) = HandoffError(CancellationError())
        else {
            Issue.record("a part's error lost its case")
            return
        }
        #expect(HandoffError(PairingError.tooManyAttempts).exitCode == .failed)
        #expect(HandoffError(QuickShareServiceError.filesOnly).exitCode == .badInput)
    }

    /// This machine's own components keep their words and code; a library's error met
    /// outside an exchange with a peer is this machine's failure, in the library's words.
    @Test func othersAreThisMachinesOwnFailures() {
        let config = HandoffError(ActShareError(.badInput, "--x is wrong"))
        #expect(config.exitCode == .badInput && config.description == "--x is wrong")
        guard case .local(let wrapped) = HandoffError(ChannelError.ioOnClosedChannel) else {
            Issue.record("a library's error is not this machine's")
            return
        }
        #expect(wrapped.code == .io && HandoffError(ChannelError.ioOnClosedChannel).exitCode == .failed)
    }
}
