import Foundation
import Testing

/// Handoff between real daemons on 127.0.0.1, each with its own XDG directories and a port
/// the kernel chose.
@Suite(.serialized) struct HandoffTests {
    /// One machine: a sandbox (its own XDG directories) and its daemon.
    final class Machine {
        let sandbox: Sandbox
        let name: String
        /// The peer port: the kernel's choice at the first start (`--port 0`, read back from
        /// `handoff status`), the same one at a restart, so that peers find the device again.
        /// In a network namespace of the test's own, the port the test gives (the protocol's).
        private(set) var port: Int
        private var daemon: ClipboardTests.Server?

        /// Extra arguments for the daemon: `--discovery static` unless a test runs it in a
        /// network namespace of its own (multicast stays off the machine's real interfaces).
        let daemonArguments: [String]
        /// A network namespace to run the daemon in (`ip netns exec`), or nil.
        let namespace: String?

        /// `config` is written as the machine's config.yaml, and `environment` added to its
        /// own (a `DISPLAY`), before its daemon starts.
        init(_ name: String, port: Int = 0, namespace: String? = nil, daemonArguments: [String]? = nil, config: String? = nil,
             environment: [String: String] = [:]) throws {
            sandbox = try Sandbox(providerPath: [])
            sandbox.extraEnvironment.merge(environment) { $1 }
            if let config {
                try FileManager.default.createDirectory(atPath: "\(sandbox.root)/config/actshare", withIntermediateDirectories: true)
                try config.write(toFile: "\(sandbox.root)/config/actshare/config.yaml", atomically: true, encoding: .utf8)
            }
            self.name = name
            self.port = port
            self.namespace = namespace
            self.daemonArguments = daemonArguments ?? (namespace == nil ? ["--discovery", "static"] : [])
            try start()
        }

        var socket: String { "\(sandbox.root)/runtime/actshare/daemon.sock" }
        var logFile: String { "\(sandbox.root)/daemon.log" }
        var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }
        var pid: pid_t? { daemon?.pid }

        /// Starts the daemon and waits for its control socket.
        func start() throws {
            // A daemon killed before is waited for: until it is gone, its port is not free.
            daemon = nil
            try? FileManager.default.removeItem(atPath: socket)
            // The daemon's log, appended to across restarts.
            let log = open(logFile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            defer { close(log) }
            let command = [Sandbox.binary, "daemon", "--port", String(port), "--name", name] + daemonArguments
            daemon = try ClipboardTests.Server(
                namespace.map { ["/usr/sbin/ip", "netns", "exec", $0] + command } ?? command,
                environment: sandbox.environment.map { "\($0)=\($1)" }, stderr: log)
            // Its control socket, or its end: under load it may take a while either way.
            let daemon = try #require(daemon)
            eventually { FileManager.default.fileExists(atPath: socket) || daemon.hasExited }
            try #require(FileManager.default.fileExists(atPath: socket), "the daemon of \(name) did not start: \(log)")
            if port == 0 {
                port = try #require(try status("port") as? Int, "handoff status has no port")
                try #require(port != 0, "the daemon of \(name) says it listens on port 0")
            }
        }

        func stop() { daemon = nil }

        /// Restarts the daemon on a port the kernel chooses, holding the old one (nothing
        /// answers there) until the result is released.
        func moveToAnotherPort() throws -> ClosedPort {
            stop()
            let old = try ClosedPort(port)
            port = 0
            try start()
            return old
        }

        /// How many times the daemon's log has said `line` (across restarts).
        func said(_ line: String) -> Int { log.components(separatedBy: line).count - 1 }

        /// Runs `action`, then waits for the daemon's log to say `line` once more: the event
        /// that shows what `action` started has happened. Whether it did.
        @discardableResult
        func afterwards<T>(saying line: String, _ action: () throws -> T) rethrows -> T {
            let before = said(line)
            let result = try action()
            #expect(eventually { self.said(line) > before }, "the daemon of \(name) did not say \"\(line)\": \(log.suffix(2000))")
            return result
        }

        /// `handoff pair --wait --yes --expect-device ID` in the background, once the daemon
        /// waits (its log says so): its result when it ends.
        func waitToPair(expecting id: String) -> () -> Run {
            afterwards(saying: "pairing: waiting for a device to pair") {
                background(["handoff", "pair", "--wait", "--yes", "--expect-device", id])
            }
        }

        /// Stops the daemon as systemd would (SIGTERM), and waits for it.
        func terminate() {
            daemon?.terminate()
            daemon = nil
        }

        /// This machine's device id, from `handoff status --json`.
        func deviceID() throws -> String {
            try #require(try status("id") as? String, "handoff status has no id")
        }

        /// One field of `handoff status --json`.
        func status(_ field: String) throws -> Any? {
            let status = try run("handoff", "status", "--json")
            let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            try #require(object != nil, "handoff status: \(status.stderr)")
            return object?[field]
        }

        func run(_ arguments: String...) throws -> Run { try sandbox.run(arguments) }

        /// Runs a command in the background (a pairing that waits), returning its result
        /// later (the harness bounds the command; a command that cannot start is status -1).
        func background(_ arguments: [String]) -> () -> Run {
            let box = SandboxBox(sandbox)
            return HandoffTests.background {
                do { return try box.sandbox.run(arguments) } catch { return Run(status: -1, stdout: "", stderr: "cannot run \(arguments): \(error)") }
            }
        }
    }

