import Foundation
import Testing

/// Items that are not what they seem: FIFOs, devices, 10 GB files, a full disk. Each is
/// refused or fails in words, at once, and nothing is left behind.
@Suite struct HostileItemsTests {
    @Test func aFIFOOrADeviceIsNotAnItem() throws {
        let sandbox = try MailTests.sandbox()
        let fifo = "\(sandbox.root)/files/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        for (path, kind) in [(fifo, "a FIFO"), ("/dev/zero", "a device")] {
            for arguments in [["list", path], ["perform", "org.actshare.mail", path, "-o", "to=a@example.org", "-o", "spool=maildir:\(sandbox.root)/Maildir"]] {
                let run = try sandbox.run(arguments)
                #expect(run.status == 2)
                #expect(run.stderr == "actshare: \(path) is \(kind), not a file: only files, folders, URLs and text can be shared\n")
            }
        }
        #expect(Date().timeIntervalSince(started) < 10, "nothing waited on the FIFO or read the device")
        #expect(MailTests.files(in: "\(sandbox.root)/Maildir/new").isEmpty)
    }

    /// A 10 GB (sparse) text is not read whole: Print to PDF says its limit at once.
    @Test func aHugeTextIsRefusedByPrintToPDF() throws {
        let sandbox = try PrintToPDFTests.sandbox()
        let path = "\(sandbox.root)/files/huge.txt"
        Sandbox.sparseFile(path, size: 10 << 30)
        let started = Date()
        let run = try sandbox.run("perform", "org.actshare.print-to-pdf", path, "-o", "output-dir=\(sandbox.root)/out")
        #expect(Date().timeIntervalSince(started) < 10)
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

        // Killed while it writes (into a folder with room): nothing is left.
        let out = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let long = try sandbox.file("long.txt", String(repeating: "All work and no play makes a long document.\n", count: 400_000))
        let process = try sandbox.start(["perform", "org.actshare.print-to-pdf", long, "-o", "output-dir=\(out)"])
        Thread.sleep(forTimeInterval: 1.5)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "it was still at work when killed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }
}
