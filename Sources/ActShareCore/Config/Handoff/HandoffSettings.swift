import CActShareHandoff

/// The config's `handoff:` section (docs/CONFIG.md), decoded once from the YAML by
/// ConfigDecoder with its `FILE:LINE:COLUMN` errors, and read as it is by the daemon
/// (which decodes the config itself) and the command line. Every default is here or in
/// the part's own settings (clipboard, LocalSend, Quick Share).
public struct HandoffSettings: Sendable, Equatable {
    /// How devices are found.
    public enum Discovery: String, Sendable, CaseIterable {
        /// Advertised and found on the local network (DNS-SD over multicast DNS).
        case multicast
        /// Only the addresses given (`peers:`); nothing on the network.
        case `static`
    }

    /// A peer address given in the config (`peers: [HOST[:PORT]]`).
    public struct Peer: Sendable, Equatable {
        public var host: String
        public var port: Int

        public init(host: String, port: Int = HandoffSettings.defaultPort) {
            self.host = host
            self.port = port
        }
    }

    /// This device's name for its peers (`device-name`); nil: the host name.
    public var deviceName: String?
    /// The TCP port for peers (`port`).
    public var port = Self.defaultPort
    /// `discovery`.
    public var discovery = Discovery.multicast
    /// Addresses to reach besides those found (`peers`).
    public var peers: [Peer] = []
    /// The program that opens a handed-off web page (`browser`); nil: the desktop's.
    public var browser: String?
    /// Where files from other devices go (`receive-dir`, absolute); nil: the downloads folder.
    public var receiveDirectory: String?
    /// How long what an interrupted transfer left waits to be resumed (`keep-partial`).
    public var keepPartialSeconds = 86_400
    /// The address the peer port is bound to (`listen`): all IPv4 addresses.
    public var listenAddress = "0.0.0.0"
    /// The Universal Clipboard (`clipboard`, `clipboard-max`, `clipboard-expires`, `clipboard-primary`).
    public var clipboard = ClipboardSettings()
    /// LocalSend (`localsend`, `localsend-port`, `localsend-pin`).
    public var localSend = LocalSendSettings()
    /// Quick Share (`quickshare`).
    public var quickShare = QuickShareSettings()

    /// The port daemons listen on for each other, shared with the C Hand Off provider.
    public static let defaultPort = Int(ACTSHARE_HANDOFF_DEFAULT_PORT)

    public init() {}
}
