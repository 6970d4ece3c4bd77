import Foundation
import Testing

/// The Universal Clipboard between two real daemons in network namespaces of their own,
/// each with its own X server (Xvfb), or alpha under a headless sway: copied on alpha with
/// xclip, wl-copy, Qt or actshare's Copy, pasted on beta with xclip, GTK and Qt (and the
/// other way round).
@Suite(.serialized) struct UniversalClipboardTests {
    typealias Machine = HandoffTests.Machine
    typealias Display = ClipboardTests.Display

    /// Two desktops on one link, their daemons paired: alpha (`a`) and beta (`b`).
    final class Desktops {
        let link: NetworkLink
        let displays: [Display]
        /// Alpha's desktop when it is Wayland (its daemon then has no X display at all).
        let compositor: ClipboardTests.WaylandCompositor?
        var machines: [Machine] = []

        init(tag: String, config: String = "handoff: {clipboard: auto}\n", betaConfig: String? = nil, alphaOnWayland: Bool = false) throws {
            link = try NetworkLink(hosts: 2, tag: tag)
            displays = [try Display(), try Display()]
            compositor = alphaOnWayland ? try ClipboardTests.WaylandCompositor() : nil
            for (index, name) in ["alpha", "beta"].enumerated() {
                let desktop = compositor.flatMap { index == 0 ? ["WAYLAND_DISPLAY": $0.socket] : nil } ?? ["DISPLAY": displays[index].name]
                machines.append(try Machine(name, namespace: link.hosts[index], daemonArguments: ["--discovery", "static"],
                                            config: index == 1 ? betaConfig ?? config : config,
                                            environment: desktop.merging(["ACTSHARE_DEBUG": "1", "ACTSHARE_NO_BUILTINS": "0"]) { $1 }))
            }
            let (asked, waited) = try HandoffTests.pair(a, b, at: "\(link.address(1)):\(b.port)")
            try #require(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        }

        var a: Machine { machines[0] }
        var b: Machine { machines[1] }

        deinit {
            // The daemons before the link and the displays they use.
            for machine in machines { machine.stop() }
            machines = []
        }

        /// Copies `bytes` into `selection` on `index`'s display with xclip (one target), kept
        /// until taken.
        func xclip(_ index: Int, _ bytes: Data, target: String = "UTF8_STRING", selection: String = "clipboard") throws -> ClipboardTests.Server {
            let file = "\(machines[index].sandbox.root)/copied-\(UUID().uuidString)"
            try bytes.write(to: URL(fileURLWithPath: file))
            let server = try ClipboardTests.Server(["/usr/bin/xclip", "-quiet", "-selection", selection, "-t", target, "-i", file],
                                                   environment: ["DISPLAY=\(displays[index].name)"])
            // Until xclip owns the selection, a paste would find the one before.
            try eventually(every: 0.02) { try targets(index, selection: selection).contains(target) }
            return server
        }

        /// What xclip reads for `target` from `selection` on `index`'s display, giving up
        /// after `seconds`.
        func paste(_ target: String, on index: Int, selection: String = "clipboard", seconds: Int = 10) throws -> Data {
            try ClipboardTests.paste(target, display: displays[index], selection: selection, seconds: seconds)
        }

        func targets(_ index: Int, selection: String = "clipboard") throws -> [String] {
            String(decoding: try paste("TARGETS", on: index, selection: selection, seconds: 2), as: UTF8.self).split(separator: "\n").map(String.init)
        }

        /// A toolkit's paste on `index`'s display: `gtk` or `qt`, of text or an image.
        func toolkitPaste(_ toolkit: String, on index: Int, image: Bool = false) throws -> Run {
            let desktop = ["DISPLAY": displays[index].name, "GDK_BACKEND": "x11", "QT_QPA_PLATFORM": "xcb", "HOME": "\(machines[index].sandbox.root)/home",
                           "XDG_RUNTIME_DIR": "\(machines[index].sandbox.root)/runtime", "PATH": "/usr/bin:/bin", "GSK_RENDERER": "cairo"]
            return try Sandbox.execute("/usr/bin/python3", ["\(HandoffTests.fixtures)/\(toolkit)-paste.py"] + (image ? ["--image"] : []),
                                       environment: desktop, stdin: nil, timeout: 30)
        }

        /// Copies `bytes` as `type` on alpha's Wayland desktop with wl-copy (into PRIMARY with
        /// `primary`), kept until replaced.
        func wlCopy(_ bytes: Data, type: String, primary: Bool = false) throws -> ClipboardTests.Server {
            let compositor = try #require(compositor)
            let file = "\(a.sandbox.root)/copied-\(UUID().uuidString)"
            try bytes.write(to: URL(fileURLWithPath: file))
            let server = try ClipboardTests.Server(["/usr/bin/wl-copy", "--foreground", "--type", type] + (primary ? ["--primary"] : []),
                                                   environment: ["WAYLAND_DISPLAY=\(compositor.socket)", "PATH=/usr/bin:/bin"], stdin: file)
            let listing = ["--list-types"] + (primary ? ["--primary"] : [])
            try eventually(every: 0.02) { String(decoding: try compositor.paste(listing), as: UTF8.self).contains(type) }
            return server
        }

        func qtCopy(_ index: Int, _ arguments: [String]) throws -> ClipboardTests.Server {
            let server = try ClipboardTests.Server(
                ["/usr/bin/python3", "\(HandoffTests.fixtures)/qt-copy.py"] + arguments,
                environment: ["DISPLAY=\(displays[index].name)", "QT_QPA_PLATFORM=xcb", "HOME=\(machines[index].sandbox.root)/home",
                              "XDG_RUNTIME_DIR=\(machines[index].sandbox.root)/runtime", "PATH=/usr/bin:/bin"])
            // Until it owns the clipboard (after another Qt copy: until the mark is as it says).
            let secret = arguments.contains("--secret")
            try eventually(every: 0.02) {
                let offered = try targets(index)
                return offered.contains("UTF8_STRING") && offered.contains("x-kde-passwordManagerHint") == secret
            }
            return server
        }
    }

