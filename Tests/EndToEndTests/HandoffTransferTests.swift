import Foundation
import Testing

/// Files and folders between two real daemons on 127.0.0.1 (issue 14).
@Suite(.serialized) struct HandoffTransferTests {
    typealias Machine = HandoffTests.Machine

    /// The SHA-256 of a file, from coreutils' sha256sum.
    static func sha256(_ path: String) throws -> String {
        let run = try Sandbox.execute("/usr/bin/sha256sum", ["--", path], environment: [:], stdin: nil)
        return String(run.stdout.prefix(64))
    }

    /// Two paired machines; B receives into `received` under its sandbox. `debug`: A's
    /// daemon logs its decisions (`ACTSHARE_DEBUG=1`).
    static func pairedPair(debug: Bool = false) throws -> (Machine, Machine, String) {
        let a = try Machine("alpha", environment: debug ? ["ACTSHARE_DEBUG": "1"] : [:]), b = try Machine("beta")
        let received = "\(b.sandbox.root)/home/Downloads"
        let (asked, waited) = try HandoffTests.pair(a, b)
        try #require(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        return (a, b, received)
    }

    @Test func filesAndAFolderArriveWholeAndNothingIsReplaced() throws {
        let (a, b, received) = try Self.pairedPair()
        let empty = try a.sandbox.data("empty.bin", Data())
        let one = try a.sandbox.data("one.bin", Data([0x2A]))
        var random = SystemRandomNumberGenerator()
        let big = try a.sandbox.data("big.bin", Data((0..<(5 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }))
        let names = ["Grüße.txt", "中文名字.txt", "مرحبا.txt", "Ωμέγα.txt"]
        let tree = "\(a.sandbox.root)/Photos"
        try FileManager.default.createDirectory(atPath: "\(tree)/2024/empty", withIntermediateDirectories: true)
        for name in names { try Sandbox.write("\(name)\n", to: "\(tree)/2024/\(name)") }
        let script = "\(tree)/run.sh"
        try Sandbox.write("#!/bin/sh\n", to: script)
        chmod(script, 0o750)
        // A repository's names, kept as they are inside the folder (as scp and rsync keep them).
        try FileManager.default.createDirectory(atPath: "\(tree)/.git", withIntermediateDirectories: true)
        try Sandbox.write("ref: refs/heads/main\n", to: "\(tree)/.git/HEAD")
        try Sandbox.write("*.o\n", to: "\(tree)/.gitignore")
        try Sandbox.write("notes\n", to: "\(tree)/-notes.txt")

        let sent = try a.run("handoff", "send", "--json", empty, one, big, tree)
        #expect(sent.status == 0, "\(sent.stderr)")
        let deliveries = try #require(try JSONSerialization.jsonObject(with: Data(sent.stdout.utf8)) as? [[String: Any]])
        #expect(deliveries.count == 1 && deliveries[0]["device"] as? String == "beta")
        let delivered = try #require(deliveries[0]["delivered"] as? [[String: Any]])
        #expect(delivered.count == 3 + names.count + 1 + 3)
        for (file, local) in [(empty, "empty.bin"), (one, "one.bin"), (big, "big.bin")] {
            #expect(try Self.sha256("\(received)/\(local)") == Self.sha256(file), "\(local) arrived byte for byte")
            #expect(delivered.contains { $0["name"] as? String == local && $0["sha256"] as? String == (try? Self.sha256(file)) })
        }
        for name in names {
            #expect(try String(contentsOfFile: "\(received)/Photos/2024/\(name)", encoding: .utf8) == "\(name)\n")
        }
        #expect(try String(contentsOfFile: "\(received)/Photos/.git/HEAD", encoding: .utf8) == "ref: refs/heads/main\n")
        #expect(try String(contentsOfFile: "\(received)/Photos/.gitignore", encoding: .utf8) == "*.o\n")
        #expect(try String(contentsOfFile: "\(received)/Photos/-notes.txt", encoding: .utf8) == "notes\n")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: "\(received)/Photos/2024/empty", isDirectory: &isFolder) && isFolder.boolValue)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: "\(received)/Photos/run.sh")[.posixPermissions] as? Int)
        #expect(mode == 0o750, "its mode kept: \(String(mode, radix: 8))")
        // Nothing left of the partial folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: received).sorted() == ["Photos", "big.bin", "empty.bin", "one.bin"])

        // Sent again: nothing is replaced, the new copies get new names.
        let again = try a.run("handoff", "send", one, tree)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("one (1).bin") && again.stdout.contains("Photos (1)"), "\(again.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(received)/one (1).bin")) == Data([0x2A]))

        // What arrived, as B lists it.
        let listed = try b.run("handoff", "received", "--json")
        let transfers = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(transfers.count == 2 && transfers.allSatisfy { $0["from"] as? String == "alpha" })
        let files = try #require(transfers.first?["files"] as? [[String: Any]])
        #expect(files.contains { $0["name"] as? String == "\(received)/big.bin" && $0["bytes"] as? Int == 5 << 20 })
        #expect(try b.run("handoff", "received").stdout.contains("alpha  11 files"))
        #expect(b.log.contains("received 11 files"), "\(b.log)")
    }
}

