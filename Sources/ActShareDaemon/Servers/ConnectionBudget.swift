import ActShareCore
import NIOConcurrencyHelpers
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How many connections to the peer port may be open, and from where.
///
/// A connection is *unproven* from its accept until the peer shows a pinned certificate
/// (or asks to pair while `handoff pair --wait` is open); it then holds a *proven* place.
/// Strangers share one small budget, each address a few places of it, so one host cannot
/// take them all; addresses where a paired device was last seen have a budget of their
/// own, so a flood from elsewhere does not keep paired devices out. Whatever is not
/// admitted is closed at once: the descriptors the daemon holds stay bounded.
final class ConnectionBudget: Sendable {
    struct Limits: Sendable {
        /// Unproven connections from strangers, in all…
        var strangers = 32
        /// …and from any one address (an IPv6 /64 counts as one).
        var perStranger = 4
        /// Unproven connections from each address a paired device was last seen at.
        var perPairedAddress = 8
        /// Connections of paired devices, in all.
        var proven = 64
    }

    let limits: Limits
    private let state = Mutex(State())
    /// Where paired devices were last seen (the daemon's state keeps it current).
    let pairedAddresses: NIOLockedValueBox<Set<String>>

    private struct State {
        var strangers = 0
        var unprovenByAddress: [String: Int] = [:]
        var proven = 0
    }

    init(limits: Limits = Limits(), pairedAddresses: NIOLockedValueBox<Set<String>>) {
        self.limits = limits
        self.pairedAddresses = pairedAddresses
    }

    /// A place for a new connection from `address`, or nil: close it.
    func admit(_ address: String) -> Ticket? {
        let key = ClientAddress.host(address)
        let paired = pairedAddresses.withLockedValue { $0.contains(ClientAddress.unmapped(address)) }
        let admitted = state.withLock { state -> Bool in
            let fromHere = state.unprovenByAddress[key, default: 0]
            if paired {
                guard fromHere < limits.perPairedAddress else { return false }
            } else {
                guard fromHere < limits.perStranger, state.strangers < limits.strangers else { return false }
                state.strangers += 1
            }
            state.unprovenByAddress[key] = fromHere + 1
            return true
        }
        return admitted ? Ticket(budget: self, key: key, stranger: !paired) : nil
    }

    /// One admitted connection's place. `prove` moves it to the proven budget; `release`
    /// (when the connection closes) gives back whichever it holds. Both may be called
    /// more than once.
    final class Ticket: Sendable {
        private let budget: ConnectionBudget
        private let key: String
        private let stranger: Bool
        private let phase = Mutex(Phase.unproven)

        enum Phase { case unproven, proven, released }

        fileprivate init(budget: ConnectionBudget, key: String, stranger: Bool) {
            self.budget = budget
            self.key = key
            self.stranger = stranger
        }

        var isProven: Bool { phase.withLock { $0 == .proven } }

        /// Moves to the proven budget; false when that is full (close the connection).
        func prove() -> Bool {
            phase.withLock { phase in
                guard phase == .unproven else { return phase == .proven }
                let room = budget.state.withLock { state -> Bool in
                    guard state.proven < budget.limits.proven else { return false }
                    state.proven += 1
                    budget.leaveUnproven(&state, key: key, stranger: stranger)
                    return true
                }
                if room { phase = .proven }
                return room
            }
        }

        func release() {
            phase.withLock { phase in
                budget.state.withLock { state in
                    switch phase {
                    case .unproven: budget.leaveUnproven(&state, key: key, stranger: stranger)
                    case .proven: state.proven -= 1
                    case .released: break
                    }
                }
                phase = .released
            }
        }
    }

    private func leaveUnproven(_ state: inout State, key: String, stranger: Bool) {
        if stranger { state.strangers -= 1 }
        let left = state.unprovenByAddress[key, default: 1] - 1
        state.unprovenByAddress[key] = left > 0 ? left : nil
    }
}
