/// LocalSend's settings (config `handoff.localsend`, `localsend-port`; docs/CONFIG.md).
public struct LocalSendSettings: Sendable, Equatable {
    public typealias Mode = ServiceMode

    public var mode: Mode
    /// The HTTPS port announced (LocalSend's own default, 53317, unless configured).
    public var port: Int
    /// The PIN a LocalSend device must give to send here (config `handoff.localsend-pin`).
    public var pin: String?

    /// LocalSend's own default port, where its apps look first.
    public static let defaultPort = 53_317

    public init(mode: Mode = .on, port: Int = Self.defaultPort) {
        self.mode = mode
        self.port = port
    }
}
