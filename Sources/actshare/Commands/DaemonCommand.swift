import ActShareCore
import ActShareHandoff
import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `actshare daemon`: runs the handoff daemon (actshare-daemon, beside this binary) with
/// the config's `handoff` settings.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the handoff daemon (also a systemd user unit).",
        discussion: """
            The daemon publishes this user's activities to paired devices and fetches theirs: \
            a control socket in $XDG_RUNTIME_DIR/actshare, a TLS listener for peers, and a \
            device identity in $XDG_STATE_HOME/actshare. Several can run on one machine, each \
            with its own XDG directories and port.
            """)

    @Option(help: "The TCP port for peers (default: config handoff.port, else \(HandoffDefaults.port)).")
    var port: Int?

    @Option(help: "This device's name for its peers (default: config handoff.device-name, else the host name).")
    var name: String?

    @Option(help: ArgumentHelp("multicast: advertise this device and find others on the local network (DNS-SD); static: only the addresses known (default: config handoff.discovery, else multicast).",
                               valueName: "multicast|static"))
    var discovery: String?

    @Option(help: ArgumentHelp("Read this config file instead of $XDG_CONFIG_HOME/actshare/config.yaml.", valueName: "file"), completion: .file())
    var config: String?

    func validate() throws {
        if let discovery, discovery != "multicast", discovery != "static" { throw ValidationError("--discovery takes multicast or static") }
    }

    func run() throws {
        let invocation = try Invocation(configFile: config)
        let handoff = invocation.config.handoff
        var arguments = ["--port", String(port ?? handoff["port"].flatMap { Int($0.value) } ?? HandoffDefaults.port)]
        if let name = name ?? handoff["device-name"]?.value { arguments += ["--name", name] }
        for peer in FileSystem.pathList(handoff["peers"]?.value ?? "", separator: ",") {
            arguments += ["--peer", peer.contains(":") ? peer : "\(peer):\(HandoffDefaults.port)"]
        }
        if let seconds = handoff["keep-partial"]?.value { arguments += ["--keep-partial", seconds] }
        if let address = handoff["listen"]?.value { arguments += ["--listen", address] }
        if let discovery = discovery ?? handoff["discovery"]?.value { arguments += ["--discovery", discovery] }
        for key in ["clipboard", "clipboard-max", "clipboard-expires", "localsend", "localsend-port", "quickshare"] {
            if let value = handoff[key]?.value { arguments += ["--\(key)", value] }
        }
        if handoff["clipboard-primary"]?.value == "true" { arguments.append("--clipboard-primary") }
        if let directory = handoff["receive-dir"]?.value {
            arguments += ["--receive-dir", FileSystem.absolute(FileSystem.expandingTilde(directory))]
        }
        // In the environment, which only this user can read; a command line anyone can (ps).
        if let pin = handoff["localsend-pin"]?.value { setenv("ACTSHARE_LOCALSEND_PIN", pin, 1) }
        // The daemon refuses to start beside a config no one read for it (its main.swift).
        setenv(HandoffDefaults.configReadVariable, invocation.config.file ?? "none", 1)
        let daemon = invocation.paths.daemon
        let argv = ([daemon] + arguments).map { strdup($0) } + [nil]
        execv(daemon, argv)
        throw CommandFailure(.failed, "cannot run \(daemon): \(String(cString: strerror(errno)))")
    }
}
