import Foundation
import Testing

/// A phone sending to actshare with Quick Share: the project's stand-in phone
/// (Tests/Fixtures/quickshare-phone.py) in a network namespace of its own, the daemon in
/// another, joined by a link the test makes.
@Suite(.serialized) struct QuickShareReceivingTests {
    typealias Machine = HandoffTests.Machine
    static let phone = "\(Sandbox.repository)/Tests/Fixtures/quickshare-phone.py"
    static let python = "\(Sandbox.repository)/.build-venv/bin/python"

    /// The stand-in phone run in host `index` of `link` with `arguments`, until it ends.
    final class Phone {
        private let process = Process()
        private let output = Pipe()

        init(_ link: NetworkLink, _ index: Int, _ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: NetworkLink.ip)
            process.arguments = ["netns", "exec", link.hosts[index], QuickShareReceivingTests.python, QuickShareReceivingTests.phone] + arguments
            process.standardOutput = output
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
            try process.run()
        }

        /// Its exit status and events, once it has ended.
        func finish() -> (status: Int32, events: [[String: Any]]) {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, data.split(separator: 10).compactMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] })
        }

        /// Stops it (a phone that gives up waiting): SIGKILL, as the test runner's children
        /// may have SIGTERM blocked.
        func stop() { kill(process.processIdentifier, SIGKILL) }

        deinit { if process.isRunning { process.terminate() } }
    }

    /// A daemon on `link`'s first host, and the port it takes Quick Share on (its log says).
    static func receiver(_ link: NetworkLink) throws -> (Machine, Int) {
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        var port: Int?
        eventually {
            port = alpha.log.split(separator: "\n").lazy.compactMap { line -> Int? in
                guard let range = line.range(of: "Quick Share on port ") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }.first
            return port != nil
        }
        return (alpha, try #require(port, "no Quick Share port: \(alpha.log)"))
    }

    static func waitForRequest(_ machine: Machine) throws -> [String: Any] {
        try LocalSendReceivingTests.waitForRequest(machine)
    }

    @Test func aPhonesFilesAreAskedAboutWithThePINAndLandWhole() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsr")
        let (alpha, port) = try Self.receiver(link)
        let photo = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try photo.write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/photo.jpg"))
        try Data("see you at ten\n".utf8).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/note.txt"))
        let phone = try Phone(link, 1, ["send", "--to", "\(link.address(0)):\(port)", "--name", "Pixel 9",
                                        "\(alpha.sandbox.root)/photo.jpg", "\(alpha.sandbox.root)/note.txt"])
        let request = try Self.waitForRequest(alpha)
        #expect(request["device"] as? String == "Pixel 9" && request["via"] as? String == "quickshare")
        #expect((request["files"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.sorted() == ["note.txt", "photo.jpg"])
        let listed = try alpha.run("handoff", "requests")
        #expect(listed.stdout.contains("(Quick Share, PIN \(request["pin"] as? String ?? "?"))"), "\(listed.stdout)")
        #expect(try alpha.run("handoff", "accept", try #require(request["id"] as? String)).status == 0)
        let (status, events) = phone.finish()
        #expect(status == 0, "\(events) \(alpha.log)")
        // The PIN asked with is the one the phone showed.
        #expect(events.contains { $0["event"] as? String == "pin" && $0["pin"] as? String == request["pin"] as? String })
        let downloads = "\(alpha.sandbox.root)/home/Downloads"
        #expect(eventually { FileManager.default.contents(atPath: "\(downloads)/photo.jpg") == photo })
        #expect(FileManager.default.contents(atPath: "\(downloads)/note.txt") == Data("see you at ten\n".utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: downloads)
        #expect(names.sorted() == ["note.txt", "photo.jpg"], "nothing else, no partial folder: \(names)")
        let mode = try FileManager.default.attributesOfItem(atPath: "\(downloads)/photo.jpg")[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o7777 } == 0o644)
        #expect(try alpha.run("handoff", "received").stdout.contains("Pixel 9"))
    }

    @Test func aDeclinedShareLeavesNothing() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsd")
        let (alpha, port) = try Self.receiver(link)
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/a.txt"))
        let phone = try Phone(link, 1, ["send", "--to", "\(link.address(0)):\(port)", "\(alpha.sandbox.root)/a.txt"])
        let request = try Self.waitForRequest(alpha)
        #expect(try alpha.run("handoff", "decline", try #require(request["id"] as? String)).status == 0)
        let (status, events) = phone.finish()
        #expect(status == 2, "\(events)")
        let downloads = "\(alpha.sandbox.root)/home/Downloads"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? []).isEmpty)
    }

    /// A text arrives as a message (asked about with its words) and is kept as message.txt.
    @Test func aTextIsAskedAboutWithItsWordsAndKept() throws {
        let link = try NetworkLink(hosts: 2, tag: "qst")
        let (alpha, port) = try Self.receiver(link)
        let phone = try Phone(link, 1, ["send", "--to", "\(link.address(0)):\(port)", "--text", "dinner at eight?"])
        let request = try Self.waitForRequest(alpha)
        #expect(request["message"] as? String == "dinner at eight?")
        #expect(try alpha.run("handoff", "accept", try #require(request["id"] as? String)).status == 0)
        #expect(phone.finish().status == 0)
        #expect(eventually { FileManager.default.contents(atPath: "\(alpha.sandbox.root)/home/Downloads/message.txt") == Data("dinner at eight?".utf8) })
    }

    /// A link alone is no file: accepted, it is kept as an activity handed to this device,
    /// which `handoff continue` opens in the browser; nothing lands in the folder.
    @Test func aLinkIsKeptToOpenNotAsAFile() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsl")
        let (alpha, port) = try Self.receiver(link)
        let phone = try Phone(link, 1, ["send", "--to", "\(link.address(0)):\(port)", "--name", "Pixel 9", "--text", "https://example.org/tickets?row=3"])
        let request = try Self.waitForRequest(alpha)
        #expect(request["message"] as? String == "https://example.org/tickets?row=3")
        let accepted = try alpha.run("handoff", "accept", try #require(request["id"] as? String))
        #expect(accepted.status == 0 && accepted.stdout.contains("the link is kept to open"), "\(accepted.stdout)")
        #expect(phone.finish().status == 0)
        #expect(eventually { (try? alpha.run("handoff", "list").stdout.contains("Pixel 9  org.actshare.handoff.url  https://example.org/tickets?row=3")) == true },
                "\(alpha.log)")
        let opened = "\(alpha.sandbox.root)/opened-url", browser = "\(alpha.sandbox.root)/browser.sh"
        try Sandbox.write("#!/bin/sh\necho \"$1\" > \(opened)\n", to: browser)
        chmod(browser, 0o755)
        try alpha.sandbox.writeConfig("handoff: {browser: \(browser)}\n")
        #expect(try alpha.run("handoff", "continue", "--latest").status == 0)
        #expect(eventually { (try? String(contentsOfFile: opened, encoding: .utf8)) == "https://example.org/tickets?row=3\n" })
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: "\(alpha.sandbox.root)/home/Downloads")) ?? []).isEmpty)
    }

    /// On a desktop (dunst, a real notification server, on a bus and an X server of the
    /// test's own): the question's Accept, then the link's notification, whose Open opens
    /// it in the browser (as `handoff continue` does).
    @Test func aLinksNotificationOpensIt() throws {
        let link = try NetworkLink(hosts: 2, tag: "qso")
        let (alpha, _) = try Self.receiver(link)
        let desktop = try NotificationDesktop(root: alpha.sandbox.root, programEnvironment: alpha.sandbox.environment)
        let opened = "\(alpha.sandbox.root)/opened-url", browser = "\(alpha.sandbox.root)/browser.sh"
        try Sandbox.write("#!/bin/sh\necho \"$1\" > \(opened)\n", to: browser)
        chmod(browser, 0o755)
        try alpha.sandbox.writeConfig("handoff: {browser: \(browser)}\n")
        alpha.sandbox.extraEnvironment.merge(desktop.environment) { $1 }
        // The port of the daemon started now: the line its start adds to the log, which is
        // appended to across restarts (not the first daemon's line, whose port is closed).
        let said = { alpha.log.split(separator: "\n").filter { $0.contains("Quick Share on port ") } }
        let before = said().count
        alpha.stop()
        try alpha.start()
        var port: Int?
        eventually {
            let lines = said()
            guard lines.count > before, let line = lines.last, let range = line.range(of: "Quick Share on port ") else { return false }
            port = Int(line[range.upperBound...].prefix { $0.isNumber })
            return port != nil
        }
        let phone = try Phone(link, 1, ["send", "--to", "\(link.address(0)):\(try #require(port))", "--name", "Pixel 9", "--text", "https://example.org/menu"])
        try desktop.choose("Accept")
        try eventually { try desktop.shown() == "1" }
        #expect(try desktop.dunstctl(["context"]).status == 0)
        #expect(phone.finish().status == 0)
        // The question closes on dunst's own time; then the link's notice is the one shown.
        try desktop.choose("Open")
        try eventually {
            let asked = try desktop.dunstctl(["history"]).stdout.contains("Pixel 9 sends a link")  // the question, closed
            let shown = try desktop.shown()
            return asked && shown == "1" && alpha.log.contains("sent a link: kept as")
        }
        #expect(try desktop.dunstctl(["context"]).status == 0)
        #expect(eventually { (try? String(contentsOfFile: opened, encoding: .utf8)) == "https://example.org/menu\n" }, "\(alpha.log)")
        #expect(desktop.menuLines.contains("#Open "), "\(desktop.menuLines)")
    }

    /// A link that is not http or https is refused: the phone's share ends, nothing kept.
    @Test func aLinkThatIsNotTheWebIsRefused() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsf")
        let (alpha, port) = try Self.receiver(link)
        let phone = try Phone(link, 1, ["send", "--to", "\(link.address(0)):\(port)", "--text", "file:///etc/passwd", "--as-url"])
        let request = try Self.waitForRequest(alpha)
        #expect(try alpha.run("handoff", "accept", try #require(request["id"] as? String)).status == 0)
        #expect(phone.finish().status == 1)
        #expect(eventually { alpha.log.contains("refused a link from Quick Share device Pixel: not an http or https URL") }, "\(alpha.log)")
        #expect(try alpha.run("handoff", "list").stdout.isEmpty)
    }

    /// A name that climbs out of the folder lands inside it, under a safe name, as every
    /// transfer's does.
    @Test func aNameThatClimbsOutLandsInside() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsn")
        let (alpha, port) = try Self.receiver(link)
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/a.txt"))
        let phone = try Phone(link, 1, ["send", "--to", "\(link.address(0)):\(port)", "--file-name", "../../escaped.txt", "\(alpha.sandbox.root)/a.txt"])
        let request = try Self.waitForRequest(alpha)
        #expect(try alpha.run("handoff", "accept", try #require(request["id"] as? String)).status == 0)
        let (status, events) = phone.finish()
        #expect(status == 0, "\(events) \(alpha.log)")
        #expect(!FileManager.default.fileExists(atPath: "\(alpha.sandbox.root)/escaped.txt"))
        #expect(!FileManager.default.fileExists(atPath: "\(alpha.sandbox.root)/home/escaped.txt"))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(alpha.sandbox.root)/home/Downloads")) ?? []
        #expect(names == ["escaped.txt"], "\(names)")
    }

    /// Declined once under way (`handoff decline ID`): the phone is sent a cancel, the
    /// connection ends, and nothing of the share stays.
    @Test func aShareStoppedUnderWayLeavesNothing() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsc")
        let (alpha, port) = try Self.receiver(link)
        // The phone's side slowed, so the share is caught midway.
        try link.limitRate(1, megabits: 8)
        try Data((0..<6_000_000).map { UInt8(truncatingIfNeeded: $0 &* 3) }).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/a.bin"))
        let phone = try Phone(link, 1, ["send", "--to", "\(link.address(0)):\(port)", "\(alpha.sandbox.root)/a.bin"])
        let request = try Self.waitForRequest(alpha)
        let id = try #require(request["id"] as? String)
        #expect(try alpha.run("handoff", "accept", id).status == 0)
        let downloads = "\(alpha.sandbox.root)/home/Downloads"
        #expect(eventually(every: 0.01) { ((try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? []).contains { $0.hasPrefix(".actshare-partial-") } })
        let declined = try alpha.run("handoff", "decline", id)
        #expect(declined.status == 0, "\(declined.stderr)")
        let (status, events) = phone.finish()
        #expect(status == 1, "\(events)")
        #expect(eventually { alpha.log.contains("stopped the Quick Share transfer") && alpha.log.contains("it was stopped here") }, "\(alpha.log)")
        #expect(eventually { ((try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? []).isEmpty })
    }

    /// A frame replayed by someone on the path ends the connection; nothing is kept.
    @Test func aReplayedFrameEndsTheShare() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsp")
        let (alpha, port) = try Self.receiver(link)
        try Data((0..<1_500_000).map { UInt8(truncatingIfNeeded: $0) }).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/a.bin"))
        let phone = try Phone(link, 1, ["send", "--to", "\(link.address(0)):\(port)", "--replay", "\(alpha.sandbox.root)/a.bin"])
        let request = try Self.waitForRequest(alpha)
        #expect(try alpha.run("handoff", "accept", try #require(request["id"] as? String)).status == 0)
        #expect(phone.finish().status == 1)
        #expect(eventually { alpha.log.contains("replayed, dropped or reordered") }, "\(alpha.log)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(alpha.sandbox.root)/home/Downloads")) ?? []
        #expect(names.isEmpty, "\(names)")
    }
}