extension HandoffTransferTests {
    /// A paired device that lies, with A's real identity (lying-peer.py): names that climb
    /// out, hide, or hold a newline; a size no disk holds; a link; more bytes than offered;
    /// a wrong SHA-256; a sender that hangs up halfway. Everything is refused or made
    /// safe, nothing is written outside the receive folder, and nothing partial is left.
    @Test func aLyingPeersFilesAreRefusedOrMadeSafe() throws {
        let (a, b, received) = try Self.pairedPair()
        let aState = "\(a.sandbox.root)/state/actshare"
        func transfer(_ plan: String) throws -> [[String: Any]] {
            let run = try Sandbox.execute(
                "/usr/bin/python3", ["\(HandoffTests.fixtures)/lying-peer.py", "transfer", aState, "127.0.0.1:\(b.port)", plan],
                environment: [:], stdin: nil, timeout: 30)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        func file(_ path: String, _ size: Int, folder: Bool = false) -> String {
            #"{"path": \#(String(data: try! JSONSerialization.data(withJSONObject: path, options: .fragmentsAllowed), encoding: .utf8)!), "kind": "\#(folder ? "folder" : "file")", "size": \#(size), "mode": 420}"#
        }

        // Climbing out through folders named "..", a hidden name, a leading dash, a newline.
        let climbing = try transfer("""
            {"entries": [\(file("..", 0, folder: true)), \(file("../..", 0, folder: true)), \(file("../../.bashrc", 5)),
                         \(file("-rf", 2)), \(file("new\nline", 2))],
             "files": [{"index": 2, "data": "evil\\n"}, {"index": 3, "data": "x\\n"}, {"index": 4, "data": "y\\n"}]}
            """)
        #expect(climbing.last?["type"] as? String == "transfer-done", "\(climbing)")
        // Inside a folder a leading dot is kept (it cannot leave the folder); ".." is not.
        #expect(try String(contentsOfFile: "\(received)/__/__/.bashrc", encoding: .utf8) == "evil\n")
        #expect(FileManager.default.fileExists(atPath: "\(received)/_rf") && FileManager.default.fileExists(atPath: "\(received)/new_line"))
        #expect(!FileManager.default.fileExists(atPath: "\(b.sandbox.root)/home/.bashrc") && !FileManager.default.fileExists(atPath: "\(b.sandbox.root)/.bashrc"))

        // Refused before a byte is written: an absolute path (no folder of its own), a size
        // no disk holds, a link.
        for plan in [#"{"entries": [\#(file("/etc/passwd", 3))]}"#, #"{"entries": [\#(file("huge.bin", 10_000_000_000_000))]}"#,
                     #"{"entries": [{"path": "etc", "kind": "symlink", "size": 0, "mode": 511}]}"#] {
            let replies = try transfer(plan)
            #expect(replies.first?["type"] as? String != "transfer-accept", "\(plan): \(replies)")
        }
        #expect(b.log.contains("the disk of beta is too full"), "\(b.log)")

        // 15,000 files of one name are numbered (in one pass: a quadratic numbering took
        // minutes) and accepted.
        let same = Array(repeating: file("same.txt", 1), count: 15_000).joined(separator: ", ")
        let plan = try a.sandbox.file("plan.json", #"{"entries": [\#(same)], "hangup": true}"#)
        let numbered = try transfer("@" + plan)
        #expect(numbered.first?["type"] as? String == "transfer-accept", "\(numbered)")

        // Accepted, then broken: more bytes than offered, a wrong SHA-256, a hang-up (the
        // receiver notices it when its connection closes, and says so).
        try b.afterwards(saying: "broke off; what arrived is kept to be resumed") {
            for plan in [#"{"entries": [\#(file("more.txt", 2))], "files": [{"index": 0, "data": "three"}]}"#,
                         #"{"entries": [\#(file("damaged.txt", 2))], "files": [{"index": 0, "data": "ok", "sha256": "00"}]}"#,
                         #"{"entries": [\#(file("cut.txt", 100))], "files": [{"index": 0, "data": "abc", "cut": 3}]}"#] {
                _ = try transfer(plan)
            }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: received).sorted()
        #expect(left.filter { !$0.hasPrefix(".") } == ["__", "_rf", "new_line"], "only what arrived whole is seen: \(left)")
        // The hang-up's part is kept, hidden, to be resumed; the refused ones left nothing.
        #expect(left.filter { $0.hasPrefix(".actshare-partial-") }.count == 1, "\(left)")
        #expect(b.log.contains("arrived damaged"), "\(b.log)")

        // Hanging up again and again under new ids keeps at most 8 partial folders.
        for number in 0..<12 {
            _ = try transfer(#"{"transfer": "\#(String(format: "%016x", 0x1000 + number))", "entries": [\#(file("x.txt", 1))], "hangup": true}"#)
        }
        let partials = try FileManager.default.contentsOfDirectory(atPath: received).filter { $0.hasPrefix(".actshare-partial-") }
        #expect(partials.count == 8, "\(partials)")

        // A device that is not paired is refused before anything is read.
        let stranger = try Machine("gamma")
        let refused = try Sandbox.execute(
            "/usr/bin/python3", ["\(HandoffTests.fixtures)/lying-peer.py", "transfer", "\(stranger.sandbox.root)/state/actshare",
                                 "127.0.0.1:\(b.port)", #"{"entries": [\#(file("stranger.txt", 1))], "files": [{"index": 0, "data": "s"}]}"#],
            environment: [:], stdin: nil, timeout: 30)
        #expect(!refused.stdout.contains("transfer-accept"), "\(refused.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: received).filter { !$0.hasPrefix(".") }.sorted() == ["__", "_rf", "new_line"])
    }
}

extension HandoffTransferTests {
    /// The partial file of `name` being received in `directory`, and its size.
    static func partialSize(in directory: String, _ name: String) -> Int {
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix(".actshare-partial-") }
        return folders.compactMap { try? FileManager.default.attributesOfItem(atPath: "\(directory)/\($0)/\(name)")[.size] as? Int }.max() ?? 0
    }

    /// Waits (at most 60 s) until at least `bytes` of `name` arrived in `directory`.
    static func waitForPartial(in directory: String, _ name: String, atLeast bytes: Int) throws {
        eventually(every: 0.005) { partialSize(in: directory, name) >= bytes }
        try #require(partialSize(in: directory, name) >= bytes, "\(name) did not start arriving")
    }

    /// A 1 GiB file: the receiving daemon is killed (-9) partway; sent again, only the rest
    /// goes over the wire, and the file arrives byte for byte. Then Ctrl-C on a send exits
    /// 4, and the receiver keeps nothing of it.
    @Test func anInterruptedTransferResumesAndACancelledOneLeavesNothing() throws {
        let (a, b, received) = try Self.pairedPair()
        let big = "\(a.sandbox.root)/big.img"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
        try handle.truncate(atOffset: 1 << 30)  // sparse: quick to make and to read
        try handle.seek(toOffset: 700 << 20)
        try handle.write(contentsOf: Data("not only zeros".utf8))
        try handle.close()

        let first = a.background(["handoff", "send", big])
        try Self.waitForPartial(in: received, "big.img", atLeast: 200 << 20)
        let killed = try #require(b.pid)
        kill(killed, SIGKILL)
        // The send says it broke off and how much went, and waits in the queue.
        let broken = first()
        #expect(broken.status == 0, "\(broken.stderr)")
        #expect(broken.stdout.contains("The send to beta broke off after ") && broken.stdout.contains(" of 1.0 GB (")
                    && broken.stdout.contains("the rest goes by itself when beta is back; the files wait as "), "\(broken.stdout)")
        #expect(!broken.stdout.contains("NIO") && !broken.stdout.contains("Error("), "\(broken.stdout)")
        let kept = Self.partialSize(in: received, "big.img")
        #expect(kept >= 200 << 20, "what arrived stays, hidden")
        #expect(!FileManager.default.fileExists(atPath: "\(received)/big.img"))

        // Back, it gets the rest by itself: only what it did not keep goes over the wire.
        try b.start()
        eventually { a.log.contains("delivered the queued send") }
        #expect(a.log.contains("delivered the queued send") && a.log.contains("\((1 << 30) - kept) bytes sent"), "\(a.log)")
        #expect(try Self.sha256("\(received)/big.img") == Self.sha256(big))
        #expect(try FileManager.default.contentsOfDirectory(atPath: received) == ["big.img"], "no partial folder left")

        // Ctrl-C while sending: exit 4, and nothing of it stays on the receiver.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Sandbox.binary)
        process.arguments = ["handoff", "send", big]
        process.environment = a.sandbox.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try Self.waitForPartial(in: received, "big.img", atLeast: 100 << 20)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 4)
        try eventually { (try FileManager.default.contentsOfDirectory(atPath: received)).count <= 1 }
        #expect(try FileManager.default.contentsOfDirectory(atPath: received) == ["big.img"], "the cancelled transfer left nothing")
        #expect(b.log.contains("cancelled by alpha"), "\(b.log)")

        // The sender's daemon killed partway: the receiver keeps what came (the TLS
        // connection ends without its close), and the next send goes on from there.
        let second = a.background(["handoff", "send", big])
        try Self.waitForPartial(in: received, "big.img", atLeast: 150 << 20)
        // Kept once the receiver has seen the connection end (its log says so).
        try b.afterwards(saying: "broke off; what arrived is kept to be resumed") {
            kill(try #require(a.pid), SIGKILL)
            #expect(second().status != 0)
        }
        let keptAfterSender = Self.partialSize(in: received, "big.img")
        #expect(keptAfterSender >= 150 << 20, "kept: \(keptAfterSender)")
        try a.start()
        let again = try a.run("handoff", "send", "--json", big)
        #expect(again.status == 0, "\(again.stderr)")
        let resent = try #require((try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [[String: Any]])?.first?["transferred"] as? Int)
        #expect(resent == (1 << 30) - keptAfterSender, "only the rest: \(resent) bytes, \(keptAfterSender) kept")
        #expect(try Self.sha256("\(received)/big (1).img") == Self.sha256(big))
    }
}

extension HandoffTransferTests {
    /// `--all` sends to three paired devices at once; each gets the folder whole.
    @Test func threeReceiversAtOnceWithAll() throws {
        let a = try Machine("alpha")
        let receivers = try ["beta", "gamma", "delta"].map { try Machine($0) }
        for receiver in receivers {
            let (asked, waited) = try HandoffTests.pair(a, receiver)
            try #require(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        }
        let folder = "\(a.sandbox.root)/Notes"
        for number in 1...50 { try Sandbox.write("note \(number)\n", to: "\(folder)/\(number).txt") }
        let several = try a.run("handoff", "send", folder)
        #expect(several.status == 2 && several.stderr.contains("several devices are paired"), "\(several.stderr)")

        let sent = try a.run("handoff", "send", "--all", "--json", folder)
        #expect(sent.status == 0, "\(sent.stderr)")
        let deliveries = try #require(try JSONSerialization.jsonObject(with: Data(sent.stdout.utf8)) as? [[String: Any]])
        #expect(deliveries.compactMap { $0["device"] as? String } == ["beta", "delta", "gamma"])
        for receiver in receivers {
            let notes = "\(receiver.sandbox.root)/home/Downloads/Notes"
            #expect(try FileManager.default.contentsOfDirectory(atPath: notes).count == 50, "\(receiver.name)")
            #expect(try String(contentsOfFile: "\(notes)/42.txt", encoding: .utf8) == "note 42\n")
        }
        // On a terminal, a progress line with each device's share.
        let big = "\(a.sandbox.root)/big.img"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        try FileHandle(forWritingTo: URL(fileURLWithPath: big)).truncate(atOffset: 400 << 20)
        let shown = try a.sandbox.runOnTerminal(["handoff", "send", "--all", big], input: "")
        #expect(shown.status == 0, "\(shown.stdout)")
        #expect(shown.stdout.contains("% ") && shown.stdout.contains(" left  (beta ") && shown.stdout.contains("gamma "), "\(shown.stdout)")
        // Two named devices, one of them twice: each gets it once.
        let two = try a.run("handoff", "send", "--device", "beta", "--device", "gamma", "--device", "beta", folder)
        #expect(two.status == 0 && two.stdout.split(separator: "\n").count == 2, "\(two.stdout) \(two.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(receivers[0].sandbox.root)/home/Downloads/Notes (1)"))
        #expect(!FileManager.default.fileExists(atPath: "\(receivers[2].sandbox.root)/home/Downloads/Notes (1)"))
    }
}

extension HandoffTransferTests {
    /// The share sheet's Hand Off sends files too (so a file manager's Share → Hand Off
    /// does): the built-in provider asks the daemon, which sends them.
    @Test func theShareSheetsHandOffSendsFiles() throws {
        let (a, b, received) = try Self.pairedPair()
        a.sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        let report = try a.sandbox.file("report.txt", "quarterly figures\n")
        let folder = "\(a.sandbox.root)/Slides"
        try Sandbox.write("slide 1\n", to: "\(folder)/1.txt")
        let listed = try a.run("list", report, "--json").listedTypes()
        #expect(listed.contains("org.actshare.handoff"), "\(listed)")
        let sent = try a.run("perform", "org.actshare.handoff", report, folder, "-o", "device=beta")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout == "sent 2 files to beta\n", "\(sent.stderr)")
        #expect(try String(contentsOfFile: "\(received)/report.txt", encoding: .utf8) == "quarterly figures\n")
        #expect(try String(contentsOfFile: "\(received)/Slides/1.txt", encoding: .utf8) == "slide 1\n")
        // A URL and a file in one share: both go.
        let mixed = try a.run("perform", "org.actshare.handoff", report, "https://example.org/")
        // The device is named as the daemon names it, though none was asked for.
        #expect(mixed.status == 0 && mixed.stdout == "handed off 2 items to beta\n", "\(mixed.stdout) \(mixed.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(received)/report (1).txt"))
        #expect(try b.run("handoff", "list").stdout.contains("https://example.org/"))
    }
}

extension HandoffTransferTests {
    /// Hand Off's devices are its targets (docs/PLUGINS.md, "Targets"): the paired ones as
    /// the daemon last found them, without asking them at the list (one not asked yet has
    /// no subtitle; one that did not answer says so and comes last); `--target` sends to
    /// the one chosen, as `-o device=` still does for scripts.
    @Test func pairedDevicesAreHandOffsTargets() throws {
        let (a, b, received) = try Self.pairedPair()
        a.sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        let report = try a.sandbox.file("report.txt", "quarterly figures\n")
        let beta = try b.deviceID()
        func targets() throws -> [[String: Any]] {
            try TargetTests.targets(try a.run("list", "--json", report), "org.actshare.handoff")
        }
        let first = try targets()
        #expect(first.map { $0["id"] as? String } == [beta], "\(first)")
        #expect(first.first?["title"] as? String == "beta" && first.first?["kind"] as? String == "device")
        // Asked behind the first list: then known to answer.
        #expect(eventually { (try? targets().first?["subtitle"]).map { $0 is NSNull } == true })
        // Hand Off and Copy to Device both offer beta: --target alone says so.
        let ambiguous = try a.run("share", "--target", beta, report)
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stderr == "actshare: 2 activities offer the target \(beta) (org.actshare.handoff.clipboard, org.actshare.handoff); name one with --activity TYPE\n",
                "\(ambiguous.stderr)")
        let sent = try a.run("perform", "org.actshare.handoff", "--target", beta, report)
        #expect(sent.status == 0 && sent.stdout == "sent 1 file to beta\n", "\(sent.stdout) \(sent.stderr)")
        #expect(try String(contentsOfFile: "\(received)/report.txt", encoding: .utf8) == "quarterly figures\n")
        // beta stops: once a round of asking has found so, it is offered as waiting.
        b.stop()
        _ = try a.run("handoff", "devices")
        #expect(eventually {
            (try? targets().first?["subtitle"] as? String) == "not reachable now: the files wait until it is"
        })
        let unknown = try a.run("perform", "org.actshare.handoff", "--target", "not-a-device", report)
        #expect(unknown.status == 3, "\(unknown.stderr)")
    }

    /// Files that arrive are announced on the desktop through org.freedesktop.Notifications
    /// (a real server: dunst, on a session bus and an X server of the test's own); the
    /// notice's action opens the folder they are in, and nothing else.
    @Test func arrivalsAreAnnouncedOnTheDesktopAndTheFolderOpensOnRequest() throws {
        let display = try ClipboardTests.Display()
        let (a, b, received) = try Self.pairedPair()
        let bus = "\(b.sandbox.root)/bus"
        let dbus = try ClipboardTests.Server(["/usr/bin/dbus-daemon", "--session", "--nofork", "--address=unix:path=\(bus)"])
        eventually { FileManager.default.fileExists(atPath: bus) }
        // xdg-open, as the desktop would run it, recorded instead of opening a file manager.
        let opened = "\(b.sandbox.root)/opened", bin = "\(b.sandbox.root)/bin"
        try Sandbox.write("#!/bin/sh\nprintf '%s\\n' \"$@\" > \(opened)\n", to: "\(bin)/xdg-open")
        chmod("\(bin)/xdg-open", 0o755)
        let desktop = ["DISPLAY": display.name, "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(bus)"]
        // Markup on: the server says it reads markup in bodies, so names must be escaped.
        let dunstrc = try b.sandbox.file("dunstrc", "[global]\n    markup = full\n")
        let dunst = try ClipboardTests.Server(
            ["/usr/bin/dunst", "-config", dunstrc], environment: (b.sandbox.environment.merging(desktop) { $1 }).map { "\($0)=\($1)" })
        b.sandbox.extraEnvironment.merge(desktop) { $1 }
        b.sandbox.extraEnvironment["PATH"] = "\(bin):/usr/bin:/bin"
        b.stop()
        try b.start()

        let one = try a.sandbox.file("one.txt", "1\n"), two = try a.sandbox.file("two.txt", "2\n")
        #expect(try a.run("handoff", "send", one, two).status == 0)
        let dunstctl = { (arguments: [String]) throws -> Run in
            try Sandbox.execute("/usr/bin/dunstctl", arguments, environment: b.sandbox.environment, stdin: nil)
        }
        try eventually { (try dunstctl(["count", "displayed"])).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1" }
        #expect(try dunstctl(["action", "0"]).status == 0)
        eventually { FileManager.default.fileExists(atPath: opened) }
        #expect((try? String(contentsOfFile: opened, encoding: .utf8)) == "\(received)\n", "the folder, and only it, is opened")
        let history = try dunstctl(["history"]).stdout
        #expect(history.contains("2 files from alpha") && history.contains("one.txt, two.txt"), "\(history)")

        // 40 small transfers: at most one notice at a time (each waits for the user), the
        // rest said together in the next; names escaped where the server reads markup.
        func isNotice(_ pid: String) -> Bool {
            guard let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return false }
            let words = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.count >= 3 && words[1] == "--notify" && words[2] == received
        }
        // A notice's own child, between its vfork and its exec, shows its parent's command
        // line: counted once, as its parent.
        func notices() -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { entry in
                guard entry.allSatisfy(\.isNumber), isNotice(entry) else { return false }
                let stat = (try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8)) ?? ""
                let parent = stat.split(separator: ")").last?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                return !isNotice(parent)
            }.count
        }
        // The notice acted on above may still be on its way out: counted from when it is gone.
        eventually { notices() == 0 }
        var most = 0
        let arrivedBefore = b.said("received 1 file")
        for index in 0..<40 {
            let file = try a.sandbox.file("small-\(index)<b>.txt", "\(index)\n")
            #expect(try a.run("handoff", "send", file).status == 0)
            most = max(most, notices())
        }
        // All 40 recorded (each is counted into the next notice as it is): still one shown.
        eventually { b.said("received 1 file") >= arrivedBefore + 40 }
        most = max(most, notices())
        #expect(most <= 1, "\(most) notices at once")
        #expect(try dunstctl(["count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        // Closing the one shown lets the next, with everything that waited, appear.
        _ = try dunstctl(["close-all"])
        try eventually { (try dunstctl(["count", "displayed"])).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1" }
        _ = try dunstctl(["close-all"])
        let later = try dunstctl(["history"]).stdout
        #expect(later.contains("39 files from alpha"), "the rest are said together: \(later)")
        #expect(later.contains("small-1&lt;b&gt;.txt, small-2&lt;b&gt;.txt") && later.contains(" and 34 more"),
                "the first names, escaped, then how many more: \(later)")
        _ = (dbus, dunst)
    }
}