    /// `handoff clipboard status --json` of `machine`.
    static func status(_ machine: Machine) throws -> [String: Any] {
        let run = try machine.run("handoff", "clipboard", "status", "--json")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
    }

    /// Polls `machine`'s status until `done` holds (giving up after `seconds`, where a test
    /// proves a limit); returns the last.
    @discardableResult
    static func waitFor(_ machine: Machine, seconds: Double = 120, _ done: ([String: Any]) -> Bool) throws -> [String: Any] {
        var last: [String: Any] = [:]
        try eventually(bound: seconds) {
            last = try status(machine)
            return done(last)
        }
        return last
    }

    static func received(_ status: [String: Any]) -> [String: Any]? { status["received"] as? [String: Any] }
    static func offered(_ status: [String: Any]) -> [String: Any]? { status["offered"] as? [String: Any] }

    @Test func textPastesOnTheOtherDeviceInEveryToolkitAndIsNotEchoed() throws {
        let desktops = try Desktops(tag: "ct")
        let text = "Grüße aus alpha — 世界、こんにちは ✓"
        let copy = try desktops.xclip(0, Data(text.utf8))
        let taken = try Self.waitFor(desktops.b) { Self.received($0) != nil }
        let received = try #require(Self.received(taken), "beta took nothing: \(desktops.b.log)")
        #expect(received["device"] as? String == "alpha")
        #expect(received["preview"] as? String == text)
        #expect(try desktops.paste("UTF8_STRING", on: 1) == Data(text.utf8))
        for toolkit in ["gtk", "qt"] {
            let pasted = try desktops.toolkitPaste(toolkit, on: 1)
            #expect(pasted.stdout == text, "\(toolkit): \(pasted.stdout) \(pasted.stderr.prefix(300))")
        }
        // Offered by alpha, taken by beta; beta offers nothing back, and alpha's
        // clipboard is still its own copy.
        let alpha = try Self.status(desktops.a)
        #expect(Self.offered(alpha)?["to"] as? [String] == ["beta"])
        #expect(Self.received(alpha) == nil)
        #expect(Self.offered(try Self.status(desktops.b)) == nil)
        #expect(try desktops.paste("UTF8_STRING", on: 0) == Data(text.utf8))
        _ = copy
    }