/// Visibility, seen by Avahi on the other side of a link (an mDNS implementation that is
/// not ours): nothing is advertised until `actshare handoff visible` runs; then the
/// service Android browses for, with this device's name in its TXT record, which a phone
/// follows to send; goodbye when it ends.
@Suite(.serialized) struct QuickShareVisibilityTests {
    typealias Machine = HandoffTests.Machine

    /// What Avahi resolves of Quick Share services from host 1: instance, address, port, TXT.
    static func browse(_ link: NetworkLink, _ avahi: AvahiInteropTests.Avahi) throws -> [[String]] {
        let browsed = try link.run(1, ["/usr/bin/avahi-browse", "--resolve", "--terminate", "--parsable", "_FC9F5ED42C8A._tcp"], environment: avahi.environment)
        return browsed.stdout.split(separator: "\n").filter { $0.hasPrefix("=;eth0;IPv4;") }.map { $0.split(separator: ";", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The name in a TXT record `n` (URL-safe base64 of the endpoint info: a byte of flags,
    /// 16 of metadata, the name after its length).
    static func name(inText field: String) -> String? {
        guard let start = field.range(of: "\"n=")?.upperBound, let end = field[start...].firstIndex(of: "\"") else { return nil }
        var text = String(field[start..<end]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let bytes = Data(base64Encoded: text).map(Array.init), bytes.count > 18, bytes[0] & 0x10 == 0 else { return nil }
        let length = Int(bytes[17])
        return bytes.count >= 18 + length ? String(decoding: bytes[18..<(18 + length)], as: UTF8.self) : nil
    }

    @Test func phonesSeeThisDeviceOnlyWhileItIsVisible() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsv")
        let avahi = try AvahiInteropTests.Avahi(in: link, host: 1)
        let (alpha, port) = try QuickShareReceivingTests.receiver(link)
        #expect(try Self.browse(link, avahi).isEmpty, "advertised before anyone asked")

        let visible = try ClipboardTests.Server([Sandbox.binary, "handoff", "visible"], environment: alpha.sandbox.environment.map { "\($0)=\($1)" })
        #expect(eventually { alpha.log.contains("visible to phones nearby as alpha") }, "\(alpha.log)")
        var found: [[String]] = []
        eventually { found = (try? Self.browse(link, avahi)) ?? []; return !found.isEmpty }
        let service = try #require(found.first, "Avahi does not see the service: \(alpha.log)")
        // The 10-byte name (14 characters of base64), this device's address and port, and its name.
        #expect(service.count >= 10 && service[3].count == 14 && service[3].hasPrefix("I"), "\(service)")
        #expect(service.count >= 10 && service[7] == link.address(0) && service[8] == String(port), "\(service)")
        #expect(service.count >= 10 && Self.name(inText: service[9]) == "alpha", "\(service)")

        // A phone that found it sends to where Avahi resolved it.
        let phone = try QuickShareReceivingTests.Phone(link, 1, ["send", "--to", "\(service[7]):\(service[8])", "--text", "found you"])
        let request = try LocalSendReceivingTests.waitForRequest(alpha)
        #expect(try alpha.run("handoff", "accept", try #require(request["id"] as? String)).status == 0)
        #expect(phone.finish().status == 0)

        // Ctrl-C: goodbye, and Avahi forgets it.
        visible.terminate()
        #expect(eventually { alpha.log.contains("no longer visible to phones") }, "\(alpha.log)")
        #expect(eventually { ((try? Self.browse(link, avahi)) ?? [["?"]]).isEmpty })
    }

    /// Without multicast (`discovery: static`) phones cannot find it: said, exit 2.
    @Test func visibilityWithoutMulticastIsRefusedInWords() throws {
        let alpha = try Machine("alpha")
        let run = try alpha.run("handoff", "visible")
        #expect(run.status == 2 && run.stderr.contains("Quick Share is found by multicast DNS"), "\(run.stderr)")
    }
}

/// actshare sending to a phone that shows its Quick Share (the stand-in phone advertising
/// over mDNS with zeroconf, an implementation that is not ours): `handoff discover` lists
/// it, `handoff send --device NAME` sends, the PIN shown is the phone's.
@Suite(.serialized) struct QuickShareSendingTests {
    typealias Machine = HandoffTests.Machine

    static func phoneListed(_ alpha: Machine, _ name: String) -> Bool {
        guard let run = try? alpha.run("handoff", "discover", "--json", "--timeout", "1"),
              let listed = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] else { return false }
        return listed.contains { $0["protocol"] as? String == "quickshare" && $0["name"] as? String == name && $0["kind"] as? String == "phone" }
    }

    /// Each look starts with a one-shot query (RFC 6762 §5.1), which a responder answers at
    /// once, unicast: a receiver that answers nothing else is found by it, and an answer
    /// that does not echo the query's id is dropped.
    @Test func aLookAsksOnceForAnAnswerAtOnce() throws {
        let link = try NetworkLink(hosts: 2, tag: "qso")
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        let responder = try link.start(1, ["/usr/bin/python3", "\(Sandbox.repository)/Tests/Fixtures/one-shot-responder.py", link.address(1), "Pixel 9"])
        #expect(responder.said == "listening")
        #expect(eventually { Self.phoneListed(alpha, "Pixel 9") }, "\(alpha.log)")
        let listed = try alpha.run("handoff", "discover", "--json", "--timeout", "1")
        #expect(listed.stdout.contains("Pixel 9") && !listed.stdout.contains("Impostor"), "\(listed.stdout)")
    }

    @Test func filesGoToAPhoneThatShowsQuickShare() throws {
        let link = try NetworkLink(hosts: 2, tag: "qss")
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        let folder = "\(alpha.sandbox.root)/phone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let photo = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 11) })
        try photo.write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/photo.jpg"))
        let phone = try QuickShareReceivingTests.Phone(link, 1, ["receive", "--dir", folder, "--accept", "--ip", link.address(1), "--advertise", "--name", "Pixel 9"])
        #expect(eventually { Self.phoneListed(alpha, "Pixel 9") }, "\(alpha.log)")
        let sent = try alpha.run("handoff", "send", "--device", "Pixel 9", "\(alpha.sandbox.root)/photo.jpg")
        #expect(sent.status == 0, "\(sent.stderr) \(alpha.log)")
        let (status, events) = phone.finish()
        #expect(status == 0, "\(events)")
        #expect(FileManager.default.contents(atPath: "\(folder)/photo.jpg") == photo)
        // The PIN said to the sender is the one the phone shows.
        let pin = events.first { $0["event"] as? String == "pin" }?["pin"] as? String
        #expect(pin != nil && sent.stderr.contains("Quick Share PIN for Pixel 9: \(pin ?? "?")"), "\(sent.stderr)")
    }

    @Test func aPhoneThatDeclinesIsSaidSo() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsx")
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        let folder = "\(alpha.sandbox.root)/phone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/a.txt"))
        let phone = try QuickShareReceivingTests.Phone(link, 1, ["receive", "--dir", folder, "--decline", "--ip", link.address(1), "--advertise", "--name", "Pixel 9"])
        #expect(eventually { Self.phoneListed(alpha, "Pixel 9") }, "\(alpha.log)")
        let sent = try alpha.run("handoff", "send", "--device", "Pixel 9", "\(alpha.sandbox.root)/a.txt")
        #expect(sent.status == 1 && sent.stderr.contains("Pixel 9 declined the files"), "\(sent.status) \(sent.stderr)")
        #expect(phone.finish().status == 0)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty)
    }

