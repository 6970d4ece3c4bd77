import ActShareHandoff
import NIOCore

/// An open `handoff pair --wait`: the responding peer connection tells the CLI the code
/// through `events` and learns the user's answer through `answers`.
final class PairingWindow: Sendable {
    let events: AsyncStream<ControlResponse>
    let eventSink: AsyncStream<ControlResponse>.Continuation
    let answers: AsyncStream<Bool>
    let answerSink: AsyncStream<Bool>.Continuation

    init() {
        (events, eventSink) = AsyncStream.makeStream()
        (answers, answerSink) = AsyncStream.makeStream()
    }
}