    /// Hands a sandbox to a thread.
    final class SandboxBox: @unchecked Sendable {
        let sandbox: Sandbox
        init(_ sandbox: Sandbox) { self.sandbox = sandbox }
    }

    /// Pairs `a` with `b` (b waits, a asks), both confirming; returns both outputs.
    /// `address` is where a reaches b: its port on 127.0.0.1 unless given.
    static func pair(_ a: Machine, _ b: Machine, at address: String? = nil) throws -> (Run, Run) {
        // --yes on the waiting side pairs only with the device it expects; a asks once b's
        // daemon says it waits.
        let waiting = b.waitToPair(expecting: try a.deviceID())
        let asked = try a.run("handoff", "pair", address ?? "127.0.0.1:\(b.port)", "--yes")
        return (asked, waiting())
    }

    /// Two machines, alpha and beta, paired.
    static func pairedMachines() throws -> (Machine, Machine) {
        let a = try Machine("alpha"), b = try Machine("beta")
        let (asked, waited) = try pair(a, b)
        #expect(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        return (a, b)
    }

    static func code(_ run: Run) -> String? {
        run.stdout.split(separator: "\n").first { $0.hasPrefix("Pairing code: ") }.map { String($0.dropFirst(14).prefix(6)) }
    }

    static func publish(_ machine: Machine, _ arguments: String...) throws -> String {
        let run = try machine.sandbox.run(["activity", "become-current"] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Installs on `machine` a handler of org.example.notes.editing that copies the JSON
    /// file it is given; returns where the copy will be.
    static func installCopyingHandler(on machine: Machine, maxVersion: Int? = nil) throws -> String {
        let received = "\(machine.sandbox.root)/received.json"
        try Sandbox.write("""
            schema: actshare/handler@1
            id: org.example.notes
            continues: [org.example.notes.editing]
            exec: "sh -c 'cp \\"$0\\" \(received)' {activity-file}"
            \(maxVersion.map { "max-version: \($0)" } ?? "")
            """, to: "\(machine.sandbox.root)/data/actshare/handlers/notes.yaml")
        return received
    }

    @Test func pairPublishListContinue() throws {
        let a = try Machine("alpha"), b = try Machine("beta")
        let (asked, waited) = try Self.pair(a, b)
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(Self.code(asked) != nil && Self.code(asked) == Self.code(waited), "both sides show the same code")
        #expect(asked.stdout.contains("Paired with beta"))
        #expect(waited.stdout.contains("Paired with alpha"))
        #expect(waited.stderr.hasPrefix("This device: beta (\(try b.deviceID())), port \(b.port).\nWaiting up to 2 minutes: on the other device run `actshare handoff pair "),
                "the waiting side says who it is and what it waits for: \(waited.stderr)")

        let marker = "\(a.sandbox.root)/continued-by"
        let id = try Self.publish(
            a, "--type", "org.example.notes.editing", "--title", "Shopping list", "--user-info", #"{"note": 42}"#,
            "--webpage-url", "https://example.org/n/42", "--version", "2",
            "--needs-save-command", #"echo '{"note": 43, "saved": true}'"#,
            "--on-continued", "sh -c 'echo \"$ACTSHARE_CONTINUED_BY\" > \(marker)'")
        #expect(id.count == 16)

        // Visible on B as soon as A has published it.
        let listed = try b.run("handoff", "list", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["id"] as? String == id)
        #expect(rows.first?["device"] as? String == "alpha")
        #expect(rows.first?["title"] as? String == "Shopping list")
        #expect(rows.first?["type"] as? String == "org.example.notes.editing")
        #expect((rows.first?["age"] as? Int ?? 99) < 5)

        // A handler on B that copies the JSON it gets.
        let received = try Self.installCopyingHandler(on: b, maxVersion: 2)
        let continued = try b.run("handoff", "continue", id)
        #expect(continued.status == 0, "\(continued.stderr)")
        #expect(continued.stdout == "continued Shopping list from alpha in org.example.notes\n")
        eventually { FileManager.default.fileExists(atPath: received) }
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: received))) as? [String: Any])
        #expect(file["type"] as? String == "org.example.notes.editing")
        #expect(file["title"] as? String == "Shopping list")
        #expect(file["version"] as? Int == 2)
        #expect(file["webpage_url"] as? String == "https://example.org/n/42")
        #expect((file["user_info"] as? [String: Any])?["saved"] as? Bool == true, "the needs-save-command's userInfo")
        #expect((file["origin_device"] as? [String: Any])?["name"] as? String == "alpha")

        // The origin ran on-continued and says who continued it.
        eventually { FileManager.default.fileExists(atPath: marker) }
        #expect(try String(contentsOfFile: marker, encoding: .utf8) == "beta\n")
        #expect(try a.run("activity", "list").stdout.contains("\(id)  org.example.notes.editing  Shopping list  continued by beta"))

        // Too new for the handler, or nobody continues it: exit 3, saying which.
        let newer = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "Newer", "--version", "3")
        let tooNew = try b.run("handoff", "continue", newer)
        #expect(tooNew.status == 3)
        #expect(tooNew.stderr == "actshare: org.example.notes.editing version 3 is newer than org.example.notes accepts (max-version 2)\n")
        let unknown = try Self.publish(a, "--type", "org.example.paint.canvas", "--title", "Canvas")
        let nobody = try b.run("handoff", "continue", unknown)
        #expect(nobody.status == 3)
        #expect(nobody.stderr == "actshare: no application here continues org.example.paint.canvas\n")

        // No handler, a web page: the configured browser gets the URL.
        let opened = "\(b.sandbox.root)/opened-url"
        let browser = "\(b.sandbox.root)/browser.sh"
        try Sandbox.write("#!/bin/sh\necho \"$1\" > \(opened)\n", to: browser)
        chmod(browser, 0o755)
        try b.sandbox.writeConfig("handoff: {browser: \(browser)}\n")
        let web = try Self.publish(a, "--type", "org.example.reader.article", "--title", "Article", "--webpage-url", "https://example.org/a?b=1")
        let fallback = try b.run("handoff", "continue", web)
        #expect(fallback.status == 0, "\(fallback.stderr)")
        eventually { FileManager.default.fileExists(atPath: opened) }
        #expect(try String(contentsOfFile: opened, encoding: .utf8) == "https://example.org/a?b=1\n")

        // Invalidated: gone from B's list. Restarted: still paired.
        #expect(try a.run("activity", "invalidate", web).status == 0)
        #expect(!(try b.run("handoff", "list").stdout.contains(web)))
        a.stop()
        b.stop()
        try a.start()
        try b.start()
        let again = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "After restart")
        #expect(try b.run("handoff", "list").stdout.contains("\(again)  alpha  org.example.notes.editing  After restart"))
        #expect(try b.run("handoff", "devices").stdout.contains("alpha  127.0.0.1:\(a.port)  reachable"))
    }

    /// An app's commands run under the origin's limits: a save that hangs is stopped, and
    /// `on-continued` is not waited for.
    @Test func anAppsCommandsCannotHoldUpAContinuation() throws {
        let a = try Machine("alpha"), b = try Machine("beta")
        let (asked, waited) = try Self.pair(a, b)
        #expect(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        // Each command leaves a file when it ends, which it does only after 30 s: a continuation
        // that waited for either would find its file.
        let started = "\(a.sandbox.root)/on-continued-started", saved = "\(a.sandbox.root)/saved", ended = "\(a.sandbox.root)/on-continued-ended"
        let id = try Self.publish(
            a, "--type", "org.example.notes.editing", "--title", "Slow app", "--user-info", #"{"note": 1}"#,
            "--needs-save-command", "sh -c 'sleep 30; touch \(saved)'", "--on-continued", "sh -c 'echo yes > \(started); sleep 30; touch \(ended)'")
        let received = try Self.installCopyingHandler(on: b)

        let continued = try b.run("handoff", "continue", id)
        #expect(continued.status == 0, "\(continued.stderr)")
        #expect(!FileManager.default.fileExists(atPath: saved), "the save that hangs was not waited for")
        eventually { FileManager.default.fileExists(atPath: received) }
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: received))) as? [String: Any])
        #expect((file["user_info"] as? [String: Any])?["note"] as? Int == 1, "the userInfo last published")
        eventually { FileManager.default.fileExists(atPath: started) }
        #expect(FileManager.default.fileExists(atPath: started))

        // The origin is still at work: a second continuation is served, not held behind it.
        #expect(try b.run("handoff", "continue", id).status == 0)
        #expect(!FileManager.default.fileExists(atPath: saved) && !FileManager.default.fileExists(atPath: ended), "neither command was waited for")
        #expect(try a.run("activity", "list").stdout.contains("continued by beta"))
    }

    @Test func strangersAndChangedIdentitiesAreRefused() throws {
        let a = try Machine("alpha"), b = try Machine("beta"), c = try Machine("gamma")
        let (asked, waited) = try Self.pair(a, b)
        #expect(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        let id = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "Private")

        // C is paired with nobody: it sees nothing, and A will not pair while not waiting.
        #expect(try c.run("handoff", "list").stdout.isEmpty)
        let refused = try c.run("handoff", "pair", "127.0.0.1:\(a.port)", "--yes")
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("actshare: "))
        #expect(try c.run("handoff", "devices").stdout.isEmpty)

        // A with a new identity (its state lost): B refuses it, and A cannot reach B's list either.
        a.stop()
        for file in ["identity-key.pem", "identity-certificate.pem"] {
            try FileManager.default.removeItem(atPath: "\(a.sandbox.root)/state/actshare/\(file)")
        }
        try a.start()
        _ = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "From a new key")
        #expect(!(try b.run("handoff", "list").stdout.contains("From a new key")))
        #expect(try b.run("handoff", "devices").stdout.contains("alpha  127.0.0.1:\(a.port)  unreachable"))
        _ = id
        // Until re-paired.
        #expect(try b.run("handoff", "unpair", "alpha").status == 0)
        let (again, waitedAgain) = try Self.pair(a, b)
        #expect(again.status == 0 && waitedAgain.status == 0, "\(again.stderr) \(waitedAgain.stderr)")
        #expect(try b.run("handoff", "list").stdout.contains("From a new key"))
    }

    @Test func badActivitiesAreRefused() throws {
        let a = try Machine("alpha")
        let cases: [([String], String)] = [
            (["--type", "org.example.x", "--title", "T", "--webpage-url", "ftp://example.org"], "actshare: --webpage-url must be an http or https URL, not 'ftp://example.org'\n"),
            (["--type", "org.example.x", "--title", "T", "--user-info", "[1, 2]"], "actshare: --user-info must be a JSON object, not '[1, 2]'\n"),
            (["--type", "org.example.x", "--title", "T", "--user-info", "{\"a\": \"\(String(repeating: "x", count: 70_000))\"}"],
             "actshare: --user-info is 70009 bytes; at most 65536 are allowed\n"),
            (["--type", "not reverse dns", "--title", "T"], "actshare: --type not reverse dns is not a reverse-DNS type such as org.example.app.editing\n"),
        ]
        for (arguments, message) in cases {
            let run = try a.sandbox.run(["activity", "become-current"] + arguments)
            #expect(run.status == 2)
            #expect(run.stderr == message)
        }
        #expect(try a.run("activity", "invalidate", "0000000000000000").status == 2)
        // Without a daemon: a clear message.
        a.stop()
        let stopped = try a.run("activity", "list")
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("no actshare daemon is running"))
    }

    /// A second daemon on a port in use says so and exits, before its control socket exists.
    @Test func aPortInUseIsSaid() throws {
        let a = try Machine("alpha")
        let other = try Sandbox(providerPath: [])
        let run = try Sandbox.execute(
            "\(Sandbox.buildDirectory)/actshare-daemon", ["--port", String(a.port), "--name", "beta", "--discovery", "static"],
            environment: other.environment, stdin: nil)
        #expect(run.status == 2)
        #expect(run.stderr == "actshare daemon: cannot listen for peers on 0.0.0.0 port \(a.port): Address already in use (another actshare daemon? give it another --port)\n")
        #expect(!FileManager.default.fileExists(atPath: "\(other.root)/runtime/actshare/daemon.sock"))
        #expect(try a.run("handoff", "devices").status == 0, "the first daemon is unharmed")
    }
}

