import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The sandbox of isolated providers, attacked by the Intruder fixture with the default
/// permissions (each attempt refused, named, and harmless) and then allowed each thing
/// by a permission that says so.
@Suite struct SandboxTests {
    static let hooks = ["read", "list", "write", "connect", "unix", "handoff", "command", "hoard", "exec", "spawn", "fork-bomb", "allocate", "ptrace", "read-items", "write-private"]

    /// The Intruder's manifest, one activity per hook, with `permissions` (YAML lines) if given.
    static func manifest(permissions: String? = nil) -> String {
        var text = """
            schema: actshare/provider@1
            id: org.test.intruder
            name: Intruder
            version: 1.0.0
            library: \(Sandbox.cProviders)/libintruder.so
            timeout: 10s

            """
        if let permissions { text += "permissions:\n\(permissions)\n" }
        text += "activities:\n"
        for hook in hooks {
            text += """
                  - type: org.test.intruder.\(hook)
                    title: \(hook)
                    accepts: {kinds: [file, text]}
                    options: [{name: target, type: string}, {name: out, type: string}]
                    hooks: {perform: intruder_\(hook.replacingOccurrences(of: "-", with: "_"))}

                """
        }
        return text
    }

    /// A sandbox with the examples and the Intruder; `secret` is a file in its home.
    static func sandbox(permissions: String? = nil) throws -> (Sandbox, secret: String) {
        let sandbox = try Sandbox()
        let directory = "\(sandbox.root)/intruder"
        sandbox.providerPath.insert(directory, at: 0)
        try Sandbox.write(manifest(permissions: permissions), to: "\(directory)/provider.yaml")
        let secret = "\(sandbox.root)/home/secret.txt"
        try "top secret\n".write(toFile: secret, atomically: true, encoding: .utf8)
        return (sandbox, secret)
    }

    /// Performs Intruder's `hook` on a text item with `target`; its result.
    static func attempt(_ sandbox: Sandbox, _ hook: String, _ target: String) throws -> (status: Int32, error: String?, texts: [String]) {
        let run = try sandbox.run("perform", "org.test.intruder.\(hook)", "--text", "x", "-o", "target=\(target)", "--json")
        let json = try run.json()
        let texts = (json["returned_items"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        return (run.status, json["error"] as? String, texts)
    }

    /// A TCP listener on 127.0.0.1: its port, and whether a connection is waiting.
    final class Listener {
        let fd: Int32
        let port: UInt16

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            #expect(bound && listen(fd, 8) == 0)
            self.fd = fd
            port = UInt16(bigEndian: address.sin_port)
        }

        deinit { close(fd) }

        /// Whether a connection arrived within `milliseconds`.
        func connected(within milliseconds: Int32) -> Bool {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, milliseconds) == 1
        }
    }

    /// A Unix socket listening at a path, or at @NAME (an abstract one).
    final class UnixListener {
        let fd: Int32
        let name: String

        init(_ name: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            self.name = name
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(name.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { path in
                for (index, byte) in bytes.enumerated() where index < path.count - 1 { path[index] = byte }
                if name.hasPrefix("@") { path[0] = 0 }
            }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (name.hasPrefix("@") ? 0 : 1))
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            #expect(bound == 0 && listen(fd, 8) == 0, "cannot listen at \(name)")
            if !name.hasPrefix("@") { chmod(name, 0o777) }
        }

        deinit { close(fd) }

