import NIOCore

/// A connection to the peer port as the listener hands it on: admitted, with what its
/// TLS handshake will learn and its place in the budget, or refused (close it).
enum AcceptedPeer: Sendable {
    case admitted(PeerChannel, PeerIdentity, ConnectionBudget.Ticket)
    case refused(any Channel)
}