    @Test func aCopyUnderWaylandPastesOnAnXServerAndBack() throws {
        let desktops = try Desktops(tag: "cw", alphaOnWayland: true)
        let compositor = try #require(desktops.compositor)
        let watching = try Self.waitFor(desktops.a) { ($0["display"] as? String)?.hasPrefix("Wayland display") == true }
        #expect((watching["display"] as? String)?.hasPrefix("Wayland display") == true, "\(watching) \(desktops.a.log.suffix(800))")
        // Text copied under sway pastes on beta's X server, under its X name too.
        let text = "Grüße aus Wayland — 世界、こんにちは ✓"
        let copy = try desktops.wlCopy(Data(text.utf8), type: "text/plain;charset=utf-8")
        let taken = try Self.waitFor(desktops.b) { Self.received($0)?["preview"] as? String == text }
        #expect(Self.received(taken)?["device"] as? String == "alpha", "\(desktops.a.log.suffix(1500))")
        #expect(try desktops.paste("text/plain;charset=utf-8", on: 1) == Data(text.utf8))
        #expect(try desktops.paste("UTF8_STRING", on: 1) == Data(text.utf8))
        let gtk = try desktops.toolkitPaste("gtk", on: 1)
        #expect(gtk.stdout == text, "\(gtk.stdout) \(gtk.stderr.prefix(300))")
        // An image, byte for byte, and as an image in a Qt application.
        let image = "\(desktops.a.sandbox.root)/photo.png"
        let maker = try Sandbox.execute("/usr/bin/python3", ["\(HandoffTests.fixtures)/make-png.py", image, "640", "480"], environment: [:], stdin: nil)
        #expect(maker.status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: image))
        let picture = try desktops.wlCopy(bytes, type: "image/png")
        try Self.waitFor(desktops.b) { (Self.received($0)?["targets"] as? [[String: Any]])?.first?["name"] as? String == "image/png" }
        #expect(try desktops.paste("image/png", on: 1) == bytes)
        let qt = try desktops.toolkitPaste("qt", on: 1, image: true)
        #expect(qt.stdout == "640x480\n", "\(qt.stdout) \(qt.stderr.prefix(300))")
        // Cleared under sway: cleared on beta.
        let clear = try Sandbox.execute("/usr/bin/wl-copy", ["--clear"], environment: ["WAYLAND_DISPLAY": compositor.socket, "PATH": "/usr/bin:/bin"],
                                        stdin: nil)
        #expect(clear.status == 0, "\(clear.stderr)")
        let cleared = try Self.waitFor(desktops.b) { Self.received($0) == nil }
        #expect(Self.received(cleared) == nil)
        #expect(try desktops.targets(1).isEmpty)
        // A password manager's mark keeps the copy at home (a plain copy first, so that
        // beta would have something to lose).
        let plain = try desktops.wlCopy(Data("plain".utf8), type: "text/plain")
        try Self.waitFor(desktops.b) { Self.received($0)?["preview"] as? String == "plain" }
        let secret = try desktops.a.afterwards(saying: "clipboard: a password was copied here: not offered") {
            try desktops.wlCopy(Data("secret".utf8), type: "x-kde-passwordManagerHint")
        }
        let withdrawn = try Self.waitFor(desktops.b) { Self.received($0) == nil }
        #expect(Self.received(withdrawn) == nil)
        #expect(Self.offered(try Self.status(desktops.a)) == nil)
        #expect(Self.received(try Self.status(desktops.b)) == nil)
        // The other way: copied on beta's X server, pasted by a Wayland application on
        // alpha (fetched when it pastes), and not offered back.
        let back = "zurück von beta ✓"
        let xcopy = try desktops.xclip(1, Data(back.utf8))
        try Self.waitFor(desktops.a) { Self.received($0)?["preview"] as? String == back }
        #expect(try compositor.paste(["--no-newline", "--type", "text/plain;charset=utf-8"]) == Data(back.utf8))
        #expect(desktops.b.log.contains("alpha fetched"), "\(desktops.b.log.suffix(800))")
        #expect(Self.offered(try Self.status(desktops.a)) == nil)
        #expect(Self.received(try Self.status(desktops.b)) == nil)
        _ = (copy, picture, plain, secret, xcopy)
    }

    @Test func thePrimarySelectionIsOfferedAndSetOnlyWhereConfigured() throws {
        let desktops = try Desktops(tag: "cp", config: "handoff: {clipboard: auto, clipboard-primary: true}\n", betaConfig: "handoff: {clipboard: auto}\n")
        let betaSelection = try desktops.xclip(1, Data("beta's own selection".utf8), selection: "primary")
        // Selected on alpha (PRIMARY, what a middle click pastes): offered, and put in
        // beta's CLIPBOARD only (beta does not hand its PRIMARY over).
        let text = "mittlere Maustaste — 中键 ✓"
        let selected = try desktops.xclip(0, Data(text.utf8), selection: "primary")
        let taken = try Self.waitFor(desktops.b) { Self.received($0)?["preview"] as? String == text }
        #expect(Self.received(taken)?["device"] as? String == "alpha", "\(desktops.a.log.suffix(1200))")
        #expect(try desktops.paste("UTF8_STRING", on: 1) == Data(text.utf8))
        #expect(try desktops.paste("UTF8_STRING", on: 1, selection: "primary") == Data("beta's own selection".utf8))
        // Selected on beta, which does not watch PRIMARY: nothing for alpha (what alpha takes
        // next, a copy beta made after it, is the only offer it has from beta).
        let takenBefore = desktops.a.said("clipboard: took ")
        let unwatched = try desktops.xclip(1, Data("not for alpha".utf8), selection: "primary")
        #expect(Self.received(try Self.status(desktops.a)) == nil)
        // Copied on beta: alpha takes it into both its CLIPBOARD and its PRIMARY, and does
        // not offer either back.
        let copied = try desktops.xclip(1, Data("für beide Auswahlen".utf8))
        try Self.waitFor(desktops.a) { Self.received($0)?["preview"] as? String == "für beide Auswahlen" }
        #expect(desktops.a.said("clipboard: took ") == takenBefore + 1, "\(desktops.a.log.suffix(1200))")
        #expect(try desktops.paste("UTF8_STRING", on: 0) == Data("für beide Auswahlen".utf8))
        #expect(try desktops.paste("UTF8_STRING", on: 0, selection: "primary") == Data("für beide Auswahlen".utf8))
        // The pastes were the barrier: alpha's agent handles X's events in order, so the
        // notice of its own taking came before these pastes' requests, and the daemon
        // handles the agent's frames in order, so an offer back would have been made before
        // the bytes for the first paste were fetched.
        #expect(Self.offered(try Self.status(desktops.a)) == nil, "\(desktops.a.log.suffix(1200))")
        _ = (betaSelection, selected, unwatched, copied)
    }

