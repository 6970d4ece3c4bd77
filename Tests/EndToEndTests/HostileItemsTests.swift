import Foundation
import Testing

/// Items that are not what they seem: FIFOs, devices, 10 GB files, a full disk. Each is
/// refused or fails in words, at once, and nothing is left behind.
@Suite struct HostileItemsTests {
    @Test func aFIFOOrADeviceIsNotAnItem() throws {
        let sandbox = try MailTests.sandbox()
        let fifo = "\(sandbox.root)/files/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening the FIFO or reading the device would never end: the harness's time-out,
        // a failure, rather than these words.
        for (path, kind) in [(fifo, "a FIFO"), ("/dev/zero", "a device")] {
            for arguments in [["list", path], ["perform", "org.actshare.mail", path, "-o", "to=a@example.org", "-o", "spool=maildir:\(sandbox.root)/Maildir"]] {
                let run = try sandbox.run(arguments)
                #expect(run.status == 2)
                #expect(run.stderr == "actshare: \(path) is \(kind), not a file: only files, folders, URLs and text can be shared\n")
            }
        }
        #expect(MailTests.files(in: "\(sandbox.root)/Maildir/new").isEmpty)
    }

    /// A 10 GB (sparse) text is not read whole: Print to PDF says its limit at once.
    @Test func aHugeTextIsRefusedByPrintToPDF() throws {
        let sandbox = try PrintToPDFTests.sandbox()
        let path = "\(sandbox.root)/files/huge.txt"
        Sandbox.sparseFile(path, size: 10 << 30)
        let run = try sandbox.run("perform", "org.actshare.print-to-pdf", path, "-o", "output-dir=\(sandbox.root)/out")
        #expect(run.status == 2)
        #expect(run.stderr == "actshare: org.actshare.print-to-pdf: \(path) is larger than 64 MiB, the most text Print to PDF lays out (about 19200 pages)\n")
    }

    /// Mail takes at most its max-total-size (100 MiB): a larger attachment is refused
    /// before anything is read.
    @Test func anAttachmentOverTheLimitIsRefused() throws {
        let sandbox = try MailTests.sandbox()
        let path = "\(sandbox.root)/files/big.bin"
        Sandbox.sparseFile(path, size: 101 << 20)
        let run = try sandbox.run("perform", "org.actshare.mail", path, "-o", "to=a@example.org", "-o", "spool=maildir:\(sandbox.root)/Maildir")
        #expect(run.status == 3)
        #expect(MailTests.files(in: "\(sandbox.root)/Maildir/new").isEmpty)
    }

