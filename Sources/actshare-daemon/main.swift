// actshare-daemon [--port N] [--name NAME] [--peer HOST:PORT]… [--receive-dir DIR] [--keep-partial SECONDS]
//                 [--listen ADDRESS] [--discovery multicast|static] [--clipboard off|manual|auto]
//                 [--clipboard-max BYTES] [--clipboard-expires SECONDS] [--clipboard-primary]
//                 [--localsend on|off|receive-only] [--localsend-port N] [--quickshare on|off|receive-only]
//
// The PIN LocalSend devices must give (config handoff.localsend-pin) comes in
// ACTSHARE_LOCALSEND_PIN: the environment only this user reads, not a command line.
//
// The handoff daemon, started by `actshare daemon` (which passes the config's
// `handoff` settings) or its systemd user unit. See docs/PROTOCOL.md. Started any other
// way while a config.yaml exists, it refuses: it does not read the config itself, and would
// quietly run without the settings the user wrote there.
import ActShareCore
import ActShareDaemon
import ActShareHandoff
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
var port = HandoffDefaults.port
var name = ""
var peers: [(host: String, port: Int)] = []
var receiveDirectory = DownloadDirectory.fromEnvironment()
var keepPartial = 86_400
var listen = "0.0.0.0"
var multicast = true
var clipboardMode = ClipboardSettings.Mode.manual
var clipboardMaximum = ClipboardSettings.defaultMaximumBytes
var clipboardExpires = ClipboardSettings.defaultOfferSeconds
var clipboardPrimary = false
var localSend = LocalSendSettings()
var quickShare = QuickShareSettings()
func fail(_ message: String) -> Never {
    _ = FileSystem.writeAll(Array("actshare daemon: \(message)\n".utf8), to: 2)
    exit(2)
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--port":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), (1...65535).contains(value) else { fail("--port needs a port, 1 to 65535") }
        port = value
    case "--name":
        guard let value = arguments.popFirst(), !value.isEmpty else { fail("--name needs a name") }
        name = value
    case "--peer":
        guard let value = arguments.popFirst(), let colon = value.lastIndex(of: ":"), let peerPort = Int(value[value.index(after: colon)...]) else {
            fail("--peer needs HOST:PORT")
        }
        peers.append((String(value[..<colon]), peerPort))
    case "--receive-dir":
        guard let value = arguments.popFirst(), value.hasPrefix("/") else { fail("--receive-dir needs an absolute path") }
        receiveDirectory = value
    case "--listen":
        guard let value = arguments.popFirst(), !value.isEmpty else { fail("--listen needs an IP address") }
        listen = value
    case "--discovery":
        switch arguments.popFirst() {
        case "multicast": multicast = true
        case "static": multicast = false
        default: fail("--discovery takes multicast or static")
        }
    case "--clipboard":
        guard let value = arguments.popFirst().flatMap(ClipboardSettings.Mode.init(rawValue:)) else { fail("--clipboard takes off, manual or auto") }
        clipboardMode = value
    case "--clipboard-max":
        guard let value = arguments.popFirst().flatMap({ UInt64($0) }), value > 0, value <= 1 << 30 else {
            fail("--clipboard-max needs a size in bytes, at most 1 GiB")
        }
        clipboardMaximum = value
    case "--clipboard-expires":
        guard let value = arguments.popFirst().flatMap({ Double($0) }), value >= 5, value <= 3600 else { fail("--clipboard-expires needs seconds, 5 to 3600") }
        clipboardExpires = value
    case "--clipboard-primary":
        clipboardPrimary = true
    case "--localsend":
        guard let value = arguments.popFirst().flatMap(LocalSendSettings.Mode.init(rawValue:)) else { fail("--localsend takes on, off or receive-only") }
        localSend.mode = value
    case "--quickshare":
        guard let value = arguments.popFirst().flatMap(QuickShareSettings.Mode.init(rawValue:)) else { fail("--quickshare takes on, off or receive-only") }
        quickShare.mode = value
    case "--localsend-port":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), (1...65535).contains(value) else { fail("--localsend-port needs a port, 1 to 65535") }
        localSend.port = value
    case "--keep-partial":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 60 else { fail("--keep-partial needs seconds, 60 or more") }
        keepPartial = value
    default:
        fail("unknown argument \(argument) (usage: actshare-daemon [--port N] [--name NAME] [--peer HOST:PORT]... [--receive-dir DIR] [--keep-partial SECONDS] [--listen ADDRESS] [--discovery multicast|static] [--clipboard off|manual|auto] [--clipboard-max BYTES] [--clipboard-expires SECONDS] [--clipboard-primary] [--localsend on|off|receive-only] [--localsend-port N] [--quickshare on|off|receive-only])")
    }
}
if Environment.value(HandoffDefaults.configReadVariable) == nil,
   let config = SearchPaths.fromEnvironment().configFiles.first(where: FileSystem.exists) {
    fail("\(config) is not read when actshare-daemon is run by itself: start the daemon with `actshare daemon` (or `systemctl --user start actshare`), which passes its handoff settings")
}
if let pin = Environment.value("ACTSHARE_LOCALSEND_PIN"), !pin.isEmpty {
    localSend.pin = String(pin.prefix(64))
}
if name.isEmpty {
    var host = [UInt8](repeating: 0, count: 256)
    gethostname(&host, 255)
    name = String(decoding: host.prefix { $0 != 0 }, as: UTF8.self)
}
// The agent beside this program (an install's libexec), else where the build tree keeps it.
var clipboardAgent = SearchPaths.fromEnvironment().clipboardAgent
if let beside = FileSystem.executablePath.map({ FileSystem.join(FileSystem.directoryName($0), "actshare-clipboard-agent") }),
   FileSystem.exists(beside) {
    clipboardAgent = beside
}
// The same for Quick Share's Bluetooth signal.
quickShare.bluetoothTrigger = SearchPaths.fromEnvironment().bluetoothTrigger
if let beside = FileSystem.executablePath.map({ FileSystem.join(FileSystem.directoryName($0), "actshare-bluetooth-trigger") }),
   FileSystem.exists(beside) {
    quickShare.bluetoothTrigger = beside
}
// A clipboard agent that ended is an error on its socket, not a signal that ends the daemon.
signal(SIGPIPE, SIG_IGN)
do {
    let daemon = try Daemon(settings: Daemon.Settings(name: name, port: port, staticPeers: peers, receiveDirectory: receiveDirectory, keepPartialSeconds: keepPartial, listenAddress: listen, multicast: multicast, clipboard: ClipboardSettings(mode: clipboardMode, maximumBytes: clipboardMaximum, offerSeconds: clipboardExpires, primary: clipboardPrimary, agent: clipboardAgent), localSend: localSend, quickShare: quickShare), paths: HandoffPaths.fromEnvironment())
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
