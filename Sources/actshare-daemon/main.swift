// actshare-daemon [--config FILE] [--port N] [--name NAME] [--discovery multicast|static]
//
// The handoff daemon, started by `actshare daemon` (which passes the same options) or its
// systemd user unit. See docs/PROTOCOL.md. It reads the config itself
// ($XDG_CONFIG_HOME/actshare/config.yaml, or --config): its `handoff:` settings, decoded
// once (ConfigDecoder: FILE:LINE:COLUMN errors), are what it runs with; the options here
// are what a person passes by hand, and win over the config.
import ActShareCore
import ActShareDaemon
import ActShareHandoff
import ActShareManifests
import CActShareSystem
#if canImport(Glibc)
import Glibc
#endif

var arguments = CommandLine.arguments.dropFirst()
// A paste of an image and a transfer's frames reuse their buffers (given back when idle).
cactshare_reuse_large_buffers()
// The notice for files received, started by the daemon (ReceivedNotice): its words on
// standard input.
if arguments.first == "--notify", arguments.count == 2 {
    exit(ReceivedNotice.run(folder: Array(arguments)[1]))
}
// The question a LocalSend transfer asks (LocalSendPrompt): its words on standard input.
if arguments.first == "--ask", arguments.count == 1 {
    exit(LocalSendPrompt.run())
}
// A link a phone sent (QuickShareLinkNotice): its words on standard input.
if arguments.first == "--ask-open", arguments.count == 1 {
    exit(QuickShareLinkNotice.run())
}
func fail(_ message: String) -> Never {
    _ = FileSystem.writeAll(Array("actshare daemon: \(message)\n".utf8), to: 2)
    exit(2)
}
let usage = "usage: actshare-daemon [--config FILE] [--port N] [--name NAME] [--discovery multicast|static]"
var configFile: String?
var port: Int?
var name: String?
var discovery: HandoffSettings.Discovery?
while let argument = arguments.popFirst() {
    switch argument {
    case "--config":
        guard let value = arguments.popFirst(), !value.isEmpty else { fail("--config needs a file") }
        configFile = value
    case "--port":
        // 0: one the kernel chooses (the daemon's log and `handoff status` say which).
        guard let value = arguments.popFirst().flatMap({ Int($0) }), (0...65535).contains(value) else { fail("--port needs a port, 0 to 65535") }
        port = value
    case "--name":
        guard let value = arguments.popFirst(), !value.isEmpty else { fail("--name needs a name") }
        name = value
    case "--discovery":
        guard let value = arguments.popFirst().flatMap(HandoffSettings.Discovery.init(rawValue:)) else { fail("--discovery takes multicast or static") }
        discovery = value
    default:
        fail("unknown argument \(argument) (\(usage))")
    }
}
// The config, read here and nowhere else for the daemon.
let searchPaths = SearchPaths.fromEnvironment(configFile: configFile)
var handoff = HandoffSettings()
if let file = configFile ?? searchPaths.configFiles.first(where: FileSystem.exists) {
    do {
        handoff = try ConfigDecoder().decode(file: file).handoff
    } catch let error as ActShareError {
        _ = FileSystem.writeAll(Array("\(error)\n".utf8), to: 2)
        exit(2)
    } catch {
        fail("\(file): \(error)")
    }
}
if let port { handoff.port = port }
if let name { handoff.deviceName = name }
if let discovery { handoff.discovery = discovery }
// What the config leaves to this machine: its name and its downloads folder.
var hostName = [UInt8](repeating: 0, count: 256)
gethostname(&hostName, 255)
let deviceName = handoff.deviceName ?? String(decoding: hostName.prefix { $0 != 0 }, as: UTF8.self)
let receiveDirectory = handoff.receiveDirectory.map { FileSystem.absolute(FileSystem.expandingTilde($0)) } ?? DownloadDirectory.fromEnvironment()
// The agent beside this program (an install's libexec), else where the build tree keeps it.
handoff.clipboard.agent = searchPaths.clipboardAgent
if let beside = FileSystem.executablePath.map({ FileSystem.join(FileSystem.directoryName($0), "actshare-clipboard-agent") }),
   FileSystem.exists(beside) {
    handoff.clipboard.agent = beside
}
// The same for Quick Share's Bluetooth signal.
handoff.quickShare.bluetoothTrigger = searchPaths.bluetoothTrigger
if let beside = FileSystem.executablePath.map({ FileSystem.join(FileSystem.directoryName($0), "actshare-bluetooth-trigger") }),
   FileSystem.exists(beside) {
    handoff.quickShare.bluetoothTrigger = beside
}
// A clipboard agent that ended is an error on its socket, not a signal that ends the daemon.
signal(SIGPIPE, SIG_IGN)
do {
    let settings = Daemon.Settings(handoff: handoff, name: deviceName, receiveDirectory: receiveDirectory)
    let daemon = try await Daemon(settings: settings, paths: HandoffPaths.fromEnvironment())
    // Stopped (systemd, Ctrl-C): a goodbye on the network first, so that others drop this
    // device from their lists now rather than when its records run out.
    cactshare_catch_cancel_signals()
    Task.detached {
        while cactshare_cancel_flag().pointee == 0 { try? await Task.sleep(for: .milliseconds(100)) }
        daemon.stop()
        exit(0)
    }
    try await daemon.run()
} catch {
    fail("\(error)")
}