extension HandoffTransferTests {
    /// A tree of 10,000 small files in 100 folders arrives whole, each file byte for byte.
    @Test func aTreeOfTenThousandFilesArrivesWhole() throws {
        let (a, b, received) = try Self.pairedPair()
        let tree = "\(a.sandbox.root)/Tree"
        for folder in 0..<100 {
            try FileManager.default.createDirectory(atPath: "\(tree)/\(folder)", withIntermediateDirectories: true)
            for file in 0..<100 {
                #expect(FileManager.default.createFile(atPath: "\(tree)/\(folder)/\(file).txt", contents: Data("\(folder)/\(file)\n".utf8)))
            }
        }
        let sent = try a.run("handoff", "send", "--json", tree)
        #expect(sent.status == 0, "\(sent.stderr)")
        let delivered = try #require((try JSONSerialization.jsonObject(with: Data(sent.stdout.utf8)) as? [[String: Any]])?.first?["delivered"] as? [Any])
        #expect(delivered.count == 10_000)
        let sums = { (root: String) throws -> String in
            try Sandbox.execute("/bin/sh", ["-c", "cd \"$1\" && find . -type f | LC_ALL=C sort | xargs -d '\\n' sha256sum", "sh", root], environment: [:], stdin: nil).stdout
        }
        let local = try sums(tree)
        #expect(local.split(separator: "\n").count == 10_000)
        #expect(try sums("\(received)/Tree") == local, "every file, byte for byte")
        _ = b
    }
}