    /// Three files, one of 512 MiB, arrive byte for byte (the phone's SHA-256 of each is
    /// the file's).
    @Test func threeFilesOneOfHalfAGibibyteArriveWhole() throws {
        let link = try NetworkLink(hosts: 2, tag: "qs3")
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        let folder = "\(alpha.sandbox.root)/phone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let names = ["note.txt", "photo.jpg", "big.bin"]
        try Data("a note\n".utf8).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/note.txt"))
        try Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/photo.jpg"))
        // 512 MiB: a random mebibyte, each copy with its index in its first bytes.
        let block = Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255) })
        _ = FileManager.default.createFile(atPath: "\(alpha.sandbox.root)/big.bin", contents: nil)
        let big = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(alpha.sandbox.root)/big.bin"))
        for index in 0..<512 { try big.write(contentsOf: withUnsafeBytes(of: UInt32(index)) { Data($0) } + block.dropFirst(4)) }
        try big.close()
        let phone = try QuickShareReceivingTests.Phone(link, 1, ["receive", "--dir", folder, "--accept", "--ip", link.address(1), "--advertise", "--name", "Pixel 9"])
        #expect(eventually { Self.phoneListed(alpha, "Pixel 9") }, "\(alpha.log)")
        let sent = try alpha.sandbox.run(["handoff", "send", "--device", "Pixel 9"] + names.map { "\(alpha.sandbox.root)/\($0)" })
        #expect(sent.status == 0 && sent.stdout.contains("Sent 3 files"), "\(sent.stdout) \(sent.stderr) \(alpha.log)")
        let (status, events) = phone.finish()
        #expect(status == 0, "\(events)")
        let sums = try Sandbox.execute("/usr/bin/sha256sum", names.map { "\(alpha.sandbox.root)/\($0)" }, environment: [:], stdin: nil).stdout
        for name in names {
            let received = events.first { $0["event"] as? String == "received" && $0["name"] as? String == name }
            let digest = try #require(received?["sha256"] as? String, "\(name) not received: \(events)")
            #expect(sums.contains("\(digest)  \(alpha.sandbox.root)/\(name)"), "\(name): \(digest) \(sums)")
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The phone's user cancels under way: `handoff send` says so and fails; the phone
    /// keeps nothing.
    @Test func aPhoneThatCancelsUnderWayIsSaidSo() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsc")
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        let folder = "\(alpha.sandbox.root)/phone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(count: 64 << 20).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/video.mp4"))
        let phone = try QuickShareReceivingTests.Phone(link, 1, ["receive", "--dir", folder, "--accept", "--ip", link.address(1), "--advertise",
                                                                 "--name", "Pixel 9", "--cancel-after", String(1 << 20)])
        #expect(eventually { Self.phoneListed(alpha, "Pixel 9") }, "\(alpha.log)")
        let sent = try alpha.run("handoff", "send", "--device", "Pixel 9", "\(alpha.sandbox.root)/video.mp4")
        #expect(sent.status == 1 && sent.stderr.contains("it cancelled the share"), "\(sent.status) \(sent.stderr) \(alpha.log)")
        let (status, events) = phone.finish()
        #expect(status == 0 && events.contains { $0["event"] as? String == "cancelled" }, "\(events)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty)
    }

    /// Ctrl-C here under way: the phone is told the sender cancelled (a CANCEL frame
    /// after the chunks it had not read), and keeps nothing.
    @Test func ctrlCUnderWayTellsThePhone() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsk")
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        let folder = "\(alpha.sandbox.root)/phone", events = "\(alpha.sandbox.root)/phone.jsonl"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(count: 64 << 20).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/video.mp4"))
        // The phone holds still once 1 MiB has come, until its standard input ends.
        let phone = Process(), hold = Pipe()
        phone.executableURL = URL(fileURLWithPath: NetworkLink.ip)
        phone.arguments = ["netns", "exec", link.hosts[1], QuickShareReceivingTests.python, QuickShareReceivingTests.phone, "receive", "--dir", folder,
                           "--accept", "--ip", link.address(1), "--advertise", "--name", "Pixel 9", "--hold-after", String(1 << 20)]
        _ = FileManager.default.createFile(atPath: events, contents: nil)
        phone.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: events))
        phone.standardInput = hold
        try phone.run()
        defer { if phone.isRunning { phone.terminate() } }
        let said = { (try? String(contentsOfFile: events, encoding: .utf8)) ?? "" }
        #expect(eventually { Self.phoneListed(alpha, "Pixel 9") }, "\(alpha.log)")
        let sending = try QuickShareQRCodeTests.Sending(alpha, ["--device", "Pixel 9", "\(alpha.sandbox.root)/video.mp4"], qr: false)
        #expect(eventually { said().contains("\"holding\"") }, "\(said()) \(sending.said)")
        kill(sending.process.processIdentifier, SIGINT)
        #expect(sending.finish() == 4, "\(sending.said)")
        try hold.fileHandleForWriting.close()
        phone.waitUntilExit()
        #expect(said().contains("\"sender_cancelled\""), "\(said()) \(alpha.log)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty)
    }

    /// The share sheet's devices row (Hand Off's targets) holds a phone that shows its
    /// Quick Share, with its kind; performing to it sends.
    @Test func aPhoneIsATargetOfHandOff() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsh")
        let alpha = try Machine("alpha", namespace: link.hosts[0], environment: ["ACTSHARE_NO_BUILTINS": "0"])
        let folder = "\(alpha.sandbox.root)/phone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("agenda\n".utf8).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/agenda.txt"))
        let phone = try QuickShareReceivingTests.Phone(link, 1, ["receive", "--dir", folder, "--accept", "--ip", link.address(1), "--advertise", "--name", "Pixel 9"])
        // Each list answers from what was heard and asks the link behind: a later one has it.
        var target: [String: Any]?
        eventually {
            let listed = try? alpha.run("list", "\(alpha.sandbox.root)/agenda.txt", "--json").json()
            let activities = listed?["activities"] as? [[String: Any]] ?? []
            let targets = activities.first { $0["type"] as? String == "org.actshare.handoff" }?["targets"] as? [[String: Any]] ?? []
            target = targets.first { $0["title"] as? String == "Pixel 9" }
            return target != nil
        }
        #expect(target?["subtitle"] as? String == "Quick Share" && target?["image"] as? String == "phone", "\(String(describing: target)) \(alpha.log)")
        let sent = try alpha.run("perform", "org.actshare.handoff", "--target", "Pixel 9", "\(alpha.sandbox.root)/agenda.txt")
        #expect(sent.status == 0 && sent.stdout.contains("sent 1 file to Pixel 9"), "\(sent.stdout) \(sent.stderr) \(alpha.log)")
        let (status, events) = phone.finish()
        #expect(status == 0, "\(events) \(sent.stdout) \(alpha.log)")
        #expect(FileManager.default.contents(atPath: "\(folder)/agenda.txt") == Data("agenda\n".utf8))
    }

    /// A text and a link to a phone named with --device: each goes as what it is, with the
    /// PIN said first.
    @Test func aTextAndALinkGoToAPhone() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsw")
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        let folder = "\(alpha.sandbox.root)/phone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (item, kind) in [(["--text", "dinner at eight?"], "TEXT"), (["https://example.org/menu?day=1"], "URL")] {
            let phone = try QuickShareReceivingTests.Phone(link, 1, ["receive", "--dir", folder, "--accept", "--ip", link.address(1), "--advertise", "--name", "Pixel 9"])
            #expect(eventually { Self.phoneListed(alpha, "Pixel 9") }, "\(alpha.log)")
            let sent = try alpha.sandbox.run(["handoff", "send", "--device", "Pixel 9"] + item)
            #expect(sent.status == 0 && sent.stdout == "Handed off 1 item.\n", "\(sent.stdout) \(sent.stderr) \(alpha.log)")
            let (status, events) = phone.finish()
            #expect(status == 0, "\(events)")
            let texts = events.first { $0["event"] as? String == "introduction" }?["texts"] as? [[String: Any]]
            #expect(texts?.first?["type"] as? String == kind, "\(events)")
            #expect(events.contains { $0["event"] as? String == "received" && $0["text"] as? String == item.last }, "\(events)")
            let pin = events.first { $0["event"] as? String == "pin" }?["pin"] as? String
            #expect(pin != nil && sent.stderr.contains("Quick Share PIN for Pixel 9: \(pin ?? "?")"), "\(sent.stderr)")
        }
    }
}

