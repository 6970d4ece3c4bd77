import Foundation
import Testing

/// What a person meets using handoff: one daemon a user, one current activity of a kind,
/// nothing lost when a continuation fails, and failures said in words.
extension HandoffTests {
    /// A second daemon of the same user does not take the first one's socket.
    @Test func aSecondDaemonIsRefused() throws {
        let a = try Machine("alpha")
        let second = try Sandbox.execute(
            "\(Sandbox.buildDirectory)/actshare-daemon", ["--port", "0", "--name", "again", "--discovery", "static"],
            environment: a.sandbox.environment, stdin: nil, timeout: 20)
        #expect(second.status == 2)
        #expect(second.stderr == "actshare daemon: another actshare daemon is running for this user (its control socket \(a.socket) answers)\n")
        #expect(try a.run("handoff", "status").stdout.contains("alpha"), "the first daemon still answers")
    }

    /// The daemon reads the config itself, once: a mistake in its `handoff:` section stops
    /// it with the place (started by itself or by `actshare daemon`), and its settings are
    /// what it runs with, the options given by hand winning.
    @Test func theDaemonReadsTheConfigItself() throws {
        let sandbox = try Sandbox(providerPath: [])
        let config = "\(sandbox.root)/config/actshare/config.yaml"
        try Sandbox.write("handoff: {device-name: configured, port: 70000}\n", to: config)
        for command in [["\(Sandbox.buildDirectory)/actshare-daemon"], [Sandbox.binary, "daemon"]] {
            let run = try Sandbox.execute(command[0], Array(command.dropFirst()) + ["--discovery", "static"],
                                          environment: sandbox.environment, stdin: nil, timeout: 20)
            #expect(run.status == 2)
            #expect(run.stderr == "\(config):1:42: error: 'handoff.port' must be from 1 to 65535, not 70000\n", "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(sandbox.root)/runtime/actshare/daemon.sock"))
        // Through actshare daemon (with --name and --port by hand), the config's clipboard
        // setting, off, is the daemon's.
        let machine = try Machine("configured", config: "handoff: {clipboard: off, device-name: not-this-one}\n")
        let status = try machine.run("handoff", "clipboard", "status", "--json").stdout
        #expect(status.contains(#""mode":"off""#), "\(status) \(machine.log)")
        #expect(try machine.run("handoff", "status").stdout.contains("configured"), "the name given by hand wins")
    }

    /// Like NSUserActivity: a new current activity replaces the one of the same type and team.
    @Test func becomingCurrentReplacesTheSameKind() throws {
        let a = try Machine("alpha")
        _ = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "First")
        _ = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "Second")
        _ = try Self.publish(a, "--type", "org.example.notes.editing", "--title", "Other team", "--team", "org.other")
        let listed = try JSONSerialization.jsonObject(with: Data(try a.run("activity", "list", "--json").stdout.utf8)) as? [[String: Any]]
        #expect(listed?.compactMap { $0["title"] as? String }.sorted() == ["Other team", "Second"])
    }

    /// A handler for another team is named, not passed over in silence.
    @Test func aHandlerOfAnotherTeamIsSaid() throws {
        let (a, b) = try Self.pairedMachines()
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
        let (a, b) = try Self.pairedMachines()
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
        let a = try Machine("alpha"), b = try Machine("beta")
        let nobody = try ClosedPort()
        let closed = try a.run("handoff", "pair", "127.0.0.1:\(nobody.port)", "--yes")
        #expect(closed.status == 1)
        #expect(closed.stderr == "actshare: cannot pair: nothing answers at 127.0.0.1:\(nobody.port) (is `actshare daemon` running there, on that port?)\n")
        for _ in 1...3 {
            let notWaiting = try a.run("handoff", "pair", "127.0.0.1:\(b.port)", "--yes")
            #expect(notWaiting.stderr == "actshare: cannot pair: 127.0.0.1:\(b.port) refused to pair: it is not waiting for a pairing (run `actshare handoff pair --wait` there first)\n")
        }
        let (asked, waited) = try Self.pair(a, b)
        #expect(asked.status == 0, "five failed attempts did not use up the limit: \(asked.stderr)")
        #expect(waited.stderr.contains("This device: beta (\(try b.deviceID())), port \(b.port)."), "\(waited.stderr)")
    }
}
