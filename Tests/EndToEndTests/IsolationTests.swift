import Foundation
import Testing

/// Providers that crash, exit, hang or corrupt the pipe run beside good ones: each fault
/// is one clear line, the provider is left out, and everything else still works.
@Suite struct IsolationTests {
    /// A provider around one hostile hook, in a directory of its own.
    static func hostile(_ name: String, canPerform: String? = nil, prepare: String? = nil, perform: String = "hostile_yes",
                        library: String = "\(Sandbox.cProviders)/libhostile.so", timeout: String = "1s",
                        permissions: String? = nil) -> String {
        """
        schema: actshare/provider@1
        id: org.test.\(name)
        name: \(name)
        version: 1.0.0
        library: \(library)
        timeout: \(timeout)
        \(permissions.map { "permissions: \($0)\n" } ?? "")activities:
          - type: org.test.\(name).go
            title: Hostile \(name)
            accepts: {kinds: [file, text]}
            hooks:
        \(canPerform.map { "      can-perform: \($0)\n" } ?? "")\(prepare.map { "      prepare: \($0)\n" } ?? "")      perform: \(perform)
            options: [{name: then, type: string}]
        """
    }

    /// A sandbox with the examples and one hostile provider; returns it and the manifest path.
    static func sandbox(_ name: String, _ manifest: String) throws -> (Sandbox, String) {
        let sandbox = try Sandbox()
        let directory = "\(sandbox.root)/hostile"
        sandbox.providerPath.insert(directory, at: 0)
        let file = "\(directory)/\(name).yaml"
        try Sandbox.write(manifest, to: file)
        return (sandbox, file)
    }

    static let goodTypes = ["org.example.wordcount.count", "org.example.wordcount.describe", "org.example.hello.greet", "org.example.hello.sign"]

    @Test(arguments: [
        ("segv", "hostile_segv", "crashed during the call (SIGSEGV, a bad memory access)"),
        ("abort", "hostile_abort", "crashed during the call (SIGABRT, aborted)"),
        ("bus", "hostile_bus", "crashed during the call (SIGBUS, a bad memory access)"),
        ("exit", "hostile_exit", "exited with status 3 during the call"),
        ("hang", "hostile_hang", "did not answer within 1s, and was stopped"),
        ("elsewhere", "hostile_hang_elsewhere", "did not answer within 1s, and was stopped"),
        ("garbage", "hostile_garbage", "sent a reply of unknown type 81 (the pipe is corrupt), and was stopped"),
        ("short", "hostile_short_reply", "sent a frame that ended early (the pipe is corrupt), and was stopped"),
        ("close", "hostile_close", "broke its pipe to actshare during the call"),
    ])
    func aFaultyCanPerformHookIsLeftOut(_ name: String, _ symbol: String, _ what: String) throws {
        let (sandbox, file) = try Self.sandbox(name, Self.hostile(name, canPerform: symbol))
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try sandbox.run("list", "--json", text)
        #expect(run.status == 0)
        // A hang is stopped by its 1s limit, and said so ("did not answer within 1s").
        #expect(run.stderr == "\(file):12:20: error: provider org.test.\(name): can-perform hook \(what)\n")
        #expect(try run.listedTypes() == Self.goodTypes)

        // Performing it fails with the same line (the helper is started again): exit 1.
        let perform = try sandbox.run("perform", "org.test.\(name).go", text, "--json")
        let line = "\(file):12:20: error: provider org.test.\(name): can-perform hook \(what)"
        #expect(perform.status == 1)
        #expect(perform.stderr == "actshare: \(line)\n")
        #expect(try perform.json()["error"] as? String == line)
        #expect(try perform.json()["completed"] as? Bool == false)
        // And the good providers still perform.
        let good = try sandbox.run("perform", "org.example.wordcount.count", text)
        #expect(good.status == 0)
        #expect(good.stdout == "2 words, 1 lines, 11 bytes (item 1)\n")
    }

    @Test(arguments: [
        ("segv", "hostile_segv", "crashed during the call (SIGSEGV, a bad memory access)"),
        ("exit", "hostile_exit", "exited with status 3 during the call"),
        ("hang", "hostile_hang", "did not answer within 1s, and was stopped"),
    ])
    func aFaultyPerformHookFailsTheActivity(_ name: String, _ symbol: String, _ what: String) throws {
        let (sandbox, file) = try Self.sandbox(name, Self.hostile(name, perform: symbol))
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try sandbox.run("perform", "org.test.\(name).go", text, "--json")
        #expect(run.status == 1)
        let line = "\(file):12:16: error: provider org.test.\(name): perform hook \(what)"
        #expect(run.stderr == "actshare: \(line)\n")
        let json = try run.json()
        #expect(json["completed"] as? Bool == false)
        #expect(json["error"] as? String == line)
        #expect(try sandbox.run("list", "--json", text).listedTypes().contains("org.example.hello.greet"))
    }