extension HandoffTransferTests {
    /// Sending to a paired device that is off: the files wait (one as it is, one copied),
    /// survive a restart of the sender's daemon, and arrive once the device is back; a
    /// queued send can be cancelled.
    @Test func sendsToADeviceThatIsOffWaitAndArriveWhenItIsBack() throws {
        let (a, b, received) = try Self.pairedPair()
        b.stop()
        let note = try a.sandbox.file("note.txt", "as it was\n")
        let waiting = try a.run("handoff", "send", "--json", note)
        #expect(waiting.status == 0, "\(waiting.stderr)")
        let id = try #require((try JSONSerialization.jsonObject(with: Data(waiting.stdout.utf8)) as? [[String: Any]])?.first?["queued"] as? String)
        let copied = try a.run("handoff", "send", "--copy", try a.sandbox.file("copied.txt", "copied before the change\n"))
        #expect(copied.stdout.contains("beta is not reachable now: the files wait as"), "\(copied.stdout)")
        try "changed after\n".write(toFile: "\(a.sandbox.root)/copied.txt", atomically: true, encoding: .utf8)
        let dropped = try a.run("handoff", "send", try a.sandbox.file("dropped.txt", "never\n"))
        let droppedID = try #require(dropped.stdout.split(separator: " ").first { $0.count == 16 }.map(String.init), "\(dropped.stdout)")
        #expect(try a.run("handoff", "queue", "--cancel", droppedID).status == 0)
        let queue = try #require(try JSONSerialization.jsonObject(with: Data(try a.run("handoff", "queue", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(queue.count == 2 && queue.contains { $0["id"] as? String == id && $0["device_name"] as? String == "beta" })

        // The sender's daemon restarts: nothing queued is lost. Then the device is back.
        a.stop()
        try a.start()
        try b.start()
        eventually { FileManager.default.fileExists(atPath: "\(received)/note.txt") && FileManager.default.fileExists(atPath: "\(received)/copied.txt") }
        #expect(try String(contentsOfFile: "\(received)/note.txt", encoding: .utf8) == "as it was\n")
        #expect(try String(contentsOfFile: "\(received)/copied.txt", encoding: .utf8) == "copied before the change\n")
        #expect(!FileManager.default.fileExists(atPath: "\(received)/dropped.txt"))
        try eventually { try a.run("handoff", "queue").stdout == "" }
        #expect(try a.run("handoff", "queue").stdout == "", "delivered, the sends leave the queue")
        #expect(a.log.contains("delivered the queued send \(id) to beta"), "\(a.log)")
    }
}

