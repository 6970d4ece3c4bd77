import ActShareCore

/// Where the daemon keeps its socket and its state, from the XDG variables.
public struct HandoffPaths: Sendable {
    /// `$XDG_RUNTIME_DIR/actshare` (0700): the control socket.
    public var runtimeDirectory: String
    /// `$XDG_STATE_HOME/actshare`: the identity and the paired devices.
    public var stateDirectory: String
    public var handlerDirectories: [String]

    public var controlSocket: String { FileSystem.join(runtimeDirectory, "daemon.sock") }

    public static func fromEnvironment() -> HandoffPaths {
        let xdg = XDGDirectories.fromEnvironment()
        let runtime = xdg.runtimeDir ?? "/tmp/actshare-\(ControlClient.userID)"
        return HandoffPaths(
            runtimeDirectory: FileSystem.join(runtime, "actshare"), stateDirectory: FileSystem.join(xdg.stateHome, "actshare"),
            handlerDirectories: ([xdg.dataHome] + xdg.dataDirs).map { FileSystem.join($0, "actshare/handlers") })
    }
}
