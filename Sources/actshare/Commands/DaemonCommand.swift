import ActShareCore
import ActShareHandoff
import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `actshare daemon`: runs the handoff daemon (actshare-daemon, beside this binary), which
/// reads the config's `handoff` settings itself.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the handoff daemon (also a systemd user unit).",
        discussion: """
            The daemon publishes this user's activities to paired devices and fetches theirs: \
            a control socket in $XDG_RUNTIME_DIR/actshare, a TLS listener for peers, and a \
            device identity in $XDG_STATE_HOME/actshare. Several can run on one machine, each \
            with its own XDG directories and port.

            It reads the handoff: section of the config itself ($XDG_CONFIG_HOME/actshare/config.yaml, \
            or --config); the options here win over it.
            """)

    @Option(help: "The TCP port for peers (default: config handoff.port, else \(HandoffDefaults.port)); 0 for one the system chooses, which `actshare handoff status` shows.")
    var port: Int?

    @Option(help: "This device's name for its peers (default: config handoff.device-name, else the host name).")
    var name: String?

    @Option(help: ArgumentHelp("multicast: advertise this device and find others on the local network (DNS-SD); static: only the addresses known (default: config handoff.discovery, else multicast).",
                               valueName: "multicast|static"))
    var discovery: String?

    @Option(help: ArgumentHelp("Read this config file instead of $XDG_CONFIG_HOME/actshare/config.yaml.", valueName: "file"), completion: .file())
    var config: String?

    func validate() throws {
        if let discovery, HandoffSettings.Discovery(rawValue: discovery) == nil { throw ValidationError("--discovery takes multicast or static") }
        if let port, !(0...65535).contains(port) { throw ValidationError("--port takes a port from 0 to 65535") }
    }

    func run() throws {
        // The daemon reads the config itself (its handoff settings, decoded once there):
        // only what a person passes by hand goes on its command line.
        var arguments: [String] = []
        if let config { arguments += ["--config", FileSystem.absolute(config)] }
        if let port { arguments += ["--port", String(port)] }
        if let name { arguments += ["--name", name] }
        if let discovery { arguments += ["--discovery", discovery] }
        let daemon = SearchPaths.fromEnvironment(configFile: config).daemon
        let argv = ([daemon] + arguments).map { strdup($0) } + [nil]
        execv(daemon, argv)
        throw CommandFailure(.failed, "cannot run \(daemon): \(String(cString: strerror(errno)))")
    }
}