    @Test func thePrimarySelectionUnderWaylandIsOfferedAndSet() throws {
        let primary = "handoff: {clipboard: auto, clipboard-primary: true}\n"
        let desktops = try Desktops(tag: "cv", config: primary, alphaOnWayland: true)
        let compositor = try #require(desktops.compositor)
        // Selected under sway (PRIMARY, through data-control version 2): offered to beta.
        let text = "markiert unter sway ✓"
        let selected = try desktops.wlCopy(Data(text.utf8), type: "text/plain;charset=utf-8", primary: true)
        let taken = try Self.waitFor(desktops.b) { Self.received($0)?["preview"] as? String == text }
        #expect(Self.received(taken)?["device"] as? String == "alpha", "\(desktops.a.log.suffix(1200))")
        #expect(try desktops.paste("UTF8_STRING", on: 1) == Data(text.utf8))
        // Copied on beta: alpha's Wayland PRIMARY carries it too (a middle click pastes it).
        let copied = try desktops.xclip(1, Data("für die mittlere Taste".utf8))
        try Self.waitFor(desktops.a) { Self.received($0)?["preview"] as? String == "für die mittlere Taste" }
        #expect(try compositor.paste(["--no-newline", "--primary", "--type", "text/plain;charset=utf-8"]) == Data("für die mittlere Taste".utf8))
        _ = (selected, copied)
    }

    @Test func copyOffersEveryTargetAndEachPastesByteForByte() throws {
        let desktops = try Desktops(tag: "cu")
        let url = "https://example.org/ein/pfad?q=ä#frag"
        let copied = try desktops.a.run("perform", "org.actshare.copy-to-clipboard", url)
        #expect(copied.status == 0, "\(copied.stderr)")
        try Self.waitFor(desktops.b) { Self.received($0) != nil }
        let there = try desktops.targets(0).filter { !["TARGETS", "TIMESTAMP"].contains($0) }
        let here = try desktops.targets(1)
        #expect(there.contains("text/uri-list") && there.contains("text/x-moz-url"), "\(there)")
        for target in there {
            #expect(here.contains(target), "\(target) is not offered on beta: \(here)")
            #expect(try desktops.paste(target, on: 1) == (try desktops.paste(target, on: 0)),
                    "\(target)")
        }
    }

    @Test func aLargeImageIsFetchedOnlyWhenPasted() throws {
        let desktops = try Desktops(tag: "ci")
        let image = "\(desktops.a.sandbox.root)/big.png"
        let maker = try Sandbox.execute("/usr/bin/python3", ["\(HandoffTests.fixtures)/make-png.py", image, "2580", "2710"], environment: [:], stdin: nil)
        #expect(maker.status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: image))
        #expect(bytes.count > 20 << 20)
        let copy = try desktops.xclip(0, bytes, target: "image/png")
        let taken = try Self.waitFor(desktops.b) { Self.received($0) != nil }
        let targets = try #require(Self.received(taken)?["targets"] as? [[String: Any]])
        #expect(targets.count == 1 && targets[0]["name"] as? String == "image/png" && targets[0]["size"] as? Int == bytes.count)
        // Offered, not sent: nothing was fetched before the paste…
        #expect(!desktops.a.log.contains("fetched"))
        #expect(try desktops.paste("image/png", on: 1) == bytes)
        // …and once pasted, the bytes came from alpha.
        #expect(desktops.a.log.contains("beta fetched"))
        // GTK and Qt applications paste it as an image.
        for toolkit in ["gtk", "qt"] {
            let pasted = try desktops.toolkitPaste(toolkit, on: 1, image: true)
            #expect(pasted.stdout == "2580x2710\n", "\(toolkit): \(pasted.stdout) \(pasted.stderr.prefix(300))")
        }
        _ = copy
    }

