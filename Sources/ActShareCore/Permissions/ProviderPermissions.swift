/// What an isolated provider may do (`permissions:` in its manifest), enforced by the
/// sandbox of its helper process.
///
/// A provider that declares nothing reads the shared items (and, always, its own
/// directory and the system's libraries and data), writes only a private temporary
/// directory, has no network and runs no programs.
public struct ProviderPermissions: Sendable, Equatable {
    /// The places it may read (besides its own directory and the system's).
    public var read: [PermissionPlace]
    /// The places it may write (besides its private temporary directory).
    public var write: [PermissionPlace]
    /// The options whose values name where `output` is (`output-option:`): a folder, or
    /// a file, for which its folder.
    public var outputOptions: [String]
    /// Whether it may open network sockets and use TCP.
    public var network: Bool
    /// Whether it may start processes and run programs.
    public var exec: Bool
    /// Whether a process it puts in a session of its own (a clipboard server) may outlive
    /// the call, sandboxed as it was (`background:`; with `exec: true`).
    public var background: Bool
    /// Whether it may reach this session's display server (`display: true`): the X11
    /// socket of `$DISPLAY` and the Wayland socket of `$WAYLAND_DISPLAY`, no other.
    public var display: Bool
    /// Which D-Bus bus it may reach (`dbus:`); by default none.
    public var dbus: DBusPermission
    /// Whether it may hand the shared items to the user's paired devices (`handoff:`):
    /// through a connection to the handoff daemon that actshare opens for it, restricted
    /// to those items; it reaches the daemon no other way.
    public var handoff: Bool

    public init(read: [PermissionPlace] = [.items], write: [PermissionPlace] = [], outputOptions: [String] = [],
                network: Bool = false, exec: Bool = false, background: Bool = false, display: Bool = false,
                dbus: DBusPermission = .none, handoff: Bool = false) {
        self.read = read
        self.write = write
        self.outputOptions = outputOptions
        self.network = network
        self.exec = exec
        self.background = background
        self.display = display
        self.dbus = dbus
        self.handoff = handoff
    }

    /// Whether it may open Unix sockets at all (only to the display and the bus declared).
    public var reachesUnixSockets: Bool { display || dbus != .none }

    /// What a provider that declares nothing may do.
    public static let standard = ProviderPermissions()

    /// The permissions in plain words: "reads the shared items; writes to ~/Documents;
    /// no network".
    public var summary: String {
        func places(_ list: [PermissionPlace]) -> String {
            list.map { $0.words(outputOptions: outputOptions) }.joined(separator: ", ")
        }
        var parts = [read.isEmpty ? "reads nothing of yours" : "reads \(places(read))"]
        parts.append(write.isEmpty ? "writes nothing of yours" : "writes to \(places(write))")
        parts.append(network ? "uses the network" : "no network")
        parts.append(exec ? "runs programs" : "runs no programs")
        if display { parts.append("uses the display (it can see and type into your windows on X11)") }
        if dbus == .session { parts.append("talks to programs on the session bus (D-Bus)") }
        if handoff { parts.append("hands the shared items to your paired devices, or to the phone that scans the QR code it shows") }
        if background { parts.append("may keep a process running after the activity") }
        return parts.joined(separator: "; ")
    }

    /// The places that give more than a provider should need: the whole home folder or
    /// file system, or its configuration.
    public var broadPlaces: [(key: String, place: String)] {
        let broad: Set<String> = ["~", "~/", "$HOME", "$HOME/", "/", "/home", "~/.config", "$XDG_CONFIG_HOME", "~/.ssh", "~/.gnupg"]
        return read.compactMap { place in
            if case .path(let text) = place, broad.contains(text) { return ("read", text) }
            return nil
        } + write.compactMap { place in
            if case .path(let text) = place, broad.contains(text) { return ("write", text) }
            return nil
        }
    }
}
