import Foundation
import Testing

/// The built-in Mail activity: every message it writes is read back by Python's `email`
/// package (policy.default) and `mailbox`, as a mail client would read it.
@Suite struct MailTests {
    static let reader = "\(Sandbox.repository)/Tests/Fixtures/mail-read.py"
    static let stress = "\(Sandbox.repository)/Tests/Fixtures/mail-stress.py"

    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        sandbox.extraEnvironment["EMAIL"] = ""
        return sandbox
    }

    /// The messages in a Maildir, an mbox or one file, as mail-read.py describes them.
    static func read(_ kind: String, _ path: String) throws -> [[String: Any]] {
        let run = try Sandbox.execute("/usr/bin/python3", [reader, kind, path], environment: ["LANG": "C.UTF-8"], stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    static func stress(_ sandbox: Sandbox, _ arguments: [String]) throws -> [String: Any] {
        let run = try Sandbox.execute("/usr/bin/python3", [stress] + arguments, environment: sandbox.environment, stdin: nil, timeout: 600)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    static func files(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// The share sheet asks "To" when no recipient is configured; perform, for scripts, does not.
    @Test func theShareSheetAsksForTheRecipient() throws {
        let sandbox = try Self.sandbox()
        let note = try sandbox.file("note.txt", "see you at ten\n")
        let maildir = "\(sandbox.root)/Mail"
        let share = ["share", "--activity", "org.actshare.mail", "-o", "spool=maildir:\(maildir)", note]
        let asked = try sandbox.runOnTerminal(share, input: "Ann <ann@example.org>\n")
        #expect(asked.status == 0, "\(asked.stdout)")
        #expect(asked.stdout.contains("To: "))
        #expect(try Self.read("maildir", maildir).first?["to"] as? [[String]] == [["Ann", "ann@example.org"]])

        // An empty answer leaves a draft without a recipient.
        try FileManager.default.removeItem(atPath: maildir)
        #expect(try sandbox.runOnTerminal(share, input: "\n").status == 0)
        #expect(try Self.read("maildir", maildir).first?["to"] as? [[String]] == [])

        // perform asks nothing.
        try FileManager.default.removeItem(atPath: maildir)
        let performed = try sandbox.runOnTerminal(["perform", "org.actshare.mail", "-o", "spool=maildir:\(maildir)", note], input: "")
        #expect(performed.status == 0, "\(performed.stdout)")
        #expect(!performed.stdout.contains("To: "))
        #expect(Self.files(in: "\(maildir)/new").count == 1)
    }

    @Test func aMessageRoundTripsInEnglishAndChinese() throws {
        let sandbox = try Self.sandbox()
        let report = try sandbox.file("报告 2026.txt", "季度报告\nquarterly report\n")
        let image = try sandbox.data("chart.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<300).map { UInt8($0 % 256) }))
        let maildir = "\(sandbox.root)/Mail"
        let run = try sandbox.run(
            "perform", "org.actshare.mail", "--text", "Hello from actshare — 你好，世界", report, image, "https://example.org/a?b=c",
            "--subject", "季度报告 and the quarterly report",
            "-o", "to=张三 <zhang@example.org>, \"Doe, Jane\" <jane@example.org>", "-o", "cc=bob@example.org",
            "-o", "bcc=secret@example.org", "-o", "from=李四 <li@example.org>", "-o", "spool=maildir:\(maildir)", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let returned = try #require((try run.json()["returned_items"] as? [[String: Any]])?.first)
        let delivered = try #require(Self.files(in: "\(maildir)/new").first)
        #expect(returned["path"] as? String == "\(maildir)/new/\(delivered)")
        #expect(returned["content_type"] as? String == "message/rfc822")
        #expect(Self.files(in: "\(maildir)/tmp").isEmpty)

        let message = try #require(try Self.read("maildir", maildir).first)
        #expect(message["defects"] as? [String] == [])
        #expect(message["subject"] as? String == "季度报告 and the quarterly report")
        #expect(message["from"] as? [[String]] == [["李四", "li@example.org"]])
        #expect(message["to"] as? [[String]] == [["张三", "zhang@example.org"], ["Doe, Jane", "jane@example.org"]])
        #expect(message["cc"] as? [[String]] == [["", "bob@example.org"]])
        #expect(message["bcc"] is NSNull, "Bcc is for the envelope only")
        #expect(message["mime_version"] as? String == "1.0")
        #expect((message["message_id"] as? String)?.hasSuffix("@example.org>") == true)
        #expect((message["longest_line"] as? Int ?? 999) <= 998)
        let texts = try #require(message["texts"] as? [[String: Any]])
        #expect(texts.map { $0["text"] as? String } == ["Hello from actshare — 你好，世界\nhttps://example.org/a?b=c\n"])
        let attachments = try #require(message["attachments"] as? [[String: Any]])
        #expect(attachments.map { $0["name"] as? String } == ["报告 2026.txt", "chart.png"])
        #expect(attachments.map { $0["type"] as? String } == ["text/plain", "image/png"])
        #expect(attachments.first?["hex"] as? String == Data("季度报告\nquarterly report\n".utf8).map { String(format: "%02x", $0) }.joined())
        #expect(attachments.last?["hex"] as? String == (try Data(contentsOf: URL(fileURLWithPath: image))).map { String(format: "%02x", $0) }.joined())
    }

    @Test func htmlBecomesAlternativeWithAPlainRendering() throws {
        let sandbox = try Self.sandbox()
        let maildir = "\(sandbox.root)/Mail"
        let html = "<!DOCTYPE html><html><head><style>p {color: red}</style></head><body><h1>Notes &amp; plans</h1><p>Ünïcode ✓</p></body></html>"
        let run = try sandbox.run("perform", "org.actshare.mail", "--text", html, "-o", "spool=maildir:\(maildir)")
        #expect(run.status == 0, "\(run.stderr)")
        let message = try #require(try Self.read("maildir", maildir).first)
        #expect(message["defects"] as? [String] == [])
        #expect(message["content_type"] as? String == "multipart/alternative")
        #expect(message["subject"] as? String == "Notes & plans", "the subject comes from the first item")
        let texts = try #require(message["texts"] as? [[String: Any]])
        #expect(texts.map { $0["type"] as? String } == ["text/plain", "text/html"])
        #expect(texts.first?["text"] as? String == "Notes & plans\nÜnïcode ✓\n")
        #expect(texts.last?["text"] as? String == html + "\n")
    }

    @Test func longAndChineseTextKeepsEveryLineShort() throws {
        let sandbox = try Self.sandbox()
        let maildir = "\(sandbox.root)/Mail"
        let chinese = String(repeating: "中文段落没有换行。", count: 300)
        let long = String(repeating: "word ", count: 400) + "\nFrom the start of a line\n.\n"
        for text in [chinese, long] {
            let run = try sandbox.run("perform", "org.actshare.mail", "--text", text, "-o", "spool=maildir:\(maildir)")
            #expect(run.status == 0, "\(run.stderr)")
        }
        let messages = try Self.read("maildir", maildir)
        #expect(messages.count == 2)
        for message in messages {
            #expect(message["defects"] as? [String] == [])
            #expect((message["longest_line"] as? Int ?? 999) <= 998)
        }
        let bodies = Set(messages.compactMap { ($0["texts"] as? [[String: Any]])?.first?["text"] as? String })
        #expect(bodies == [chinese + "\n", long])
        let subjects = Set(messages.compactMap { $0["subject"] as? String })
        #expect(subjects.contains { $0.hasPrefix("中文段落") && $0.hasSuffix("…") && $0.utf8.count <= 78 })
    }

    @Test func mboxAppendsAndNoLineNeedsQuoting() throws {
        let sandbox = try Self.sandbox()
        let mbox = "\(sandbox.root)/mbox"
        try sandbox.writeConfig("""
            providers:
              org.actshare.mail: {spool: "mbox:\(mbox)", from: "Config Sender <config@example.org>"}
            """)
        for text in [">From quoted already\nplain line\n", "second message\n"] {
            let run = try sandbox.run("perform", "org.actshare.mail", "--text", text, "-o", "to=reader@example.org", "--json")
            #expect(run.status == 0, "\(run.stderr)")
            let said = (try run.json()["returned_items"] as? [[String: Any]])?.first?["text"] as? String
            #expect(said?.hasSuffix("appended to the mbox \(mbox)") == true)
        }
        let raw = try String(contentsOfFile: mbox, encoding: .utf8)
        #expect(raw.hasPrefix("From config@example.org "))
        // The body is encoded so that no line needs mboxrd quoting (which readers do not
        // all undo): the '>' is =3E, and the mbox holds the text as sent.
        #expect(raw.contains("\n=3EFrom quoted already\n"), "\(raw)")
        #expect(!raw.contains("\n>From") && !raw.contains("\n>>From"))
        #expect(!FileManager.default.fileExists(atPath: mbox + ".lock"))
        let messages = try Self.read("mbox", mbox)
        #expect(messages.count == 2)
        #expect(messages.allSatisfy { ($0["defects"] as? [String]) == [] })
        #expect(messages.map { $0["from"] as? [[String]] } == Array(repeating: [["Config Sender", "config@example.org"]], count: 2))
        #expect(messages.map { $0["subject"] as? String } == [">From quoted already", "second message"])
    }

    @Test func badInputIsRefusedAndNothingIsWritten() throws {
        let sandbox = try Self.sandbox()
        let maildir = "\(sandbox.root)/Mail"
        let notADirectory = try sandbox.file("plain-file", "x")
        let folder = "\(sandbox.root)/files/folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["-o", "spool=sendmail"], "actshare: org.actshare.mail: no recipient: give one with -o to=ADDRESS (or cc, bcc, or in the config)\n"),
            (["-o", "to=ann@example.org", "-o", "cc=bob@", "-o", "spool=maildir:\(maildir)"], "actshare: -o cc is not a mail address such as name@example.org, not 'bob@'\n"),
            (["-o", "to=Ann <ann@example.org", "-o", "spool=maildir:\(maildir)"], "actshare: -o to is not a mail address (no closing '>'), not 'Ann <ann@example.org'\n"),
            (["-o", "from=a@b@c", "-o", "spool=maildir:\(maildir)"], "actshare: -o from is not a mail address such as name@example.org, not 'a@b@c'\n"),
            (["-o", "spool=pigeon:/tmp"], "actshare: org.actshare.mail: unknown spool 'pigeon:/tmp': use auto, client, sendmail, maildir:PATH or mbox:PATH\n"),
            (["-o", "spool=maildir:\(notADirectory)/Mail"], "actshare: org.actshare.mail: cannot make the Maildir folder \(notADirectory)/Mail: Not a directory\n"),
            (["-o", "spool=mbox:\(folder)"], "actshare: org.actshare.mail: cannot open the mbox \(folder): Is a directory\n"),
        ]
        for (arguments, message) in cases {
            let run = try sandbox.run(["perform", "org.actshare.mail", "--text", "hello"] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr == message)
        }
        let attachingAFolder = try sandbox.run("perform", "org.actshare.mail", "--text", "hello", folder, "-o", "spool=maildir:\(maildir)")
        #expect(attachingAFolder.status == 2)
        #expect(attachingAFolder.stderr == "actshare: org.actshare.mail: cannot attach \(folder): is a folder, not a file\n")
        #expect(Self.files(in: "\(maildir)/new").isEmpty && Self.files(in: "\(maildir)/tmp").isEmpty)
        #expect(Self.files(in: folder).isEmpty)
    }

    @Test(arguments: ["mbox", "maildir"])
    func eightWritersAtOnceLoseNothing(_ kind: String) throws {
        let sandbox = try Self.sandbox()
        let spool = kind == "mbox" ? "mbox:\(sandbox.root)/mbox" : "maildir:\(sandbox.root)/Mail"
        let result = try Self.stress(sandbox, ["concurrent", Sandbox.binary, spool, "8", "200"])
        #expect(result["messages"] as? Int == 1600)
        #expect(result["intact"] as? Int == 1600)
        #expect(result["distinct"] as? Int == 1600)
        #expect(result["failures"] as? [String] == [])
    }

    /// A writer killed in the middle of a 48 MiB attachment: readers never see a torn
    /// message, and the next message goes in cleanly.
    @Test(arguments: [["maildir"], ["mbox"], ["mbox", "group"]])
    func aWriterKilledHalfwayLeavesNoPartialMessage(_ mode: [String]) throws {
        let sandbox = try Self.sandbox()
        let big = try sandbox.data("big.bin", Data((0..<(48 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }))
        let spool = mode[0] == "mbox" ? "mbox:\(sandbox.root)/mbox" : "maildir:\(sandbox.root)/Mail"
        let result = try Self.stress(sandbox, ["kill", Sandbox.binary, spool, big] + mode.dropFirst())
        #expect(result["caught"] as? Bool == true, "the writer was killed in the middle")
        #expect(result["after_kill_intact"] as? Bool == true)
        if mode == ["mbox"] || mode == ["maildir"] {
            #expect(result["after_kill"] as? [String] == ["first", "second"])
        }
        #expect(result["messages"] as? [String] == ["first", "second", "third"])
        #expect(result["intact"] as? Int == 3)
        #expect(result["failures"] as? [String] == [])
        #expect(Self.files(in: sandbox.root).filter { $0.hasPrefix("mbox.lock") } == [], "no lock file is left")
    }

    /// Link files that killed writers left beside an mbox (LOCK.HOST.PID) are removed by
    /// the next delivery: this host's when their process is gone, another host's when old.
    @Test func staleLockLinksAreRemoved() throws {
        let sandbox = try Self.sandbox()
        let mbox = "\(sandbox.root)/mbox"
        let host = ProcessInfo.processInfo.hostName
        let dead = "\(mbox).lock.\(host).4194000", live = "\(mbox).lock.\(host).\(getpid())"
        let oldOther = "\(mbox).lock.elsewhere.12.34", newOther = "\(mbox).lock.elsewhere.56.78"
        for file in [dead, live, oldOther, newOther] { try Sandbox.write("1 2 -1\n", to: file) }
        let old = Date().addingTimeInterval(-3600)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: oldOther)
        let run = try sandbox.run("perform", "org.actshare.mail", "--text", "hello", "-o", "to=a@example.org", "-o", "spool=mbox:\(mbox)")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.files(in: sandbox.root).filter { $0.hasPrefix("mbox.lock") } == ["mbox.lock.\(host).\(getpid())", "mbox.lock.elsewhere.56.78"].sorted())
    }

    /// A real MTA: postfix, delivering locally (scripts/start-mta), into the mailbox of
    /// the user actshare-mail.
    @Test func sendmailDeliversThroughTheSystemMTA() throws {
        let mailbox = "/var/mail/actshare-mail"
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/sbin/sendmail"), "no MTA: run scripts/start-mta")
        let sandbox = try Self.sandbox()
        let subject = "Delivered by postfix \(UUID().uuidString) — 投递"
        let run = try sandbox.run(
            "perform", "org.actshare.mail", "--text", "through the MTA", "--subject", subject, "-o", "to=actshare-mail@localhost",
            "-o", "bcc=nobody-\(UUID().uuidString.prefix(8))@localhost", "-o", "from=tester@localhost", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let said = try #require((try run.json()["returned_items"] as? [[String: Any]])?.first?["text"] as? String)
        #expect(said.hasSuffix("sent through /usr/sbin/sendmail"))
        let messageID = String(said.prefix { $0 != " " })
        var found: [String: Any]?
        try eventually {
            if FileManager.default.fileExists(atPath: mailbox) {
                found = try Self.read("mbox", mailbox).first { $0["message_id"] as? String == messageID }
            }
            return found != nil
        }
        let message = try #require(found, "postfix did not deliver \(messageID) to \(mailbox)")
        #expect(message["subject"] as? String == subject)
        #expect(message["bcc"] is NSNull, "the MTA removes Bcc")
        #expect((message["texts"] as? [[String: Any]])?.first?["text"] as? String == "through the MTA\n")
    }
}

extension MailTests {
    /// What real readers found (issue 13), read back with Python's `email` under
    /// `policy.strict` from a Maildir++ folder and an mbox of a new account: text whose
    /// soft line breaks fall before "From ", lines starting ">From " and ".", CRLF line
    /// ends, a long non-ASCII subject, a UTF-8 text attachment.
    @Test func readersGetTheTextAsSent() throws {
        let sandbox = try Self.sandbox()
        let home = "\(sandbox.root)/home"
        let attachment = try sandbox.file("notes.txt", "café ✓\n")
        let text = String(repeating: "a", count: 75) + "From the start é\n>From a quote\n>>From two\n.\n..dots\nend\r\nof lines\r\n"
        let subject = String(repeating: "é", count: 40)
        for spool in ["maildir:\(home)/Maildir/.Drafts", "mbox:\(home)/Mail/sent"] {
            let run = try sandbox.run(["perform", "org.actshare.mail", "--text", text, attachment, "--subject", subject,
                                       "-o", "to=a@example.org", "-o", "spool=\(spool)"])
            #expect(run.status == 0, "\(spool): \(run.stderr)")
        }
        let script = """
            import email, email.policy, mailbox, json, sys
            home = sys.argv[1]
            found = []
            for box in (mailbox.Maildir(home + "/Maildir/.Drafts", factory=None, create=False), mailbox.mbox(home + "/Mail/sent", create=False)):
                for key in box.keys():
                    raw = box.get_bytes(key)
                    message = email.message_from_bytes(raw, policy=email.policy.strict)
                    body = message.get_body(("plain",)).get_content()
                    attachment = next(message.iter_attachments())
                    lines = raw.split(b"\\n")
                    found.append({"body": body, "subject": str(message["subject"]), "attachment": attachment.get_content(),
                                  "type": attachment.get_content_type(), "charset": attachment.get_content_charset(),
                                  "longest_header": max(len(l) for l in lines[:raw.split(b"\\n").index(b"")]),
                                  "filename": attachment.get_filename(), "cr": b"\\r" in raw})
            print(json.dumps(found))
            """
        let read = try Sandbox.execute("/usr/bin/python3", ["-c", script, home], environment: ["LANG": "C.UTF-8"], stdin: nil)
        #expect(read.status == 0, "\(read.stderr)")
        let messages = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [[String: Any]])
        #expect(messages.count == 2)
        let expectedBody = text.replacingOccurrences(of: "\r\n", with: "\n")
        for message in messages {
            #expect(message["body"] as? String == expectedBody)
            #expect(message["subject"] as? String == subject)
            #expect(message["attachment"] as? String == "café ✓\n")
            #expect(message["type"] as? String == "text/plain")
            #expect(message["charset"] as? String == "utf-8")
            #expect(message["filename"] as? String == "notes.txt")
            #expect((message["longest_header"] as? Int ?? 99) <= 76, "RFC 2047: lines with encoded words at most 76")
            #expect(message["cr"] as? Bool == false, "no CR anywhere")
        }
    }
}

extension MailTests {
    /// The plain rendering of HTML decodes named and numeric entities and leaves out the
    /// head (its title is not body text).
    @Test func htmlEntitiesAreDecodedAndTheHeadLeftOut() throws {
        let sandbox = try Self.sandbox()
        let maildir = "\(sandbox.root)/Mail"
        let html = "<html><head><title>Window title</title></head><body><p>Caf&eacute; &#233; &#xE9; &hellip; &copy; &bogus; &#0;</p></body></html>"
        let run = try sandbox.run("perform", "org.actshare.mail", "--text", html, "--subject", "Entities", "-o", "spool=maildir:\(maildir)")
        #expect(run.status == 0, "\(run.stderr)")
        let message = try #require(try Self.read("maildir", maildir).first)
        let texts = try #require(message["texts"] as? [[String: Any]])
        #expect(texts.first?["text"] as? String == "Café é é … © &bogus; &#0;\n")
    }
}

extension MailTests {
    /// One message to a Maildir and to an mbox, for the readers: a body with `From ` and
    /// `>From` lines, a leading dot and a long line with soft breaks, and a UTF-8
    /// attachment (gruss.txt, "Grüße aus Köln").
    static func mailToBothSpools() throws -> (sandbox: Sandbox, body: String, maildir: String, mbox: String) {
        let sandbox = try Self.sandbox()
        let body = "First line\nFrom here on, a line long enough to need a soft line break somewhere in the middle From the start\n"
            + ".dot line\n>From quoted\n>>From twice\nend\n"
        let attachment = try sandbox.file("gruss.txt", "Grüße aus Köln\n")
        let maildir = "\(sandbox.root)/Mail", mbox = "\(sandbox.root)/mbox"
        for spool in ["maildir:\(maildir)", "mbox:\(mbox)"] {
            let run = try sandbox.run("perform", "org.actshare.mail", "--text", body, attachment, "-o", "to=ann@example.org", "-o", "spool=\(spool)")
            #expect(run.status == 0, "\(run.stderr)")
        }
        return (sandbox, body, maildir, mbox)
    }

    /// mblaze, a reader nobody on the project wrote, gets back every line as it was sent:
    /// `From ` and `>From` lines, a leading dot, a long line with soft breaks, and a UTF-8
    /// attachment, from a Maildir and from an mbox (split by `mdeliver -M`, which undoes
    /// mboxrd quoting) (issue 13).
    @Test func mblazeReadsBackWhatWasSent() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/mshow"), "mblaze (scripts/install-deps)")
        let (sandbox, body, maildir, mbox) = try Self.mailToBothSpools()
        let split = "\(sandbox.root)/split"
        for folder in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: "\(split)/\(folder)", withIntermediateDirectories: true)
        }
        let delivered = try Sandbox.execute("/bin/sh", ["-c", "exec /usr/bin/mdeliver -M \"$1\" < \"$2\"", "sh", split, mbox], environment: [:], stdin: nil)
        #expect(delivered.status == 0, "\(delivered.stderr)")
        let messages = try ["\(maildir)/new", "\(split)/new"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder).map { "\(folder)/\($0)" }
        }
        #expect(messages.count == 2)
        for message in messages {
            let parts = try Sandbox.execute("/usr/bin/mshow", ["-t", message], environment: [:], stdin: nil).stdout
            #expect(parts.contains("2: text/plain") && parts.contains("3: text/plain") && parts.contains("name=\"gruss.txt\""), "\(parts)")
            #expect(try Sandbox.execute("/usr/bin/mshow", ["-O", message, "2"], environment: [:], stdin: nil).stdout == body, "\(message)")
            #expect(try Sandbox.execute("/usr/bin/mshow", ["-O", message, "3"], environment: ["LANG": "C.UTF-8"], stdin: nil).stdout == "Grüße aus Köln\n")
        }
    }
}

