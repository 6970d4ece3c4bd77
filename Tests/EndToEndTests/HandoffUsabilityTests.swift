import Foundation
import Testing

/// What a person meets using handoff: one daemon a user, one current activity of a kind,
/// nothing lost when a continuation fails, and failures said in words.
extension HandoffTests {
    /// A second daemon of the same user does not take the first one's socket.
    @Test func aSecondDaemonIsRefused() throws {
        let a = try Machine("alpha", port: 27_201)
        let second = try Sandbox.execute(
            "\(Sandbox.buildDirectory)/actshare-daemon", ["--port", "27202", "--name", "again", "--discovery", "static"],
            environment: a.sandbox.environment, stdin: nil, timeout: 20)
        #expect(second.status == 2)
        #expect(second.stderr == "actshare daemon: another actshare daemon is running for this user (its control socket \(a.socket) answers)\n")
        #expect(try a.run("handoff", "status").stdout.contains("alpha"), "the first daemon still answers")
    }

    /// actshare-daemon run by itself does not read config.yaml: where one exists, it refuses
    /// and says how to start it, rather than run without the settings written there.
    @Test func theDaemonRunByItselfRefusesAConfigItWouldIgnore() throws {
        let sandbox = try Sandbox(providerPath: [])
        try Sandbox.write("handoff: {port: 27205, device-name: configured}\n", to: "\(sandbox.root)/config/actshare/config.yaml")
        let direct = try Sandbox.execute("\(Sandbox.buildDirectory)/actshare-daemon", ["--discovery", "static"],
                                         environment: sandbox.environment, stdin: nil, timeout: 20)
        #expect(direct.status == 2)
        #expect(direct.stderr == "actshare daemon: \(sandbox.root)/config/actshare/config.yaml is not read when actshare-daemon is run by itself: start the daemon with `actshare daemon` (or `systemctl --user start actshare`), which passes its handoff settings\n",
                "\(direct.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(sandbox.root)/runtime/actshare/daemon.sock"))
        // Through actshare daemon, the config is read (its clipboard setting, off, is the daemon's).
        let machine = try Machine("configured", port: 27_206, config: "handoff: {clipboard: off}\n")
        let status = try machine.run("handoff", "clipboard", "status", "--json").stdout
        #expect(status.contains(#""mode":"off""#), "\(status) \(machine.log)")
    }

    /// Like NSUserActivity: a new current activity replaces the one of the same type and team.
    @Test func becomingCurrentReplacesTheSameKind() throws {
        let a = try Machine("alpha", port: 27_203)
        _ = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "First")
        _ = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "Second")
        _ = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "Other team", "--team", "org.other")
        let listed = try JSONSerialization.jsonObject(with: Data(try a.run("activity", "list", "--json").stdout.utf8)) as? [[String: Any]]
        #expect(listed?.compactMap { $0["title"] as? String }.sorted() == ["Other team", "Second"])
    }

    /// A handler for another team is named, not passed over in silence.
    @Test func aHandlerOfAnotherTeamIsSaid() throws {
        let (a, b) = try Self.pairedMachines((27_205, 27_206))
        try Sandbox.write("""
            schema: actshare/handler@1
            id: org.other.notes
            team: org.other
            continues: [org.example.notes.editing]
            exec: "true {activity-file}"
            """, to: "\(b.sandbox.root)/data/actshare/handlers/notes.yaml")
        let id = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "Notes", "--team", "org.example")
        let run = try b.run("handoff", "continue", id)
        #expect(run.status == 3)
        #expect(run.stderr == "actshare: org.other.notes continues org.example.notes.editing, but for team org.other, not team org.example as the activity says\n")
    }

    /// A handed-off URL whose browser cannot start stays to be continued.
    @Test func aFailedContinuationLosesNothing() throws {
        let (a, b) = try Self.pairedMachines((27_207, 27_208))
        a.sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        #expect(try a.run("perform", "org.actshare.handoff", "https://example.org/kept").status == 0)
        try b.sandbox.writeConfig("handoff: {browser: /nonexistent/browser}\n")
        let failed = try b.run("handoff", "continue", "--latest")
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(try b.run("handoff", "list").stdout.contains("https://example.org/kept"), "still there")
        let opened = "\(b.sandbox.root)/opened", browser = "\(b.sandbox.root)/browser.sh"
        try Sandbox.write("#!/bin/sh\necho \"$1\" > \(opened)\n", to: browser)
        chmod(browser, 0o755)
        try b.sandbox.writeConfig("handoff: {browser: \(browser)}\n")
        #expect(try b.run("handoff", "continue", "--latest").status == 0)
        #expect(try b.run("handoff", "list").stdout.isEmpty, "handled, it is gone")
    }

    /// Typos in a pairing are said in words and do not use up the attempts; the waiting
    /// side says who it is.
    @Test func pairingFailuresAreSaidInWords() throws {
        let a = try Machine("alpha", port: 27_209), b = try Machine("beta", port: 27_210)
        let closed = try a.run("handoff", "pair", "127.0.0.1:27299", "--yes")
        #expect(closed.status == 1)
        #expect(closed.stderr == "actshare: cannot pair: nothing answers at 127.0.0.1:27299 (is `actshare daemon` running there, on that port?)\n")
        for _ in 1...3 {
            let notWaiting = try a.run("handoff", "pair", "127.0.0.1:27210", "--yes")
            #expect(notWaiting.stderr == "actshare: cannot pair: 127.0.0.1:27210 refused to pair: it is not waiting for a pairing (run `actshare handoff pair --wait` there first)\n")
        }
        let (asked, waited) = try Self.pair(a, b)
        #expect(asked.status == 0, "five failed attempts did not use up the limit: \(asked.stderr)")
        #expect(waited.stderr.contains("This device: beta (\(try b.deviceID())), port 27210."), "\(waited.stderr)")
    }
}