extension HandoffTests {
    /// The Hand Off activity: a URL continues in B's browser, text onto B's clipboard.
    @Test func handOffSendsURLsAndText() throws {
        let a = try Machine("alpha"), b = try Machine("beta")
        a.sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        b.sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        // Offered once a device is paired, not before (issue 13).
        let offered = { try a.run("list", "--text", "x", "--json").listedTypes().contains("org.actshare.handoff") }
        #expect(try !offered())
        let (asked, waited) = try Self.pair(a, b)
        #expect(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        #expect(try offered())

        let sent = try a.run("perform", "org.actshare.handoff", "https://example.org/shared?x=1", "-o", "device=beta")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout == "handed off 1 item to beta\n")
        let listed = try b.run("handoff", "list")
        #expect(listed.stdout.contains("alpha  org.actshare.handoff.url  https://example.org/shared?x=1"))
        let opened = "\(b.sandbox.root)/opened-url", browser = "\(b.sandbox.root)/browser.sh"
        try Sandbox.write("#!/bin/sh\necho \"$1\" > \(opened)\n", to: browser)
        chmod(browser, 0o755)
        try b.sandbox.writeConfig("handoff: {browser: \(browser)}\n")
        #expect(try b.run("handoff", "continue", "--latest").status == 0)
        eventually { FileManager.default.fileExists(atPath: opened) }
        #expect(try String(contentsOfFile: opened, encoding: .utf8) == "https://example.org/shared?x=1\n")
        #expect(try b.run("handoff", "list").stdout.isEmpty, "continued, it is gone")