    /// A 5 MiB PNG copied with xclip on a device just paired, twelve times: each is
    /// offered and pastes whole on the other device.
    @Test func aFiveMebibytePNGPastesEveryTime() throws {
        for round in 0..<12 {
            // Two devices new each time, as a person copies soon after they come up.
            let desktops = try Desktops(tag: "cp\(round)")
            let image = "\(desktops.a.sandbox.root)/round-\(round).png"
            let maker = try Sandbox.execute("/usr/bin/python3", ["\(HandoffTests.fixtures)/make-png.py", image, "\(1290 + round)", "1355"], environment: [:], stdin: nil)
            try #require(maker.status == 0)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: image))
            let copy = try desktops.xclip(0, bytes, target: "image/png")
            let taken = try Self.waitFor(desktops.b, seconds: 60) {
                (Self.received($0)?["targets"] as? [[String: Any]])?.first?["size"] as? Int == bytes.count
            }
            #expect((Self.received(taken)?["targets"] as? [[String: Any]])?.first?["size"] as? Int == bytes.count,
                    "round \(round): not offered: \(taken) \(desktops.a.log.suffix(2000))")
            let pasted = try desktops.paste("image/png", on: 1, seconds: 30)
            #expect(pasted == bytes, "round \(round): pasted \(pasted.count) of \(bytes.count) bytes; alpha: \(desktops.a.log.suffix(1500)) beta: \(desktops.b.log.suffix(1500))")
            _ = copy
        }
    }

    @Test func aPasswordIsNeverOfferedAndClearingWithdrawsEverywhere() throws {
        let desktops = try Desktops(tag: "cs")
        let password = try desktops.a.afterwards(saying: "clipboard: a password was copied here: not offered") {
            try desktops.qtCopy(0, ["hunter2-correct-horse", "--secret", "--seconds", "20"])
        }
        #expect(Self.received(try Self.status(desktops.b)) == nil)
        #expect(Self.offered(try Self.status(desktops.a)) == nil)
        #expect(!desktops.b.log.contains("took"), "\(desktops.b.log)")
        _ = password
        // The same copy without the mark is offered (so the check above could fail)…
        let plain = try desktops.qtCopy(0, ["plain words", "--seconds", "20", "--clear-after", "4"])
        let taken = try Self.waitFor(desktops.b) { Self.received($0)?["preview"] as? String == "plain words" }
        #expect(Self.received(taken)?["preview"] as? String == "plain words", "\(desktops.a.log.suffix(1500)) \(desktops.b.log.suffix(1500))")
        #expect(try desktops.paste("UTF8_STRING", on: 1) == Data("plain words".utf8))
        // …and when alpha's clipboard is cleared (as a password manager does after a
        // while), beta's is cleared too.
        let cleared = try Self.waitFor(desktops.b, seconds: 6) { Self.received($0) == nil }
        #expect(Self.received(cleared) == nil)
        #expect(try desktops.targets(1).isEmpty)
        _ = plain
    }

    /// A password manager that answers the password hint late (it stalls 2 s, then
    /// answers in order) has its copy taken as a password: not offered, and said so.
    @Test func aPasswordHintAnsweredLateIsTakenAsAPassword() throws {
        let desktops = try Desktops(tag: "ch")
        let late = try desktops.qtCopy(0, ["hunter2-answered-late", "--secret", "--hint-delay", "2", "--seconds", "30"])
        let said = try Self.waitFor(desktops.a, seconds: 60) { ($0["notice"] as? String)?.contains("did not say in time") == true }
        #expect((said["notice"] as? String)?.contains("the copy was not offered: its program marks passwords") == true, "\(said) \(desktops.a.log)")
        #expect(Self.offered(said) == nil)
        // The owner has answered everything by now: still nothing reached beta.
        #expect(eventually { (try? desktops.targets(0))?.contains("UTF8_STRING") == true })
        #expect(Self.received(try Self.status(desktops.b)) == nil)
        #expect(!desktops.b.log.contains("took"), "\(desktops.b.log)")
        #expect(!desktops.a.log.contains("hunter2"), "\(desktops.a.log)")
        _ = late
    }

    @Test func manualOffersOnlyWhenPushedAndOffNeither() throws {
        let desktops = try Desktops(tag: "cm", config: "handoff: {clipboard: manual}\n", betaConfig: "handoff: {clipboard: manual}\n")
        let copy = try desktops.a.afterwards(saying: "clipboard: the clipboard changed here (manual: offered only when pushed)") {
            try desktops.xclip(0, Data("only when pushed".utf8))
        }
        #expect(Self.received(try Self.status(desktops.b)) == nil)
        let pushed = try desktops.a.run("handoff", "clipboard", "push")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(pushed.stdout.hasPrefix("Offered “only when pushed” (text, 16 bytes) to beta until "), "\(pushed.stdout)")
        #expect(try desktops.paste("UTF8_STRING", on: 1) == Data("only when pushed".utf8))
        _ = copy

        let off = try Desktops(tag: "co", config: "handoff: {clipboard: off}\n")
        // Off: no agent watches (the daemon said so as it started), so nothing can follow a copy.
        #expect(eventually { off.a.said("clipboard: off (config handoff.clipboard)") == 1 }, "\(off.a.log)")
        let offCopy = try off.xclip(0, Data("never".utf8))
        #expect(Self.received(try Self.status(off.b)) == nil)
        let refused = try off.a.run("handoff", "clipboard", "push")
        #expect(refused.status == 2)
        #expect(refused.stderr == "actshare: the Universal Clipboard is off here (config handoff.clipboard: manual or auto turns it on)\n")
        #expect(try off.targets(1).isEmpty)
        _ = offCopy
    }

    @Test func anOfferExpires() throws {
        let desktops = try Desktops(tag: "ce", config: "handoff: {clipboard: auto, clipboard-expires: 5s}\n")
        let copy = try desktops.xclip(0, Data("short-lived".utf8))
        let taken = try Self.waitFor(desktops.b) { Self.received($0) != nil }
        let received = try #require(Self.received(taken))
        let created = try #require(received["created"] as? Double), expires = try #require(received["expires"] as? Double)
        #expect(abs(expires - created - 5) < 0.01)
        let gone = try Self.waitFor(desktops.b, seconds: 8) { Self.received($0) == nil }
        #expect(Self.received(gone) == nil)
        #expect(try desktops.targets(1).isEmpty)
        // Alpha no longer serves it either.
        #expect(Self.offered(try Self.status(desktops.a)) == nil)
        _ = copy
    }

    @Test func theOriginGoneAnswersThePasteAtOnce() throws {
        let desktops = try Desktops(tag: "cg")
        let copy = try desktops.xclip(0, Data("from a daemon that stops".utf8))
        try Self.waitFor(desktops.b) { Self.received($0) != nil }
        desktops.a.stop()
        // Answered from the refused connection, not after waiting out a timeout.
        let pasted = try desktops.paste("UTF8_STRING", on: 1)
        #expect(pasted.isEmpty)
        #expect(desktops.b.log.contains("clipboard: cannot fetch from alpha") && !desktops.b.log.contains("timed out"), "\(desktops.b.log.suffix(1200))")
        _ = copy
    }

    @Test func theNewestCopyWinsOnBothDevices() throws {
        let desktops = try Desktops(tag: "cn")
        let first = try desktops.xclip(0, Data("older, from alpha".utf8))
        let second = try desktops.xclip(1, Data("newer, from beta".utf8))
        // Each has had the other's offer: alpha took beta's; beta took alpha's before its
        // own copy, or did not, its own being newer.
        #expect(eventually { desktops.a.said("clipboard: took ") >= 1 }, "\(desktops.a.log.suffix(1200))")
        #expect(eventually { desktops.b.said("clipboard: took ") + desktops.b.said("clipboard: did not take ") >= 1 }, "\(desktops.b.log.suffix(1200))")
        #expect(try desktops.paste("UTF8_STRING", on: 0) == Data("newer, from beta".utf8))
        #expect(try desktops.paste("UTF8_STRING", on: 1) == Data("newer, from beta".utf8))
        _ = (first, second)
    }

    @Test func aDeviceMarkedClipboardFalseIsLeftOut() throws {
        let desktops = try Desktops(tag: "cf")
        let file = "\(desktops.a.sandbox.root)/state/actshare/paired-devices.json"
        let paired = try String(contentsOfFile: file, encoding: .utf8)
        try paired.replacingOccurrences(of: "\"name\" :", with: "\"clipboard\" : false,\n    \"name\" :").write(toFile: file, atomically: true, encoding: .utf8)
        desktops.a.stop()
        try desktops.a.start()
        // Copied once the restarted daemon watches the display (on a busy machine its agent
        // takes a while, and a copy made before it watches is not one it saw happen).
        try Self.waitFor(desktops.a, seconds: 15) { $0["display"] != nil }
        let copy = try desktops.xclip(0, Data("not for beta".utf8))
        // Offered, to no one: beta is left out when the offer is made.
        let offered = try Self.waitFor(desktops.a) { Self.offered($0) != nil }
        #expect(Self.offered(offered)?["to"] as? [String] == [])
        #expect(Self.received(try Self.status(desktops.b)) == nil)
        _ = copy
    }

    @Test func filesCopiedInAFileManagerPasteAsFilesOnTheOtherDevice() throws {
        let desktops = try Desktops(tag: "cl")
        let contents = ["notes.txt": "Notizen ✓\n", "Bericht 2026.pdf": "%PDF-1.4 not really\n", "图片.png": "\u{89}PNG…"]
        var paths: [String] = []
        for (name, text) in contents.sorted(by: { $0.key < $1.key }) { paths.append(try desktops.a.sandbox.file(name, text)) }
        let copied = try desktops.a.sandbox.run(["perform", "org.actshare.copy-to-clipboard"] + paths)
        #expect(copied.status == 0, "\(copied.stderr)")
        let taken = try Self.waitFor(desktops.b) { Self.received($0) != nil }
        #expect(Self.received(taken) != nil, "\(desktops.b.log.suffix(1000))")
        // Nothing travels before the paste.
        let downloads = "\(desktops.b.sandbox.root)/home/Downloads"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? []).isEmpty)
        let here = contents.keys.sorted().map { "\(downloads)/\($0)" }
        let uris = String(decoding: try desktops.paste("text/uri-list", on: 1), as: UTF8.self)
        #expect(uris == here.map { Self.fileURI($0) + "\r\n" }.joined(), "\(uris) \(desktops.b.log.suffix(1500))")
        for (name, text) in contents { #expect((try? String(contentsOfFile: "\(downloads)/\(name)", encoding: .utf8)) == text, "\(name)") }
        #expect(String(decoding: try desktops.paste("x-special/gnome-copied-files", on: 1), as: UTF8.self)
            == (["copy"] + here.map(Self.fileURI)).joined(separator: "\n"))
        #expect(String(decoding: try desktops.paste("UTF8_STRING", on: 1), as: UTF8.self) == here.joined(separator: "\n"))
        // Sent once, however many formats were pasted.
        #expect(try FileManager.default.contentsOfDirectory(atPath: downloads).count == 3)
    }

    @Test func copyToDeviceOffersTextOrFilesWithoutReadingThisClipboard() throws {
        let desktops = try Desktops(tag: "cd", config: "handoff: {clipboard: manual}\n")
        // Text: pasted on beta under every text target; alpha's own clipboard untouched.
        let text = "Notiz für beta — 给 beta ✓"
        let pushed = try desktops.a.run("handoff", "clipboard", "push", "--device", "beta", "--text", text, "--json")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let taken = try Self.waitFor(desktops.b) { Self.received($0)?["preview"] as? String == text }
        #expect(Self.received(taken)?["device"] as? String == "alpha", "\(desktops.b.log.suffix(800))")
        for target in ["UTF8_STRING", "text/plain;charset=utf-8", "text/plain"] {
            #expect(try desktops.paste(target, on: 1) == Data(text.utf8), "\(target)")
        }
        #expect(try desktops.targets(0).isEmpty, "alpha's clipboard was not to change")
        // Files: offered as files, sent when pasted there.
        let report = try desktops.a.sandbox.file("Bericht.txt", "Zahlen ✓\n")
        let files = try desktops.a.run("handoff", "clipboard", "push", "--device", "beta", report)
        #expect(files.status == 0, "\(files.stderr)")
        let filesTaken = try Self.waitFor(desktops.b) { (Self.received($0)?["files"] as? [String]) == ["Bericht.txt"] }
        #expect(Self.received(filesTaken)?["files"] as? [String] == ["Bericht.txt"], "\(filesTaken)")
        let said = try desktops.b.run("handoff", "clipboard", "status")
        #expect(said.stdout.contains("From alpha: the file “Bericht.txt”"), "\(said.stdout)")
        let downloads = "\(desktops.b.sandbox.root)/home/Downloads"
        let uris = String(decoding: try desktops.paste("text/uri-list", on: 1), as: UTF8.self)
        #expect(uris == Self.fileURI("\(downloads)/Bericht.txt") + "\r\n", "\(uris) \(desktops.b.log.suffix(1000))")
        #expect((try? String(contentsOfFile: "\(downloads)/Bericht.txt", encoding: .utf8)) == "Zahlen ✓\n")
        // What cannot be offered is said, and nothing is offered.
        let missing = try desktops.a.run("handoff", "clipboard", "push", "\(desktops.a.sandbox.root)/not-there.txt")
        #expect(missing.status != 0 && missing.stderr.contains("not-there.txt"), "\(missing.stderr)")
        let both = try desktops.a.run("handoff", "clipboard", "push", "--text", "x", report)
        #expect(both.status != 0 && both.stderr.contains("not both"), "\(both.stderr)")
    }

    /// A paired device that lies, with alpha's real identity (lying-peer.py): every field
    /// of its offers is checked, and it fetches only what was offered to it.
    @Test func aLyingPairedDeviceIsHeldToTheRules() throws {
        let desktops = try Desktops(tag: "cx")
        let aState = "\(desktops.a.sandbox.root)/state/actshare"
        func send(_ message: String) throws -> String {
            let run = try desktops.link.run(0, ["/usr/bin/python3", "\(HandoffTests.fixtures)/lying-peer.py", "send", aState,
                                                "\(desktops.link.address(1)):\(desktops.b.port)", message], environment: [:], timeout: 20)
            #expect(run.status == 0, "\(message): \(run.stderr.suffix(300))")
            return run.stdout
        }
        let hash = String(repeating: "ab", count: 32)
        func offer(_ targets: String, id: String = "1234567890abcdef", extra: String = "") -> String {
            #"{"type": "clipboard-offer", "clipboard": {"id": "\#(id)", "created": 4102444800, "expires": 4102444920, "targets": \#(targets)\#(extra)}}"#
        }
        let lies = [
            offer(#"[{"name": "UTF8 STRING", "size": 3, "sha256": "\#(hash)"}]"#),
            offer(#"[{"name": "UTF8_STRING\u001b[2J", "size": 3, "sha256": "\#(hash)"}]"#),
            offer(#"[{"name": "UTF8_STRING", "size": 1099511627776, "sha256": "\#(hash)"}]"#),
            offer(#"[{"name": "UTF8_STRING", "size": 3, "sha256": "not-a-hash"}]"#),
            offer("[" + (0..<33).map { #"{"name": "t\#($0)", "size": 1, "sha256": "\#(hash)"}"# }.joined(separator: ",") + "]"),
            offer(#"[{"name": "UTF8_STRING", "size": 3, "sha256": "\#(hash)"}]"#, id: "x;touch pwned"),
            offer(#"[{"name": "image/png", "size": 3, "sha256": "\#(hash)"}]"#, extra: #", "files": ["a.txt"]"#),
            // File names with a format of files: a path is refused, whatever climbs out or down.
            offer(#"[{"name": "text/uri-list", "size": 3, "sha256": "\#(hash)"}]"#, extra: #", "files": ["../../.bashrc"]"#),
            offer(#"[{"name": "text/uri-list", "size": 3, "sha256": "\#(hash)"}]"#, extra: #", "files": ["sub/a.txt"]"#),
            offer(#"[{"name": "text/uri-list", "size": 3, "sha256": "\#(hash)"}]"#, extra: #", "files": [".."]"#),
            offer(#"[{"name": "UTF8_STRING", "size": 3, "sha256": "\#(hash)"}]"#, extra: #", "preview": "\u001b]52;c;AAAA\u0007""#),
        ]
        for lie in lies {
            let reply = try send(lie)
            #expect(reply.contains(#""error""#) && reply.contains("refused"), "\(lie): \(reply)")
        }
        #expect(Self.received(try Self.status(desktops.b)) == nil)
        // An offer in form is taken (so the refusals above could have failed)…
        let good = try send(offer(#"[{"name": "UTF8_STRING", "size": 3, "sha256": "\#(hash)"}]"#))
        #expect(good.contains(#""ok""#), "\(good)")
        let taken = try #require(Self.received(try Self.status(desktops.b)))
        #expect(taken["id"] as? String == "1234567890abcdef")
        // …and so is one of files with a plain name and a format of files.
        let named = try send(offer(#"[{"name": "text/uri-list", "size": 3, "sha256": "\#(hash)"}]"#, id: "1234567890abcdee", extra: #", "files": ["a.txt"]"#))
        #expect(named.contains(#""ok""#), "\(named)")
        #expect(Self.received(try Self.status(desktops.b))?["files"] as? [String] == ["a.txt"])
        _ = try send(offer(#"[{"name": "UTF8_STRING", "size": 3, "sha256": "\#(hash)"}]"#))
        // Its clock is not believed: no offer from the year 2100, none longer than 2 minutes.
        let now = Date().timeIntervalSince1970
        #expect((taken["created"] as? Double ?? 0) < now + 10 && (taken["expires"] as? Double ?? .infinity) <= now + 121, "\(taken)")
        // …and its bytes, fetched from the liar, are checked: they are not what it offered,
        // so the paste gets nothing.
        #expect(try desktops.paste("UTF8_STRING", on: 1, seconds: 5).isEmpty)

        // Beta's own offer goes to alpha; a fetch of another id, or of a hash it does not
        // hold, gets nothing; the real one gets the bytes.
        let copy = try desktops.xclip(1, Data("beta's words".utf8))
        let offered = try #require(Self.offered(try Self.waitFor(desktops.b) { Self.offered($0)?["to"] as? [String] == ["alpha"] }))
        let id = try #require(offered["id"] as? String)
        let wrongID = try send(#"{"type": "clipboard-fetch", "id": "ffffffffffffffff", "sha256": "\#(hash)"}"#)
        #expect(wrongID.contains("no such clipboard offer"), "\(wrongID)")
        let wrongHash = try send(#"{"type": "clipboard-fetch", "id": "\#(id)", "sha256": "\#(hash)"}"#)
        #expect(wrongHash.contains("no such clipboard offer"), "\(wrongHash)")
        let files = try send(#"{"type": "clipboard-files", "id": "\#(id)"}"#)
        #expect(files.contains("no such clipboard offer of files"), "\(files)")
        _ = copy
    }

    @Test func aLargePasteNeverEndsWithBytesOtherThanThoseOffered() throws {
        // A large paste starts while its bytes still arrive; its end waits for their hash.
        // A liar with alpha's identity offers 3 MiB, then serves 3 MiB of something else.
        let desktops = try Desktops(tag: "ck")
        let aState = "\(desktops.a.sandbox.root)/state/actshare", liarScript = "\(HandoffTests.fixtures)/lying-peer.py"
        let size = 3 << 20, hash = String(repeating: "ab", count: 32)
        desktops.a.stop()
        let link = desktops.link
        let serve = ["netns", "exec", link.hosts[0], "/usr/bin/python3", liarScript, "serve", aState, "\(link.address(0)):\(desktops.a.port)", "10", String(size)]
        let liar = HandoffTests.background { try? Sandbox.execute(NetworkLink.ip, serve, environment: [:], stdin: nil, timeout: 20) }
        #expect(eventually { link.listening(0, port: desktops.a.port) }, "the lying server does not listen")
        let offer = #"{"type": "clipboard-offer", "clipboard": {"id": "1234567890abcdef", "created": 4102444800, "expires": 4102444920, "targets": [{"name": "image/png", "size": \#(size), "sha256": "\#(hash)"}]}}"#
        let sent = try link.run(0, ["/usr/bin/python3", liarScript, "send", aState, "\(link.address(1)):\(desktops.b.port)", offer], environment: [:], timeout: 20)
        #expect(sent.stdout.contains(#""ok""#), "\(sent.stdout) \(sent.stderr.suffix(300))")
        let pasted = try desktops.paste("image/png", on: 1, seconds: 4)
        #expect(pasted.count < size, "the paste ended with \(pasted.count) bytes that are not those offered")
        eventually { desktops.b.log.contains("cannot fetch") }
        #expect(desktops.b.log.contains("damaged"), "\(desktops.b.log.suffix(1200))")
        _ = liar()
    }

    static func fileURI(_ path: String) -> String {
        "file://" + path.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/"))!
    }
}