    @Test func libraryProblemsNameTheLibraryKey() throws {
        let (sandbox, _) = try Self.sandbox("none", "")
        let directory = "\(sandbox.root)/hostile"
        let junk = "\(sandbox.root)/libjunk.so"
        try Sandbox.write(String(repeating: "not a library, only text\n", count: 10), to: junk)
        var arm = try Data(contentsOf: URL(fileURLWithPath: "\(Sandbox.cProviders)/libhostile.so"))
        arm[18] = 183  // e_machine: AArch64
        arm[19] = 0
        let armLibrary = "\(sandbox.root)/libarm.so"
        try arm.write(to: URL(fileURLWithPath: armLibrary))
        try FileManager.default.removeItem(atPath: "\(directory)/none.yaml")
        try Sandbox.write(Self.hostile("notelf", canPerform: "hostile_yes", library: junk), to: "\(directory)/notelf.yaml")
        try Sandbox.write(Self.hostile("arm", canPerform: "hostile_yes", library: armLibrary), to: "\(directory)/arm.yaml")
        try Sandbox.write(Self.hostile("missing", canPerform: "no_such_function"), to: "\(directory)/missing.yaml")
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try sandbox.run("list", "--json", text)
        #expect(run.status == 0)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.contains("\(directory)/arm.yaml:5:10: error: provider org.test.arm: cannot load library \(armLibrary): built for another architecture (AArch64); this machine is x86-64"))
        #expect(lines.contains("\(directory)/missing.yaml:12:20: error: provider org.test.missing: can-perform hook symbol 'no_such_function' is not in libhostile.so"))
        #expect(lines.contains("\(directory)/notelf.yaml:5:10: error: provider org.test.notelf: cannot load library \(junk): not an ELF shared library"))
        #expect(try run.listedTypes() == Self.goodTypes)
    }

    @Test func aProviderThatPrintsCannotCorruptThePipe() throws {
        let (sandbox, _) = try Self.sandbox("print", Self.hostile("print", canPerform: "hostile_print"))
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try sandbox.run("list", "--json", text)
        #expect(run.status == 0)
        #expect(try run.listedTypes().contains("org.test.print.go"))
        // Its output went to standard error, not into the JSON.
        #expect(run.stderr.contains("noise"))
    }

