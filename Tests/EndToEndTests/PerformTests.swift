import Foundation
import Testing

@Suite struct PerformTests {
    @Test func performsWithTheStandardSignaturesAndReturnsItems() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("notes.txt", "some words\n")
        let run = try sandbox.run("perform", "org.example.hello.greet", text, "--text", "hi", "--subject", "Re", "-o", "greeting=Bonjour", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        #expect(Set(json.keys) == ["activity", "completed", "returned_items", "error"])
        #expect(json["activity"] as? String == "org.example.hello.greet")
        #expect(json["completed"] as? Bool == true)
        #expect(json["error"] is NSNull)
        let returned = try #require(json["returned_items"] as? [[String: Any]])
        #expect(returned.map { $0["text"] as? String } == ["Re: Bonjour, notes.txt!", "Re: Bonjour, hi!"])
        #expect(returned.map { $0["kind"] as? String } == ["text", "text"])
    }

    @Test func returnedFilesAreFileItems() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("notes.txt", "some words\n")
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let run = try sandbox.run("perform", "org.example.hello.greet", text, "-o", "output-dir=\(output)")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "\(output)/hello-1.txt\n")
        #expect(try String(contentsOfFile: "\(output)/hello-1.txt", encoding: .utf8) == "Hello, notes.txt!\n")
        let json = try sandbox.run("perform", "org.example.hello.greet", text, "-o", "output-dir=\(output)", "--json").json()
        let item = try #require((json["returned_items"] as? [[String: Any]])?.first)
        #expect(item["kind"] as? String == "file")
        #expect(item["path"] as? String == "\(output)/hello-1.txt")
        #expect(item["content_type"] as? String == "text/plain")
        #expect(item["size"] as? Int == 18)
    }

    @Test func failureAndCancellationAreOutcomes() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("notes.txt", "some words\n")
        let failed = try sandbox.run("perform", "org.example.hello.greet", text, "-o", "greeting=fail", "--json")
        #expect(failed.status == 1)
        let json = try failed.json()
        #expect(json["completed"] as? Bool == false)
        #expect(json["error"] as? String == "org.example.hello.greet: asked to fail")
        #expect(failed.stderr == "actshare: org.example.hello.greet: asked to fail\n")

        // prepare refuses an empty greeting before perform runs.
        let refused = try sandbox.run("perform", "org.example.hello.greet", text, "-o", "greeting=")
        #expect(refused.status == 1)
        #expect(refused.stderr == "actshare: org.example.hello.greet: the greeting must not be empty\n")

        let cancelled = try sandbox.run("perform", "org.example.hello.greet", text, "-o", "greeting=cancel", "--json")
        #expect(cancelled.status == 4)
        #expect(try cancelled.json()["completed"] as? Bool == false)
        #expect(try cancelled.json()["error"] is NSNull)
        #expect(cancelled.stderr.isEmpty)
        // Cancelled at a question (end of input at the prompt): the result is printed all
        // the same, exit 4.
        let atQuestion = try sandbox.runOnTerminal(["perform", "org.example.hello.sign", text, "--json"], input: "\u{4}")
        #expect(atQuestion.status == 4, "\(atQuestion.stdout)")
        #expect(atQuestion.stdout.contains(#"{"activity":"org.example.hello.sign","completed":false,"returned_items":[],"error":null}"#), "\(atQuestion.stdout)")
        // Neither outcome counts as recently used.
        #expect(!FileManager.default.fileExists(atPath: "\(sandbox.root)/state/actshare/recents"))
    }

    @Test func declarativeBindingCallsPlainFunctionsPerItem() throws {
        let sandbox = try Sandbox()
        let first = try sandbox.file("one.txt", "one two three\n")
        let second = try sandbox.file("two.md", "# four\nfive\n")
        let run = try sandbox.run("perform", "org.example.wordcount.count", first, second)
        #expect(run.status == 0, "\(run.stderr)")
        // One call per item, each string copied before the next call reuses the buffer;
        // prepare (wc_reset, returns void) restarts the count at 1.
        #expect(run.stdout == "3 words, 1 lines, 14 bytes (item 1)\n3 words, 2 lines, 12 bytes (item 2)\n")
        let stdin = try sandbox.run("-a", "org.example.wordcount.count", "-", stdin: "a b c d\n")
        #expect(stdin.stdout == "4 words, 1 lines, 8 bytes (item 1)\n")
    }

    @Test func everyArgumentWordIsMarshalled() throws {
        let sandbox = try Sandbox()
        let file = try sandbox.file("my file.txt", "xyz")
        let run = try sandbox.run("perform", "org.example.wordcount.describe", file, "https://example.org/?q=1", "--text", "héllo", "-o", "label=L1")
        #expect(run.status == 0, "\(run.stderr)")
        let encoded = file.replacingOccurrences(of: " ", with: "%20")
        #expect(run.stdout.split(separator: "\n") == [
            "type=org.example.wordcount.describe count=3 path=\(file) uri=file://\(encoded) text=(null) content-type=text/plain size=3 label=L1 request=yes session=yes",
            "type=org.example.wordcount.describe count=3 path=(null) uri=https://example.org/?q=1 text=(null) content-type=x-scheme-handler/https size=24 label=L1 request=yes session=yes",
            "type=org.example.wordcount.describe count=3 path=(null) uri=(null) text=héllo content-type=text/plain size=6 label=L1 request=yes session=yes",
        ])
        // The prepare hook returns a status: 1 for label=bad.
        let bad = try sandbox.run("perform", "org.example.wordcount.describe", file, "-o", "label=bad")
        #expect(bad.status == 1)
        #expect(bad.stdout.isEmpty)
        #expect(bad.stderr == "actshare: org.example.wordcount.describe: the activity failed without saying why\n")
    }

    @Test func aSwiftProviderExportingCSymbols() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run("perform", "org.example.reverse.text", "--text", "héllo wörld", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let returned = try #require(try run.json()["returned_items"] as? [[String: Any]])
        #expect(returned.first?["text"] as? String == "dlröw olléh")
    }

    @Test func unknownExcludedOrUnableActivitiesExitThree() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("a.txt", "words\n")
        let unknown = try sandbox.run("perform", "org.example.nothing.here", text)
        #expect(unknown.status == 3)
        #expect(unknown.stderr == "actshare: no provider offers activity type org.example.nothing.here\n")
        let excluded = try sandbox.run("perform", "org.example.hello.greet", text, "-x", "org.example.hello.greet", "--json")
        #expect(excluded.status == 3)
        #expect(excluded.stderr == "actshare: org.example.hello.greet is not offered: it is excluded\n")
        #expect(try excluded.json()["error"] as? String == "org.example.hello.greet is not offered: it is excluded")
        let unable = try sandbox.run("perform", "org.example.reverse.text", text)
        #expect(unable.status == 3)
        #expect(unable.stderr == "actshare: org.example.reverse.text cannot perform on these items\n")
        try sandbox.writeConfig("disabled-providers: [org.example.hello]\n")
        let disabled = try sandbox.run("perform", "org.example.hello.greet", text)
        #expect(disabled.status == 3)
        #expect(disabled.stderr == "actshare: org.example.hello.greet is not offered: its provider org.example.hello is disabled in the config\n")
    }

    @Test func optionsAreValidatedAndRequiredOnesNeedAValue() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("a.txt", "words\n")
        let unknown = try sandbox.run("perform", "org.example.hello.greet", text, "-o", "colour=red")
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "actshare: -o colour: org.example.hello.greet has no option 'colour' (it has greeting, output-dir)\n")
        let malformed = try sandbox.run("perform", "org.example.hello.greet", text, "-o", "greeting")
        #expect(malformed.status == 2)
        #expect(malformed.stderr == "actshare: -o greeting: expected KEY=VALUE\n")

        let missing = try sandbox.run("perform", "org.example.hello.sign", text)
        #expect(missing.status == 2)
        #expect(missing.stderr == "actshare: org.example.hello.sign needs option 'name': give -o name=VALUE\n")
        #expect(try sandbox.run("perform", "org.example.hello.sign", text, "-o", "name=Ada").stdout == "1 item(s), signed by Ada\n")
        try sandbox.writeConfig("providers:\n  org.example.hello: {name: Grace, greeting: Hi}\n")
        #expect(try sandbox.run("perform", "org.example.hello.sign", text).stdout == "1 item(s), signed by Grace\n")
        #expect(try sandbox.run("perform", "org.example.hello.greet", text).stdout == "Hi, a.txt!\n")
        #expect(try sandbox.run("perform", "org.example.hello.greet", text, "-o", "greeting=Yo").stdout == "Yo, a.txt!\n")
    }

    @Test func aRequiredOptionIsAskedForOnATerminal() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("a.txt", "words\n")
        let run = try sandbox.runOnTerminal(["perform", "org.example.hello.sign", text], input: "Ada\n")
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("Your name: "))
        #expect(run.stdout.contains("1 item(s), signed by Ada"))
    }

    @Test func badInputExitsTwoNamingTheCulprit() throws {
        let sandbox = try Sandbox()
        let missing = try sandbox.run("perform", "org.example.hello.greet", "/no/such/file.txt")
        #expect(missing.status == 2)
        #expect(missing.stderr == "actshare: /no/such/file.txt: No such file or directory\n")
        let flag = try sandbox.run("list", "--frobnicate")
        #expect(flag.status == 2)
        #expect(flag.stderr.hasPrefix("actshare: Unknown option '--frobnicate'\n"))
        let type = try sandbox.run("list", "--type", "text/plain", "--text", "x")
        #expect(type.status == 2)
        #expect(type.stderr == "actshare: --type applies to standard input; name it with '-'\n")
        let badType = try sandbox.run("list", "-x", "not a type", "--text", "x")
        #expect(badType.status == 2)

        try sandbox.writeConfig("exclude: [org.example.hello.greet]\npin: nope\n")
        let config = try sandbox.run("list", "--text", "x")
        #expect(config.status == 2)
        #expect(config.stderr == "actshare: \(sandbox.root)/config/actshare/config.yaml:2:6: error: 'pin' lists 'nope', which is not a reverse-DNS name\n")
        let explicit = try sandbox.run("list", "--config", "\(sandbox.root)/nothing.yaml", "--text", "x")
        #expect(explicit.status == 2)
        #expect(explicit.stderr == "actshare: \(sandbox.root)/nothing.yaml: no such config file\n")
    }
}

