import Foundation
import Testing

@Suite struct ProvidersTests {
    /// A manifest in the sandbox that uses a built example library by absolute path.
    static func manifest(id: String, type: String, perform: String = "hello_greet", canPerform: String? = nil, library: String = "libhello.so") -> String {
        """
        schema: actshare/provider@1
        id: \(id)
        name: Test
        version: 1.0.0
        library: \(library.hasPrefix("/") ? library : "\(Sandbox.cProviders)/\(library)")
        activities:
          - type: \(type)
            title: Test Activity
            hooks:
        \(canPerform.map { "      can-perform: \($0)\n" } ?? "")      perform: \(perform)
        """
    }

    @Test func listsProvidersWithWhatIsWrong() throws {
        let sandbox = try Sandbox()
        let extra = "\(sandbox.root)/providers"
        sandbox.providerPath.insert(extra, at: 0)
        try Sandbox.write("schema: actshare/provider@1\nid: org.example.broken\nname: [x]\n", to: "\(extra)/broken.yaml")
        try Sandbox.write(Self.manifest(id: "org.example.nosymbol", type: "org.example.nosymbol.go", perform: "no_such_symbol"), to: "\(extra)/nosymbol/provider.yaml")
        try sandbox.writeConfig("disabled-providers: [org.example.reverse]\n")
        let run = try sandbox.run("providers", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let providers = try #require(try run.json()["providers"] as? [[String: Any]])
        let byFile = Dictionary(uniqueKeysWithValues: providers.map { ($0["file"] as? String ?? "", $0) })
        #expect(byFile["\(extra)/broken.yaml"]?["status"] as? String == "error")
        #expect(byFile["\(extra)/broken.yaml"]?["error"] as? String == "\(extra)/broken.yaml:3:7: error: 'name' must be a string, not a list")
        let nosymbol = try #require(byFile["\(extra)/nosymbol/provider.yaml"])
        #expect(nosymbol["status"] as? String == "error")
        #expect(nosymbol["error"] as? String == "\(extra)/nosymbol/provider.yaml:10:16: error: provider org.example.nosymbol: perform hook symbol 'no_such_symbol' is not in libhello.so")
        #expect(byFile["\(Sandbox.examples)/Hello/provider.yaml"]?["status"] as? String == "ok")
        #expect(byFile["\(Sandbox.examples)/WordCount/provider.yaml"]?["status"] as? String == "ok")
        #expect(byFile["\(Sandbox.examples)/Reverse/provider.yaml"]?["status"] as? String == "disabled")
        let hello = try #require(byFile["\(Sandbox.examples)/Hello/provider.yaml"])
        #expect(hello["id"] as? String == "org.example.hello")
        #expect(hello["library"] as? String == "\(Sandbox.cProviders)/libhello.so")
        #expect(hello["isolation"] as? String == "process")
        #expect((hello["activities"] as? [[String: Any]])?.compactMap { $0["type"] as? String } == ["org.example.hello.greet", "org.example.hello.sign"])
    }

    @Test func aBrokenProviderIsSkippedAndTheOthersStillWork() throws {
        let sandbox = try Sandbox()
        let extra = "\(sandbox.root)/providers"
        sandbox.providerPath.insert(extra, at: 0)
        try Sandbox.write("schema: actshare/provider@1\nid: org.example.broken\nname: Broken\nversion: 1\nlibrary: libhello.so\nactivities: []\n", to: "\(extra)/broken.yaml")
        let text = try sandbox.file("a.txt", "words\n")
        let run = try sandbox.run("list", "--json", text)
        #expect(run.status == 0)
        #expect(run.stderr == "\(extra)/broken.yaml:6:13: error: 'activities' must list at least one activity\n")
        #expect(try run.listedTypes().count == 4)
        // The index repeats the message without parsing again.
        #expect(try sandbox.run("list", "--json", text).stderr == run.stderr)
    }

    @Test func aMissingCanPerformSymbolLeavesOutOnlyThatActivity() throws {
        let sandbox = try Sandbox()
        let extra = "\(sandbox.root)/providers"
        sandbox.providerPath.insert(extra, at: 0)
        let file = "\(extra)/nocan.yaml"
        try Sandbox.write(Self.manifest(id: "org.example.nocan", type: "org.example.nocan.go", canPerform: "missing_can_perform"), to: file)
        let text = try sandbox.file("a.txt", "words\n")
        let run = try sandbox.run("list", "--json", text)
        #expect(run.status == 0)
        #expect(run.stderr == "\(file):10:20: error: provider org.example.nocan: can-perform hook symbol 'missing_can_perform' is not in libhello.so\n")
        #expect(try run.listedTypes().count == 4)
        let junk = "\(sandbox.root)/libjunk.so"
        try Sandbox.write("this is not an ELF file\n", to: junk)
        try Sandbox.write(Self.manifest(id: "org.example.junk", type: "org.example.junk.go", library: junk), to: "\(extra)/junk.yaml")
        let perform = try sandbox.run("perform", "org.example.junk.go", text, "--json")
        #expect(perform.status == 1)
        let error = try #require(try perform.json()["error"] as? String)
        #expect(error.hasPrefix("\(extra)/junk.yaml:5:10: error: provider org.example.junk: cannot load library \(junk): "))
    }

    @Test func theFirstOfTwoProvidersWithOneActivityTypeWins() throws {
        let sandbox = try Sandbox()
        let extra = "\(sandbox.root)/providers"
        sandbox.providerPath.insert(extra, at: 0)
        let file = "\(extra)/copycat.yaml"
        try Sandbox.write(Self.manifest(id: "org.example.copycat", type: "org.example.hello.greet", perform: "hello_sign"), to: file)
        let text = try sandbox.file("a.txt", "words\n")
        let run = try sandbox.run("list", "--json", text)
        #expect(run.stderr == "\(Sandbox.examples)/Hello/provider.yaml:15:5: warning: activity type 'org.example.hello.greet' is also declared in \(file), which wins\n")
        let providers = try #require(try run.json()["activities"] as? [[String: Any]])
        #expect(providers.first { $0["type"] as? String == "org.example.hello.greet" }?["provider"] as? String == "org.example.copycat")
    }

    @Test func checkValidatesAManifestAndItsLibrary() throws {
        let sandbox = try Sandbox()
        let good = try sandbox.run("providers", "check", "\(Sandbox.examples)/WordCount")
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout == "\(Sandbox.examples)/WordCount/provider.yaml: ok: org.example.wordcount 1.0.0, 2 activities, library \(Sandbox.cProviders)/libwordcount.so\n")

        let file = "\(sandbox.root)/nosymbol.yaml"
        try Sandbox.write(Self.manifest(id: "org.example.nosymbol", type: "org.example.nosymbol.go", perform: "no_such_symbol"), to: file)
        let missing = try sandbox.run("providers", "check", file)
        #expect(missing.status == 2)
        #expect(missing.stderr == "\(file):10:16: error: provider org.example.nosymbol: perform hook symbol 'no_such_symbol' is not in libhello.so\n")

        let broken = "\(Sandbox.repository)/Tests/ActShareCoreTests/Fixtures/manifests/broken/03-unknown-top-key.yaml"
        let bad = try sandbox.run("providers", "check", broken)
        #expect(bad.status == 2)
        #expect(bad.stderr == "\(broken):5:1: error: unknown key 'colour' in a provider manifest (allowed: activities, id, idle-timeout, isolation, library, name, permissions, schema, timeout, version)\n")
        let none = try sandbox.run("providers", "check", "\(sandbox.root)/nothing")
        #expect(none.status == 2)
    }

