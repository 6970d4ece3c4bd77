import Foundation
import Testing

/// The plugin author's kit: `providers new` in every language, the Rust crate, and the
/// build tree's pkg-config file, each built with the real compilers and loaded by the
/// real binary.
@Suite struct ProviderSDKTests {
    /// The environment of the compilers: this process's (PATH has cc, cargo, swiftc).
    static var buildEnvironment: [String: String] { ProcessInfo.processInfo.environment }

    @Test(arguments: ["c", "cpp", "rust", "swift"])
    func aScaffoldBuildsPassesCheckAndIsOffered(_ language: String) throws {
        let sandbox = try Sandbox(providerPath: [])
        let directory = "\(sandbox.root)/providers/new-\(language)"
        let id = "org.test.new-\(language)"
        let created = try sandbox.run("providers", "new", "--lang", language, id, directory)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.hasPrefix("created \(id) in \(directory): provider.yaml, "))
        let build = try Sandbox.execute("\(directory)/build.sh", [], environment: Self.buildEnvironment, stdin: nil, timeout: 300)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        // Unedited, it passes check without a warning, and is offered and performs.
        let check = try sandbox.run("providers", "check", directory)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr == "")
        #expect(check.stdout == "\(directory)/provider.yaml: ok: \(id) 0.1.0, 1 activity, library \(directory)/libnew_\(language).so\n")
        sandbox.providerPath = ["\(sandbox.root)/providers"]
        let text = try sandbox.file("a.txt", "some words\n")
        #expect(try sandbox.run("list", "--json", text).listedTypes() == ["\(id).describe"])
        let run = try sandbox.run("perform", "\(id).describe", text, "--text", "hi", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let returned = (try run.json()["returned_items"] as? [[String: Any]] ?? []).map { $0["text"] as? String }
        #expect(returned == ["file://\(text) (text/plain, 11 bytes)", "text (text/plain, 2 bytes)"])
        // A second scaffold into the same directory is refused: nothing is overwritten.
        let again = try sandbox.run("providers", "new", "--lang", language, id, directory)
        #expect(again.status == 2)
        #expect(again.stderr == "actshare: \(directory) exists and is not empty: name a new directory\n")
    }

    /// The crate's example, built by cargo offline, in both isolation modes; a panic in it
    /// is caught at the boundary and reported.
    @Test func theRustCratesExampleRunsIsolatedAndInProcess() throws {
        let crate = "\(Sandbox.repository)/bindings/rust/actshare-provider"
        var environment = Self.buildEnvironment
        environment["CARGO_TARGET_DIR"] = "\(Sandbox.repository)/.build/rust"
        let build = try Sandbox.execute(
            Sandbox.onPath("cargo"), ["build", "--offline", "--quiet", "--manifest-path", "\(crate)/Cargo.toml", "--example", "shout"],
            environment: environment, stdin: nil, timeout: 300)
        #expect(build.status == 0, "\(build.stderr)")
        let sandbox = try Sandbox(providerPath: [])
        let directory = "\(sandbox.root)/providers/shout"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(crate)/examples/shout.yaml", toPath: "\(directory)/provider.yaml")
        try FileManager.default.copyItem(atPath: "\(Sandbox.repository)/.build/rust/debug/examples/libshout.so", toPath: "\(directory)/libshout.so")
        sandbox.providerPath = ["\(sandbox.root)/providers"]
        #expect(try sandbox.run("providers", "check", directory).status == 0)
        for mode in ["process", "in-process"] {
            sandbox.extraEnvironment["ACTSHARE_ISOLATION"] = mode == "in-process" ? "in-process" : nil
            let file = try sandbox.file("a.txt", "words\n")
            // Its can-perform takes text only.
            #expect(try sandbox.run("list", "--json", "--text", "hi").listedTypes() == ["org.example.shout.shout"])
            #expect(try sandbox.run("list", "--json", file).status == 3)
            let run = try sandbox.run("perform", "org.example.shout.shout", "--text", "hi", "--text", "wörld", "--json")
            #expect(run.status == 0, "\(mode): \(run.stderr)")
            let returned = (try run.json()["returned_items"] as? [[String: Any]] ?? []).map { $0["text"] as? String }
            #expect(returned == ["HI", "WÖRLD"], "\(mode)")
            let panic = try sandbox.run("perform", "org.example.shout.shout", "--text", "hi", "-o", "panic=yes", "--json")
            #expect(panic.status == 1)
            #expect(try panic.json()["error"] as? String == "org.example.shout.shout: panicked: asked to panic", "\(mode)")
        }
    }

    /// The crate's unit tests (`cargo test`, offline): its wrappers against a session of
    /// the tests' own, panics caught, a NUL kept from the host.
    @Test func theRustCratesUnitTestsPass() throws {
        var environment = Self.buildEnvironment
        environment["CARGO_TARGET_DIR"] = "\(Sandbox.repository)/.build/rust"
        let run = try Sandbox.execute(
            Sandbox.onPath("cargo"),
            ["test", "--offline", "--quiet", "--manifest-path", "\(Sandbox.repository)/bindings/rust/actshare-provider/Cargo.toml"],
            environment: environment, stdin: nil, timeout: 300)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // The unit tests' line comes first (then the doc tests'): they ran, and passed.
        let summary = run.stdout.split(separator: "\n").first { $0.hasPrefix("test result: ok. ") }
        let passed = summary.flatMap { Int($0.split(separator: " ")[3]) } ?? 0
        #expect(passed >= 4, "\(run.stdout)")
    }

    /// PLUGINS.md's build line, from the build tree: pkg-config, not a path into Sources/.
    @Test func theBuildTreesPkgConfigFileBuildsAProvider() throws {
        let environment = ["PKG_CONFIG_PATH": "\(Sandbox.repository)/.build/pkgconfig", "PATH": "/usr/bin:/bin"]
        let cflags = try Sandbox.execute("/usr/bin/pkg-config", ["--cflags", "actshare"], environment: environment, stdin: nil)
        #expect(cflags.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "-I\(Sandbox.repository)/Sources/CActShare/include")
        let sandbox = try Sandbox(providerPath: [])
        let directory = "\(sandbox.root)/hello"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let hello = "\(Sandbox.examples)/Hello"
        try FileManager.default.copyItem(atPath: "\(hello)/provider.yaml", toPath: "\(directory)/provider.yaml")
        let compile = try Sandbox.execute(
            "/bin/sh", ["-c", "cc -shared -fPIC -fvisibility=hidden -O2 $(pkg-config --cflags actshare) -I\(hello)/include \(hello)/hello.c -o \(directory)/libhello.so"],
            environment: environment, stdin: nil)
        #expect(compile.status == 0, "\(compile.stderr)")
        let check = try sandbox.run("providers", "check", directory)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr == "", "the library is beside its manifest: no warning")
    }
}