extension HandoffTransferTests {
    /// Config `handoff.listen` binds the peer port to one address (here loopback only).
    @Test func theListenAddressIsTheOneConfigured() throws {
        let machine = try Machine("alpha")
        let listening = { (address: String) throws -> Bool in
            let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
            return table.split(separator: "\n").contains { $0.contains("\(address):\(String(format: "%04X", machine.port)) ") && $0.contains(" 0A ") }
        }
        #expect(try listening("00000000"), "all IPv4 addresses by default")
        try machine.sandbox.writeConfig("handoff: {listen: 127.0.0.1}\n")
        machine.stop()
        try machine.start()
        #expect(try listening("0100007F") && !(try listening("00000000")), "loopback only")
    }
}

extension HandoffTransferTests {
    /// A lying peer cannot set modes or write through a link: setuid, setgid, sticky and
    /// world-writable bits are masked (at most 0755), and a link swapped into the partial
    /// folder mid-transfer is refused, nothing written or chmod-ed through it.
    @Test func aLyingPeerCannotSetModesOrWriteThroughALink() throws {
        let (a, b, received) = try Self.pairedPair()
        let aState = "\(a.sandbox.root)/state/actshare"
        func peer(_ plan: String) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["\(HandoffTests.fixtures)/lying-peer.py", "transfer", aState, "127.0.0.1:\(b.port)", plan]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        func wait(_ process: Process) {
            eventually { !process.isRunning }
        }
        let modes = try peer("""
            {"entries": [{"path": "tools", "kind": "folder", "size": 0, "mode": 4095},
                         {"path": "tools/run", "kind": "file", "size": 3, "mode": 4095},
                         {"path": "suid", "kind": "file", "size": 3, "mode": 2559}],
             "files": [{"index": 1, "data": "ab\\n"}, {"index": 2, "data": "cd\\n"}], "transfer": "1111222233334444"}
            """)
        wait(modes)
        func mode(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1 }
        #expect(mode("\(received)/tools") == 0o755 && mode("\(received)/tools/run") == 0o755, "\(mode("\(received)/tools/run"))")
        #expect(mode("\(received)/suid") == 0o755, "setuid, setgid and sticky go: \(String(mode("\(received)/suid"), radix: 8))")

        // The partial folder's "sub" swapped for a link to ~/.config/autostart while the
        // peer waits: its file is not written there, nor the folder's mode set on it.
        let autostart = "\(b.sandbox.root)/home/.config/autostart"
        try FileManager.default.createDirectory(atPath: autostart, withIntermediateDirectories: true)
        chmod(autostart, 0o700)
        let swapped = try peer("""
            {"entries": [{"path": "sub", "kind": "folder", "size": 0, "mode": 511},
                         {"path": "sub/evil.desktop", "kind": "file", "size": 6, "mode": 420}],
             "files": [{"index": 1, "data": "owned\\n"}], "transfer": "5555666677778888", "pause": 2}
            """)
        var partial: String?
        eventually(every: 0.01) {
            partial = (try? FileManager.default.contentsOfDirectory(atPath: received))?.first { $0.hasPrefix(".actshare-partial-") && $0.hasSuffix("5555666677778888") }
            return partial != nil
        }
        let sub = "\(received)/\(try #require(partial))/sub"
        eventually(every: 0.01) { FileManager.default.fileExists(atPath: sub) }
        #expect(rmdir(sub) == 0 && symlink(autostart, sub) == 0)
        wait(swapped)
        #expect(try FileManager.default.contentsOfDirectory(atPath: autostart).isEmpty, "nothing written through the link")
        #expect(mode(autostart) == 0o700, "nor its mode changed")
        #expect(!FileManager.default.fileExists(atPath: "\(received)/sub"))
        // Refused as a link; or, when the swap fell between the receiver making the folder
        // and opening it, as a folder that is gone (either way nothing went through it).
        #expect(b.log.contains("a link now, which is not followed") || b.log.contains("cannot make sub"), "\(b.log)")
    }