/// The QR way: `handoff send --qr` shows a code; the stand-in phone, given the code's URL as
/// its camera would read it, advertises the code's token (or, hidden, its name sealed with
/// the code's key); the share goes to that phone, signed with the code's key, and not to a
/// phone that scanned another code.
@Suite(.serialized) struct QuickShareQRCodeTests {
    typealias Machine = HandoffTests.Machine

    /// `actshare handoff send --qr ARGUMENTS` on `machine`, running; its standard error in a file.
    final class Sending {
        let process = Process()
        let errors: String

        /// `qr` false: `handoff send ARGUMENTS` instead.
        init(_ machine: Machine, _ arguments: [String], qr: Bool = true) throws {
            errors = "\(machine.sandbox.root)/send-qr-\(UUID().uuidString).err"
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.executableURL = URL(fileURLWithPath: Sandbox.binary)
            process.arguments = ["handoff", "send"] + (qr ? ["--qr"] : []) + arguments
            process.environment = machine.sandbox.environment
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: errors)
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
            try process.run()
        }

        var said: String { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }

        /// The code's URL, once said.
        func url() throws -> String {
            var found: String?
            eventually {
                found = said.split(separator: " ").first { $0.hasPrefix("https://quickshare.google/qrcode#key=") }.map { String($0.prefix { !$0.isWhitespace }) }
                return found != nil
            }
            return try #require(found, "no QR code said: \(said)")
        }