extension PerformTests {
    /// With --json, a failure found before the activity runs (a missing file, a bad or
    /// malformed option, an unknown option) still prints the result object.
    @Test func jsonAlwaysGetsAResult() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("a.txt", "words\n")
        let cases: [([String], String)] = [
            (["perform", "org.example.wordcount.count", "\(sandbox.root)/missing", "--json"], "\(sandbox.root)/missing: No such file or directory"),
            (["perform", "org.example.hello.greet", text, "-o", "bogus", "--json"], "-o bogus: expected KEY=VALUE"),
            (["\(sandbox.root)/missing", "-a", "org.example.wordcount.count", "--json"], "\(sandbox.root)/missing: No such file or directory"),
        ]
        for (arguments, error) in cases {
            let run = try sandbox.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            let result = try run.json()
            #expect(result["completed"] as? Bool == false)
            #expect(result["error"] as? String == error)
            #expect(result["activity"] as? String == (arguments.first == "perform" ? arguments[1] : "org.example.wordcount.count"))
            #expect((result["returned_items"] as? [Any])?.isEmpty == true)
        }
        let usage = try sandbox.run("perform", "--json", "--no-such-flag")
        #expect(usage.status == 2)
        #expect(try usage.json()["completed"] as? Bool == false)
    }
}
