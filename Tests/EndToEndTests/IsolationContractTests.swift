import Foundation
import Testing

/// One isolation contract: a provider that misbehaves without crashing gets the same
/// result, byte for byte, whether it runs in its helper process or in actshare's
/// (`ACTSHARE_ISOLATION=in-process`), because the hook sequence is written once over
/// both transports.
@Suite struct IsolationContractTests {
    /// Runs `perform` of a hostile perform hook in both modes; returns the two runs.
    static func bothModes(_ name: String, perform: String, timeout: String = "1s", extra: String = "",
                          arguments: [String] = ["--json"]) throws -> (isolated: Run, inProcess: Run, file: String) {
        let manifest = IsolationTests.hostile(name, perform: perform, timeout: timeout).replacingOccurrences(
            of: "timeout: \(timeout)\n", with: "timeout: \(timeout)\n\(extra)")
        let (sandbox, file) = try IsolationTests.sandbox(name, manifest)
        let text = try sandbox.file("a.txt", "some words\n")
        let isolated = try sandbox.run(["perform", "org.test.\(name).go", text] + arguments)
        sandbox.extraEnvironment["ACTSHARE_ISOLATION"] = "in-process"
        let inProcess = try sandbox.run(["perform", "org.test.\(name).go", text] + arguments)
        return (isolated, inProcess, file)
    }

    @Test func refusedReturnedItemsAreReportedWithTheirReasonInBothModes() throws {
        let (isolated, inProcess, _) = try Self.bothModes("items", perform: "hostile_bad_items")
        for run in [isolated, inProcess] {
            #expect(run.status == 0)
            let json = try run.json()
            let returned = (json["returned_items"] as? [[String: Any]] ?? []).map { ($0["text"] ?? $0["url"]) as? String }
            #expect(returned == ["kept", "https://example.org/kept"])
            let dropped = (json["dropped_items"] as? [[String: Any]] ?? []).map { "\($0["kind"]!)|\($0["value"]!)|\($0["reason"]!)" }
            #expect(dropped == [
                "file|/nonexistent/actshare-hostile|there is no such file",
                "url|no scheme here|it is not a URL (no scheme)",
                "text|typed|its content type 'not a type' is not a MIME type",
                "kind 9|what kind|9 is not an item kind (0 file, 1 url, 2 text, 3 data)",
                "text|caf\\xE9|it is text that is not UTF-8",
            ])
            // The provider saw the same answers from return_item: 0 kept, -1 refused.
            #expect(run.stderr.contains("answers 0 -1 -1 -1 -1 -1 0"))
            #expect(run.stderr.contains("actshare: warning: org.test.items.go returned a url item that was dropped ('no scheme here'): it is not a URL (no scheme)\n"))
        }
        #expect(isolated.stdout == inProcess.stdout)
        #expect(isolated.stderr == inProcess.stderr)
    }

    @Test func anUnknownStatusIsNamedInBothModes() throws {
        let (isolated, inProcess, _) = try Self.bothModes("status", perform: "hostile_status_42")
        for run in [isolated, inProcess] {
            #expect(run.status == 1)
            #expect(try run.json()["error"] as? String == "org.test.status.go: the perform hook returned 42, which is not a status")
        }
        #expect(isolated.stdout == inProcess.stdout)
        #expect(isolated.stderr == inProcess.stderr)
    }

    @Test func textThatIsNotUTF8IsTreatedAlikeInBothModes() throws {
        // A string result that is not UTF-8 fails the activity.
        let string = try Self.bothModes("utf8", perform: "{symbol: hostile_bad_utf8, returns: string}")
        for run in [string.isolated, string.inProcess] {
            #expect(run.status == 1)
            #expect(try run.json()["error"] as? String == "org.test.utf8.go: the perform hook returned text that is not UTF-8")
        }
        #expect(string.isolated.stdout == string.inProcess.stdout)
        // Log and error messages keep their bytes (shown \xE9), cut at 64 KiB.
        let messages = try Self.bothModes("messages", perform: "hostile_bad_messages")
        for run in [messages.isolated, messages.inProcess] {
            #expect(run.status == 1)
            #expect(run.stderr.contains("actshare: org.test.messages: warning: caf\\xE9 \\xFF log\n"))
            let error = try run.json()["error"] as? String ?? ""
            #expect(error.hasPrefix("org.test.messages.go: caf\\xE9 error eee"))
            #expect(error.utf8.count == "org.test.messages.go: ".utf8.count + 64 * 1024 + 3)  // \xE9 is shown as 4 characters
        }
        #expect(messages.isolated.stdout == messages.inProcess.stdout)
        #expect(messages.isolated.stderr == messages.inProcess.stderr)
    }

    @Test func aHugeStringIsRefusedAlikeInBothModes() throws {
        let (isolated, inProcess, file) = try Self.bothModes("huge", perform: "{symbol: hostile_huge, returns: string}")
        let line = "\(file):12:16: error: provider org.test.huge: perform hook returned 20971520 bytes of text, more than the 16 MiB a reply may hold"
        for run in [isolated, inProcess] {
            #expect(run.status == 1)
            #expect(try run.json()["error"] as? String == line)
        }
        #expect(isolated.stderr == inProcess.stderr)
    }

    /// A perform that keeps reporting progress outlives its time limit (1s); one that
    /// goes quiet is stopped at its idle limit.
    @Test func aPerformThatKeepsReportingIsNotStoppedByItsTimeLimit() throws {
        let (sandbox, _) = try IsolationTests.sandbox("progress", IsolationTests.hostile("progress", perform: "hostile_slow_progress"))
        let text = try sandbox.file("a.txt", "some words\n")
        // It reports for 2.5 s: stopped at its 1 s limit, it would have failed, not finished.
        let run = try sandbox.run("perform", "org.test.progress.go", text, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect((try run.json()["returned_items"] as? [[String: Any]])?.first?["text"] as? String == "finished")

        let quiet = IsolationTests.hostile("quiet", perform: "hostile_slow_silence", timeout: "5s")
            .replacingOccurrences(of: "timeout: 5s\n", with: "timeout: 5s\nidle-timeout: 1s\n")
        let (silent, file) = try IsolationTests.sandbox("quiet", quiet)
        let other = try silent.file("a.txt", "some words\n")
        let stopped = try silent.run("perform", "org.test.quiet.go", other, "--json")
        #expect(stopped.status == 1)
        #expect(try stopped.json()["error"] as? String == "\(file):13:16: error: provider org.test.quiet: perform hook did not answer within 1s since its last report, and was stopped")
    }
}
