import Foundation
import Testing

/// `--explain` (and `ACTSHARE_TRACE=1`): why each activity was or was not offered, where
/// everything was found, every hook call and every dropped item, on standard error.
@Suite struct ExplainTests {
    static func manifest(_ name: String, accepts: String) -> String {
        """
        schema: actshare/provider@1
        id: org.test.\(name)
        name: \(name)
        version: 1.0.0
        library: \(Sandbox.cProviders)/libhello.so
        activities:
          - type: org.test.\(name).go
            title: Go \(name)
            accepts: \(accepts)
            hooks:
              perform: hello_greet
        """
    }

    static func explained(_ run: Run) -> [String] {
        run.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("actshare: explain: ") }
            .map { String($0.dropFirst("actshare: explain: ".count)) }
    }

    @Test func theTraceNamesTheRuleThatLeftEachActivityOut() throws {
        let sandbox = try Sandbox()
        let extra = "\(sandbox.root)/providers"
        sandbox.providerPath.insert(extra, at: 0)
        try Sandbox.write(Self.manifest("images", accepts: "{content-types: [image/*]}"), to: "\(extra)/images.yaml")
        try Sandbox.write(Self.manifest("one", accepts: "{max-items: 1}"), to: "\(extra)/one.yaml")
        try Sandbox.write(Self.manifest("urls", accepts: "{kinds: [url]}"), to: "\(extra)/urls.yaml")
        let text = try sandbox.file("a.txt", "some words\n")
        let empty = try sandbox.file("empty.txt", "")
        let run = try sandbox.run("list", "--explain", "-x", "org.example.hello.sign", text, empty)
        #expect(run.status == 0)
        let lines = Self.explained(run)
        for expected in [
            "provider directory \(extra): 3 manifests",
            "manifest \(extra)/images.yaml: provider org.test.images, 1 activity, library \(Sandbox.cProviders)/libhello.so",
            "org.example.hello.sign: not offered: it is excluded",
            "org.test.images.go: not offered: item 1 (a.txt) is text/plain; content-types are image/*",
            "org.test.one.go: not offered: max-items is 1; there are 2 items",
            "org.test.urls.go: not offered: item 1 (a.txt) is file; kinds are url",
            // Hello's can-perform refuses empty items; WordCount's is asked item by item.
            "org.example.hello.greet: can-perform hello_can_perform answered no",
            "org.example.hello.greet: not offered: its can-perform hook answered no",
            "org.example.wordcount.count: can-perform wc_is_text for item 2 (empty.txt) answered yes",
            "org.example.wordcount.count: offered",
        ] {
            #expect(lines.contains(expected), "missing: \(expected)\n\(lines.joined(separator: "\n"))")
        }
        // The listing itself is unchanged on standard output.
        #expect(run.stdout.contains("org.example.wordcount.count"))
        // Without --explain nothing is traced; ACTSHARE_TRACE=1 traces the same.
        #expect(Self.explained(try sandbox.run("list", text)).isEmpty)
        sandbox.extraEnvironment["ACTSHARE_TRACE"] = "1"
        #expect(Self.explained(try sandbox.run("list", "-x", "org.example.hello.sign", text, empty)).contains("org.example.hello.sign: not offered: it is excluded"))
    }

    /// PLUGINS.md's recipe: in process, a provider's hook stops at a gdb breakpoint.
    /// A can-perform hook may say why it answers no (`actshare_decline`, ABI 2): `perform`
    /// says it instead of naming the hook, and `--explain` shows it, in both isolation
    /// modes; a reason's control characters are shown, not obeyed, and it is cut to a
    /// sentence. (Hand Off with no device paired says so: HandoffTests.)
    @Test(arguments: ["process", "in-process"])
    func aDecliningProviderSaysWhy(isolation: String) throws {
        let (sandbox, _) = try IsolationTests.sandbox("picky", IsolationTests.hostile("picky", canPerform: "hostile_decline"))
        sandbox.extraEnvironment["ACTSHARE_ISOLATION"] = isolation
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try sandbox.run("perform", "org.test.picky.go", text, "--explain")
        #expect(run.status == 3)
        // 300 characters (CanPerformAnswer.maximumReason), then an ellipsis.
        let said = "Nothing to do \\e[31mhere really" + String(repeating: "y", count: 300 - 31) + "…"
        #expect(run.stderr.hasSuffix("actshare: org.test.picky.go cannot perform on these items: \(said)\n"), "\(run.stderr)")
        #expect(Self.explained(run).contains("org.test.picky.go: not offered: its can-perform hook answered no: \(said)"), "\(run.stderr)")
        #expect(!run.stderr.contains("ignored") && !run.stderr.contains("\u{1B}"))
    }

    @Test func aProviderRunsUnderGDBInProcess() throws {
        let sandbox = try Sandbox()
        sandbox.extraEnvironment["ACTSHARE_ISOLATION"] = "in-process"
        let text = try sandbox.file("notes.txt", "some words\n")
        let run = try Sandbox.executeWithSignals(
            "/usr/bin/gdb", ["-q", "-batch", "-ex", "set complaints 0", "-ex", "set breakpoint pending on", "-ex", "break hello_greet",
                             "-ex", "run", "-ex", "bt 1", "-ex", "continue", "--args", Sandbox.binary, "perform", "org.example.hello.greet", text],
            environment: sandbox.environment)
        #expect(run.stdout.contains("Breakpoint 1, hello_greet ("), "\(run.stdout)")
        #expect(run.stdout.contains("Hello, notes.txt!"))
        #expect(run.stdout.contains("exited normally"))
    }

    @Test func performExplainsEveryHookCallAndDroppedItem() throws {
        let (sandbox, _) = try IsolationTests.sandbox("items", IsolationTests.hostile("items", perform: "hostile_bad_items"))
        let text = try sandbox.file("a.txt", "some words\n")
        let run = try sandbox.run("perform", "--explain", "org.test.items.go", text)
        #expect(run.status == 0)
        let lines = Self.explained(run)
        for expected in [
            "provider org.test.items: loaded \(Sandbox.cProviders)/libhostile.so",
            "org.test.items.go: dropped a returned url item 'no scheme here': it is not a URL (no scheme)",
            "org.test.items.go: perform hostile_bad_items returned 0 (done)",
        ] {
            #expect(lines.contains(expected), "missing: \(expected)\n\(lines.joined(separator: "\n"))")
        }
        let status = try IsolationTests.sandbox("status", IsolationTests.hostile("status", perform: "hostile_status_42"))
        let failed = try status.0.run("perform", "--explain", "org.test.status.go", try status.0.file("a.txt", "x\n"))
        #expect(Self.explained(failed).contains("org.test.status.go: perform hostile_status_42 returned 42, which is not a status"))
    }
}
