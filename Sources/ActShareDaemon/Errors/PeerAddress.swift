/// Where a peer was tried: shown as `host:port`, an IPv6 host in brackets.
struct PeerAddress: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: Int

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
