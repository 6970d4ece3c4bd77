import Foundation
import Testing

/// Save to… (org.actshare.save), sandboxed as any provider: the items copied into a folder
/// byte for byte, never replacing one there, nothing half-written under a real name.
@Suite struct SaveTests {
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        return sandbox
    }

    static func saved(_ run: Run) throws -> [String] {
        (try run.json()["returned_items"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
    }

    /// Everything in `folder`, hidden entries too, relative, sorted.
    static func contents(_ folder: String) -> [String] {
        (FileManager.default.subpaths(atPath: folder) ?? []).sorted()
    }

    @Test func filesAFolderTextAndALinkAreSavedNeverReplacingOne() throws {
        let sandbox = try Self.sandbox()
        let out = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let photo = try sandbox.data("photo.jpg", Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        let tree = "\(sandbox.root)/files/Trip"
        try Sandbox.write("day one\n", to: "\(tree)/notes/day1.txt")
        try FileManager.default.createSymbolicLink(atPath: "\(tree)/latest.txt", withDestinationPath: "notes/day1.txt")
        try FileManager.default.createSymbolicLink(atPath: "\(tree)/secret", withDestinationPath: "\(sandbox.root)/home/.ssh-key")
        try Sandbox.write("private\n", to: "\(sandbox.root)/home/.ssh-key")
        // A FIFO in the folder: left out and said, never waited on.
        #expect(mkfifo("\(tree)/pipe", 0o600) == 0)
        let run = try sandbox.run("perform", "org.actshare.save", "-o", "folder=\(out)", photo, tree, "--text", "Shopping list\nmilk\n",
                                  "https://example.org/menu", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        // In the order of the items: the paths and URLs given, then the texts.
        #expect(try Self.saved(run) == ["\(out)/photo.jpg", "\(out)/Trip", "\(out)/example.org menu.desktop", "\(out)/Shopping list.txt"])
        #expect(FileManager.default.contents(atPath: "\(out)/photo.jpg") == FileManager.default.contents(atPath: photo))
        #expect(try String(contentsOfFile: "\(out)/Trip/notes/day1.txt", encoding: .utf8) == "day one\n")
        // A link inside what was shared is copied as its file; one pointing out is not, and said.
        #expect(try String(contentsOfFile: "\(out)/Trip/latest.txt", encoding: .utf8) == "day one\n")
        #expect(!FileManager.default.fileExists(atPath: "\(out)/Trip/secret"))
        #expect(run.stderr.contains("\(tree)/secret is a link to something outside what was shared: not copied"), "\(run.stderr)")
        #expect(run.stderr.contains("\(tree)/pipe is not a file or a folder: not copied"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(out)/Trip/pipe"))
        #expect(try String(contentsOfFile: "\(out)/Shopping list.txt", encoding: .utf8) == "Shopping list\nmilk\n")
        let link = try String(contentsOfFile: "\(out)/example.org menu.desktop", encoding: .utf8)
        #expect(link == "[Desktop Entry]\nType=Link\nName=example.org menu\nURL=https://example.org/menu\nIcon=text-html\n")
        let validated = try Sandbox.execute("/usr/bin/desktop-file-validate", ["\(out)/example.org menu.desktop"], environment: [:], stdin: nil)
        #expect(validated.status == 0, "a file manager opens it: \(validated.stdout)\(validated.stderr)")

        // A name from text keeps its characters whole, and one cut at 60 bytes mid-character loses it whole.
        let accents = try sandbox.run("perform", "org.actshare.save", "-o", "folder=\(out)", "--text", "Un café\n",
                                      "--text", String(repeating: "a", count: 59) + "é and more", "--json")
        #expect(try Self.saved(accents) == ["\(out)/Un café.txt", "\(out)/\(String(repeating: "a", count: 59)).txt"], "\(accents.stderr)")

        // Again: each gets a name of its own, and nothing there is replaced.
        let again = try sandbox.run("perform", "org.actshare.save", "-o", "folder=\(out)", photo, tree, "--json")
        #expect(try Self.saved(again) == ["\(out)/photo (1).jpg", "\(out)/Trip (1)"], "\(again.stderr)")
        #expect(FileManager.default.contents(atPath: "\(out)/photo.jpg") == FileManager.default.contents(atPath: photo))
        #expect(!Self.contents(out).contains { $0.contains(".actshare-partial-") })
    }

    /// With no folder named, the XDG downloads folder (user-dirs.dirs names it).
    @Test func withoutAFolderTheDownloadsFolderTakesThem() throws {
        let sandbox = try Self.sandbox()
        let downloads = "\(sandbox.root)/home/Downloads"
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
        let notes = try sandbox.file("notes.txt", "words\n")
        let run = try sandbox.run("perform", "org.actshare.save", notes, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.saved(run) == ["\(downloads)/notes.txt"])
        // A folder that is not there is said, and nothing is made.
        let missing = try sandbox.run("perform", "org.actshare.save", "-o", "folder=\(sandbox.root)/no such folder", notes)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot save in \(sandbox.root)/no such folder: "), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(sandbox.root)/no such folder"))
    }

    /// A full disk (a 1 MiB tmpfs): a small file is saved; a larger one is refused in
    /// words, and nothing of it is left there.
    @Test func aFullDiskLeavesNothingHalfWritten() throws {
        let sandbox = try Self.sandbox()
        let out = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let mounted = try Sandbox.execute("/bin/mount", ["-t", "tmpfs", "-o", "size=1m,mode=0755", "actshare-test", out], environment: [:], stdin: nil)
        try #require(mounted.status == 0, "\(mounted.stderr)")
        defer { _ = try? Sandbox.execute("/bin/umount", ["-l", out], environment: [:], stdin: nil) }
        let small = try sandbox.data("small.bin", Data(repeating: 0x41, count: 100_000))
        let large = try sandbox.data("large.bin", Data(count: 3 << 20))
        #expect(try sandbox.run("perform", "org.actshare.save", "-o", "folder=\(out)", small).status == 0)
        let refused = try sandbox.run("perform", "org.actshare.save", "-o", "folder=\(out)", large)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(large) was not saved: the disk holding \(out) is full"), "\(refused.stderr)")
        #expect(Self.contents(out) == ["small.bin"], "nothing of the large file is left")
    }

    /// The sandbox Save's manifest asks for confines whatever runs in it: an intruder in
    /// its place (its manifest, another library) writes in the chosen folder, and neither
    /// beside it nor in the home folder.
    @Test func itsSandboxLetsWriteOnlyInTheChosenFolder() throws {
        let sandbox = try Sandbox(providerPath: [])
        let directory = "\(sandbox.root)/intruder"
        sandbox.providerPath = [directory]
        let manifest = try String(contentsOfFile: "\(Sandbox.repository)/Providers/Save/save.yaml", encoding: .utf8)
            .replacingOccurrences(of: "library: libsave.so", with: "library: \(Sandbox.cProviders)/libhostile.so")
            .replacingOccurrences(of: "org.actshare.save", with: "org.test.save-intruder")
            .replacingOccurrences(of: "perform: save_perform", with: "perform: hostile_write_beside")
        #expect(manifest.contains("hostile_write_beside") && !manifest.contains("isolation"), "Save's manifest changed: look again")
        try Sandbox.write(manifest, to: "\(directory)/save-intruder.yaml")
        let out = "\(sandbox.root)/chosen/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let run = try sandbox.run("perform", "org.test.save-intruder", "-o", "folder=\(out)", "--text", "hello")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(out)/inside.txt"))
        #expect(!FileManager.default.fileExists(atPath: "\(sandbox.root)/chosen/beside.txt"))
        #expect(!FileManager.default.fileExists(atPath: "\(sandbox.root)/home/intruder.txt"))
    }
}
