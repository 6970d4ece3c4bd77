import Foundation
import Testing

/// One run of the real `actshare` binary.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output parsed as a JSON object.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        return try #require(object as? [String: Any], "stdout is not a JSON object: \(stdout)")
    }

    /// The activity types of a `list --json` output, in order.
    func listedTypes() throws -> [String] {
        let activities = try #require(try json()["activities"] as? [[String: Any]])
        return activities.compactMap { $0["type"] as? String }
    }
}

/// A private home for one test: its own XDG directories, config and provider path, so
/// tests run in parallel and never see the machine's providers.
final class Sandbox {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let examples = "\(repository)/Providers/Examples"
    static let fixtureProviders = "\(repository)/Tests/Fixtures/Providers"
    /// The build directory holding the actshare binary and the providers' libraries.
    static let buildDirectory: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var directory = (executable as NSString).deletingLastPathComponent
        // swift test runs `…/debug/actsharePackageTests.xctest`, a file beside the products.
        if directory.hasSuffix(".xctest") { directory = (directory as NSString).deletingLastPathComponent }
        return directory
    }()
    static let binary = "\(buildDirectory)/actshare"

    /// A program on this process's PATH (swiftc, cargo), or its bare name.
    static func onPath(_ name: String) -> String {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return name
    }

    static let swiftc = onPath("swiftc")
    /// Where meson's build puts the C providers (meson.build, "uninstalled").
    static let cProviders = "\(repository)/.build/providers"

    /// Builds the C parts once per test run (cheap when they are up to date), so
    /// `swift test` works on its own as well as through scripts/test. Under scripts/sanitize
    /// (SANITIZE in the environment), the instrumented build directory's.
    static let cProvidersBuilt: Bool = {
        let run = try? execute("\(repository)/scripts/build", ["uninstalled"], environment: ProcessInfo.processInfo.environment, stdin: nil)
        if run?.status != 0 { Issue.record("scripts/build uninstalled failed: \(run?.stderr ?? "did not run")") }
        return run?.status == 0
    }()

    let root: String
    var providerPath: [String]
    var extraEnvironment: [String: String] = [:]
    /// The user `run` runs actshare as: nil for this process's; see ``runAsNobody()``.
    private(set) var user: UInt32?

    init(providerPath: [String] = [Sandbox.examples]) throws {
        _ = Self.cProvidersBuilt
        root = NSTemporaryDirectory() + "actshare-e2e-\(UUID().uuidString)"
        self.providerPath = providerPath
        for sub in ["home", "config", "data", "state", "cache", "runtime", "files", "empty"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(sub)", withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var environment: [String: String] {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": "\(root)/home",
            "XDG_CONFIG_HOME": "\(root)/config",
            "XDG_CONFIG_DIRS": "\(root)/empty",
            "XDG_DATA_HOME": "\(root)/data",
            // shared-mime-info's database is found through XDG_DATA_DIRS.
            "XDG_DATA_DIRS": "/usr/share",
            "XDG_STATE_HOME": "\(root)/state",
            "XDG_CACHE_HOME": "\(root)/cache",
            "XDG_RUNTIME_DIR": "\(root)/runtime",
            "ACTSHARE_PROVIDER_PATH": providerPath.joined(separator: ":"),
            "ACTSHARE_NO_BUILTINS": "1",
            "LANG": "C.UTF-8",
            // No system bus: a machine's real BlueZ would put Quick Share's Bluetooth
            // signal on the air (a test that wants one gives a bus of its own).
            "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(root)/runtime/no-system-bus",
        ]
        environment.merge(extraEnvironment) { $1 }
        environment.merge(Self.sanitizerEnvironment) { old, _ in old }
        return environment
    }

    /// Under scripts/sanitize (its C parts built with AddressSanitizer and UBSan), the
    /// sanitizers' options, passed on to actshare and what it starts; empty otherwise.
    static let sanitizerEnvironment: [String: String] = {
        ProcessInfo.processInfo.environment.filter { $0.key == "ASAN_OPTIONS" || $0.key == "UBSAN_OPTIONS" }
    }()

    /// Writes a file under the sandbox's `files` folder and returns its path.
    @discardableResult
    func file(_ name: String, _ contents: String) throws -> String {
        try data(name, Data(contents.utf8))
    }

    @discardableResult
    func data(_ name: String, _ contents: Data) throws -> String {
        let path = "\(root)/files/\(name)"
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Makes a sparse file of `size` bytes (a 10 GB file that takes no room).
    static func sparseFile(_ path: String, size: Int) {
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(fd >= 0 && ftruncate(fd, off_t(size)) == 0, "cannot make \(path)")
        close(fd)
    }

    /// Starts actshare with `arguments` and returns at once (to be signalled, then waited for).
    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func writeConfig(_ yaml: String) throws {
        try FileManager.default.createDirectory(atPath: "\(root)/config/actshare", withIntermediateDirectories: true)
        try yaml.write(toFile: "\(root)/config/actshare/config.yaml", atomically: true, encoding: .utf8)
    }

    /// Runs actshare with `arguments`, feeding `stdin` (or nothing) and waiting at most 60 s.
    func run(_ arguments: [String], stdin: Data? = nil) throws -> Run {
        guard let user else { return try Self.execute(Self.binary, arguments, environment: environment, stdin: stdin) }
        return try Self.execute(
            "/usr/bin/setpriv", ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", Self.binary] + arguments,
            environment: environment, stdin: stdin)
    }

    /// From now on, `run` runs actshare as nobody, who owns the sandbox's folders: an
    /// attack is tried as a user, whose refusals root's rights would hide.
    func runAsNobody() throws {
        user = 65534
        let files = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        for path in [root] + files.map({ "\(root)/\($0)" }) { lchown(path, 65534, 65534) }
    }

    func run(_ arguments: String..., stdin: String? = nil) throws -> Run {
        try run(arguments, stdin: stdin.map { Data($0.utf8) })
    }

    /// Runs actshare on a pseudo-terminal through util-linux `script`, typing `input`.
    func runOnTerminal(_ arguments: [String], input: String) throws -> Run {
        let command = ([Self.binary] + arguments).map(Self.shellQuoted).joined(separator: " ")
        return try Self.execute("/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment, stdin: Data(input.utf8))
    }

    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs a program that waits for SIGCHLD (gdb, dbus-run-session), which the test
    /// runner's children start with blocked: a small exec wrapper unblocks it first.
    static func executeWithSignals(
        _ executable: String, _ arguments: [String], environment: [String: String], timeout: Int = 120
    ) throws -> Run {
        let unblock = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])"
        return try execute("/usr/bin/python3", ["-c", unblock, executable] + arguments, environment: environment, stdin: nil, timeout: timeout)
    }

    static func execute(
        _ executable: String, _ arguments: [String], environment: [String: String], stdin: Data?, timeout: Int = 60
    ) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle(forReadingAtPath: "/dev/null") : input
        try process.run()
        if let stdin {
            // Written from another thread so a child that does not read cannot block us.
            let writer = input.fileHandleForWriting
            Thread.detachNewThread {
                try? writer.write(contentsOf: stdin)
                try? writer.close()
            }
        }
        let deadline = DispatchTime.now() + .seconds(timeout)
        let group = DispatchGroup()
        nonisolated(unsafe) var stdoutData = Data(), stderrData = Data()
        group.enter()
        Thread.detachNewThread { stdoutData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        Thread.detachNewThread { stderrData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if group.wait(timeout: deadline) == .timedOut {
            process.terminate()
            Issue.record("\(executable) \(arguments) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }
}