        /// Whether a connection arrived within `milliseconds`.
        func connected(within milliseconds: Int32) -> Bool {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, milliseconds) == 1
        }
    }

    /// A provider reaches no Unix socket it did not declare: not actshare's daemon by its
    /// path, not an abstract socket, not the X server by either of its sockets. Declared,
    /// `display: true` reaches this session's X server only, and `dbus: session` the bus.
    @Test func unixSocketsAreReachedOnlyAsDeclared() throws {
        let display = try ClipboardTests.Display()
        let number = display.name.dropFirst()
        let xPath = "/tmp/.X11-unix/X\(number)", xAbstract = "@/tmp/.X11-unix/X\(number)"
        func attempts(permissions: String?) throws -> (Sandbox, daemon: UnixListener, abstract: UnixListener, bus: UnixListener) {
            let (sandbox, _) = try Self.sandbox(permissions: permissions)
            try FileManager.default.createDirectory(atPath: "\(sandbox.root)/runtime/actshare", withIntermediateDirectories: true)
            let daemon = try UnixListener("\(sandbox.root)/runtime/actshare/daemon.sock")
            let abstract = try UnixListener("@actshare-test-\(UUID().uuidString)")
            let bus = try UnixListener("\(sandbox.root)/runtime/bus")
            sandbox.extraEnvironment["DISPLAY"] = display.name
            try sandbox.runAsNobody()
            return (sandbox, daemon, abstract, bus)
        }
        let intruder = "org.test.intruder"
        let nothing = try attempts(permissions: nil)
        for target in [nothing.daemon.name, nothing.abstract.name, nothing.bus.name, xPath, xAbstract] {
            let result = try Self.attempt(nothing.0, "unix", target)
            #expect(result.status == 1, "\(target)")
            #expect(result.error == "org.test.intruder.unix: \(intruder) tried to open a Unix socket (to reach another program), which its manifest does not allow (no display, no D-Bus) (it said: cannot open a socket for \(target): Permission denied)", "\(target)")
        }
        #expect(!nothing.daemon.connected(within: 100) && !nothing.abstract.connected(within: 0) && !nothing.bus.connected(within: 0))

        let shown = try attempts(permissions: "  display: true")
        for target in [xPath, xAbstract] {
            let result = try Self.attempt(shown.0, "unix", target)
            #expect(result.status == 0, "\(target): \(result.error ?? "")")
        }
        for target in [shown.daemon.name, shown.abstract.name, shown.bus.name] {
            let result = try Self.attempt(shown.0, "unix", target)
            #expect(result.status == 1, "\(target)")
            #expect(result.error == "org.test.intruder.unix: \(intruder) tried to connect to \(target), a Unix socket its manifest does not allow (only its display and D-Bus sockets) (it said: cannot connect to \(target): Permission denied)", "\(target)")
        }
        #expect(!shown.daemon.connected(within: 100) && !shown.abstract.connected(within: 0) && !shown.bus.connected(within: 0))

        let bus = try attempts(permissions: "  dbus: session")
        #expect(try Self.attempt(bus.0, "unix", bus.bus.name).status == 0)
        #expect(bus.bus.connected(within: 2000))
        for target in [bus.daemon.name, xPath] { #expect(try Self.attempt(bus.0, "unix", target).status == 1, "\(target)") }
        #expect(!bus.daemon.connected(within: 100))

        // With the network too, its other connects are made as asked (by the guard).
        let both = try attempts(permissions: "  display: true\n  network: true")
        let listener = try Listener()
        let tcp = try Self.attempt(both.0, "connect", String(listener.port))
        #expect(tcp.status == 0, "\(tcp.error ?? "")")
        #expect(listener.connected(within: 2000))
        #expect(try Self.attempt(both.0, "unix", both.daemon.name).status == 1)
    }

    /// An output file the user names in the home folder is granted alone (made first, and
    /// removed again if left empty), not the home folder; a default there is refused.
    @Test func anOutputFileInTheHomeFolderIsGrantedAlone() throws {
        let (sandbox, _) = try Self.sandbox(permissions: "  write: [output]\n  output-option: out")
        try sandbox.runAsNobody()
        let home = "\(sandbox.root)/home"
        let bashrc = "\(home)/.bashrc", notes = "\(home)/notes.txt", unused = "\(home)/unused.txt"
        try "# mine\n".write(toFile: bashrc, atomically: true, encoding: .utf8)
        lchown(bashrc, 65534, 65534)
        func write(_ target: String, out: String) throws -> Run {
            try sandbox.run("perform", "org.test.intruder.write", "--text", "x", "-o", "out=\(out)", "-o", "target=\(target)", "--json")
        }
        let written = try write(notes, out: notes)
        #expect(written.status == 0, "\(written.stdout)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "echo owned\n")
        let beside = try write(bashrc, out: notes)
        #expect(beside.status == 1)
        #expect((try beside.json()["error"] as? String)?.contains("tried to open \(bashrc), which its manifest does not allow") == true, "\(beside.stdout)")
        #expect(try String(contentsOfFile: bashrc, encoding: .utf8) == "# mine\n")
        // Granted but not written: the empty file made for it goes again.
        let other = try sandbox.run("perform", "org.test.intruder.read", "--text", "x", "-o", "out=\(unused)", "-o", "target=/etc/passwd", "--json")
        #expect(other.status == 0, "\(other.stdout)")
        #expect(!FileManager.default.fileExists(atPath: unused), "the empty file made for the grant is removed")
    }

    /// Memory held in files, which no address-space limit counts: memory files are
    /// refused (without `display`), and the private TMPDIR holds at most the memory limit.
    @Test func memoryHeldInFilesIsBounded() throws {
        let (sandbox, _) = try Self.sandbox()
        try sandbox.writeConfig("limits: {memory: 256MiB}\n")
        try sandbox.runAsNobody()
        let memfd = try Self.attempt(sandbox, "hoard", "memfd")
        #expect(memfd.status == 1)
        #expect(memfd.error?.contains("org.test.intruder tried to use memfd_create, a system call no provider may use") == true, "\(memfd.error ?? "")")
        let files = try Self.attempt(sandbox, "hoard", "tmp")
        #expect(files.status == 0, "\(files.error ?? "")")
        let held = Int(files.texts.first?.split(separator: " ").first ?? "") ?? -1
        #expect((0...256).contains(held), "TMPDIR held \(held) MiB under a 256 MiB limit")
        #expect(held >= 192, "and what fits is usable: \(held) MiB")
    }

    @Test func everyAttemptIsRefusedAndNamed() throws {
        let (sandbox, secret) = try Self.sandbox()
        let home = "\(sandbox.root)/home"
        let bashrc = "\(home)/.bashrc"
        try "# mine\n".write(toFile: bashrc, atomically: true, encoding: .utf8)
        let escape = "/tmp/actshare-escape-\(UUID().uuidString)"
        let listener = try Listener()
        let intruder = "org.test.intruder"
        let cases: [(hook: String, target: String, message: String)] = [
            ("read", secret, "\(intruder) tried to open \(secret), which its manifest does not allow"),
            ("list", home, "\(intruder) tried to open \(home), which its manifest does not allow"),
            ("write", bashrc, "\(intruder) tried to open \(bashrc), which its manifest does not allow"),
            ("write", escape, "\(intruder) tried to open \(escape), which its manifest does not allow"),
            ("connect", String(listener.port), "\(intruder) tried to open a network socket (address family 2), which its manifest does not allow (no network)"),
            ("exec", "/bin/sh", "\(intruder) tried to run /bin/sh, which its manifest does not allow (exec: false)"),
            ("spawn", "/bin/sh", "\(intruder) tried to start a process, which its manifest does not allow (exec: false)"),
            ("fork-bomb", "", "\(intruder) tried to start a process, which its manifest does not allow (exec: false)"),
            ("allocate", "", "cannot allocate 8 GiB: Cannot allocate memory"),
            ("ptrace", "", "\(intruder) tried to use ptrace, a system call no provider may use"),
        ]
        for (hook, target, message) in cases {
            let result = try Self.attempt(sandbox, hook, target)
            #expect(result.status == 1, "\(hook)")
            #expect(result.error?.hasPrefix("org.test.intruder.\(hook): \(message)") == true, "\(hook): \(result.error ?? "no error")")
        }
        // Nothing happened: the secret was not read, .bashrc is as it was, no file
        // escaped, the listener saw no one.
        #expect(try String(contentsOfFile: bashrc, encoding: .utf8) == "# mine\n")
        #expect(!FileManager.default.fileExists(atPath: escape))
        #expect(!listener.connected(within: 200))
        // And the host and the other providers go on.
        let text = try sandbox.file("a.txt", "some words\n")
        #expect(try sandbox.run("list", "--json", text).listedTypes().contains("org.example.hello.greet"))
        let greet = try sandbox.run("perform", "org.example.hello.greet", text)
        #expect(greet.status == 0, "\(greet.stderr)")
    }

    @Test func whatThePermissionsDeclareIsAllowed() throws {
        let listener = try Listener()
        let (sandbox, secret) = try Self.sandbox(permissions: """
              read: [items, ~/secret.txt, $HOME]
              write: [~/.bashrc]
              network: true
              exec: true
            """)
        let home = "\(sandbox.root)/home"
        // A rule names what exists: .bashrc is there, as the attack expects.
        try "# mine\n".write(toFile: "\(home)/.bashrc", atomically: true, encoding: .utf8)
        #expect(try Self.attempt(sandbox, "read", secret).texts == ["top secret\n"])
        #expect(try Self.attempt(sandbox, "list", home).status == 0)
        #expect(try Self.attempt(sandbox, "write", "\(home)/.bashrc").status == 0)
        #expect(try String(contentsOfFile: "\(home)/.bashrc", encoding: .utf8) == "# mine\necho owned\n")
        #expect(try Self.attempt(sandbox, "connect", String(listener.port)).status == 0)
        #expect(listener.connected(within: 2000))
        let spawned = try Self.attempt(sandbox, "spawn", "/bin/sh")
        #expect(spawned.status == 0, "\(spawned.error ?? "")")
        // What is not declared is still refused.
        #expect(try Self.attempt(sandbox, "write", "\(home)/other").status == 1)
    }

    /// The items, in several folders, and the private directory: what every provider may
    /// use; the private directory is gone when actshare is done.
    @Test func itemsAndThePrivateDirectoryAreUsable() throws {
        let (sandbox, _) = try Self.sandbox()
        let first = try sandbox.file("one/a.txt", "alpha\n")
        let second = try sandbox.file("two/deeper/b.txt", "beta\n")
        let run = try sandbox.run("perform", "org.test.intruder.read-items", first, second, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect((try run.json()["returned_items"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String } == ["alpha", "beta"])
        let scratch = try Self.attempt(sandbox, "write-private", "")
        #expect(scratch.status == 0, "\(scratch.error ?? "")")
        let directory = try #require(scratch.texts.first)
        #expect(directory.contains("/actshare-provider-"))
        // Removed by the helper's guard as the helper ends, which may be just after actshare.
        eventually { !FileManager.default.fileExists(atPath: directory) }
        #expect(!FileManager.default.fileExists(atPath: directory), "the private directory is removed")
    }

    /// A provider's environment: who and where the user is, the language and the display,
    /// actshare's own variables, and its private TMPDIR; not the user's tokens and agents'
    /// sockets, not actshare's isolation override or handoff grant, and the session bus's
    /// address only with `dbus: session`.
    @Test func aProviderIsGivenOnlyTheEnvironmentItNeeds() throws {
        func names(permissions: String?) throws -> Set<String> {
            let (sandbox, _) = try IsolationTests.sandbox(
                "environment", IsolationTests.hostile("environment", perform: "hostile_environment", permissions: permissions))
            sandbox.extraEnvironment = [
                "API_TOKEN": "secret", "SSH_AUTH_SOCK": "/run/agent.sock", "LC_TIME": "C", "LANG": "C.UTF-8", "ACTSHARE_TEST_MARK": "1",
                "ACTSHARE_ISOLATION": "process", "ACTSHARE_HANDOFF_FD": "9", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent",
                "ACTSHARE_ISOLATION_X": "kept", "LC": "dropped", "HOMEX": "dropped",
            ]
            let run = try sandbox.run("perform", "org.test.environment.go", "--text", "words")
            #expect(run.status == 0, "\(run.stderr)")
            let prefix = "actshare: org.test.environment: warning: env "
            return Set(run.stderr.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
        }
        let given = try names(permissions: nil)
        for name in ["HOME", "LANG", "LC_TIME", "XDG_CONFIG_HOME", "ACTSHARE_TEST_MARK", "ACTSHARE_ISOLATION_X", "TMPDIR"] {
            #expect(given.contains(name), "\(name) is given: \(given.sorted())")
        }
        for name in ["API_TOKEN", "SSH_AUTH_SOCK", "ACTSHARE_ISOLATION", "ACTSHARE_HANDOFF_FD", "DBUS_SESSION_BUS_ADDRESS", "LC", "HOMEX"] {
            #expect(!given.contains(name), "\(name) stays behind: \(given.sorted())")
        }
        let withBus = try names(permissions: "{dbus: session}")
        #expect(withBus.contains("DBUS_SESSION_BUS_ADDRESS"), "\(withBus.sorted())")
        #expect(withBus.subtracting(given) == ["DBUS_SESSION_BUS_ADDRESS"], "\(withBus.sorted())")
    }

    /// `providers` says what each provider may do; `providers check` warns of broad permissions.
    @Test func permissionsAreShownAndBroadOnesWarned() throws {
        let (sandbox, _) = try Self.sandbox(permissions: "  read: [items, \"~\"]\n  network: true")
        let listed = try sandbox.run("providers")
        #expect(listed.stdout.contains("reads the shared items, ~; writes nothing of yours; uses the network; runs no programs"), "\(listed.stdout)")
        let json = try sandbox.run("providers", "--json").json()
        let intruder = try #require((json["providers"] as? [[String: Any]])?.first { $0["id"] as? String == "org.test.intruder" })
        let permissions = try #require(intruder["permissions"] as? [String: Any])
        #expect(permissions["read"] as? [String] == ["items", "~"])
        #expect(permissions["write"] as? [String] == [])
        #expect(permissions["network"] as? Bool == true)
        #expect(permissions["exec"] as? Bool == false)
        #expect(intruder["sandbox"] as? String == "sandboxed: reads the shared items, ~; writes nothing of yours; uses the network; runs no programs")
        let check = try sandbox.run("providers", "check", "\(sandbox.root)/intruder")
        #expect(check.status == 0)
        #expect(check.stderr.contains("provider.yaml:8:9: warning: 'permissions.read' lists '~', which lets the provider read every file there; list only the folders it needs"), "\(check.stderr)")
    }

    /// On a kernel without Landlock (its calls made to fail by no-landlock): said once,
    /// shown by `providers`, and with `sandbox: required`, nothing runs.
    @Test func withoutLandlockItIsSaidOrRefused() throws {
        let (sandbox, secret) = try Self.sandbox()
        let noLandlock = "\(Sandbox.repository)/.build/bin/no-landlock"
        func run(_ arguments: String...) throws -> Run {
            try Sandbox.execute(noLandlock, [Sandbox.binary] + arguments, environment: sandbox.environment, stdin: nil)
        }
        #expect(try run("providers").stdout.contains("          not sandboxed: this kernel has no Landlock\n"))
        let unsandboxed = try run("perform", "org.test.intruder.read", "--text", "x", "-o", "target=\(secret)", "--json")
        #expect(unsandboxed.status == 0, "without Landlock the file is readable: \(unsandboxed.stderr)")
        #expect(unsandboxed.stderr == "actshare: warning: not sandboxed: this kernel has no Landlock, so providers can read and change all of your files (config 'sandbox: required' refuses to run them)\n")
        try sandbox.writeConfig("sandbox: required\n")
        let refused = try run("perform", "org.test.intruder.read", "--text", "x", "-o", "target=\(secret)", "--json")
        #expect(refused.status == 1)
        #expect((try refused.json()["error"] as? String)?.hasSuffix(
            "provider org.test.intruder: not run: this kernel has no Landlock to sandbox it, and config 'sandbox: required'") == true, "\(refused.stdout)")
        #expect(try refused.json()["returned_items"] as? [Any] == nil || (try refused.json()["returned_items"] as? [Any])?.isEmpty == true)
    }

    /// A can-perform hook answers whether the provider can act: it has no private TMPDIR,
    /// and with nothing declared may write nowhere (its helper forks no guard and makes no
    /// file system of its own: nothing of it is left to remove).
    @Test func aCanPerformHookWritesNothing() throws {
        let (sandbox, _) = try IsolationTests.sandbox("scratch", IsolationTests.hostile("scratch", canPerform: "hostile_write_temporary"))
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try sandbox.run("perform", "org.test.scratch.go", text)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("org.test.scratch.go cannot perform on these items: no TMPDIR; cannot write /tmp/hostile-"), "\(run.stderr)")
        #expect(run.stderr.hasSuffix(": Permission denied\n"), "\(run.stderr)")
        #expect(try !sandbox.run("list", text).stdout.contains("org.test.scratch.go"))
        // In actshare's process, for comparison, the same hook writes and says yes.
        sandbox.extraEnvironment["ACTSHARE_ISOLATION"] = "in-process"
        #expect(try sandbox.run("list", text).stdout.contains("org.test.scratch.go"))
    }

    /// A run's can-perform call has a sandbox of its own, with no private folder; prepare
    /// and perform share the next, which has one, and writes where the options say,
    /// `sandbox: required` or not.
    @Test func canPerformAndPerformEachHaveTheirSandbox() throws {
        let (sandbox, _) = try Self.sandbox()
        try sandbox.writeConfig("sandbox: required\n")
        let text = try sandbox.file("a.txt", "some words\n")
        func sandboxes(_ stderr: String) -> [String] {
            stderr.split(separator: "\n").compactMap { $0.components(separatedBy: "provider org.example.hello: sandbox: ").dropFirst().first }
        }
        let run = try sandbox.run("perform", "org.example.hello.greet", text, "--explain")
        #expect(run.status == 0, "\(run.stderr)")
        let ran = sandboxes(run.stderr)
        #expect(ran.count == 2, "\(run.stderr)")
        #expect(ran.first?.contains("no temporary files") == true, "\(run.stderr)")
        #expect(ran.last?.contains("temporary files up to 512 MiB") == true, "\(run.stderr)")
        // An output folder: perform's helper is allowed to write there, can-perform's not.
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let written = try sandbox.run("perform", "org.example.hello.greet", text, "-o", "output-dir=\(output)", "--explain")
        #expect(written.status == 0, "\(written.stderr)")
        let wrote = sandboxes(written.stderr)
        #expect(wrote.count == 2, "\(written.stderr)")
        #expect(wrote.first?.contains(output) == false && wrote.last?.contains(output) == true, "\(written.stderr)")
        #expect(written.stderr.contains("read and write /dev/null, \(output),") || written.stderr.contains(", \(output);"), "\(written.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(output)/hello-1.txt"))
    }
}