    /// A file swapped for a link to a secret while a folder is being sent stops the send;
    /// the secret does not leave.
    @Test func aFileSwappedForALinkMidSendIsNotSent() throws {
        let (a, b, received) = try Self.pairedPair()
        let folder = "\(a.sandbox.root)/Outbox"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Sent first (names in order), and large, so that the swap comes while it goes.
        Sandbox.sparseFile("\(folder)/a-big.bin", size: 256 << 20)
        try "a note\n".write(toFile: "\(folder)/b-note.txt", atomically: true, encoding: .utf8)
        let secret = "\(a.sandbox.root)/home/id_rsa"
        try "-----BEGIN OPENSSH PRIVATE KEY----- secret\n".write(toFile: secret, atomically: true, encoding: .utf8)
        nonisolated(unsafe) var sent: Run?
        let done = DispatchSemaphore(value: 0)
        let environment = a.sandbox.environment
        Thread.detachNewThread {
            sent = try? Sandbox.execute(Sandbox.binary, ["handoff", "send", "--device", "beta", folder], environment: environment, stdin: nil)
            done.signal()
        }
        eventually(every: 0.005) { (try? FileManager.default.contentsOfDirectory(atPath: received))?.contains { $0.hasPrefix(".actshare-partial-") } ?? false }
        #expect(unlink("\(folder)/b-note.txt") == 0 && symlink(secret, "\(folder)/b-note.txt") == 0)
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(sent?.status != 0, "the send stops")
        #expect(sent?.stderr.contains("\(folder)/b-note.txt cannot be read: it is a link now; the send is stopped") == true, "\(sent?.stderr ?? "")")
        let found = try Sandbox.execute("/bin/grep", ["-r", "-l", "OPENSSH", received], environment: [:], stdin: nil)
        #expect(found.stdout.isEmpty, "the secret did not arrive: \(found.stdout)")
        _ = b  // its daemon runs as long as it is kept
    }

