/// Who is on the other end of a connection, as its connection request says: a stranger's
/// claim, not proof (Quick Share's visibility to everyone proves nothing of a name).
public struct QuickSharePeer: Equatable, Sendable {
    /// Its four-character endpoint id.
    public var endpointID: String
    public var info: QuickShareEndpointInfo
    /// Its address, as the socket sees it.
    public var address: String

    /// The name to show: the one it gives, or its kind when it hides it.
    public var name: String { info.shownName }
}