        func finish() -> Int32 {
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit { if process.isRunning { process.terminate() } }
    }

    @Test func filesGoToThePhoneThatScannedTheCodeAndNoOther() throws {
        let link = try NetworkLink(hosts: 3, tag: "qsq")
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        let photo = Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try photo.write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/photo.jpg"))
        let sending = try Sending(alpha, ["\(alpha.sandbox.root)/photo.jpg"])
        let url = try sending.url()
        // Another phone, which scanned another code (another key: its first bytes changed),
        // advertises first.
        let other = url.replacingOccurrences(of: "#key=AAA", with: "#key=AAD")
        #expect(other != url)
        let decoyFolder = "\(alpha.sandbox.root)/decoy", folder = "\(alpha.sandbox.root)/phone"
        for path in [decoyFolder, folder] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        let decoy = try QuickShareReceivingTests.Phone(link, 2, ["receive", "--dir", decoyFolder, "--accept", "--ip", link.address(2), "--advertise",
                                                                 "--name", "Decoy", "--qr-url", other])
        #expect(eventually { QuickShareSendingTests.phoneListed(alpha, "Decoy") }, "\(alpha.log)")
        // The phone that scanned this code, hidden: its name only the code's key opens.
        let phone = try QuickShareReceivingTests.Phone(link, 1, ["receive", "--dir", folder, "--accept", "--ip", link.address(1), "--advertise",
                                                                 "--name", "Ann's Pixel", "--qr-url", url, "--hidden"])
        #expect(sending.finish() == 0, "\(sending.said) \(alpha.log)")
        let (status, events) = phone.finish()
        #expect(status == 0, "\(events)")
        #expect(events.contains { $0["event"] as? String == "qr_handshake" && $0["result"] as? String == "valid" }, "\(events)")
        #expect(FileManager.default.contents(atPath: "\(folder)/photo.jpg") == photo)
        #expect(sending.said.contains("Ann's Pixel scanned the code."), "\(sending.said)")
        let pin = events.first { $0["event"] as? String == "pin" }?["pin"] as? String
        #expect(pin != nil && sending.said.contains("Quick Share PIN for Ann's Pixel: \(pin ?? "?")"), "\(sending.said)")
        // The decoy was never connected to.
        decoy.stop()
        let decoyEvents = decoy.finish().events
        #expect(!decoyEvents.contains { $0["event"] as? String == "peer" }, "\(decoyEvents)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: decoyFolder)) ?? []).isEmpty)
    }