        // Text onto B's clipboard, under a real X server.
        let display = try ClipboardTests.Display()
        b.sandbox.extraEnvironment["DISPLAY"] = display.name
        let text = "Handed-off text ✓"
        #expect(try a.run("perform", "org.actshare.handoff", "--text", text).status == 0, "the only paired device")
        // Looked at with --print, it stays to be continued.
        let printed = try b.run("handoff", "continue", "--latest", "--print")
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("Handed-off text"))
        #expect(try b.run("handoff", "list").stdout.contains("alpha  org.actshare.handoff.text"))
        let continued = try b.run("handoff", "continue", "--latest")
        #expect(continued.status == 0, "\(continued.stderr)")
        #expect(continued.stdout == "copied the text from alpha to the clipboard\n")
        #expect(try ClipboardTests.paste("UTF8_STRING", display: display) == Data(text.utf8))

        // Only http and https URLs are handed off: refused here (and by B's daemon, were
        // this one to send it: HandoffAttackTests).
        for url in ["javascript:alert(1)", "x-custom:open"] {
            let script = try a.run("perform", "org.actshare.handoff", url)
            #expect(script.status == 2)
            #expect(script.stderr == "actshare: org.actshare.handoff: only http and https URLs can be handed off, not \(url)\n")
        }

        // Named by its id, as the share sheet's row names it: the result still says its name.
        let byID = try a.run("perform", "org.actshare.handoff", "--text", "by id", "-o", "device=\(try b.deviceID())")
        #expect(byID.stdout == "handed off 1 item to beta\n", "\(byID.stdout)\(byID.stderr)")
        // Nobody to send to, or a file: refused.
        let unknown = try a.run("perform", "org.actshare.handoff", "--text", "x", "-o", "device=nobody")
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "actshare: org.actshare.handoff: no paired device is called nobody\n")

        // Unpaired again, it is no longer offered, and naming it says which check said no.
        #expect(try a.run("handoff", "unpair", "beta").status == 0)
        #expect(try !offered())
        let alone = try a.run("perform", "org.actshare.handoff", "--text", "x")
        #expect(alone.status == 3)
        #expect(alone.stderr == "actshare: org.actshare.handoff cannot perform on these items: No device is paired: pair one first (actshare handoff pair)\n")
        // A share that finds nothing to offer says what the declining provider said.
        let nothing = try a.run("share", "--only", "org.actshare.handoff", "--text", "x")
        #expect(nothing.status == 3)
        #expect(nothing.stderr == "actshare: no activity can perform on the text item (text/plain) (Hand Off: No device is paired: pair one first (actshare handoff pair))\n", "\(nothing.stderr)")
    }

    /// The paired-device check reads only the start of the daemon's file, and a FIFO or an
    /// empty list there means no device (issue 13).
    @Test func handOffIsNotOfferedWithoutAPairedDevice() throws {
        let sandbox = try Sandbox()
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        let state = "\(sandbox.root)/state/actshare", file = "\(state)/paired-devices.json"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let offered = { try sandbox.run("list", "--text", "x", "--json").listedTypes().contains("org.actshare.handoff") }
        #expect(try !offered(), "no file")
        try Sandbox.write(" [\n ]\n", to: file)
        #expect(try !offered(), "an empty list")
        try FileManager.default.removeItem(atPath: file)
        #expect(mkfifo(file, 0o600) == 0)
        #expect(try !offered(), "a FIFO, and the listing did not hang on it")
    }
}

