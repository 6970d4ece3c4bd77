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
        guard case .tooManyPairingAttempts = HandoffError(HandoffError.tooManyPairingAttempts, reaching: address) else {
            Issue.record("a HandoffError was converted")
            return
        }
    }

    @Test func anIPv6AddressIsBracketed() {
        #expect("\(HandoffError.timedOut(PeerAddress(host: "fe80::1", port: 27_100)))" == "[fe80::1]:27100 did not answer in time")
    }

    @Test func exitCodesFollowWhatTheUserCanDo() {
        #expect(HandoffError.noDeviceNamed("x").exitCode == .badInput)
        #expect(HandoffError.noHandler(type: "t", team: nil).exitCode == .notFound)
        #expect(HandoffError.cancelled.exitCode == .cancelled)
        #expect(HandoffError.unreachable(device: "x").exitCode == .failed)
        let response = ControlResponse.failure(.noQueuedSend(id: "q1"))
        #expect(response.error == "no queued send has the id q1" && response.exitCode == HandoffFailureCode.badInput.rawValue)
    }

    @Test func wrappedCausesAreWorded() {
        #expect("\(HandoffError.deviceUnreachable(device: "Büro", .timedOut(address)))" == "Büro is not reachable: 192.0.2.7:27100 did not answer in time")
        #expect("\(HandoffError.cannotPair(.notWaitingToPair(address)))".hasPrefix("cannot pair: 192.0.2.7:27100 refused to pair: it is not waiting"))
    }
}
