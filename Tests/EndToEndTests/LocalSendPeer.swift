import Foundation
import Testing

/// A LocalSend device no one here wrote: `localsendd` (PyPI, protocol v2.2), installed by
/// scripts/install-deps in .build-venv, run in a network namespace with its own state,
/// downloads and control socket, and driven by its `localsendctl`.
final class LocalSendPeer {
    static let bin = "\(Sandbox.repository)/.build-venv/bin"

    let alias: String
    let namespace: String
    let root: String
    private var server: ClipboardTests.Server?

    var downloads: String { "\(root)/downloads" }
    var socket: String { "\(root)/control.sock" }
    var logFile: String { "\(root)/localsendd.log" }
    var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// Starts it with `arguments` (`--unattended` accepts without asking anyone).
    init(alias: String, namespace: String, arguments: [String] = ["--unattended"]) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "\(Self.bin)/localsendd"), "localsendd is not installed: run scripts/install-deps")
        self.alias = alias
        self.namespace = namespace
        root = NSTemporaryDirectory() + "actshare-localsend-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
        try start(arguments)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    var environment: [String: String] {
        ["HOME": root, "XDG_STATE_HOME": "\(root)/state", "XDG_CONFIG_HOME": "\(root)/config", "XDG_RUNTIME_DIR": root, "PATH": "/usr/bin:/bin"]
    }

    func start(_ arguments: [String] = ["--unattended"]) throws {
        stop()
        try? FileManager.default.removeItem(atPath: socket)
        let started = self.log.components(separatedBy: " fingerprint=").count
        let log = open(logFile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        defer { close(log) }
        server = try ClipboardTests.Server(
            ["/usr/sbin/ip", "netns", "exec", namespace, "\(Self.bin)/localsendd", "--alias", alias, "--port", "53317", "--socket", socket,
             "--download-dir", downloads, "--no-log-time"] + arguments,
            environment: environment.map { "\($0)=\($1)" }, stderr: log)
        eventually { FileManager.default.fileExists(atPath: socket) }
        // Its control socket comes first, its HTTPS port later: the line naming its
        // fingerprint says that port listens.
        eventually { self.log.components(separatedBy: " fingerprint=").count > started }
        try #require(self.log.components(separatedBy: " fingerprint=").count > started, "localsendd did not start: \(self.log)")
    }

    func stop() { server = nil }

    /// Forgets its certificate: started again, it has another (a reinstalled app).
    func newCertificate() throws {
        stop()
        for name in ["cert.pem", "key.pem"] { try FileManager.default.removeItem(atPath: "\(root)/state/localsendd/\(name)") }
        try start()
    }

    /// `localsendctl ARGUMENTS` against it.
    func control(_ arguments: [String]) throws -> Run {
        try Sandbox.execute("/usr/sbin/ip", ["netns", "exec", namespace, "\(Self.bin)/localsendctl", "--socket", socket] + arguments,
                            environment: environment, stdin: nil)
    }

    /// Its status (`localsendctl status --json`).
    func status() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(try control(["status", "--json"]).stdout.utf8)) as? [String: Any])
    }

    /// The SHA-256 of its certificate, as it announces it.
    func fingerprint() throws -> String {
        try #require((try status()["self"] as? [String: Any])?["fingerprint"] as? String)
    }

    /// The devices it has heard of (`localsendctl devices --json`).
    func devices() throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(try control(["devices", "--json"]).stdout.utf8)) as? [[String: Any]])
    }
}