    /// A link by QR code goes to a visible phone as a URL; --json gives the delivery.
    @Test func aLinkGoesByQRCode() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsu")
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        let folder = "\(alpha.sandbox.root)/phone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let sending = try Sending(alpha, ["https://example.org/tickets"])
        let phone = try QuickShareReceivingTests.Phone(link, 1, ["receive", "--dir", folder, "--accept", "--ip", link.address(1), "--advertise",
                                                                 "--name", "Pixel 9", "--qr-url", try sending.url()])
        #expect(sending.finish() == 0, "\(sending.said) \(alpha.log)")
        let (status, events) = phone.finish()
        #expect(status == 0, "\(events)")
        #expect(events.contains { $0["event"] as? String == "received" && $0["text"] as? String == "https://example.org/tickets" }, "\(events)")
        #expect(sending.said.contains("Pixel 9 scanned the code."), "\(sending.said)")
    }

    /// "Quick Share to a Phone" (the Hand Off provider): its code, read by zbarimg from the
    /// PNG it returns as a camera reads it, is the one the daemon waits for; the phone that
    /// scans it gets the file after the provider has returned.
    @Test func quickShareToAPhoneReturnsACodeThatSends() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsa")
        let alpha = try Machine("alpha", namespace: link.hosts[0], environment: ["ACTSHARE_NO_BUILTINS": "0"])
        let folder = "\(alpha.sandbox.root)/phone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let photo = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 17) })
        try photo.write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/photo.jpg"))
        let made = try alpha.run("perform", "org.actshare.handoff.quickshare", "\(alpha.sandbox.root)/photo.jpg", "--json")
        #expect(made.status == 0, "\(made.stderr)")
        let returned = try #require(try made.json()["returned_items"] as? [[String: Any]])
        let png = try #require(returned.first { $0["content_type"] as? String == "image/png" }?["path"] as? String, "\(returned)")
        let url = try QRCodeTests.decode(png)
        #expect(url.hasPrefix("https://quickshare.google/qrcode#key="), "\(url)")
        #expect(returned.contains { ($0["text"] as? String)?.contains("Scan this code with the phone's camera") == true }, "\(returned)")
        let phone = try QuickShareReceivingTests.Phone(link, 1, ["receive", "--dir", folder, "--accept", "--ip", link.address(1), "--advertise",
                                                                 "--name", "Pixel 9", "--qr-url", url])
        let (status, events) = phone.finish()
        #expect(status == 0, "\(events) \(alpha.log)")
        #expect(FileManager.default.contents(atPath: "\(folder)/photo.jpg") == photo)
        #expect(eventually { alpha.log.contains("Quick Share: sent 1 file to Pixel 9 by its QR code") }, "\(alpha.log)")
    }

    /// The share sheet: "Quick Share to a Phone" shows the code in the window (a screenshot,
    /// docs/images/sheet-quickshare.png, read by zbarimg), and the phone that scans it gets
    /// the file.
    @Test func theSheetShowsTheCodeAPhoneScans() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsb")
        let alpha = try Machine("alpha", namespace: link.hosts[0], environment: ["ACTSHARE_NO_BUILTINS": "0"])
        let folder = "\(alpha.sandbox.root)/phone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("the minutes\n".utf8).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/minutes.txt"))
        let display = try ClipboardTests.Display(size: "1024x768")
        alpha.sandbox.extraEnvironment["DISPLAY"] = display.name
        let session = try DesktopSession(["share", "\(alpha.sandbox.root)/minutes.txt"], environment: alpha.sandbox.environment, display: display)
        try session.answer(try session.window("Share"), typing: "quick share", keys: ["Return"])
        _ = try session.window("Shared")
        let shot = "\(ShareSheetTests.artefacts)/sheet-quickshare.png"
        try session.screenshot(to: shot)
        let url = try QRCodeTests.decode(shot)
        #expect(url.hasPrefix("https://quickshare.google/qrcode#key="), "\(url)")
        let phone = try QuickShareReceivingTests.Phone(link, 1, ["receive", "--dir", folder, "--accept", "--ip", link.address(1), "--advertise",
                                                                 "--name", "Pixel 9", "--qr-url", url])
        let (status, events) = phone.finish()
        #expect(status == 0, "\(events) \(alpha.log)")
        #expect(FileManager.default.contents(atPath: "\(folder)/minutes.txt") == Data("the minutes\n".utf8))
        #expect(session.finish().status == 0, "\(session.errors)")
    }

    /// Ctrl-C while the code waits for its phone: the wait ends at once (exit 4), and a
    /// phone that scans the code afterwards is not sent to.
    @Test func ctrlCEndsTheWait() throws {
        let link = try NetworkLink(hosts: 2, tag: "qsz")
        let alpha = try Machine("alpha", namespace: link.hosts[0])
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/a.txt"))
        let sending = try Sending(alpha, ["\(alpha.sandbox.root)/a.txt"])
        let url = try sending.url()
        kill(sending.process.processIdentifier, SIGINT)
        #expect(sending.finish() == 4, "\(sending.said)")
        let folder = "\(alpha.sandbox.root)/phone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let phone = try QuickShareReceivingTests.Phone(link, 1, ["receive", "--dir", folder, "--accept", "--ip", link.address(1), "--advertise",
                                                                 "--name", "Pixel 9", "--qr-url", url])
        // What proves the daemon could have sent: it hears the phone (it is listed).
        #expect(eventually { QuickShareSendingTests.phoneListed(alpha, "Pixel 9") }, "\(alpha.log)")
        phone.stop()
        #expect(!phone.finish().events.contains { $0["event"] as? String == "peer" })
    }

    /// What --qr takes, checked before anything is shown.
    @Test func theQRWayTakesFilesOrOneTextAndNoDevice() throws {
        let sandbox = try Sandbox()
        let mixed = try sandbox.run("handoff", "send", "--qr", "--text", "hello", "https://example.org/")
        #expect(mixed.status == 2 && mixed.stderr.contains("one link or text"), "\(mixed.stderr)")
        let named = try sandbox.run("handoff", "send", "--qr", "--device", "Pixel", "/etc/hostname")
        #expect(named.status == 2 && named.stderr.contains("leave out --device"), "\(named.stderr)")
    }
}

