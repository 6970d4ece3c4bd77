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
        let home = FileSystem.homeDirectory
        let absolute = { (name: String) in Environment.value(name).flatMap { $0.hasPrefix("/") ? $0 : nil } }
        let runtime = absolute("XDG_RUNTIME_DIR") ?? "/tmp/actshare-\(getuidString())"
        let state = absolute("XDG_STATE_HOME") ?? FileSystem.join(home, ".local/state")
        let dataHome = absolute("XDG_DATA_HOME") ?? FileSystem.join(home, ".local/share")
        let dataDirs = FileSystem.pathList(Environment.value("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").filter { $0.hasPrefix("/") }
        return HandoffPaths(
            runtimeDirectory: FileSystem.join(runtime, "actshare"), stateDirectory: FileSystem.join(state, "actshare"),
            handlerDirectories: ([dataHome] + dataDirs).map { FileSystem.join($0, "actshare/handlers") })
    }

    private static func getuidString() -> String { String(ControlClient.userID) }
}