    @Test func sessionCallbacksCrossThePipe() throws {
        // Hello runs isolated (its manifest does not say otherwise): its progress and log
        // lines, options and returned items travel the pipe.
        let sandbox = try Sandbox()
        sandbox.extraEnvironment["ACTSHARE_DEBUG"] = "1"
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try sandbox.runOnTerminal(["perform", "org.example.hello.greet", text, "--text", "hi", "-o", "greeting=Hey"], input: "")
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("org.example.hello.greet [##########..........]  50%"))
        #expect(run.stdout.contains("org.example.hello.greet [####################] 100%"))
        #expect(run.stdout.contains("actshare: org.example.hello: Hey, a.txt!"))
        #expect(run.stdout.contains("actshare: org.example.hello: Hey, hi!"))
    }

    @Test func isolatedCanPerformHooksRunConcurrently() throws {
        let sandbox = try Sandbox()
        let directory = "\(sandbox.root)/hostile"
        sandbox.providerPath.insert(directory, at: 0)
        for name in ["hang1", "hang2", "hang3"] {
            try Sandbox.write(Self.hostile(name, canPerform: "hostile_hang"), to: "\(directory)/\(name).yaml")
        }
        let text = try sandbox.file("a.txt", "some words\n")
        // The three hanging hooks' helpers are seen running at once while the list waits
        // (the hanging providers alone: no example's helper is counted).
        let withExamples = sandbox.providerPath
        sandbox.providerPath = [directory]
        let listing = try sandbox.start(["list", "--json", text])
        var most = 0
        eventually(every: 0.005) {
            most = max(most, ProcessTree.count("actshare-provider-host", under: listing.processIdentifier))
            return most >= 3 || !listing.isRunning
        }
        listing.waitUntilExit()
        #expect(most >= 3, "at most \(most) hooks ran at once")
        sandbox.providerPath = withExamples
        let run = try sandbox.run("list", "--json", text)
        #expect(run.status == 0)
        #expect(run.stderr.split(separator: "\n").count == 3)
        #expect(try run.listedTypes() == Self.goodTypes)
    }

    /// Under Valgrind (as a plugin author may run actshare), the examples' two helpers start
    /// one after the other: the start that does not wait for the first's exec shares
    /// actshare's memory, a clone Valgrind cannot run (it stopped the whole list). Valgrind
    /// 3.19 reads no DWARF 5, so it runs a copy without debugging information.
    @Test func aListUnderValgrindStartsItsHelpers() throws {
        let valgrind = "/usr/bin/valgrind"
        try #require(FileManager.default.isExecutableFile(atPath: valgrind), "valgrind is missing: scripts/install-deps")
        let sandbox = try Sandbox()
        // Beside the original, where actshare finds its helper and the built-ins.
        let copy = "\(Sandbox.buildDirectory)/actshare-valgrind-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let strip = try Sandbox.execute("/usr/bin/objcopy", ["--strip-debug", Sandbox.binary, copy], environment: [:], stdin: nil)
        try #require(strip.status == 0, "\(strip.stderr)")
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try Sandbox.execute(
            valgrind, ["--tool=none", "-q", copy, "list", "--json", text], environment: sandbox.environment, stdin: nil, timeout: 120)
        #expect(!run.stderr.contains("Unsupported clone"), "\(run.stderr)")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.listedTypes() == Self.goodTypes)
    }

    @Test func theConfigOverridesATimeLimit() throws {
        let (sandbox, file) = try Self.sandbox("hang", Self.hostile("hang", canPerform: "hostile_hang", timeout: "30s"))
        try sandbox.writeConfig("timeouts: {org.test.hang: 300ms}\n")
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try sandbox.run("list", "--json", text)
        #expect(run.stderr == "\(file):12:20: error: provider org.test.hang: can-perform hook did not answer within 0.3s, and was stopped\n")
    }

    @Test(arguments: [(SIGINT, "hostile_wait_for_cancel"), (SIGTERM, "hostile_wait_for_cancel"), (SIGINT, "hostile_ignore_cancel")])
    func cancellingAPerformExitsFour(_ signal: Int32, _ symbol: String) throws {
        let (sandbox, _) = try Self.sandbox("wait", Self.hostile("wait", perform: symbol, timeout: "30s"))
        let text = try sandbox.file("a.txt", "some words\n")
        let running = symbol == "hostile_ignore_cancel" ? "ignoring cancellation" : "waiting to be cancelled"
        let run = try sandbox.runSignalled(["perform", "org.test.wait.go", text, "--json"], signal: signal, once: running)
        // Cancelled, even the one that ignores it (its helper is killed after the grace
        // period).
        #expect(run.status == 4, "\(run.stderr)")
        let json = try run.json()
        #expect(json["completed"] as? Bool == false)
        #expect(json["activity"] as? String == "org.test.wait.go")
    }
}

extension Sandbox {
    /// Runs actshare and sends it `signal` once its standard error says `running` (its
    /// perform hook's log line: ACTSHARE_DEBUG shows providers' lines).
    func runSignalled(_ arguments: [String], signal: Int32, once running: String) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.environment = environment.merging(["ACTSHARE_DEBUG": "1"]) { $1 }
        let out = Pipe(), errors = "\(root)/signalled-\(UUID().uuidString).err"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let said = { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
        eventually(every: 0.01) { said().contains(running) || !process.isRunning }
        kill(process.processIdentifier, signal)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self), stderr: said())
    }
}

extension IsolationTests {
    /// A third-party manifest cannot ask to run inside actshare: its crash would kill the
    /// share sheet and its hang ignore `timeout:`. Refused with its position; the others go on.
    @Test func aThirdPartyProviderCannotRunInProcess() throws {
        let manifest = Self.hostile("inproc", canPerform: "hostile_segv").replacingOccurrences(of: "timeout: 1s", with: "timeout: 1s\nisolation: in-process")
        let (sandbox, file) = try Self.sandbox("inproc", manifest)
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try sandbox.run("list", "--json", text)
        #expect(run.status == 0)
        let error = "\(file):7:12: error: 'isolation: in-process' is only for built-in providers: remove the line. Only the user decides to run a third-party provider in actshare's process, with 'in-process: [org.test.inproc]' in their config"
        #expect(run.stderr == error + "\n")
        #expect(try run.listedTypes() == Self.goodTypes)
        let check = try sandbox.run("providers", "check", file)
        #expect(check.status != 0)
        #expect(check.stdout.contains(error) || check.stderr.contains(error), "\(check.stdout)\(check.stderr)")
        // Also when the config trusts it: the manifest's line is still refused, and the
        // message says the same — the config alone decides, the line must go.
        try sandbox.writeConfig("in-process: [org.test.inproc]\n")
        let trusted = try sandbox.run("list", "--json", text)
        #expect(trusted.stderr == error + "\n")
    }