import ActShareKit

/// An app's delegate: refreshes userInfo when asked, and records who continued.
final class NotesDelegate: UserActivityDelegate, @unchecked Sendable {
    var continuedBy: String?
    var saves = 0

    func userActivityWillSave(_ activity: ActShareKit.UserActivity) {
        saves += 1
        activity.addUserInfoEntries(from: ["saved": .bool(true)])
    }

    func userActivityWasContinued(_ activity: ActShareKit.UserActivity, by device: String) {
        continuedBy = device
    }
}

extension HandoffTests {
    /// ActShareKit in this process, as an app would use it, against A's daemon.
    @Test func anAppPublishesThroughActShareKit() throws {
        let a = try Machine("alpha"), b = try Machine("beta")
        let (asked, waited) = try Self.pair(a, b)
        #expect(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        setenv("XDG_RUNTIME_DIR", "\(a.sandbox.root)/runtime", 1)
        let delegate = NotesDelegate()
        let activity = ActShareKit.UserActivity(activityType: "org.example.notes.editing")
        activity.title = "From the app"
        activity.userInfo = ["note": .number(7)]
        activity.needsSave = true
        activity.delegate = delegate
        try activity.becomeCurrent()
        let id = try #require(activity.identifier)

        let printed = try b.run("handoff", "continue", id, "--print")
        #expect(printed.status == 0, "\(printed.stderr)")
        let file = try #require(try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any])
        let info = try #require(file["user_info"] as? [String: Any])
        #expect(info["note"] as? Int == 7)
        #expect(info["saved"] as? Bool == true, "userActivityWillSave ran before it left")
        #expect(delegate.saves == 1 && !activity.needsSave)

        try Sandbox.write("""
            schema: actshare/handler@1
            id: org.example.notes
            continues: [org.example.notes.editing]
            exec: "true {activity-file}"
            """, to: "\(b.sandbox.root)/data/actshare/handlers/notes.yaml")
        #expect(try b.run("handoff", "continue", id).status == 0)
        eventually { delegate.continuedBy != nil }
        #expect(delegate.continuedBy == "beta")

        activity.invalidate()
        var listed = try b.run("handoff", "list").stdout
        try eventually {
            listed = try b.run("handoff", "list").stdout
            return !listed.contains(id)
        }
        #expect(!listed.contains(id))
    }
}

extension HandoffTests {
    /// A device that moved to another port is found at the config's static peers.
    @Test func staticPeersFindAMovedDevice() throws {
        let a = try Machine("alpha"), b = try Machine("beta")
        let (asked, waited) = try Self.pair(a, b)
        #expect(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        // Its old port held while the kernel chooses another: nothing answers there.
        let old = try a.moveToAnotherPort()
        #expect(a.port != old.port)
        let id = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "Moved")
        #expect(!(try b.run("handoff", "list").stdout.contains(id)), "not where it was paired")
        b.stop()
        try b.sandbox.writeConfig("handoff: {discovery: static, peers: [\"127.0.0.1:\(a.port)\"]}\n")
        try b.start()
        #expect(try b.run("handoff", "list").stdout.contains("\(id)  alpha  org.example.notes.editing  Moved"))
    }
}