extension MailTests {
    /// neomutt, a third reader, gets back the body and the UTF-8 attachment as sent, from a
    /// Maildir and from an mbox (whose `From ` and `>From` lines it must not change). It
    /// runs on a pseudo-terminal (`script`) and pipes the message, decoded, to a file.
    @Test func neomuttReadsBackWhatWasSent() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/neomutt"), "neomutt (scripts/install-deps)")
        let (sandbox, body, maildir, mbox) = try Self.mailToBothSpools()
        // No question at start (folder, record), no key to press after the pipe; the
        // paths reach neomutt and its pipe's shell through the environment only.
        let muttrc = try sandbox.file("muttrc", """
            set folder="\(sandbox.root)" record="" postponed="\(sandbox.root)/postponed" header_cache="" message_cachedir=""
            set pipe_decode=yes wait_key=no quit=yes sleep_time=0 charset=utf-8 check_new=no
            push '<pipe-message>cat > "$NEOMUTT_OUT"<enter><quit>'

            """)
        for box in [maildir, mbox] {
            let out = "\(sandbox.root)/piped"
            var environment = sandbox.environment
            environment.merge(["TERM": "xterm", "MUTTRC": muttrc, "BOX": box, "NEOMUTT_OUT": out]) { $1 }
            let ran = try Sandbox.execute(
                "/usr/bin/script", ["-qfc", #"exec /usr/bin/neomutt -n -F "$MUTTRC" -R -f "$BOX""#, "/dev/null"],
                environment: environment, stdin: nil, timeout: 30)
            #expect(ran.status == 0, "\(box): \(ran.stderr)")
            let piped = try String(contentsOfFile: out, encoding: .utf8)
            try FileManager.default.removeItem(atPath: out)
            let decoded = try #require(piped.range(of: "\n\n").map { String(piped[$0.upperBound...]) }, "\(piped)")
            #expect(decoded == body + "\nGrüße aus Köln\n\n", "\(box): \(piped)")
            #expect(piped.contains("\nSubject: gruss.txt\n"))
        }
    }
}
