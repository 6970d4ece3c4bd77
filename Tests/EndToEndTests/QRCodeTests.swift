import Foundation
import Testing

/// Show QR Code (`org.actshare.qrcode`): every code it makes — the PNG, the window's,
/// the terminal's half blocks as a terminal shows them — is read back by zbarimg
/// (Debian's zbar-tools), as a phone's camera would, and must give the exact text.
@Suite struct QRCodeTests {
    static let renderer = "\(Sandbox.repository)/Tests/Fixtures/half-blocks.py"

    /// What zbarimg reads in the image at `path`: the bytes of the one code, as they are.
    static func decode(_ path: String) throws -> String {
        let run = try Sandbox.execute("/usr/bin/zbarimg", ["--quiet", "--raw", "-Sbinary", path], environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
        #expect(run.status == 0, "zbarimg found no code in \(path): \(run.stderr)")
        return run.stdout
    }

    @Test func aLinkAndTheLongestTextDecodeExactlyFromThePNG() throws {
        let sandbox = try PrintToPDFTests.sandbox()
        let link = "https://example.org/a?b=c&d=%C3%A9#top"
        let png = "\(sandbox.root)/files/link.png"
        let made = try sandbox.run("perform", "org.actshare.qrcode", link, "-o", "output=\(png)", "--json")
        #expect(made.status == 0, "\(made.stderr)")
        let returned = try #require(try made.json()["returned_items"] as? [[String: Any]])
        #expect(returned.map { $0["kind"] as? String } == ["file", "text"])
        #expect(returned.first?["path"] as? String == png && returned.first?["content_type"] as? String == "image/png")
        #expect(returned.last?["text"] as? String == link)
        #expect(try Self.decode(png) == link)

        // The most a code holds, text that is not ASCII and has line breaks.
        let unit = "Grüße, 世界\n"
        let longest = String(repeating: unit, count: 2953 / unit.utf8.count)
            + String(repeating: "x", count: 2953 % unit.utf8.count)
        #expect(longest.utf8.count == 2953)
        let most = "\(sandbox.root)/files/most.png"
        let full = try sandbox.run("perform", "org.actshare.qrcode", "--text", longest, "-o", "output=\(most)")
        #expect(full.status == 0, "\(full.stderr)")
        #expect(try Self.decode(most) == longest)

        // One byte more is not offered, and says why.
        let over = try sandbox.run("list", "--explain", "--text", longest + "x")
        #expect(!over.stdout.contains("org.actshare.qrcode"))
        #expect(over.stderr.contains("org.actshare.qrcode: not offered: max-total-size is 2953 bytes; the items hold 2954"), "\(over.stderr)")

        // A name taken is not replaced.
        let again = try sandbox.run("perform", "org.actshare.qrcode", "https://example.org/other", "-o", "output=\(png)")
        #expect(again.status == 2, "\(again.stderr)")
        #expect(again.stderr.contains("\(png) exists already"), "\(again.stderr)")
        #expect(try Self.decode(png) == link)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(sandbox.root)/files").sorted() == ["link.png", "most.png"])
    }

    /// On a terminal the code is drawn in half blocks: rendered as the terminal shows them
    /// (light on dark, or dark on light with `-o invert=true`), it decodes.
    @Test(arguments: [false, true])
    func theTerminalsHalfBlocksDecode(_ inverted: Bool) throws {
        let sandbox = try PrintToPDFTests.sandbox()
        let link = "https://example.org/terminal?q=\(inverted)"
        let run = try sandbox.runOnTerminal(["perform", "org.actshare.qrcode", link] + (inverted ? ["-o", "invert=true"] : []), input: "")
        #expect(run.status == 0, "\(run.stderr)")
        let blocks = Set("\u{2588}\u{2580}\u{2584} ")
        let drawing = run.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
            .filter { !$0.isEmpty && $0.allSatisfy(blocks.contains) && $0.contains { $0 != " " } }
        #expect(drawing.count > 10, "\(run.stdout)")
        #expect(run.stdout.contains(link), "the text under the code")
        let text = "\(sandbox.root)/drawing.txt", png = "\(sandbox.root)/drawing.png"
        try (drawing.joined(separator: "\n") + "\n").write(toFile: text, atomically: true, encoding: .utf8)
        let rendered = try Sandbox.execute("/usr/bin/python3", [Self.renderer, text, png, inverted ? "dark-on-light" : "light-on-dark"],
                                           environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(try Self.decode(png) == link)
    }

    /// The share sheet shows the code with the link under it; a screenshot of the
    /// window decodes to the link.
    @Test func theWindowShowsACodeThatDecodes() throws {
        let sandbox = try PrintToPDFTests.sandbox()
        // A laptop's screen, where the window has room for the code and the words under it.
        let display = try ClipboardTests.Display(size: "1024x768")
        sandbox.extraEnvironment["DISPLAY"] = display.name
        let link = "https://example.org/window"
        let session = try DesktopSession(["share", link], environment: sandbox.environment, display: display)
        try session.answer(try session.window("Share"), typing: "qr", keys: ["Return"])
        _ = try session.window("Shared")
        let shot = "\(ShareSheetTests.artefacts)/sheet-qrcode.png"
        try session.screenshot(to: shot)
        #expect(try Self.decode(shot) == link)
        #expect(session.finish().status == 0)
    }
}