/// `write: [beside-items]`: files a sandboxed provider makes in its private `$TMPDIR` and
/// returns are placed beside the shared file by actshare — new files only, never over one
/// that is there, never through a link — and without the declaration they are dropped
/// with a reason that names it (the folder is removed when the helper ends).
@Suite struct ReturnedFilesTests {
    static func sandbox(besideItems: Bool) throws -> (Sandbox, item: String) {
        let permissions = besideItems ? "{write: [beside-items]}" : nil
        let (sandbox, _) = try IsolationTests.sandbox("make", IsolationTests.hostile("make", perform: "hostile_make_file", timeout: "10s", permissions: permissions))
        let item = try sandbox.file("photos/a.txt", "the item\n")
        return (sandbox, item)
    }

    static func make(_ sandbox: Sandbox, _ item: String, then: String? = nil) throws -> [String: Any] {
        let run = try sandbox.run(["perform", "org.test.make.go", item, "--json"] + (then.map { ["-o", "then=\($0)"] } ?? []))
        return try run.json()
    }

    @Test func aFileMadeInTheTemporaryFolderIsPlacedBesideTheItem() throws {
        let (sandbox, item) = try Self.sandbox(besideItems: true)
        let folder = (item as NSString).deletingLastPathComponent
        for (then, name) in [(nil, "made.txt"), (nil, "made (1).txt"), ("-rf", "_rf")] {
            let result = try Self.make(sandbox, item, then: then)
            #expect(result["completed"] as? Bool == true, "\(result)")
            let returned = try #require((result["returned_items"] as? [[String: Any]])?.first)
            #expect(returned["path"] as? String == "\(folder)/\(name)")
            #expect(returned["content_type"] as? String == "text/plain")
            #expect(FileManager.default.contents(atPath: "\(folder)/\(name)") == Data("made by hostile\n".utf8))
        }
        #expect(try String(contentsOfFile: item, encoding: .utf8) == "the item\n", "the item itself untouched")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["_rf", "a.txt", "made (1).txt", "made.txt"], "nothing partial left: \(names)")
        #expect(try sandbox.run("providers").stdout.contains("writes to new files beside the shared items (placed there by actshare)"))
    }

