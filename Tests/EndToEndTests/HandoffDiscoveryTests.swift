import Foundation
import Testing

/// Discovery over multicast DNS between real daemons, each in a network namespace of its
/// own on a link the test makes (``NetworkLink``); Avahi's own tools on the same link.
@Suite(.serialized) struct HandoffDiscoveryTests {
    typealias Machine = HandoffTests.Machine

    static func nearby(_ machine: Machine, timeout: String = "1") throws -> [[String: Any]] {
        let run = try machine.run("handoff", "discover", "--json", "--timeout", timeout)
        try #require(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    /// Polls `discover` until `condition` holds, for at most `seconds`.
    static func waitFor(_ machine: Machine, seconds: Double = 10, _ condition: ([[String: Any]]) -> Bool) throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(seconds)
        var last: [[String: Any]] = []
        while Date() < deadline {
            last = try nearby(machine, timeout: "0.5")
            if condition(last) { return last }
        }
        return last
    }

    @Test func daemonsFindEachOtherPairByNameAndFollowAMove() throws {
        let link = try NetworkLink(hosts: 3, tag: "d")
        let a = try Machine("alpha", port: 53840, namespace: link.hosts[0])
        let b = try Machine("beta", port: 53840, namespace: link.hosts[1])
        let c = try Machine("gamma", port: 53840, namespace: link.hosts[2])
        let ids = try [a, b, c].map { try $0.deviceID() }

        let seen = try Self.waitFor(a) { $0.count == 2 }
        #expect(Set(seen.compactMap { $0["id"] as? String }) == [ids[1], ids[2]])
        #expect(seen.allSatisfy { $0["paired"] as? Bool == false })
        #expect(seen.first { $0["id"] as? String == ids[1] }?["address"] as? String == link.address(1))
        let text = try a.run("handoff", "discover")
        #expect(text.stdout.contains("\(ids[1])  \"beta\" (as it calls itself; not paired)  \(link.address(1)):53840"), "\(text.stdout)")

        // Pairing by the name discovery found: no address typed anywhere.
        let waiting = b.background(["handoff", "pair", "--wait", "--yes", "--expect-device", ids[0]])
        Thread.sleep(forTimeInterval: 0.5)
        let asked = try a.run("handoff", "pair", "beta", "--yes")
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(waiting().status == 0)
        let paired = try Self.nearby(a)
        #expect(paired.first { $0["id"] as? String == ids[1] }?["paired"] as? Bool == true)

        let file = "\(a.sandbox.root)/note.txt"
        try "from alpha\n".write(toFile: file, atomically: true, encoding: .utf8)
        let sent = try a.run("handoff", "send", "--device", "beta", file)
        #expect(sent.status == 0, "\(sent.stderr)")

        // beta moves to another address: discovery sees it, the send reaches it there, and
        // alpha keeps the new address.
        try link.readdress(1, from: link.address(1), to: "10.77.0.42")
        let moved = try Self.waitFor(a) { $0.contains { $0["address"] as? String == "10.77.0.42" } }
        #expect(moved.contains { $0["id"] as? String == ids[1] && $0["address"] as? String == "10.77.0.42" }, "\(moved)")
        let again = try a.run("handoff", "send", "--device", "beta", file)
        #expect(again.status == 0, "\(again.stderr)")
        let pairedFile = try String(contentsOfFile: "\(a.sandbox.root)/state/actshare/paired-devices.json", encoding: .utf8)
        #expect(pairedFile.contains("\"host\" : \"10.77.0.42\""), "\(pairedFile)")
        #expect(a.log.contains("beta is now at 10.77.0.42:53840"))
        let received = try FileManager.default.contentsOfDirectory(atPath: "\(b.sandbox.root)/home/Downloads")
        #expect(received.sorted() == ["note (1).txt", "note.txt"], "\(received)")

        // A daemon that stops says goodbye: it leaves the others' lists at once.
        c.terminate()
        let afterGoodbye = try Self.waitFor(a, seconds: 3) { !$0.contains { $0["id"] as? String == ids[2] } }
        #expect(!afterGoodbye.contains { $0["id"] as? String == ids[2] })
    }

    @Test func staticDiscoveryAdvertisesNothingAndSaysSo() throws {
        let link = try NetworkLink(hosts: 2, tag: "s")
        let quiet = try Machine("quiet", port: 53840, namespace: link.hosts[0], daemonArguments: ["--discovery", "static"])
        let other = try Machine("other", port: 53840, namespace: link.hosts[1])
        let off = try quiet.run("handoff", "discover")
        #expect(off.status == 2)
        #expect(off.stderr == "actshare: discovery is off here (config handoff.discovery: static, or the daemon's log says why)\n")
        // Three queries in the first three seconds, none answered.
        Thread.sleep(forTimeInterval: 3)
        #expect(try Self.nearby(other).isEmpty)
    }

    /// A paired device's id claimed from another address, malformed datagrams, a flood of
    /// services, names with escape sequences: listed only in checked form, bounded, and a
    /// lie costs one connection attempt and changes nothing.
    @Test func whatTheLinkSaysIsOnlyAHint() throws {
        let link = try NetworkLink(hosts: 3, tag: "h")
        let a = try Machine("alpha", port: 53840, namespace: link.hosts[0])
        let b = try Machine("beta", port: 53840, namespace: link.hosts[1])
        let bID = try b.deviceID()
        _ = try Self.waitFor(a) { $0.count == 1 }
        let waiting = b.background(["handoff", "pair", "--wait", "--yes", "--expect-device", try a.deviceID()])
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try a.run("handoff", "pair", "beta", "--yes").status == 0)
        #expect(waiting().status == 0)

        let attack = try link.run(2, ["/usr/bin/python3", "\(Sandbox.repository)/Tests/Fixtures/hostile-mdns.py", bID, "4242", link.address(2)])
        #expect(attack.status == 0, "\(attack.stderr)")
        let listed = try Self.waitFor(a, seconds: 5) { $0.count > 200 }
        #expect(listed.count <= 256 + 1, "\(listed.count)")
        for device in listed {
            let name = try #require(device["name"] as? String)
            #expect(!name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(name)")
            #expect((device["id"] as? String)?.allSatisfy(\.isHexDigit) == true)
        }
        #expect(!listed.contains { $0["name"] as? String == "nothex" })
        // The spoofed beta is listed under the id it claims, at its own address…
        #expect(listed.contains { $0["id"] as? String == bID && $0["address"] as? String == link.address(2) })
        // …and sending to beta still reaches beta, whose address stays where it was.
        let file = "\(a.sandbox.root)/x.txt"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let sent = try a.run("handoff", "send", "--device", "beta", file)
        #expect(sent.status == 0, "\(sent.stderr)")
        let pairedFile = try String(contentsOfFile: "\(a.sandbox.root)/state/actshare/paired-devices.json", encoding: .utf8)
        #expect(pairedFile.contains("\"host\" : \"\(link.address(1))\""), "\(pairedFile)")
        #expect(FileManager.default.fileExists(atPath: "\(b.sandbox.root)/home/Downloads/x.txt"))
    }
}
