import Foundation
import Testing

/// Mail in the user's own mail client (spool `auto`, the default, and `client`): real
/// clients from Debian, made the user's `mailto` application through mimeapps.list, open
/// a compose window on a desktop of the test's own; the draft each saves (Ctrl+S) is read
/// back by Python's `email`, as MailTests reads what actshare writes itself.
@Suite(.serialized) struct MailClientTests {
    /// A sandbox on a desktop of its own whose `mailto` application is `desktopFile`.
    static func desktopSandbox(mailto desktopFile: String) throws -> (Sandbox, AccessibleDesktop) {
        let sandbox = try MailTests.sandbox()
        let desktop = try AccessibleDesktop.showing(sandbox)
        try mailto(desktopFile, in: sandbox)
        return (sandbox, desktop)
    }

    static func mailto(_ desktopFile: String, in sandbox: Sandbox) throws {
        try "[Default Applications]\nx-scheme-handler/mailto=\(desktopFile)\n"
            .write(toFile: "\(sandbox.root)/config/mimeapps.list", atomically: true, encoding: .utf8)
    }

    /// Ends every program started with this sandbox's home (the clients leave actshare
    /// behind them, started apart from it, as a desktop user's would be).
    static func endPrograms(of sandbox: Sandbox) {
        let mark = Data("HOME=\(sandbox.root)/home\0".utf8)
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != getpid(),
                  let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ"), environment.range(of: mark) != nil
            else { continue }
            kill(pid, SIGKILL)
        }
    }

    /// Saves the compose window `window` as a draft: focused by the window manager, then
    /// Ctrl+S, pressed again until the client wrote the draft where `draft` finds it.
    static func saveDraft(_ desktop: AccessibleDesktop, window: String, until draft: () -> Bool) throws {
        let saved = try eventually(every: 2) {
            if draft() { return true }
            let environment = ["DISPLAY": desktop.display.name]
            _ = try Sandbox.execute("/usr/bin/xdotool", ["windowactivate", "--sync", window], environment: environment, stdin: nil, timeout: 20)
            _ = try Sandbox.execute("/usr/bin/xdotool", ["key", "--clearmodifiers", "ctrl+s"], environment: environment, stdin: nil, timeout: 20)
            return false
        }
        #expect(saved, "the compose window saved no draft")
    }

    /// Two files, one whose name has a comma and a quote, as a desktop user shares them.
    static func files(_ sandbox: Sandbox) throws -> (String, String) {
        (try sandbox.file("Trip notes.txt", "day one: Lyon\n"), try sandbox.file("it's, here.txt", "name with, comma 'q'\n"))
    }

    static let subject = "Trip, 'notes' & more"

    /// What a client's draft must hold: the recipient, the subject, the text in the body,
    /// and both files attached by name, byte for byte.
    static func expectDraft(_ draft: [String: Any], to: [[String]]) {
        #expect(draft["subject"] as? String == subject)
        #expect(draft["to"] as? [[String]] == to, "\(draft["to"] ?? "none")")
        let texts = (draft["texts"] as? [[String: Any]])?.compactMap { $0["text"] as? String } ?? []
        #expect(texts.contains { $0.contains("See the files, then call me") }, "\(texts)")
        let attachments = (draft["attachments"] as? [[String: Any]]) ?? []
        #expect(attachments.compactMap { $0["name"] as? String } == ["Trip notes.txt", "it's, here.txt"])
        #expect(attachments.compactMap { $0["hex"] as? String }
                == [Data("day one: Lyon\n".utf8), Data("name with, comma 'q'\n".utf8)].map { $0.map { String(format: "%02x", $0) }.joined() })
    }

    /// Claws Mail: --compose with a mailto: URI, --attach with the files.
    @Test func clawsMailOpensWithTheRecipientTheSubjectAndBothFiles() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/claws-mail"), "claws-mail is not installed: run scripts/install-deps")
        let (sandbox, desktop) = try Self.desktopSandbox(mailto: "claws-mail.desktop")
        defer { Self.endPrograms(of: sandbox) }
        // An account of its own (SMTP only) and an MH mailbox, so that Claws Mail starts
        // without its set-up wizard; no spelling checker, whose error would cover the window.
        let home = "\(sandbox.root)/home"
        for folder in ["inbox", "sent", "queue", "trash", "draft"] {
            try FileManager.default.createDirectory(atPath: "\(home)/Mail/\(folder)", withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: "\(home)/.claws-mail", withIntermediateDirectories: true)
        try """
            [Account: 1]
            account_name=Test
            is_default=1
            name=Ann Tester
            address=ann@example.org
            protocol=6
            smtp_server=localhost

            """.write(toFile: "\(home)/.claws-mail/accountrc", atomically: true, encoding: .utf8)
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <folderlist>
            <folder type="mh" name="Mailbox" path="Mail" sort="0" collapsed="0">
            <folderitem type="inbox" name="inbox" path="inbox"/>
            <folderitem type="outbox" name="sent" path="sent"/>
            <folderitem type="queue" name="queue" path="queue"/>
            <folderitem type="trash" name="trash" path="trash"/>
            <folderitem type="draft" name="draft" path="draft"/>
            </folder>
            </folderlist>

            """.write(toFile: "\(home)/.claws-mail/folderlist.xml", atomically: true, encoding: .utf8)
        try "[Common]\nenable_aspell=0\n".write(toFile: "\(home)/.claws-mail/clawsrc", atomically: true, encoding: .utf8)

        let (first, second) = try Self.files(sandbox)
        let run = try sandbox.run([
            "perform", "org.actshare.mail", "--text", "See the files, then call me", first, second,
            "-o", "to=Bob Doe <bob@example.org>", "--subject", Self.subject, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect((try run.json()["returned_items"] as? [[String: Any]])?.first?["text"] as? String == "opened in Claws Mail")
        let window = try desktop.window("Trip, 'notes' & more - Compose message")
        try DesktopSession.screenshot(of: desktop.display.name, to: "\(ShareSheetTests.artefacts)/mail-claws.png")
        let draft = "\(home)/Mail/draft/1"
        try Self.saveDraft(desktop, window: window) { FileManager.default.fileExists(atPath: draft) }
        // Claws Mail writes its own headers first, then the message.
        let message = try #require(try MailTests.read("message", draft).first)
        Self.expectDraft(message, to: [["Bob Doe", "bob@example.org"]])
    }

    /// Thunderbird: -compose with its key=value list, whose values hold a comma and a quote
    /// (the subject, a Cc's display name, a file's name), as its own reader takes them.
    @Test func thunderbirdOpensWithEveryValueAsGivenEvenCommasAndQuotes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/thunderbird"), "thunderbird is not installed: run scripts/install-deps")
        let (sandbox, desktop) = try Self.desktopSandbox(mailto: "thunderbird.desktop")
        defer { Self.endPrograms(of: sandbox) }
        // A profile of the test's own, its default: one identity, Local Folders (where a
        // draft goes), no first-run pages. MOZ_LEGACY_PROFILES: the profile profiles.ini
        // names, not one Thunderbird would make for its installation.
        let home = "\(sandbox.root)/home", profile = "\(sandbox.root)/home/tb-profile"
        try FileManager.default.createDirectory(atPath: "\(home)/.thunderbird", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        try "[Profile0]\nName=actshare\nIsRelative=0\nPath=\(profile)\nDefault=1\n\n[General]\nStartWithLastProfile=1\nVersion=2\n"
            .write(toFile: "\(home)/.thunderbird/profiles.ini", atomically: true, encoding: .utf8)
        let preferences: [(String, String)] = [
            ("mail.account.account1.identities", "\"id1\""), ("mail.account.account1.server", "\"server1\""),
            ("mail.account.account2.server", "\"server2\""), ("mail.accountmanager.accounts", "\"account1,account2\""),
            ("mail.accountmanager.defaultaccount", "\"account1\""), ("mail.accountmanager.localfoldersserver", "\"server2\""),
            ("mail.identity.id1.fullName", "\"Ann Tester\""), ("mail.identity.id1.useremail", "\"ann@example.org\""),
            ("mail.identity.id1.valid", "true"), ("mail.identity.id1.draft_folder", "\"mailbox://nobody@Local%20Folders/Drafts\""),
            ("mail.identity.id1.drafts_folder_picker_mode", "\"1\""), ("mail.server.server1.hostname", "\"localhost\""),
            ("mail.server.server1.name", "\"ann@example.org\""), ("mail.server.server1.type", "\"pop3\""),
            ("mail.server.server1.userName", "\"ann\""), ("mail.server.server1.login_at_startup", "false"),
            ("mail.server.server2.hostname", "\"Local Folders\""), ("mail.server.server2.name", "\"Local Folders\""),
            ("mail.server.server2.type", "\"none\""), ("mail.server.server2.userName", "\"nobody\""),
            ("mail.shell.checkDefaultClient", "false"), ("mail.provider.enabled", "false"), ("mailnews.start_page.enabled", "false"),
            ("mail.rights.version", "1"), ("app.update.enabled", "false"), ("toolkit.telemetry.reportingpolicy.firstRun", "false"),
            ("datareporting.policy.dataSubmissionPolicyBypassNotification", "true"), ("mail.spellcheck.inline", "false"),
        ]
        try preferences.map { "user_pref(\"\($0.0)\", \($0.1));\n" }.joined()
            .write(toFile: "\(profile)/user.js", atomically: true, encoding: .utf8)
        sandbox.extraEnvironment["MOZ_LEGACY_PROFILES"] = "1"

        let (first, second) = try Self.files(sandbox)
        let run = try sandbox.run([
            "perform", "org.actshare.mail", "--text", "See the files, then call me", first, second,
            "-o", "to=Bob Doe <bob@example.org>", "-o", "cc=\"Doe, J\" <j@example.org>", "--subject", Self.subject, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect((try run.json()["returned_items"] as? [[String: Any]])?.first?["text"] as? String == "opened in Thunderbird")
        let window = try desktop.window("Write: Trip, 'notes' & more - Thunderbird")
        let drafts = "\(profile)/Mail/Local Folders/Drafts"
        try Self.saveDraft(desktop, window: window) {
            ((try? Data(contentsOf: URL(fileURLWithPath: drafts)))?.count ?? 0) > 0 && ((try? MailTests.read("mbox", drafts).count) ?? 0) > 0
        }
        let message = try #require(try MailTests.read("mbox", drafts).first)
        Self.expectDraft(message, to: [["Bob Doe", "bob@example.org"]])
        #expect(message["cc"] as? [[String]] == [["Doe, J", "j@example.org"]], "\(message["cc"] ?? "none")")
    }

    /// neomutt in the terminal actshare runs on: its compose screen, with both files.
    @Test func neomuttComposesOnTheUsersTerminal() throws {
        let sandbox = try MailTests.sandbox()
        try Self.mailto("neomutt.desktop", in: sandbox)
        defer { Self.endPrograms(of: sandbox) }
        let home = "\(sandbox.root)/home"
        try FileManager.default.createDirectory(atPath: "\(home)/Mail", withIntermediateDirectories: true)
        // An editor that leaves the body as actshare wrote it, and mutt that keeps it so;
        // attachments listed by their whole names (its default cuts them at 40 characters).
        try "set abort_unmodified=no\nset attach_format=\"%u%D%I %t%4n %T%d%> [%m/%M]\"\n".write(toFile: "\(home)/.neomuttrc", atomically: true, encoding: .utf8)
        sandbox.extraEnvironment["EDITOR"] = "/bin/true"
        let (first, second) = try Self.files(sandbox)
        let socket = "actshare-\(UUID().uuidString.prefix(8))"
        let tmux = { (arguments: [String]) throws -> Run in
            try Sandbox.execute("/usr/bin/tmux", ["-L", socket, "-f", "/dev/null"] + arguments, environment: sandbox.environment, stdin: nil, timeout: 20)
        }
        // The server in the foreground (-D), started apart with no descriptor of ours: it
        // lives on, and must hold nothing a test waits to see closed.
        let server = try ClipboardTests.Server(
            ["/usr/bin/tmux", "-D", "-L", socket, "-f", "/dev/null"], environment: sandbox.environment.map { "\($0.key)=\($0.value)" })
        defer { withExtendedLifetime(server) {} }
        eventually { (try? tmux(["list-sessions"]))?.stderr.contains("no server") == false }
        let started = try tmux([
            "new-session", "-d", "-x", "160", "-y", "40", Sandbox.binary, "perform", "org.actshare.mail",
            "--text", "See the files, then call me", first, second, "-o", "to=Bob Doe <bob@example.org>", "--subject", "Terminal trip"])
        #expect(started.status == 0, "\(started.stderr)")
        // It asks To and Subject again, filled in; Enter takes each as it is.
        var screen = ""
        let composing = try eventually {
            screen = try tmux(["capture-pane", "-p"]).stdout
            if screen.contains("-- Attachments") { return true }
            if screen.contains("To: Bob Doe <bob@example.org>") || screen.contains("Subject: Terminal trip") {
                _ = try tmux(["send-keys", "Enter"])
            }
            return false
        }
        #expect(composing, "no compose screen:\n\(screen)")
        #expect(screen.contains("\(first) "), "\(screen)")
        #expect(screen.contains("\(second) "), "\(screen)")
        #expect(screen.contains("Subject: Terminal trip"), "\(screen)")
    }

    /// Where no client can be used and there is no MTA, Mail says what to set: exit 2,
    /// nothing sent anywhere. The MTA is hidden in a mount namespace of this test's own.
    @Test func noClientAndNoMTAIsRefusedWithWhatToSet() throws {
        let sandbox = try MailTests.sandbox()
        try Self.mailto("org.xfce.mousepad.desktop", in: sandbox)
        let script = "mount --bind /dev/null /usr/sbin/sendmail && exec \"$@\""
        let run = try Sandbox.execute(
            "/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                 Sandbox.binary, "perform", "org.actshare.mail", "--text", "hello", "-o", "to=ann@example.org"],
            environment: sandbox.environment, stdin: nil)
        #expect(run.status == 2, "\(run.status): \(run.stderr)")
        #expect(run.stderr.contains("nowhere to send the mail: the application for mailto links, Mousepad"), "\(run.stderr)")
        #expect(run.stderr.contains("-o spool=maildir:PATH"), "\(run.stderr)")

        // `client` asked for by name says so too, MTA or not.
        let client = try sandbox.run("perform", "org.actshare.mail", "--text", "hello", "-o", "spool=client")
        #expect(client.status == 2)
        #expect(client.stderr.contains("no mail client to open"), "\(client.stderr)")
    }

    /// `list --explain` says where Mail would go, and why.
    @Test func explainSaysWhichClientMailWouldOpen() throws {
        let (sandbox, _) = try Self.desktopSandbox(mailto: "claws-mail.desktop")
        let note = try sandbox.file("note.txt", "hello\n")
        let run = try sandbox.run("list", "--explain", note)
        #expect(run.stderr.contains("org.actshare.mail: can-perform mail_can_perform answered yes (Mail opens Claws Mail (claws-mail.desktop), the application for mailto links)"), "\(run.stderr)")
        try Self.mailto("org.xfce.mousepad.desktop", in: sandbox)
        let other = try sandbox.run("list", "--explain", note)
        #expect(other.stderr.contains("Mail sends through /usr/sbin/sendmail: the application for mailto links, Mousepad"), "\(other.stderr)")
    }
}
