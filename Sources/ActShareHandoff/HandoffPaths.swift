import ActShareCore
import CActShareHandoff

/// Where the daemon keeps its socket and its state, from the XDG variables.
public struct HandoffPaths: Sendable {
    /// `$XDG_RUNTIME_DIR/actshare` (0700): the control socket.
    public var runtimeDirectory: String
    /// `$XDG_STATE_HOME/actshare`: the identity and the paired devices.
    public var stateDirectory: String
    public var handlerDirectories: [String]

    public var controlSocket: String { FileSystem.join(runtimeDirectory, ACTSHARE_HANDOFF_CONTROL_SOCKET) }
    /// The paired devices: a JSON array.
    public var pairedDevices: String { FileSystem.join(stateDirectory, ACTSHARE_HANDOFF_PAIRED_DEVICES) }
    /// What arrived here (`handoff received`).
    public var receivedLog: String { FileSystem.join(stateDirectory, "received.jsonl") }
    /// Where earlier versions kept it (one JSON array, read whole): taken over once (ReceivedLog).
    public var earlierReceivedLog: String { FileSystem.join(stateDirectory, "received.json") }
    /// The LocalSend devices reached, each pinned to its certificate.
    public var localSendDevices: String { FileSystem.join(stateDirectory, "localsend-devices.json") }

    public static func fromEnvironment() -> HandoffPaths {
        let xdg = XDGDirectories.fromEnvironment()
        let runtime = xdg.runtimeDir ?? ACTSHARE_HANDOFF_RUNTIME_FALLBACK + "\(ControlClient.userID)"
        return HandoffPaths(
            runtimeDirectory: FileSystem.join(runtime, ACTSHARE_HANDOFF_FOLDER),
            stateDirectory: FileSystem.join(xdg.stateHome, ACTSHARE_HANDOFF_FOLDER),
            handlerDirectories: ([xdg.dataHome] + xdg.dataDirs).map { FileSystem.join($0, "actshare/handlers") })
    }
}
