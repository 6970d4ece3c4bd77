import Foundation
import Testing

/// The share sheet's order: what this user chose most for this kind of item first
/// (`choices.jsonl`), while `list` keeps the order scripts rely on.
@Suite struct RankingTests {
    static func types(_ run: Run) throws -> [String] {
        let activities = try #require(try run.json()["activities"] as? [[String: Any]], "\(run.stdout)\(run.stderr)")
        return activities.compactMap { $0["type"] as? String }
    }

    /// A PDF and a PNG, as their bytes type them.
    static func documents(in sandbox: Sandbox) throws -> (pdf: String, png: String) {
        let pdf = try sandbox.file("report.pdf", "%PDF-1.4\n%âãÏÓ\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n")
        let png = try sandbox.data("photo.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 32)))
        return (pdf, png)
    }

    @Test func mailChosenThreeTimesForPDFsComesFirstForAPDFOnly() throws {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        let (pdf, png) = try Self.documents(in: sandbox)
        let plain = try Self.types(try sandbox.run("list", "--json", pdf))
        try #require(plain.count > 1 && plain.first != "org.actshare.mail", "\(plain)")
        #expect(try Self.types(try sandbox.run("list", "--ranked", "--json", pdf)) == plain, "nothing chosen yet: the offer order")
        let imageBefore = try Self.types(try sandbox.run("list", "--ranked", "--json", png))

        for _ in 0..<3 {
            let mailed = try sandbox.run("perform", "org.actshare.mail", pdf, "-o", "to=ann@example.org", "-o", "spool=maildir:\(sandbox.root)/Maildir")
            #expect(mailed.status == 0, "\(mailed.stderr)")
        }
        let ranked = try Self.types(try sandbox.run("list", "--ranked", "--json", pdf))
        #expect(ranked.first == "org.actshare.mail", "\(ranked)")
        #expect(Set(ranked) == Set(plain), "ranking reorders, never adds or drops")
        // The picker shows the sheet's order (--picker none prints the choices it would show).
        let choices = try sandbox.run("share", "--picker", "none", pdf)
        #expect(choices.stdout.hasPrefix("org.actshare.mail\t"), "\(choices.stdout)")
        // For a PNG, nothing was chosen: its order is as before, though list's (which puts
        // the activity used last first, whatever it was used for) has Mail first now.
        let forImage = try Self.types(try sandbox.run("list", "--ranked", "--json", png))
        #expect(forImage == imageBefore)
        #expect(forImage.first != "org.actshare.mail")

        // What is kept: kinds, activities, targets and times; no name of an item.
        let file = "\(sandbox.root)/state/actshare/choices.jsonl"
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["family"] as? String == "pdf" && first["activity"] as? String == "org.actshare.mail" && first["target"] is NSNull)
        #expect(!lines.joined().contains("report"), "no item's name")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600)

        // Lines that are not choices are skipped; the rest still count.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("garbage\n{\"time\":1,\"family\":\"pdf\",\"activity\":\"not a type\",\"target\":null}\n\u{1}\n".utf8))
        try handle.close()
        #expect(try Self.types(try sandbox.run("list", "--ranked", "--json", pdf)).first == "org.actshare.mail")

        // Forgotten: the offer order again.
        let forgot = try sandbox.run("forget")
        #expect(forgot.status == 0 && forgot.stdout == "Past choices forgotten.\n", "\(forgot.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try Self.types(try sandbox.run("list", "--ranked", "--json", pdf)) == plain)
        #expect(try sandbox.run("forget").stdout == "No past choices to forget.\n")
    }

    @Test func rememberChoicesOffRecordsNothing() throws {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        try sandbox.writeConfig("remember-choices: false\n")
        let (pdf, _) = try Self.documents(in: sandbox)
        let mailed = try sandbox.run("perform", "org.actshare.mail", pdf, "-o", "to=ann@example.org", "-o", "spool=maildir:\(sandbox.root)/Maildir")
        #expect(mailed.status == 0, "\(mailed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(sandbox.root)/state/actshare/choices.jsonl"))
        try Sandbox.write("remember-choices: maybe\n", to: "\(sandbox.root)/bad.yaml")
        let refused = try sandbox.run("list", "--config", "\(sandbox.root)/bad.yaml", pdf)
        #expect(refused.status == 2)
        #expect(refused.stderr.hasSuffix("\(sandbox.root)/bad.yaml:1:19: error: 'remember-choices' must be true or false, not 'maybe'\n"), "\(refused.stderr)")
    }

    /// A target chosen twice comes first among its activity's targets in the sheet's order.
    @Test func aTargetChosenComesFirstAmongItsActivitysTargets() throws {
        let sandbox = try Sandbox(providerPath: [])
        try TargetTests.targetsProvider(in: sandbox)
        let text = try sandbox.file("notes.txt", "some words\n")
        for _ in 0..<2 {
            #expect(try sandbox.run("perform", "org.test.targets.describe", "--target", "org.gnome.TextEditor.desktop", text).status == 0)
        }
        let ranked = try TargetTests.targets(try sandbox.run("list", "--ranked", "--json", text)).map { $0["id"] as? String }
        #expect(ranked == ["org.gnome.TextEditor.desktop", "beta-7f3a", "ada@example.org"])
        let plain = try TargetTests.targets(try sandbox.run("list", "--json", text)).map { $0["id"] as? String }
        #expect(plain == ["beta-7f3a", "ada@example.org", "org.gnome.TextEditor.desktop"], "list keeps the provider's order")
    }
}