    @Test func helpExplainsTheCommands() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.run("--help")
        #expect(help.status == 0)
        for word in ["share", "list", "perform", "providers", "Exit codes", "ACTSHARE_PROVIDER_PATH"] {
            #expect(help.stdout.contains(word), "\(word)")
        }
        let list = try sandbox.run("list", "--help")
        #expect(list.status == 0)
        #expect(list.stdout.contains("--exclude"))
        #expect(list.stdout.contains("--only"))
    }

    /// A usage error is one line, then where to read about the command that was misused.
    @Test func usageErrorsPointToTheCommandsHelp() throws {
        let sandbox = try Sandbox()
        for (arguments, stderr) in [
            (["handoff", "pair"], "actshare: give a NAME or HOST[:PORT], or --wait\nUsage: see 'actshare handoff pair --help'.\n"),
            (["list", "--bogus"], "actshare: Unknown option '--bogus'\nUsage: see 'actshare list --help'.\n"),
            (["providers", "frob"], "actshare: Unexpected argument 'frob'\nUsage: see 'actshare providers list --help'.\n"),
        ] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr == stderr)
        }
    }
}

extension Sandbox {
    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

extension ProvidersTests {
    /// A FIFO named like a manifest, a link to /dev/zero and a 10 GB file: each is that
    /// provider's error, at once; the others are offered. A config that is a FIFO is an
    /// error too, not a hang.
    @Test func specialFilesAreNotReadAsManifests() throws {
        let sandbox = try Sandbox()
        let directory = "\(sandbox.root)/special"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(mkfifo("\(directory)/fifo.yaml", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/zero.yaml", withDestinationPath: "/dev/zero")
        Sandbox.sparseFile("\(directory)/big.yaml", size: 10 << 30)
        sandbox.providerPath.insert(directory, at: 0)
        let text = try sandbox.file("a.txt", "words\n")
        // Opening the FIFO or reading /dev/zero would never end: the harness's time-out, a
        // failure, rather than these errors.
        let run = try sandbox.run("list", "--json", text)
        #expect(run.status == 0)
        #expect(run.stderr == """
            \(directory)/big.yaml:1:1: error: the file is 10737418240 bytes; at most 1 MiB is read
            \(directory)/fifo.yaml:1:1: error: the file is a FIFO, not a regular file
            \(directory)/zero.yaml:1:1: error: the file is a device, not a regular file

            """)
        #expect(try run.listedTypes().count == 4)

        try FileManager.default.createDirectory(atPath: "\(sandbox.root)/config/actshare", withIntermediateDirectories: true)
        #expect(mkfifo("\(sandbox.root)/config/actshare/config.yaml", 0o600) == 0)
        let config = try sandbox.run("list", text)
        #expect(config.status == 2)
        #expect(config.stderr == "actshare: \(sandbox.root)/config/actshare/config.yaml:1:1: error: the file is a FIFO, not a regular file\n")
    }
}

/// `providers check` in one pass: every error, every provider of a directory, quoted
/// numbers explained, a library found in the wrong place, a directory it may not read.
@Suite struct ProvidersCheckTests {
    @Test func everyErrorOfAManifestIsPrintedAtOnce() throws {
        let sandbox = try Sandbox()
        let file = "\(sandbox.root)/three/provider.yaml"
        try Sandbox.write("""
            schema: actshare/provider@1
            id: org.example.three
            name: Three
            version: 1.0.0
            colour: blue
            library: \(Sandbox.cProviders)/libhello.so
            activities:
              - type: org.example.three.go
                title: Go
                accepts:
                  kinds: [file, folder]
                  max-items: "3"
                hooks:
                  perform: hello_greet
            """, to: file)
        let run = try sandbox.run("providers", "check", "\(sandbox.root)/three")
        #expect(run.status == 2)
        #expect(run.stderr == """
            \(file):5:1: error: unknown key 'colour' in a provider manifest (allowed: activities, id, idle-timeout, isolation, library, name, permissions, schema, timeout, version)
            \(file):11:14: error: 'activities[0].accepts.kinds' lists 'folder'; the kinds are file, url, text and data
            \(file):12:18: error: 'activities[0].accepts.max-items' must be a whole number, not the quoted string "3"; write 3 without quotes

            """)
        #expect(run.stdout == "")
    }

    @Test func aDirectoryOfProvidersIsCheckedWhole() throws {
        let sandbox = try Sandbox()
        let directory = "\(sandbox.root)/many"
        try Sandbox.write(ProvidersTests.manifest(id: "org.example.good", type: "org.example.good.go"), to: "\(directory)/good.yaml")
        try Sandbox.write(ProvidersTests.manifest(id: "org.example.lacking", type: "org.example.lacking.go", perform: "no_such_symbol", canPerform: "nor_this"), to: "\(directory)/lacking.yaml")
        let run = try sandbox.run("providers", "check", directory)
        #expect(run.status == 2)
        #expect(run.stdout == "\(directory)/good.yaml: ok: org.example.good 1.0.0, 1 activity, library \(Sandbox.cProviders)/libhello.so\n")
        // Both missing symbols, not only the first.
        #expect(run.stderr == """
            \(directory)/lacking.yaml:10:20: error: provider org.example.lacking: can-perform hook symbol 'nor_this' is not in libhello.so
            \(directory)/lacking.yaml:11:16: error: provider org.example.lacking: perform hook symbol 'no_such_symbol' is not in libhello.so

            """)
        // An activity whose perform symbol is missing is never offered, even with a can-perform that says yes.
        try Sandbox.write(ProvidersTests.manifest(id: "org.example.lacking", type: "org.example.lacking.go", perform: "no_such_symbol", canPerform: "hello_can_perform"), to: "\(directory)/lacking.yaml")
        sandbox.providerPath.insert(directory, at: 0)
        let text = try sandbox.file("a.txt", "words\n")
        let list = try sandbox.run("list", "--json", text)
        #expect(!(try list.listedTypes().contains("org.example.lacking.go")))
        #expect(list.stderr == "\(directory)/lacking.yaml:11:16: error: provider org.example.lacking: perform hook symbol 'no_such_symbol' is not in libhello.so\n")
    }

    @Test func aBareLibraryNameFoundOutsideTheManifestsDirectoryIsAWarning() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run("providers", "check", "\(Sandbox.examples)/Hello")
        #expect(run.status == 0)
        #expect(run.stderr == "\(Sandbox.examples)/Hello/provider.yaml:6:10: warning: 'library: libhello.so' is not beside the manifest: it resolved to \(Sandbox.cProviders)/libhello.so, among actshare's own libraries; put the provider's library beside its manifest\n")
    }

    /// A plugin author's manifest names a library not built yet, in the build tree's layout
    /// (found among actshare's library directories, not beside the manifest): once it is
    /// built, the next run finds it — the index does not repeat the old error.
    @Test func aLibraryBuiltAfterItsManifestIsFoundOnTheNextRun() throws {
        let sandbox = try Sandbox()
        let extra = "\(sandbox.root)/providers"
        sandbox.providerPath.insert(extra, at: 0)
        let name = "liblate-\(UUID().uuidString.prefix(8)).so"
        let built = "\(Sandbox.cProviders)/\(name)"
        defer { try? FileManager.default.removeItem(atPath: built) }
        let file = "\(extra)/late.yaml"
        try Sandbox.write(ProvidersTests.manifest(id: "org.example.late", type: "org.example.late.go", library: name)
            .replacingOccurrences(of: "\(Sandbox.cProviders)/\(name)", with: name), to: file)
        func late() throws -> [String: Any]? {
            let run = try sandbox.run("providers", "--json")
            try #require(run.status == 0, "\(run.stderr)")
            return (try run.json()["providers"] as? [[String: Any]])?.first { $0["file"] as? String == file }
        }
        #expect(try late()?["error"] as? String == "\(file):5:10: error: 'library' names \(name), which does not exist beside the manifest")
        #expect(try late()?["status"] as? String == "error", "said again from the index")
        try FileManager.default.copyItem(atPath: "\(Sandbox.cProviders)/libhello.so", toPath: built)
        let found = try #require(try late())
        #expect(found["status"] as? String == "ok", "\(found)")
        #expect(found["library"] as? String == built)
    }

    /// As a user who may not read them (root reads everything: the run drops to nobody).
    @Test func unreadableDirectoriesSayPermissionDenied() throws {
        let sandbox = try Sandbox(providerPath: [])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.root)
        let locked = "\(sandbox.root)/locked"
        let open = "\(sandbox.root)/open"
        try Sandbox.write(ProvidersTests.manifest(id: "org.example.inside", type: "org.example.inside.go"), to: "\(locked)/inside.yaml")
        try Sandbox.write(ProvidersTests.manifest(id: "org.example.shut", type: "org.example.shut.go"), to: "\(open)/shut/provider.yaml")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: "\(open)/shut")
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: "\(sandbox.root)/cache")
        var environment = sandbox.environment
        environment["ACTSHARE_PROVIDER_PATH"] = "\(locked):\(open)"
        func asNobody(_ arguments: String...) throws -> Run {
            try Sandbox.execute("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Sandbox.binary] + arguments,
                                environment: environment, stdin: nil)
        }
        let check = try asNobody("providers", "check", locked)
        #expect(check.status == 2)
        #expect(check.stderr == "actshare: \(locked): cannot read: Permission denied\n")
        let inside = try asNobody("providers", "check", "\(locked)/inside.yaml")
        #expect(inside.stderr == "actshare: \(locked)/inside.yaml: cannot read: Permission denied\n")
        let list = try asNobody("list", "--text", "hi")
        #expect(list.stderr.contains("actshare: warning: cannot read provider directory \(locked): Permission denied\n"))
        #expect(list.stderr.contains("\(open)/shut/provider.yaml:1:1: error: cannot read \(open)/shut/provider.yaml: Permission denied\n"))
        let providers = try asNobody("providers")
        #expect(providers.stderr.contains("actshare: warning: cannot read provider directory \(locked): Permission denied\n"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(open)/shut")
    }
}