    /// What is placed beside the items is bounded in total by the provider's
    /// temporary-files limit: a sparse file returned four times is placed once, and sparse
    /// files that take nothing of the temporary folder count at the size they are copied.
    @Test func filesPlacedBesideTheItemsAreBoundedInTotal() throws {
        let (sandbox, item) = try Self.sandbox(besideItems: true)
        try Sandbox.write("limits: {temporary-files: 64MiB}\n", to: "\(sandbox.root)/config/actshare/config.yaml")
        let folder = (item as NSString).deletingLastPathComponent
        func placed() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "a.txt" }.sorted() }

        let again = try Self.make(sandbox, item, then: "sparse:48:4")
        #expect((again["returned_items"] as? [[String: Any]])?.count == 1, "\(again)")
        let repeats = (again["dropped_items"] as? [[String: Any]]) ?? []
        #expect(repeats.count == 3 && repeats.allSatisfy { $0["reason"] as? String == "it was returned before, and is placed once" }, "\(repeats)")
        #expect(try placed() == ["sparse-0.bin"])
        try FileManager.default.removeItem(atPath: "\(folder)/sparse-0.bin")

        let each = try Self.make(sandbox, item, then: "sparse-each:24:4")
        #expect((each["returned_items"] as? [[String: Any]])?.count == 2, "\(each)")
        let over = (each["dropped_items"] as? [[String: Any]]) ?? []
        #expect(over.count == 2 && over.allSatisfy { ($0["reason"] as? String)?.hasPrefix("the files placed beside the items would come to more than the provider's temporary-files limit") == true }, "\(over)")
        #expect(try placed() == ["sparse-0.bin", "sparse-1.bin"], "nothing partial left")

        // A folder without room for it: dropped before a byte is copied.
        let small = "\(sandbox.root)/small"
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        let mounted = try Sandbox.execute("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=8m,mode=0755", "none", small],
                                          environment: ProcessInfo.processInfo.environment, stdin: nil)
        try #require(mounted.status == 0, "\(mounted.stderr)")
        defer { _ = try? Sandbox.execute("/usr/bin/umount", [small], environment: ProcessInfo.processInfo.environment, stdin: nil) }
        let smallItem = "\(small)/b.txt"
        try "the item\n".write(toFile: smallItem, atomically: true, encoding: .utf8)
        let full = try Self.make(sandbox, smallItem, then: "sparse:20:1")
        let noRoom = (full["dropped_items"] as? [[String: Any]])?.first?["reason"] as? String
        #expect(noRoom == "\(small) has not enough free space for it", "\(full)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: small) == ["b.txt"])
    }

    @Test func aLinkIsNotFollowedAndUndeclaredFilesAreDroppedWithWhy() throws {
        let (sandbox, item) = try Self.sandbox(besideItems: true)
        let folder = (item as NSString).deletingLastPathComponent
        let secret = try sandbox.file("home/secret.txt", "top secret\n")
        let linked = try Self.make(sandbox, item, then: "link:\(secret)")
        let dropped = try #require((linked["dropped_items"] as? [[String: Any]])?.first)
        #expect(dropped["reason"] as? String == "it is not a regular file in the provider's temporary folder (a link is not followed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.txt"], "the secret was not copied beside the item")

        let (plain, plainItem) = try Self.sandbox(besideItems: false)
        let undeclared = try Self.make(plain, plainItem)
        let why = try #require((undeclared["dropped_items"] as? [[String: Any]])?.first?["reason"] as? String)
        #expect(why.contains("'write: [beside-items]'"), "\(why)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: (plainItem as NSString).deletingLastPathComponent) == ["a.txt"])
    }
}