    /// A provider the user trusts in config `in-process` runs in actshare's process: its
    /// library is loaded there (the helper is not started).
    @Test func theConfigMayTrustAProviderInProcess() throws {
        let sandbox = try Sandbox(providerPath: [Sandbox.examples, Sandbox.fixtureProviders])
        let canary = "\(sandbox.root)/state/canary.log"
        sandbox.extraEnvironment["ACTSHARE_CANARY_FILE"] = canary
        sandbox.extraEnvironment["ACTSHARE_CANARY_PID"] = "1"
        let png = try sandbox.data("a.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]))
        #expect(try sandbox.run("list", "--json", png).listedTypes().contains("org.actshare.test.canary.images"))
        let isolated = try String(contentsOfFile: canary, encoding: .utf8)
        try FileManager.default.removeItem(atPath: canary)
        try sandbox.writeConfig("in-process: [org.actshare.test.canary]\n")
        #expect(try sandbox.run("list", "--json", png).listedTypes().contains("org.actshare.test.canary.images"))
        let trusted = try String(contentsOfFile: canary, encoding: .utf8)
        #expect(isolated == "loaded in actshare-provider-host\n")
        #expect(trusted == "loaded in actshare\n")
        // `providers --json` says where it runs, as the text listing does: the effective
        // isolation, not the manifest's.
        let providers = try #require(try sandbox.run("providers", "--json").json()["providers"] as? [[String: Any]])
        let canaryRow = try #require(providers.first { $0["id"] as? String == "org.actshare.test.canary" })
        #expect(canaryRow["isolation"] as? String == "in-process")
        #expect(canaryRow["sandbox"] as? String == "in actshare's process: not sandboxed")
        #expect(try sandbox.run("providers").stdout.contains("in actshare's process: not sandboxed"))
    }
}

extension IsolationTests {
    /// A provider built with AddressSanitizer, trusted in process, loads into an actshare
    /// run with the ASan runtime preloaded (as a plugin author debugs one): a build from
    /// source opens providers without RTLD_DEEPBIND, which the sanitizer would refuse
    /// (only the packaged actshare, which exports its runtime, uses it).
    @Test func aProviderBuiltWithASanLoadsInProcess() throws {
        let sandbox = try Sandbox(providerPath: [])
        let directory = "\(sandbox.root)/hello-asan"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let build = try Sandbox.execute("/usr/bin/cc", [
            "-fsanitize=address", "-fno-omit-frame-pointer", "-fPIC", "-shared", "-g", "-std=c11", "-D_DEFAULT_SOURCE",
            "-I\(Sandbox.repository)/Sources/CActShare/include", "-I\(Sandbox.examples)/Hello/include",
            "\(Sandbox.examples)/Hello/hello.c", "-o", "\(directory)/libhello.so",
        ], environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
        try #require(build.status == 0, "\(build.stderr)")
        #expect(try Sandbox.execute("/usr/bin/readelf", ["-d", "\(directory)/libhello.so"], environment: [:], stdin: nil).stdout.contains("libasan"))
        try FileManager.default.copyItem(atPath: "\(Sandbox.examples)/Hello/provider.yaml", toPath: "\(directory)/provider.yaml")
        sandbox.providerPath = [directory]
        try sandbox.writeConfig("in-process: [org.example.hello]\n")
        let runtime = try Sandbox.execute("/usr/bin/cc", ["-print-file-name=libasan.so"], environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        sandbox.extraEnvironment["LD_PRELOAD"] = runtime
        sandbox.extraEnvironment["ASAN_OPTIONS"] = "detect_leaks=0"
        let run = try sandbox.run("perform", "org.example.hello.greet", "--text", "world", "--json", "--explain")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("in actshare's process") || run.stderr.contains("in this process"), "\(run.stderr)")
        #expect(try run.json()["completed"] as? Bool == true, "\(run.stdout)")
    }
}

/// What a provider starts ends with its call; what it writes is bounded and shown, not obeyed.
extension IsolationTests {
    /// Processes running `sleep MARKER`, from the process table.
    static func sleepers(_ marker: String) -> Int {
        let wanted = Data("sleep\0\(marker)\0".utf8)
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { $0.allSatisfy(\.isNumber) } ?? []
        return pids.filter { (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\($0)/cmdline"))) == wanted }.count
    }

    @Test(arguments: [
        ("escape", "hostile_escape", "901.1"),
        ("many", "hostile_fork_many", "901.2"),
    ])
    func childrenDoNotOutliveTheCall(_ name: String, _ symbol: String, _ marker: String) throws {
        // Allowed to start processes, so that what contains them is what is tested.
        let (sandbox, _) = try Self.sandbox(name, Self.hostile(name, canPerform: symbol, perform: "hostile_done_after", permissions: "{exec: true}"))
        sandbox.extraEnvironment["ACTSHARE_HOSTILE_MARKER"] = marker
        let text = try sandbox.file("a.txt", "some words\n")
        // The harness waits for actshare's output to close, as `$(actshare list)` does: a
        // child holding it (its sleep is 15 minutes) would be the harness's time-out, a failure.
        let list = try sandbox.run("list", "--json", text)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(try list.listedTypes().contains("org.test.\(name).go"))
        let perform = try sandbox.run("perform", "org.test.\(name).go", text, "-o", "then=\(name)")
        #expect(perform.status == 0, "\(perform.stderr)")
        #expect(Self.sleepers(marker) == 0, "\(Self.sleepers(marker)) children are left")
    }

    /// A helper that forks and exits while a child keeps its pipe open: said at once, as an
    /// exit, not after the time limit; and nothing it started is left.
    @Test func aForkThenExitIsSaidAsAnExit() throws {
        let (sandbox, file) = try Self.sandbox("forkexit", Self.hostile("forkexit", canPerform: "hostile_fork_exit", timeout: "20s", permissions: "{exec: true}"))
        sandbox.extraEnvironment["ACTSHARE_HOSTILE_MARKER"] = "901.3"
        let text = try sandbox.file("a.txt", "some words\n")
        // Said as the exit it was, not as the 20 s time limit running out.
        let run = try sandbox.run("list", "--json", text)
        #expect(run.stderr == "\(file):13:20: error: provider org.test.forkexit: can-perform hook exited with status 7 during the call\n")
        #expect(try run.listedTypes() == Self.goodTypes)
        #expect(Self.sleepers("901.3") == 0)
    }

    /// 10 MiB on standard error and terminal escapes in every channel: at most 64 KiB is
    /// relayed, and no escape reaches the terminal as one.
    @Test func aProvidersOutputIsBoundedAndShownNotObeyed() throws {
        let (sandbox, _) = try Self.sandbox("chatter", Self.hostile("chatter", perform: "hostile_chatter"))
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try sandbox.run("perform", "org.test.chatter.go", text)
        #expect(run.status == 1)
        #expect(run.stderr.utf8.count < 70 * 1024, "\(run.stderr.utf8.count) bytes relayed")
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}") && !run.stderr.contains("\u{202E}"))
        #expect(run.stderr.contains("\\e]52;c;cHduZWQ=\\x07 clipboard\n"))
        #expect(run.stderr.contains("actshare: org.test.chatter: warning: title \\e]0;pwned\\x07 and \\e[2J cleared\n"))
        #expect(run.stderr.contains("actshare: org.test.chatter.go: failed \\e[31mred\\e[0m \\u{202E} reversed\n"))
        #expect(run.stderr.contains("actshare: provider org.test.chatter wrote more than 64 KiB to standard error; the rest is dropped\n"))
    }

    /// A provider that closed its pipe (after a 12 MiB item) before actshare writes to it
    /// again: a failure of that provider, said in words, not actshare dying of SIGPIPE
    /// (exit 141). Its prepare hook closes it, so that perform's call, in the same helper,
    /// meets it closed (can-perform runs in a helper of its own).
    @Test func aClosedPipeIsTheProvidersFailure() throws {
        let (sandbox, file) = try Self.sandbox("closed", Self.hostile("closed", prepare: "hostile_close_requests_prepare"))
        let big = Data(repeating: UInt8(ascii: "x"), count: 12 << 20)
        // Started with SIGPIPE at its default, as from a shell (the test runner ignores it,
        // and children inherit that).
        let reset = "import os, signal, sys; signal.signal(signal.SIGPIPE, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
        let run = try Sandbox.execute(
            "/usr/bin/python3", ["-c", reset, Sandbox.binary, "perform", "org.test.closed.go", "-"], environment: sandbox.environment, stdin: big)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("actshare: \(file):"), "\(run.stderr)")
        #expect(run.stderr.contains("provider org.test.closed: "), "\(run.stderr)")
    }
}
