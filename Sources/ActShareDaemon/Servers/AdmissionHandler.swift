import NIOCore
import Synchronization

/// On the peer port's server channel: each accepted connection gets its place in the
/// budget here, before NIO registers it; one over the budget is closed on the spot.
///
/// Refusing this early is what keeps a flood cheap: a refused connection costs an
/// accept and a close, and never reaches the event loop's registration, the async
/// sequence of connections or a task. The admitted ones' tickets wait in ``tickets``
/// for the connection's initializer.
final class AdmissionHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    let budget: ConnectionBudget
    let tickets = Mutex<[ObjectIdentifier: ConnectionBudget.Ticket]>([:])

    init(budget: ConnectionBudget) {
        self.budget = budget
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let accepted = Self.unwrapInboundIn(data)
        guard let ticket = budget.admit(ClientAddress.unmapped(accepted.remoteAddress?.ipAddress ?? "")) else {
            accepted.close(promise: nil)
            return
        }
        tickets.withLock { $0[ObjectIdentifier(accepted)] = ticket }
        context.fireChannelRead(data)
    }

    /// The ticket of an admitted connection, taken (each is taken once).
    func take(_ channel: any Channel) -> ConnectionBudget.Ticket? {
        tickets.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}
