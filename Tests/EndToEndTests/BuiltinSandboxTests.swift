import Foundation
import Testing

/// The built-in providers run sandboxed (ACTSHARE_ISOLATION=process) with the permissions
/// their manifests declare: the declarations are what they need, and no more is given.
@Suite struct BuiltinSandboxTests {
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        sandbox.extraEnvironment["ACTSHARE_ISOLATION"] = "process"
        sandbox.extraEnvironment["EMAIL"] = ""
        return sandbox
    }

    @Test func providersSaysTheyAreSandboxed() throws {
        let listed = try Self.sandbox().run("providers")
        #expect(listed.stdout.contains(
            "sandboxed: reads the shared items, $XDG_STATE_HOME/actshare; writes to $XDG_RUNTIME_DIR/actshare/qrcode; no network; runs no programs; "
                + "hands the shared items to your paired devices, or to the phone that scans the QR code it shows"), "\(listed.stdout)")
        #expect(listed.stdout.contains("sandboxed: reads the shared items; writes to the folder named by option spool; no network; runs programs\n"))
        #expect(listed.stdout.contains(
            "sandboxed: reads the shared items; writes nothing of yours; no network; runs programs; uses the display (it can see and type into your windows on X11); may keep a process running after the activity"))
    }

    /// Copy's X11 server outlives the call (background: true), sandboxed (it reaches the
    /// display, `display: true`, and nothing else), and pastes: in xclip, GTK and Qt.
    @Test func copyLeavesItsServerToPaste() throws {
        let display = try ClipboardTests.Display()
        let sandbox = try Self.sandbox()
        sandbox.extraEnvironment["DISPLAY"] = display.name
        let text = "copied from a sandbox ✓"
        let run = try sandbox.run("perform", "org.actshare.copy-to-clipboard", "--text", text, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ClipboardTests.paste("UTF8_STRING", display: display) == Data(text.utf8))
        let desktop = ["DISPLAY": display.name, "GDK_BACKEND": "x11", "QT_QPA_PLATFORM": "xcb", "HOME": "\(sandbox.root)/home",
                       "XDG_RUNTIME_DIR": "\(sandbox.root)/runtime", "PATH": "/usr/bin:/bin", "GSK_RENDERER": "cairo"]
        for toolkit in ["gtk", "qt"] {
            let pasted = try Sandbox.execute("/usr/bin/python3", ["\(HandoffTests.fixtures)/\(toolkit)-paste.py"], environment: desktop, stdin: nil, timeout: 30)
            #expect(pasted.stdout == text, "\(toolkit): \(pasted.stdout) \(pasted.stderr.prefix(300))")
        }
        let file = try sandbox.file("notes.txt", "a file's words\n")
        #expect(try sandbox.run("perform", "org.actshare.copy-to-clipboard", file).status == 0)
        #expect(try ClipboardTests.paste("text/uri-list", display: display) == Data("file://\(file)\r\n".utf8))
    }

    @Test func printToPDFWritesWhereItIsTold() throws {
        let sandbox = try Self.sandbox()
        let text = try sandbox.file("notes.txt", "English words on a page.\n中文测试：你好，世界。\n")
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let run = try sandbox.run("perform", "org.actshare.print-to-pdf", text, "-o", "output-dir=\(output)", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let info = try PrintToPDFTests.info("\(output)/notes.pdf")
        #expect(info["Pages"] == "1")
        // A file named with `output`: its folder is where it may write.
        let named = "\(sandbox.root)/elsewhere/named.pdf"
        try FileManager.default.createDirectory(atPath: "\(sandbox.root)/elsewhere", withIntermediateDirectories: true)
        #expect(try sandbox.run("perform", "org.actshare.print-to-pdf", text, "-o", "output=\(named)").status == 0)
        #expect(FileManager.default.fileExists(atPath: named))
        // A file named in the home folder: granted alone (not the home folder), written in place.
        let inHome = "\(sandbox.root)/home/direct.pdf"
        let direct = try sandbox.run("perform", "org.actshare.print-to-pdf", text, "-o", "output=\(inHome)")
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(try PrintToPDFTests.info(inHome)["Pages"] == "1")
        // With neither, ~/Documents.
        try FileManager.default.createDirectory(atPath: "\(sandbox.root)/home/Documents", withIntermediateDirectories: true)
        #expect(try sandbox.run("perform", "org.actshare.print-to-pdf", text).status == 0)
        #expect(FileManager.default.fileExists(atPath: "\(sandbox.root)/home/Documents/notes.pdf"))
    }

    @Test(arguments: ["maildir", "mbox"])
    func mailWritesItsSpool(_ kind: String) throws {
        let sandbox = try Self.sandbox()
        let spool = kind == "maildir" ? "\(sandbox.root)/Mail" : "\(sandbox.root)/mail/mbox"
        try FileManager.default.createDirectory(atPath: kind == "maildir" ? spool : "\(sandbox.root)/mail", withIntermediateDirectories: true)
        let attachment = try sandbox.file("report.txt", "figures\n")
        let run = try sandbox.run(
            "perform", "org.actshare.mail", "--text", "sandboxed", attachment, "-o", "to=reader@example.org",
            "-o", "from=me@example.org", "-o", "spool=\(kind):\(spool)", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let messages = try MailTests.read(kind, spool)
        #expect(messages.count == 1)
        #expect((messages.first?["texts"] as? [[String: Any]])?.first?["text"] as? String == "sandboxed\n")
        #expect(!FileManager.default.fileExists(atPath: spool + ".lock"))
    }
}

extension HandoffTests {
    @Test func handOffRunsSandboxed() throws {
        let (a, b) = try Self.pairedMachines()
        a.sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        a.sandbox.extraEnvironment["ACTSHARE_ISOLATION"] = "process"
        #expect(try a.run("list", "--text", "x", "--json").listedTypes().contains("org.actshare.handoff"), "its can-perform reads the paired devices")
        let sent = try a.run("perform", "org.actshare.handoff", "https://example.org/sandboxed", "-o", "device=beta")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try b.run("handoff", "list").stdout.contains("alpha  org.actshare.handoff.url  https://example.org/sandboxed"))
    }

    /// The daemon acts for no sandboxed process; a provider that may hand off gets a
    /// connection actshare opened, which hands off its items and nothing else.
    @Test func aSandboxedProviderCannotMakeTheDaemonItsDeputy() throws {
        let (a, b) = try Self.pairedMachines()
        // Confined as a provider is (no new privileges, a seccomp filter): refused, whatever it asks.
        let marker = "\(a.sandbox.root)/owned"
        let publish = #"{"op":"become-current","activity":{"type":"org.example.x","title":"x","user_info":{},"version":1,"on_continued":["/bin/touch","\#(marker)"]}}"#
        let script = "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode()+b'\\n'); print(s.makefile().readline(), end='')"
        let noLandlock = "\(Sandbox.repository)/.build/bin/no-landlock"
        let confined = try Sandbox.execute(noLandlock, ["/usr/bin/python3", "-c", script, a.socket, publish], environment: a.sandbox.environment, stdin: nil)
        #expect(confined.stdout.contains(#""ok":false"#) && confined.stdout.contains("actshare's daemon does not act for a sandboxed process"), "\(confined.stdout) \(confined.stderr)")
        let devices = try Sandbox.execute(noLandlock, [Sandbox.binary, "handoff", "devices"], environment: a.sandbox.environment, stdin: nil)
        #expect(devices.status == 1)
        #expect(devices.stderr.hasPrefix("actshare: actshare's daemon does not act for a sandboxed process (pid "), "\(devices.stderr)")
        #expect(try a.run("activity", "list").stdout.isEmpty, "nothing was published")

        // A provider with handoff: true, on its connection: its item goes; a secret, a
        // pairing, an unpairing and a command do not.
        let directory = "\(a.sandbox.root)/intruder"
        a.sandbox.providerPath.insert(directory, at: 0)
        try Sandbox.write(SandboxTests.manifest(permissions: "  handoff: true"), to: "\(directory)/provider.yaml")
        let item = try a.sandbox.file("shared.txt", "shared words\n")
        let secret = "\(a.sandbox.root)/home/secret.txt"
        try "top secret\n".write(toFile: secret, atomically: true, encoding: .utf8)
        func ask(_ line: String) throws -> (status: Int32, answer: String) {
            let run = try a.run("perform", "org.test.intruder.handoff", item, "-o", "target=\(line)", "--json")
            let answer = (try run.json()["returned_items"] as? [[String: Any]])?.first?["text"] as? String ?? ""
            return (run.status, answer)
        }
        let refused = "this connection may only hand off the items actshare gave the provider"
        for line in [
            #"{"op":"send-files","paths":["\#(secret)"],"devices":["beta"]}"#,
            #"{"op":"send-files","paths":["\#(item)/../../home/secret.txt"],"devices":["beta"]}"#,
            #"{"op":"unpair","device":"beta"}"#,
            #"{"op":"pair","host":"127.0.0.1","port":9}"#,
            publish,
            #"{"op":"send","device":"beta","activity":{"type":"org.example.x","title":"x","user_info":{},"version":1,"needs_save_command":["/bin/true"]}}"#,
            #"{"op":"restrict","paths":["/"]}"#,
            // The Universal Clipboard is the user's: a provider neither reads it nor offers what
            // it was not given.
            #"{"op":"clipboard-push"}"#,
            #"{"op":"clipboard-push","paths":["\#(secret)"],"devices":["beta"]}"#,
            #"{"op":"clipboard-status"}"#,
        ] {
            let (status, answer) = try ask(line)
            #expect(status == 1, "\(line)")
            #expect(answer.contains(refused) || answer.contains("restricted already"), "\(line): \(answer)")
        }
        // Its own items may go onto a device's clipboard, as they may be sent (here beta
        // takes no clipboard: it has no display, which is beta's answer, not the restriction).
        let copied = try ask(#"{"op":"clipboard-push","paths":["\#(item)"],"devices":["beta"]}"#)
        #expect(!copied.answer.contains(refused), "\(copied.answer)")
        let sent = try ask(#"{"op":"send-files","paths":["\#(item)"],"devices":["beta"]}"#)
        #expect(sent.status == 0, "\(sent.answer)")
        let received = try b.run("handoff", "received", "--json").stdout
        #expect(received.contains("shared.txt") && !received.contains("secret.txt"), "\(received)")
        #expect(try a.run("handoff", "devices").stdout.contains("beta"), "still paired")
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(try a.run("activity", "list").stdout.isEmpty, "nothing was published")

        // A link in an item folder (one a provider with write: [items] may write in) leads
        // nowhere: the path is found from the item's descriptor, never through a link.
        let folder = "\(a.sandbox.root)/home/project"
        try FileManager.default.createDirectory(atPath: "\(folder)/sub", withIntermediateDirectories: true)
        try "notes\n".write(toFile: "\(folder)/notes.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/key", withDestinationPath: secret)
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/home", withDestinationPath: "\(a.sandbox.root)/home")
        for path in ["\(folder)/key", "\(folder)/home/secret.txt"] {
            let run = try a.run("perform", "org.test.intruder.handoff", folder, "-o",
                                #"target={"op":"send-files","paths":["\#(path)"],"devices":["beta"]}"#, "--json")
            let answer = (try run.json()["returned_items"] as? [[String: Any]])?.first?["text"] as? String ?? ""
            #expect(run.status == 1 && answer.contains("symbolic link: a provider's send follows none"), "\(path): \(answer) \(run.stderr)")
        }
        let notes = try a.run("perform", "org.test.intruder.handoff", folder, "-o",
                              #"target={"op":"send-files","paths":["\#(folder)/notes.txt"],"devices":["beta"]}"#, "--json")
        #expect(notes.status == 0, "what is the item's goes: \(notes.stdout) \(notes.stderr)")
        let after = try b.run("handoff", "received", "--json").stdout
        #expect(after.contains("notes.txt") && !after.contains("secret.txt") && !after.contains("\"key\""), "\(after)")
    }
}
