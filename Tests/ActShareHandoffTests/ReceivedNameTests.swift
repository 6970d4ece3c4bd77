import ActShareHandoff
import Testing

/// Names from another device, made safe to create in the receive folder (issue 14).
@Suite struct ReceivedNameTests {
    @Test(arguments: [
        ("report.pdf", "report.pdf"),
        ("..", "__"),
        (".", "_"),
        (".bashrc", "_bashrc"),
        ("-rf", "_rf"),
        ("--help", "__help"),
        ("a/b", "a_b"),
        ("a\\b", "a_b"),
        ("new\nline", "new_line"),
        ("bell\u{07}", "bell_"),
        ("evil\u{202E}fdp.exe", "evil_fdp.exe"),
        ("Grüße 中文 مرحبا.txt", "Grüße 中文 مرحبا.txt"),
    ])
    func aNameIsMadeSafe(_ name: String, _ safe: String) {
        #expect(ReceivedName.sanitised(name) == safe)
    }

    /// Inside a sent folder leading dots and dashes are kept (`.git`, `.gitignore`); `.`
    /// and `..` never are.
    @Test(arguments: [
        (".git", ".git"),
        (".gitignore", ".gitignore"),
        ("-notes.txt", "-notes.txt"),
        ("..", "__"),
        (".", "_"),
        ("a/b", "a_b"),
        ("...", "..."),
    ])
    func aNameInsideAFolderKeepsItsLeadingDots(_ name: String, _ safe: String) {
        #expect(ReceivedName.sanitised(name, topLevel: false) == safe)
    }

    @Test func anEmptyNameIsRefused() {
        #expect(ReceivedName.sanitised("") == nil)
    }

    @Test func aLongNameIsCutOnACharacterBoundaryKeepingItsExtension() throws {
        let name = String(repeating: "é", count: 200) + ".txt"
        let safe = try #require(ReceivedName.sanitised(name))
        #expect(safe.utf8.count <= ReceivedName.maximumBytes && safe.hasSuffix("é.txt"))
    }

    @Test func aTakenNameGetsANumberBeforeItsExtension() {
        let taken: Set = ["a.txt", "a (1).txt", "Photos", ".hidden"]
        #expect(ReceivedName.unique("a.txt") { taken.contains($0) } == "a (2).txt")
        #expect(ReceivedName.unique("Photos") { taken.contains($0) } == "Photos (1)")
        #expect(ReceivedName.unique("b.txt") { taken.contains($0) } == "b.txt")
        let long = String(repeating: "x", count: 251) + ".txt"
        let numbered = ReceivedName.unique(long) { $0 == long }
        #expect(numbered?.hasSuffix(" (1).txt") == true && (numbered?.utf8.count ?? 999) <= ReceivedName.maximumBytes)
    }
}