    /// The sending daemon killed (-9) partway: `handoff send --json` still prints a result —
    /// the device, that the send broke off, and how much had gone — and exits 1.
    @Test func aSendWhoseDaemonDiesStillPrintsItsResult() throws {
        let (a, b, received) = try Self.pairedPair(debug: true)
        defer { withExtendedLifetime(b) {} }
        let big = "\(a.sandbox.root)/big.img"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let sending = a.background(["handoff", "send", "--json", big])
        try Self.waitForPartial(in: received, "big.img", atLeast: 100 << 20)
        // A progress report made after that, so with bytes gone, then the kill.
        let reported = a.said("send: progress reported")
        #expect(eventually { a.said("send: progress reported") > reported }, "\(a.log.suffix(1000))")
        kill(try #require(a.pid), SIGKILL)
        let result = sending()
        #expect(result.status == 1, "\(result.stderr)")
        let deliveries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "stdout: \(result.stdout)")
        #expect(deliveries.count == 1 && deliveries[0]["device"] as? String == "beta", "\(deliveries)")
        let error = try #require(deliveries[0]["error"] as? String)
        #expect(error.hasPrefix("the send broke off: ") && error.contains("of 1.0 GB had gone"), "\(error)")
        #expect((deliveries[0]["transferred"] as? Int ?? 0) > 0, "\(deliveries)")
    }