    /// A full disk (a 200 KiB tmpfs): a clear error, no crash, no file left; and a
    /// Print to PDF killed halfway leaves no temporary file either. Needs root to mount.
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aFullDiskIsSaidAndLeavesNothing() throws {
        let sandbox = try PrintToPDFTests.sandbox()
        let full = "\(sandbox.root)/full"
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        let mount = try Sandbox.execute("/bin/mount", ["-t", "tmpfs", "-o", "size=200k", "tmpfs", full], environment: [:], stdin: nil)
        try #require(mount.status == 0, "\(mount.stderr)")
        defer { _ = try? Sandbox.execute("/bin/umount", [full], environment: [:], stdin: nil) }
        let text = try sandbox.file("numbers.txt", (1...20_000).map(String.init).joined(separator: "\n"))
        let run = try sandbox.run("perform", "org.actshare.print-to-pdf", text, "-o", "output-dir=\(full)")
        #expect(run.status == 1)
        #expect(run.stderr == "actshare: org.actshare.print-to-pdf: no space left on \(full) to write numbers.pdf\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: full).isEmpty)

        // Full to its last block (a 1 MiB tmpfs holding a 1 MiB file): cairo 1.16 crashed
        // in cairo_surface_finish there, and took actshare with it; now it is said, exit 1.
        let last = "\(sandbox.root)/last"
        try FileManager.default.createDirectory(atPath: last, withIntermediateDirectories: true)
        try #require(try Sandbox.execute("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", last], environment: [:], stdin: nil).status == 0)
        defer { _ = try? Sandbox.execute("/bin/umount", [last], environment: [:], stdin: nil) }
        _ = try Sandbox.execute("/bin/dd", ["if=/dev/zero", "of=\(last)/fill", "bs=4k"], environment: [:], stdin: nil)
        let available = try Sandbox.execute("/bin/df", ["--output=avail", last], environment: [:], stdin: nil).stdout
        #expect(available.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) == "0", "full to the last block: \(available)")
        let short = try sandbox.file("short.txt", "a few words\n")
        let atLast = try sandbox.run("perform", "org.actshare.print-to-pdf", short, "-o", "output-dir=\(last)")
        #expect(atLast.status == 1, "\(atLast.stderr)")
        #expect(atLast.stderr == "actshare: org.actshare.print-to-pdf: no space left on \(last) to write short.pdf\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: last) == ["fill"])

        // Killed while it writes (into a folder with room): nothing is left.
        let out = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let long = try sandbox.file("long.txt", String(repeating: "All work and no play makes a long document.\n", count: 400_000))
        let process = try sandbox.start(["perform", "org.actshare.print-to-pdf", long, "-o", "output-dir=\(out)"])
        // Writing: it (or a child) has its unnamed file in that folder open.
        #expect(eventually(every: 0.01) { ProcessTree.holdsAFile(in: out, under: process.processIdentifier) }, "it never wrote")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "it was still at work when killed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }
}

extension HostileItemsTests {
    /// A file whose name is not UTF-8 (Latin-1 `café`) is shared by its bytes: through an
    /// isolated provider and a built-in, into a PDF of the same bytes; shown escaped.
    @Test func aNameThatIsNotUTF8IsSharedByItsBytes() throws {
        let sandbox = try PrintToPDFTests.sandbox()
        sandbox.providerPath = [Sandbox.examples]
        // Swift's strings cannot hold such a name, nor Foundation's Process pass one:
        // Python makes the file and runs actshare with the name as bytes.
        let script = """
            import json, os, subprocess, sys
            root = sys.argv[2].encode()
            name = root + b"/files/caf\\xe9 \\xff.txt"
            open(name, "w").write("some words here\\n")
            os.makedirs(root + b"/out")
            def run(*arguments):
                done = subprocess.run([sys.argv[1].encode(), *arguments], capture_output=True)
                return {"status": done.returncode, "stdout": done.stdout.decode("latin-1"), "stderr": done.stderr.decode("latin-1")}
            results = [run(b"list", b"--json", name),
                       run(b"perform", b"org.example.wordcount.count", name),
                       run(b"perform", b"org.actshare.print-to-pdf", name, b"-o", b"output-dir=" + root + b"/out"),
                       run(b"perform", b"org.example.wordcount.count", root + b"/files/missing\\xe9")]
            results.append(sorted(n.decode("latin-1") for n in os.listdir(root + b"/out")))
            print(json.dumps(results))
            """
        let run = try Sandbox.execute("/usr/bin/python3", ["-c", script, Sandbox.binary, sandbox.root], environment: sandbox.environment, stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [Any])
        let list = try #require(results[0] as? [String: Any]), count = try #require(results[1] as? [String: Any])
        let pdf = try #require(results[2] as? [String: Any]), missing = try #require(results[3] as? [String: Any])
        #expect(list["status"] as? Int == 0)
        #expect((list["stdout"] as? String)?.contains(#""path":"\#(sandbox.root)/files/caf\\xE9 \\xFF.txt""#) == true, "\(list)")
        #expect(count["stdout"] as? String == "3 words, 1 lines, 16 bytes (item 1)\n", "\(count)")
        #expect(pdf["status"] as? Int == 0, "\(pdf)")
        #expect(pdf["stdout"] as? String == "\(sandbox.root)/out/caf\u{E9} \u{FF}.pdf\n", "the PDF's name, its bytes as they are (read as Latin-1 here)")
        #expect(results[4] as? [String] == ["caf\u{E9} \u{FF}.pdf"])
        #expect(missing["stderr"] as? String == "actshare: \(sandbox.root)/files/missing\\xE9: No such file or directory\n")
    }
}

extension HostileItemsTests {
    /// 100,000 items in one invocation (a whole folder, granted by one rule), and thousands
    /// through xargs (each a part of the folder, a rule per item): a sandboxed provider's
    /// can-perform runs for them; before, its sandbox outgrew the helper's 4,096 rules.
    @Test func aHundredThousandItemsAreSandboxed() throws {
        let sandbox = try Sandbox()
        // A short path: 100,000 of them (with their URIs) must fit the 16 MiB a frame holds.
        let folder = "/tmp/actshare-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Its bound only stops a hang: under load, 100,000 files took more than a minute.
        let made = try Sandbox.execute("/usr/bin/python3", ["-c", "import os, sys\nos.makedirs(sys.argv[1])\nfor i in range(100000): open(os.path.join(sys.argv[1], str(i)), 'w').close()", folder],
                                       environment: [:], stdin: nil, timeout: 600)
        try #require(made.status == 0, "\(made.stderr)")
        var environment = sandbox.environment
        environment["ACTSHARE"] = Sandbox.binary
        let all = try Sandbox.execute("/bin/sh", ["-c", "cd \"$1\" && exec \"$ACTSHARE\" list --json *", "sh", folder], environment: environment, stdin: nil, timeout: 120)
        #expect(all.status == 0, "\(all.stderr.prefix(500))")
        let json = try all.json()
        #expect((json["items"] as? [Any])?.count == 100_000)
        let types = try all.listedTypes()
        #expect(types.contains("org.example.wordcount.count"), "its can-perform ran sandboxed: \(types) \(all.stderr.prefix(300))")
        let parts = try Sandbox.execute(
            "/bin/sh", ["-c", "cd \"$1\" && ls | head -n 10000 | xargs -n 5000 \"$ACTSHARE\" list --json | grep -c org.example.wordcount.count", "sh", folder],
            environment: environment, stdin: nil, timeout: 120)
        #expect(parts.stdout == "2\n", "each invocation of 5,000: \(parts.stdout) \(parts.stderr.prefix(500))")
    }
}

