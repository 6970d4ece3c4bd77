import Foundation
import Testing

/// A LocalSend device sending to actshare: localsendd (``LocalSendPeer``), and hostile
/// clients (Tests/Fixtures/localsend-client.py), each in a network namespace of its own.
@Suite(.serialized) struct LocalSendReceivingTests {
    typealias Machine = HandoffTests.Machine
    static let client = "\(Sandbox.repository)/Tests/Fixtures/localsend-client.py"
    /// A TCP relay an attacker runs (Tests/Fixtures/tcp-relay.py).
    static let relay = "\(Sandbox.repository)/Tests/Fixtures/tcp-relay.py"

    static func requests(_ machine: Machine) throws -> [[String: Any]] {
        let run = try machine.run("handoff", "requests", "--json")
        try #require(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    /// Polls `handoff requests` until one waits.
    static func waitForRequest(_ machine: Machine) throws -> [String: Any] {
        var first: [String: Any]?
        if try eventually({ first = try requests(machine).first; return first != nil }), let first { return first }
        Issue.record("no LocalSend request came: \(machine.log)")
        throw CancellationError()
    }

    /// Polls until `path` exists.
    static func waitFor(_ path: String) -> Bool {
        eventually { FileManager.default.fileExists(atPath: path) }
    }

    /// localsendd's last result (`received`, `declined`…), once it has one for the send
    /// started after `previous`.
    static func result(_ peer: LocalSendPeer, after previous: String?) throws -> [String: Any] {
        var result: [String: Any] = [:]
        try eventually {
            guard let latest = try peer.status()["result"] as? [String: Any], latest["id"] as? String != previous else { return false }
            result = latest
            return true
        }
        return result
    }

    /// Waits until localsendd lists `name`: only then does it send there.
    static func waitUntilHeard(_ peer: LocalSendPeer, _ name: String) throws {
        try eventually { try peer.devices().contains { $0["alias"] as? String == name } }
        try #require(try peer.devices().contains { $0["alias"] as? String == name }, "localsendd does not list \(name)")
    }

    /// `file` sent by `peer`, accepted, and arriving (bytes of it in its hidden folder
    /// there): the request's id.
    static func acceptedAndArriving(_ file: String, from peer: LocalSendPeer, to machine: Machine, into received: String) throws -> String {
        _ = try peer.control(["send", "--to", "alpha", file])
        let id = try #require(try waitForRequest(machine)["id"] as? String)
        #expect(try machine.run("handoff", "accept", id).status == 0)
        try eventually(every: 0.005) {
            try FileManager.default.contentsOfDirectory(atPath: received).filter { $0.hasPrefix(".actshare-partial-") }.contains { folder in
                let files = FileManager.default.enumerator(atPath: "\(received)/\(folder)")?.allObjects as? [String] ?? []
                return files.contains { ((try? FileManager.default.attributesOfItem(atPath: "\(received)/\(folder)/\($0)"))?[.size] as? Int ?? 0) > 0 }
            }
        }
        return id
    }

    /// A `prepare-upload` body from the device `alias` offering `files`, written into
    /// `machine`'s sandbox: its path.
    static func offer(_ files: [[String: Any]], from alias: String, in machine: Machine) throws -> String {
        let path = "\(machine.sandbox.root)/body-\(UUID().uuidString.prefix(6)).json"
        let info: [String: Any] = ["alias": alias, "version": "2.1", "fingerprint": String(repeating: "C", count: 64), "port": 53317, "protocol": "https"]
        var map: [String: Any] = [:]
        for file in files { map[file["id"] as! String] = file }
        try JSONSerialization.data(withJSONObject: ["info": info, "files": map]).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `body` offered by the test client from host `from` of `link` (a `prepare-upload`,
    /// which waits while the user is asked), and accepted: the request as `handoff
    /// requests --json` listed it, and the session's tokens.
    static func offerAccepted(_ body: String, on link: NetworkLink, from: Int, to machine: Machine, pin: String? = nil) throws
        -> (request: [String: Any], session: String, files: [String: String]) {
        let asking = Process()
        asking.executableURL = URL(fileURLWithPath: NetworkLink.ip)
        asking.arguments = ["netns", "exec", link.hosts[from], "/usr/bin/python3", client, "prepare", link.address(0), "53317", body] + (pin.map { [$0] } ?? [])
        let output = Pipe()
        asking.standardOutput = output
        try asking.run()
        let request = try waitForRequest(machine)
        #expect(try machine.run("handoff", "accept", try #require(request["id"] as? String)).status == 0)
        let answered = output.fileHandleForReading.readDataToEndOfFile()
        asking.waitUntilExit()
        let lines = String(decoding: answered, as: UTF8.self).split(separator: "\n").map(String.init)
        try #require(lines.first == "200" && lines.count > 1, "\(lines)")
        let tokens = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        return (request, try #require(tokens["sessionId"] as? String), try #require(tokens["files"] as? [String: String]))
    }

    /// Waits until no hidden partial folder is left in `received`.
    static func waitUntilNothingPartial(in received: String) throws {
        try eventually { !(try FileManager.default.contentsOfDirectory(atPath: received)).contains { $0.hasPrefix(".actshare-partial-") } }
    }

    static func lastResultID(_ peer: LocalSendPeer) throws -> String? {
        (try peer.status()["result"] as? [String: Any])?["id"] as? String
    }

    /// localsendd asks; nothing lands until accepted; then 200 MiB and a note arrive byte
    /// for byte; a decline keeps everything out; a name already there is not replaced.
    @Test func filesFromALocalSendDeviceArriveOnlyWhenAccepted() throws {
        let (link, alpha, peer) = try LocalSendTests.setUp("lsr")
        defer { withExtendedLifetime(link) {} }
        let received = "\(alpha.sandbox.root)/home/Downloads"
        try Self.waitUntilHeard(peer, "alpha")

        let big = "\(peer.root)/big.bin", note = "\(peer.root)/note.txt"
        try LocalSendTests.makeRandomFile(big, bytes: 200 << 20)
        try "from the phone\n".write(toFile: note, atomically: true, encoding: .utf8)
        let started = try peer.control(["send", "--to", "alpha", big, note])
        try #require(started.status == 0, "\(started.stderr)")

        let request = try Self.waitForRequest(alpha)
        #expect(request["device"] as? String == "Pixel Test")
        #expect(request["address"] as? String == link.address(1))
        #expect(request["pinned"] as? Bool == false)
        #expect(request["bytes"] as? Int == (200 << 20) + 15)
        #expect((request["files"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["big.bin", "note.txt"])
        let id = try #require(request["id"] as? String)
        let listed = try alpha.run("handoff", "requests")
        #expect(listed.stdout.contains("\(id)  \"Pixel Test\" at \(link.address(1))  2 files, 209.7 MB: big.bin, note.txt"), "\(listed.stdout)")
        // The phone has asked and waits for the answer: nothing of it is here.
        #expect(!FileManager.default.fileExists(atPath: "\(received)/big.bin"), "nothing lands before the user accepts")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: received)) ?? []).isEmpty, "nothing lands before the user accepts")

        let accepted = try alpha.run("handoff", "accept", id)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        try #require(Self.waitFor("\(received)/note.txt") && Self.waitFor("\(received)/big.bin"))
        #expect(try HandoffTransferTests.sha256("\(received)/big.bin") == HandoffTransferTests.sha256(big))
        #expect(try String(contentsOfFile: "\(received)/note.txt", encoding: .utf8) == "from the phone\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: received).sorted() == ["big.bin", "note.txt"], "no partial folder left")
        #expect(try FileManager.default.attributesOfItem(atPath: "\(received)/note.txt")[.posixPermissions] as? Int == 0o644)
        let history = try alpha.run("handoff", "received", "--json")
        #expect(history.stdout.contains("\"from\":\"Pixel Test\""), "\(history.stdout)")
        #expect(try alpha.run("handoff", "requests").stderr.contains("No device is waiting"))

        // Declined: localsendd is told so, and nothing arrives.
        var previous = try Self.lastResultID(peer)
        _ = try peer.control(["send", "--to", "alpha", note])
        let second = try #require(try Self.waitForRequest(alpha)["id"] as? String)
        #expect(try alpha.run("handoff", "decline", second).status == 0)
        #expect(try Self.result(peer, after: previous)["kind"] as? String == "declined")
        #expect(try FileManager.default.contentsOfDirectory(atPath: received).sorted() == ["big.bin", "note.txt"])
        let unknown = try alpha.run("handoff", "accept", second)
        #expect(unknown.status == 3 && unknown.stderr.contains("no LocalSend device waits for an answer under \(second)"), "\(unknown.stderr)")

        // Accepted again: the note already there stays; the new one is "note (1).txt".
        previous = try Self.lastResultID(peer)
        _ = try peer.control(["send", "--to", "alpha", note])
        let third = try #require(try Self.waitForRequest(alpha)["id"] as? String)
        #expect(try alpha.run("handoff", "accept", third).status == 0)
        #expect(try Self.result(peer, after: previous)["kind"] as? String == "sent")
        #expect(Self.waitFor("\(received)/note (1).txt"))

        // From here the device's uploads are paced (100 Mbit/s: 17 s for the 200 MiB file),
        // so that a loaded machine cannot take one whole before the test stops it.
        try link.limitRate(1, megabits: 100)

        // Cancelled by the sender partway: nothing of it stays, not even hidden.
        _ = try Self.acceptedAndArriving(big, from: peer, to: alpha, into: received)
        #expect(try peer.control(["cancel"]).status == 0)
        try Self.waitUntilNothingPartial(in: received)
        let afterCancel = try FileManager.default.contentsOfDirectory(atPath: received).sorted()
        #expect(afterCancel == ["big.bin", "note (1).txt", "note.txt"], "\(afterCancel)")

        // Stopped here once accepted (`handoff decline ID` again): localsendd is told, and
        // nothing stays.
        previous = try Self.lastResultID(peer)
        let fifth = try Self.acceptedAndArriving(big, from: peer, to: alpha, into: received)
        let stopped = try alpha.run("handoff", "decline", fifth)
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(try Self.result(peer, after: previous)["kind"] as? String == "remote_cancelled")
        // localsendd hears of it before the upload in flight has ended here: then it goes.
        try Self.waitUntilNothingPartial(in: received)
        let afterStop = try FileManager.default.contentsOfDirectory(atPath: received).sorted()
        #expect(afterStop == ["big.bin", "note (1).txt", "note.txt"], "nothing of it stays: \(afterStop)")
    }

    /// With a PIN configured, none and a wrong one are refused, and an address that keeps
    /// guessing is locked out; hostile offers (names that climb out, 10⁵ files, 2⁶² bytes,
    /// a wrong token or length, a request trickled in) are refused or made harmless.
    @Test func aPinIsAskedAndHostileClientsAreRefusedWithoutHarm() throws {
        let link = try NetworkLink(hosts: 3, tag: "lsh")
        let alpha = try Machine("alpha", namespace: link.hosts[0], config: "handoff:\n  localsend-pin: \"4711\"\n")
        let received = "\(alpha.sandbox.root)/home/Downloads"
        let host = link.address(0)
        func client(_ from: Int, _ arguments: [String]) throws -> [String] {
            let run = try link.run(from, ["/usr/bin/python3", Self.client] + arguments, timeout: 120)
            try #require(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        func body(_ files: [[String: Any]]) throws -> String { try Self.offer(files, from: "Hostile", in: alpha) }
        let one = try body([["id": "a", "fileName": "note.txt", "size": 4, "fileType": "text/plain"]])

        #expect(try client(1, ["prepare", host, "53317", one]).first == "401", "no PIN")
        #expect(try client(1, ["prepare", host, "53317", one, "1234"]).first == "401", "a wrong PIN")
        // Another address guessing: three wrong, then even the right one waits a minute.
        for _ in 0..<3 { _ = try client(2, ["prepare", host, "53317", one, "0000"]) }
        #expect(try client(2, ["prepare", host, "53317", one, "4711"]).first == "429")

        // 10⁵ files: more than a body may hold, refused before anyone is asked.
        let many = try body((0..<100_000).map { ["id": "f\($0)", "fileName": "f\($0).txt", "size": 1, "fileType": "text/plain"] })
        #expect(try client(1, ["prepare", host, "53317", many, "4711"]).first == "413")
        // 2⁶² bytes: more than any file, refused before anyone is asked; 2⁴⁰ fits no disk here.
        let huge = try body([["id": "h", "fileName": "huge.img", "size": 1 << 62, "fileType": "application/octet-stream"]])
        #expect(try client(1, ["prepare", host, "53317", huge, "4711"]).first == "400")
        let large = try body([["id": "l", "fileName": "large.img", "size": 1 << 40, "fileType": "application/octet-stream"]])
        #expect(try client(1, ["prepare", host, "53317", large, "4711"]).first == "507")
        #expect(try Self.requests(alpha).isEmpty, "nobody was asked")

        // Names that climb out: asked, accepted, and kept inside the receive folder.
        let climbing = try body([
            ["id": "up", "fileName": "../../outside.txt", "size": 5, "fileType": "text/plain"],
            ["id": "abs", "fileName": "/etc/cron.d/evil", "size": 5, "fileType": "text/plain"],
            ["id": "slow", "fileName": "slow.bin", "size": 1 << 20, "fileType": "application/octet-stream"],
        ])
        let (_, session, files) = try Self.offerAccepted(climbing, on: link, from: 1, to: alpha, pin: "4711")
        let data = "\(alpha.sandbox.root)/five.txt"
        try "evil\n".write(toFile: data, atomically: true, encoding: .utf8)
        #expect(try client(1, ["upload", host, "53317", session, "up", "wrong-token", data]).first == "403")
        let long = "\(alpha.sandbox.root)/six.txt"
        try "evil!\n".write(toFile: long, atomically: true, encoding: .utf8)
        #expect(try client(1, ["upload", host, "53317", session, "up", try #require(files["up"]), long]).first == "400", "not the length promised")
        #expect(try client(1, ["upload", host, "53317", session, "up", try #require(files["up"]), data]).first == "200")
        #expect(try client(1, ["upload", host, "53317", session, "abs", try #require(files["abs"]), data]).first == "200")
        #expect(!FileManager.default.fileExists(atPath: "\(alpha.sandbox.root)/outside.txt"))
        #expect(!FileManager.default.fileExists(atPath: "\(alpha.sandbox.root)/home/outside.txt"))

        // A trickle of 8 KiB a second, never idle: cut for the pace it must keep (256 KiB
        // in 15 s, the daemon says); nothing of it under its name; sent again, it arrives.
        let slow = "\(alpha.sandbox.root)/slow.bin"
        try Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: slow))
        let trickled = try client(1, ["upload", host, "53317", session, "slow", try #require(files["slow"]), slow, "1", "8192"])
        #expect(trickled.first == "closed", "\(trickled)")
        #expect(eventually { alpha.said("LocalSend: closed a slow upload from \(link.address(1)): ") == 1 }, "\(alpha.log.suffix(1500))")
        #expect(alpha.log.contains(" bytes in the last 15 s, under 262144"), "\(alpha.log.suffix(1500))")
        #expect(!FileManager.default.fileExists(atPath: "\(received)/slow.bin"))
        #expect(try client(1, ["upload", host, "53317", session, "slow", try #require(files["slow"]), slow]).first == "200")
        #expect(FileManager.default.contents(atPath: "\(received)/slow.bin") == FileManager.default.contents(atPath: slow))
        let arrived = try FileManager.default.subpathsOfDirectory(atPath: received).sorted()
        #expect(arrived == ["__", "__/__", "__/__/outside.txt", "etc", "etc/cron.d", "etc/cron.d/evil", "slow.bin"], "\(arrived)")

        // Half a request head, then nothing: closed for the 10 s a request has to be whole
        // (the daemon says so), not left to the idle time-out (75 s).
        let waited = try client(1, ["trickle", host, "53317", "30"]).first
        #expect(Double(waited ?? "") != nil, "still open after 30 s: \(waited ?? "")")
        #expect(eventually { alpha.said("LocalSend: closed the connection from \(link.address(1)): its request was not whole within 10 s") == 1 },
                "\(alpha.log.suffix(1500))")
    }

    /// curl, as HTTP clients do for large bodies, asks with `Expect: 100-continue` and
    /// waits before it sends the body: an accepted upload is let continue at once (RFC 9110,
    /// 10.1.1); a refused one gets its final answer, and its body is never sent.
    @Test func anUploadThatAsksToContinueIsLetContinueOnlyWhenAccepted() throws {
        let link = try NetworkLink(hosts: 2, tag: "lsc")
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        let received = "\(alpha.sandbox.root)/home/Downloads"
        let file = "\(alpha.sandbox.root)/two.bin"
        let bytes = Data((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try bytes.write(to: URL(fileURLWithPath: file))
        let offer = try Self.offer([["id": "t", "fileName": "two.bin", "size": bytes.count, "fileType": "application/octet-stream"]], from: "Curl", in: alpha)
        let (_, session, files) = try Self.offerAccepted(offer, on: link, from: 1, to: alpha)
        // Without a 100, curl would wait its whole --expect100-timeout and send anyway:
        // what it says it heard is what counts.
        func upload(token: String) throws -> Run {
            try link.run(1, ["/usr/bin/curl", "-v", "-sk", "--expect100-timeout", "120", "-X", "POST", "-H", "Expect: 100-continue",
                             "-H", "Content-Type: application/octet-stream", "-T", file,
                             "https://\(link.address(0)):53317/api/localsend/v2/upload?sessionId=\(session)&fileId=t&token=\(token)"], timeout: 300)
        }
        let refused = try upload(token: "wrong-token")
        #expect(refused.stderr.contains("< HTTP/1.1 403") && !refused.stderr.contains("100 Continue"), "\(refused.stderr)")
        let accepted = try upload(token: try #require(files["t"]))
        #expect(accepted.stderr.contains("< HTTP/1.1 100 Continue") && accepted.stderr.contains("< HTTP/1.1 200"), "\(accepted.stderr)")
        #expect(eventually { FileManager.default.contents(atPath: "\(received)/two.bin") == bytes })
    }

    /// A folder and a text as LocalSend's apps send them (localsendd sends single files
    /// only, so the test client speaks for the apps): the folder's paths arrive as its
    /// tree, byte-exact; the text is asked about as a message, shown with its words, and
    /// kept as message.txt once accepted.
    @Test func aFolderAndAMessageArriveAsTheAppsSendThem() throws {
        let link = try NetworkLink(hosts: 2, tag: "lsm")
        defer { withExtendedLifetime(link) {} }
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        let received = "\(alpha.sandbox.root)/home/Downloads"
        let host = link.address(0)
        func upload(_ session: String, _ id: String, _ token: String?, _ data: Data) throws -> String? {
            let path = "\(alpha.sandbox.root)/upload-\(id)"
            try data.write(to: URL(fileURLWithPath: path))
            let run = try link.run(1, ["/usr/bin/python3", Self.client, "upload", host, "53317", session, id, try #require(token), path], timeout: 60)
            return run.stdout.split(separator: "\n").first.map(String.init)
        }

        let photo = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let notes = Data("Tag 1: Kyōto ⛩\n".utf8)
        let folder = try Self.offer([
            ["id": "p", "fileName": "Trip/day 1/photo.jpg", "size": photo.count, "fileType": "image/jpeg"],
            ["id": "n", "fileName": "Trip/notes.txt", "size": notes.count, "fileType": "text/plain"],
        ], from: "Pixel", in: alpha)
        let (asked, session, files) = try Self.offerAccepted(folder, on: link, from: 1, to: alpha)
        #expect(asked["message"] == nil, "files are not a message")
        #expect(try upload(session, "p", files["p"], photo) == "200")
        #expect(try upload(session, "n", files["n"], notes) == "200")
        #expect(FileManager.default.contents(atPath: "\(received)/Trip/day 1/photo.jpg") == photo)
        #expect(FileManager.default.contents(atPath: "\(received)/Trip/notes.txt") == notes)

        let text = "Treffen um 7 – Gleis 4 👋\nBis gleich"
        let message = try Self.offer([["id": "t", "fileName": "message.txt", "size": text.utf8.count, "fileType": "text/plain", "preview": text]],
                                     from: "Pixel", in: alpha)
        // Listed with its words on a terminal, before it is answered.
        let listing = Process()
        listing.executableURL = URL(fileURLWithPath: NetworkLink.ip)
        listing.arguments = ["netns", "exec", link.hosts[1], "/usr/bin/python3", Self.client, "prepare", host, "53317", message]
        listing.standardOutput = FileHandle.nullDevice
        try listing.run()
        let waiting = try Self.waitForRequest(alpha)
        #expect(waiting["message"] as? String == text)
        let shown = try alpha.run("handoff", "requests")
        #expect(shown.stdout.contains("\"Pixel\" at \(link.address(1))") && shown.stdout.contains("a message, "), "\(shown.stdout)")
        #expect(shown.stdout.contains("Treffen um 7 – Gleis 4 👋\nBis gleich"), "\(shown.stdout)")
        #expect(try alpha.run("handoff", "decline", try #require(waiting["id"] as? String)).status == 0)
        listing.waitUntilExit()

        let (_, textSession, textFiles) = try Self.offerAccepted(message, on: link, from: 1, to: alpha)
        #expect(try upload(textSession, "t", textFiles["t"], Data(text.utf8)) == "200")
        #expect(FileManager.default.contents(atPath: "\(received)/message.txt") == Data(text.utf8))
    }

    /// The question as the desktop shows it: a notification (dunst, a real server, on a
    /// bus and an X server of the test's own) naming the device and its files, whose
    /// Accept button lets the files in and whose Decline keeps them out.
    @Test func theNotificationAsksAndItsButtonsAnswer() throws {
        let (link, alpha, peer) = try LocalSendTests.setUp("lsn")
        defer { withExtendedLifetime(link) {} }
        let received = "\(alpha.sandbox.root)/home/Downloads"
        let desktop = try NotificationDesktop(root: alpha.sandbox.root, programEnvironment: alpha.sandbox.environment)
        alpha.sandbox.extraEnvironment.merge(desktop.environment) { $1 }
        alpha.stop()
        try alpha.start()
        try Self.waitUntilHeard(peer, "alpha")

        func ask(_ answer: String) throws {
            try desktop.choose(answer)
            _ = try peer.control(["send", "--to", "alpha", "\(peer.root)/photo.jpg"])
            try eventually { try desktop.shown() == "1" }
            #expect(try desktop.dunstctl(["context"]).status == 0)
        }
        try LocalSendTests.makeRandomFile("\(peer.root)/photo.jpg", bytes: 100_000)
        try ask("Decline")
        // The menu runs, and the notification closes, on dunst's own time.
        try eventually { try Self.requests(alpha).isEmpty }
        #expect(try Self.requests(alpha).isEmpty, "the button answered")
        let lines = desktop.menuLines
        #expect(lines.contains("#Accept ") && lines.contains("#Always Accept ") && lines.contains("#Decline "), "\(lines)")
        var history = ""
        try eventually {
            history = try desktop.dunstctl(["history"]).stdout
            return history.contains("Pixel Test wants")
        }
        #expect(history.contains("Pixel Test wants to send 1 file (100.0 kB)") && history.contains("photo.jpg"), "\(history)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: received)) ?? []).isEmpty)

        try ask("Accept")
        #expect(Self.waitFor("\(received)/photo.jpg"), "accepted from the notification")
    }

    /// "Always" holds only for a device whose certificate is pinned here and which proves
    /// it holds it (it presents it on the connection that asks): a reinstalled one, or
    /// another device claiming its fingerprint (through a relay to the real one too), is
    /// asked about again.
    @Test func alwaysAcceptsOnlyAPinnedDeviceThatProvesItsCertificate() throws {
        let (link, alpha, peer) = try LocalSendTests.setUp("lsa", hosts: 3)
        defer { withExtendedLifetime(link) {} }
        let received = "\(alpha.sandbox.root)/home/Downloads"
        _ = try LocalSendTests.localSendDevices(alpha)
        let mine = try alpha.sandbox.file("hello.txt", "hello\n")
        #expect(try alpha.run("handoff", "send", "--device", "Pixel Test", mine).status == 0, "sent once: its certificate is pinned")
        try Self.waitUntilHeard(peer, "alpha")

        let photo = "\(peer.root)/photo.jpg"
        try LocalSendTests.makeRandomFile(photo, bytes: 50_000)
        _ = try peer.control(["send", "--to", "alpha", photo])
        let first = try Self.waitForRequest(alpha)
        #expect(first["pinned"] as? Bool == true, "it proved the certificate pinned for it: \(first)")
        #expect(try alpha.run("handoff", "accept", "--always", try #require(first["id"] as? String)).status == 0)
        #expect(Self.waitFor("\(received)/photo.jpg"))

        // Next time nobody is asked.
        _ = try peer.control(["send", "--to", "alpha", photo])
        #expect(Self.waitFor("\(received)/photo (1).jpg"), "accepted without asking")
        #expect(alpha.log.contains("accepted 1 files from LocalSend device Pixel Test without asking"), "\(alpha.log)")

        // Another host claiming Pixel's name and fingerprint cannot present its certificate,
        // not even through a relay to the real Pixel on a port it names as its own.
        let fingerprint = try peer.fingerprint()
        let (relay, listening) = try link.start(2, ["/usr/bin/python3", Self.relay, link.address(1), "53317"])
        defer { withExtendedLifetime(relay) {} }
        let relayPort = try #require(Int(listening), "the relay listens: \(listening)")
        let impostorBody = "\(alpha.sandbox.root)/impostor.json"
        let claim: [String: Any] = [
            "info": ["alias": "Pixel Test", "version": "2.1", "fingerprint": fingerprint, "port": relayPort, "protocol": "https"],
            "files": ["x": ["id": "x", "fileName": "invoice.pdf", "size": 5, "fileType": "application/pdf"]],
        ]
        try JSONSerialization.data(withJSONObject: claim).write(to: URL(fileURLWithPath: impostorBody))
        let asking = Process()
        asking.executableURL = URL(fileURLWithPath: NetworkLink.ip)
        asking.arguments = ["netns", "exec", link.hosts[2], "/usr/bin/python3", Self.client, "prepare", link.address(0), "53317", impostorBody]
        asking.standardOutput = FileHandle.nullDevice
        try asking.run()
        let impostor = try Self.waitForRequest(alpha)
        #expect(impostor["pinned"] as? Bool == false && impostor["address"] as? String == link.address(2), "asked, and not shown as pinned: \(impostor)")
        #expect(alpha.log.components(separatedBy: "without asking").count == 2, "only Pixel's own send went without asking: \(alpha.log)")
        #expect(try alpha.run("handoff", "decline", try #require(impostor["id"] as? String)).status == 0)
        asking.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: "\(received)/invoice.pdf"))

        // Reinstalled: another certificate, asked about again.
        try peer.newCertificate()
        try Self.waitUntilHeard(peer, "alpha")
        _ = try peer.control(["send", "--to", "alpha", photo])
        let again = try Self.waitForRequest(alpha)
        #expect(again["pinned"] as? Bool == false, "\(again)")
        #expect(try alpha.run("handoff", "decline", try #require(again["id"] as? String)).status == 0)
        #expect(!FileManager.default.fileExists(atPath: "\(received)/photo (2).jpg"))
    }

    /// A sandboxed provider with `handoff: true` sends its items and text only to devices
    /// the user trusts: paired ones, and a LocalSend device pinned with "always" — never a
    /// device merely heard on the LAN, nor one the user sent to once.
    @Test func aProviderSendsToALocalSendDeviceOnlyWhenTheUserTrustsItAlways() throws {
        let (link, alpha, peer) = try LocalSendTests.setUp("lst")
        defer { withExtendedLifetime(link) {} }
        let directory = "\(alpha.sandbox.root)/intruder"
        alpha.sandbox.providerPath.insert(directory, at: 0)
        try Sandbox.write(SandboxTests.manifest(permissions: "  handoff: true"), to: "\(directory)/provider.yaml")
        let item = try alpha.sandbox.file("shared.txt", "shared words\n")
        func ask(_ line: String) throws -> (status: Int32, answer: String) {
            let run = try alpha.run("perform", "org.test.intruder.handoff", item, "-o", "target=\(line)", "--json")
            let answer = (try run.json()["returned_items"] as? [[String: Any]])?.first?["text"] as? String ?? ""
            return (run.status, answer)
        }
        let sendItem = #"{"op":"send-files","paths":["\#(item)"],"devices":["Pixel Test"]}"#
        let sendText = #"{"op":"send","device":"Pixel Test","activity":{"type":"org.actshare.handoff.url","title":"x","user_info":{},"version":1,"webpage_url":"https://example.org/from-a-provider"}}"#
        let untrusted = "a provider may hand off only to a paired device, or to a LocalSend device pinned with"
        _ = try LocalSendTests.localSendDevices(alpha)

        // First contact: refused, and nothing reaches the device.
        for line in [sendItem, sendText] {
            let (status, answer) = try ask(line)
            #expect(status == 1 && answer.contains(untrusted), "\(line): \(answer)")
        }
        // Sent to once by the user: pinned, but not trusted with what providers send.
        let mine = try alpha.sandbox.file("hello.txt", "hello\n")
        #expect(try alpha.run("handoff", "send", "--device", "Pixel Test", mine).status == 0)
        let (status, answer) = try ask(sendItem)
        #expect(status == 1 && answer.contains(untrusted), "\(answer)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: peer.downloads) == ["hello.txt"], "only the user's file arrived")

        // Accepted from it with "always": now a provider's item may go there.
        try Self.waitUntilHeard(peer, "alpha")
        let photo = "\(peer.root)/photo.jpg"
        try LocalSendTests.makeRandomFile(photo, bytes: 10_000)
        _ = try peer.control(["send", "--to", "alpha", photo])
        let request = try Self.waitForRequest(alpha)
        #expect(try alpha.run("handoff", "accept", "--always", try #require(request["id"] as? String)).status == 0)
        #expect(eventually { (try? alpha.run("handoff", "requests", "--json").stdout) == "[]\n" || FileManager.default.fileExists(atPath: "\(alpha.sandbox.root)/home/Downloads/photo.jpg") })
        let trusted = try ask(sendItem)
        #expect(trusted.status == 0, "\(trusted.answer)")
        #expect(eventually { FileManager.default.fileExists(atPath: "\(peer.downloads)/shared.txt") })
    }

    /// Per-host limits count hosts, not addresses: an IPv6 /64 is one host (180 wrong PINs
    /// from 60 of its addresses are locked out after 3), and with `listen: "::"` each IPv4
    /// client is a host of its own (`::ffff:a.b.c.d` unmapped), so one holding its four
    /// connections shuts no other phone out.
    @Test func limitsCountAnIPv6Slash64AsOneHostAndEachIPv4ClientOfTheIPv6PortAsOne() throws {
        let link = try NetworkLink(hosts: 3, tag: "ls6")
        try NetworkLink.ipCommand(["-n", link.hosts[0], "addr", "add", "fd77::1/64", "dev", "eth0", "nodad"])
        let sources = (1...60).map { "fd77::1:\(String($0, radix: 16))" }
        for source in sources { try NetworkLink.ipCommand(["-n", link.hosts[1], "addr", "add", "\(source)/64", "dev", "eth0", "nodad"]) }
        let alpha = try Machine("alpha", namespace: link.hosts[0], config: "handoff:\n  listen: \"::\"\n  localsend-pin: \"4711\"\n")
        let one = try Self.offer([["id": "a", "fileName": "note.txt", "size": 4, "fileType": "text/plain"]], from: "Guesser", in: alpha)
        func client(_ from: Int, _ arguments: [String]) throws -> [String] {
            let run = try link.run(from, ["/usr/bin/python3", Self.client] + arguments, timeout: 300)
            try #require(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map(String.init)
        }

        let guesses = try client(1, ["guess", "fd77::1", "53317", one, "0000", "3"] + sources)
        #expect(guesses.count == 180, "\(guesses)")
        #expect(guesses.prefix(3) == ["401", "401", "401"], "\(guesses.prefix(6))")
        #expect(guesses.dropFirst(3).allSatisfy { $0 == "429" }, "locked out after 3: \(Set(guesses.dropFirst(3)))")
        // Even the right PIN, from another address of that /64, waits its minute.
        try NetworkLink.ipCommand(["-n", link.hosts[1], "addr", "add", "fd77::1:ff/64", "dev", "eth0", "nodad"])
        #expect(try client(1, ["guess", "fd77::1", "53317", one, "4711", "1", "fd77::1:ff"]).first == "429")

        // One IPv4 host holds the four connections a host may have; another is still heard.
        let (holder, line) = try link.start(1, ["/usr/bin/python3", Self.client, "hold", link.address(0), "53317", "6"])
        defer { withExtendedLifetime(holder) {} }
        #expect(line.hasPrefix("held 4"), "a host keeps at most 4: \(line)")
        #expect(try client(2, ["prepare", link.address(0), "53317", one]).first == "401", "another IPv4 phone is answered (no PIN given)")
        #expect(try Self.requests(alpha).isEmpty, "nobody was asked")
    }
}