    /// On a nearly full disk (a 16 MiB tmpfs with 3 MiB left), a small file still arrives:
    /// a transfer keeps as much free as it brings, up to 64 MB, not 64 MB whatever its size.
    /// One that would leave less than its own size is refused, in words that say so.
    @Test func aNearlyFullDiskTakesASmallFileAndSaysWhyItRefusesALargerOne() throws {
        let (a, b, received) = try Self.pairedPair()
        defer { withExtendedLifetime(b) {} }
        try FileManager.default.createDirectory(atPath: received, withIntermediateDirectories: true)
        let mounted = try Sandbox.execute("/bin/mount", ["-t", "tmpfs", "-o", "size=16m,mode=0700", "actshare-test", received], environment: [:], stdin: nil)
        try #require(mounted.status == 0, "\(mounted.stderr)")
        defer { _ = try? Sandbox.execute("/bin/umount", ["-l", received], environment: [:], stdin: nil) }
        try Data(count: 13 << 20).write(to: URL(fileURLWithPath: "\(received)/filler.bin"))
        let note = try a.sandbox.data("note.txt", Data(repeating: 0x41, count: 1000))
        let small = try a.run("handoff", "send", note)
        #expect(small.status == 0, "\(small.stderr)")
        #expect(FileManager.default.contents(atPath: "\(received)/note.txt") == Data(repeating: 0x41, count: 1000))
        let large = try a.sandbox.data("large.bin", Data(count: 2 << 20))
        let refused = try a.run("handoff", "send", large)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("the disk of beta would be too full:") && refused.stderr.contains("less than the 2.0 MB it keeps free"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(received)/large.bin"))
    }

    /// The receive folder must be this user's own folder, not a link, at each transfer.
    @Test func aReceiveFolderThatIsALinkIsRefused() throws {
        let (a, b, received) = try Self.pairedPair()
        let elsewhere = "\(b.sandbox.root)/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: received)
        #expect(symlink(elsewhere, received) == 0)
        let note = try a.sandbox.file("note.txt", "hello\n")
        let sent = try a.run("handoff", "send", note)
        #expect(sent.status != 0)
        #expect(sent.stderr.contains("beta cannot receive files: its receive folder cannot be used"), "\(sent.stderr)")
        #expect(b.log.contains("it is a link"), "\(b.log)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }
}


extension HandoffTransferTests {
    /// A daemon's resident memory (VmRSS) or its peak since the last reset (VmHWM), in KiB.
    static func memory(of pid: pid_t, _ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("\(field):") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    /// Sending 512 MiB, which the daemon reads far faster than TLS seals it, the sending
    /// daemon holds little of the file: it waits until no more than two writes wait on its
    /// event loop (2–3 MiB more here). It read ahead into the loop's queue before: 17 MiB
    /// more in this test's debug build, 23 MiB in the release.
    @Test func aLargeSendHoldsLittleOfItsFileInMemory() throws {
        let (a, b, received) = try Self.pairedPair()
        let file = "\(a.sandbox.root)/large.img"
        Sandbox.sparseFile(file, size: 512 << 20)
        let pid = try #require(a.pid)
        // The peak is counted from here (proc(5): clear_refs).
        try "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
        let before = Self.memory(of: pid, "VmRSS")
        let sent = try a.run("handoff", "send", file)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect((try? FileManager.default.attributesOfItem(atPath: "\(received)/large.img")[.size] as? Int) == 512 << 20)
        let grown = Self.memory(of: pid, "VmHWM") - before
        #expect(before > 0 && grown < 8 << 10, "the sending daemon grew by \(grown / 1024) MiB while it sent 512 MiB")
        _ = b  // its daemon runs as long as it is kept
    }
}
