import Foundation
import Testing

/// The built-in Print to PDF activity, its PDFs checked with poppler-utils and qpdf.
@Suite struct PrintToPDFTests {
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        return sandbox
    }

    /// Runs a tool such as `pdfinfo` and returns its output, expecting it to succeed.
    static func tool(_ name: String, _ arguments: String...) throws -> String {
        let run = try Sandbox.execute("/usr/bin/\(name)", arguments, environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"], stdin: nil)
        #expect(run.status == 0, "\(name) \(arguments): \(run.stderr)")
        return run.stdout
    }

    /// `Key: value` lines of pdfinfo.
    static func info(_ pdf: String) throws -> [String: String] {
        var fields: [String: String] = [:]
        for line in try tool("pdfinfo", pdf).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// Images made with PIL (python3-pil): a JPEG, a PNG and a GIF of 640 x 480.
    static func images(in sandbox: Sandbox) throws -> (jpeg: String, png: String, gif: String) {
        let jpeg = "\(sandbox.root)/files/photo.jpg", png = "\(sandbox.root)/files/chart.png", gif = "\(sandbox.root)/files/anim.gif"
        let script = """
            from PIL import Image, ImageDraw
            image = Image.new("RGB", (640, 480), (250, 250, 250))
            ImageDraw.Draw(image).rectangle((100, 100, 540, 380), fill=(30, 90, 200))
            image.save("\(jpeg)", quality=80)
            image.save("\(png)")
            image.save("\(gif)")
            """
        let run = try Sandbox.execute("/usr/bin/python3", ["-c", script], environment: [:], stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        return (jpeg, png, gif)
    }

    @Test func textInThreeScriptsImagesAndAPDFMakeOneDocument() throws {
        let sandbox = try Self.sandbox()
        let text = try sandbox.file("notes.txt", "English words on a page.\n中文测试：你好，世界。\nمرحبا بالعالم\n\tA tabbed line ✓\n")
        let (jpeg, png, gif) = try Self.images(in: sandbox)
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        // A PDF to append: one made by actshare itself from a two-page text.
        let long = try sandbox.file("long.txt", (1...120).map { "Appended line \($0)" }.joined(separator: "\n") + "\n")
        let appended = "\(sandbox.root)/appended.pdf"
        #expect(try sandbox.run("perform", "org.actshare.print-to-pdf", long, "-o", "output=\(appended)").status == 0)
        let appendedPages = try #require(Int(try Self.info(appended)["Pages"] ?? ""))
        #expect(appendedPages == 2)

        let run = try sandbox.run("perform", "org.actshare.print-to-pdf", text, jpeg, png, gif, appended, "-o", "output-dir=\(output)", "-o", "paper=a4", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let pdf = "\(output)/notes.pdf"
        let returned = try #require((try run.json()["returned_items"] as? [[String: Any]])?.first)
        #expect(returned["path"] as? String == pdf)
        #expect(returned["content_type"] as? String == "application/pdf")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["notes.pdf"], "no temporary file is left")

        #expect(try Self.tool("qpdf", "--check", pdf).contains("No syntax or stream encoding errors"))
        let info = try Self.info(pdf)
        #expect(info["Pages"] == "\(4 + appendedPages)")
        #expect(info["Page size"]?.hasPrefix("595.276 x 841.89 pts (A4)") == true)
        #expect(info["Title"] == "notes.txt and 4 more")
        #expect(info["Creator"] == "actshare Print to PDF")
        let fonts = try Self.tool("pdffonts", pdf).split(separator: "\n").dropFirst(2)
        #expect(!fonts.isEmpty)
        for font in fonts {
            let columns = font.split(separator: " ", omittingEmptySubsequences: true)
            // name type… encoding emb sub uni object ID: emb is the fifth column from the end.
            #expect(columns[columns.count - 5] == "yes", "not embedded: \(font)")
        }
        let words = try Self.tool("pdftotext", "-enc", "UTF-8", "-f", "1", "-l", "1", pdf, "-")
        #expect(words.contains("English words on a page."))
        #expect(words.contains("中文测试：你好，世界。"))
        // pdftotext wraps right-to-left text in direction marks; the letters are what count.
        #expect(words.unicodeScalars.filter { !(0x202A...0x202E).contains($0.value) }.map(String.init).joined().contains("مرحبا بالعالم"))
        #expect(words.contains("notes.txt"), "the header names the item")
        #expect(words.replacingOccurrences(of: " ", with: "").contains("1/\(4 + appendedPages)"), "the footer counts pages")
        #expect(try Self.tool("pdftotext", "-enc", "UTF-8", "-f", "5", "-l", "5", pdf, "-").contains("Appended line 1"))

        let images = try Self.tool("pdfimages", "-list", pdf).split(separator: "\n").dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(images.count == 3, "the JPEG, the PNG and the GIF (through gdk-pixbuf)")
        #expect(images.first?[8] == "jpeg", "the JPEG is embedded as it is (DCT)")
        #expect(images.first?[3] == "640" && images.first?[4] == "480")

        let outlines = try Self.tool("qpdf", "--json=2", "--json-key=outlines", pdf)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(outlines.utf8)) as? [String: Any])
        let bookmarks = try #require(parsed["outlines"] as? [[String: Any]])
        #expect(bookmarks.map { $0["title"] as? String } == ["notes.txt", "photo.jpg", "chart.png", "anim.gif", "appended.pdf"])
        #expect(bookmarks.map { $0["destpageposfrom1"] as? Int } == [1, 2, 3, 4, 5])

        // Page 1 rendered is not blank: some of its pixels are dark.
        let image = "\(sandbox.root)/page"
        _ = try Self.tool("pdftoppm", "-gray", "-r", "40", "-f", "1", "-l", "1", "-singlefile", pdf, image)
        let pixels = try Data(contentsOf: URL(fileURLWithPath: image + ".pgm"))
        #expect(pixels.dropFirst(20).filter { $0 < 128 }.count > 50, "four lines of text leave dark pixels")
    }

    @Test func sourceCodeIsMonospaceAndOtherEncodingsAreRead() throws {
        let sandbox = try Self.sandbox()
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let code = try sandbox.file("tool.py", "def main():\n\treturn \"héllo\"\n")
        let latin1 = try sandbox.data("latin.txt", Data([0x63, 0x61, 0x66, 0xE9, 0x20, 0x6E, 0x61, 0xEF, 0x76, 0x65, 0x0A]))
        let utf16 = try sandbox.data("wide.txt", Data([0xFF, 0xFE]) + "wide text ✓\n".data(using: .utf16LittleEndian)!)
        for (file, expected) in [(code, "return \"héllo\""), (latin1, "café naïve"), (utf16, "wide text ✓")] {
            let run = try sandbox.run("perform", "org.actshare.print-to-pdf", file, "-o", "output-dir=\(output)", "-o", "paper=letter")
            #expect(run.status == 0, "\(run.stderr)")
            let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
            let pdf = "\(output)/\(stem).pdf"
            #expect(try Self.tool("pdftotext", "-enc", "UTF-8", pdf, "-").contains(expected), "\(file)")
            #expect(try Self.info(pdf)["Page size"]?.hasPrefix("612 x 792 pts (letter)") == true)
        }
        #expect(try Self.tool("pdffonts", "\(output)/tool.pdf").contains("DejaVuSansMono"))
        #expect(!(try Self.tool("pdffonts", "\(output)/latin.pdf").contains("Mono")), "prose is not monospace")
    }

    @Test func anExistingFileIsNeverOverwritten() throws {
        let sandbox = try Self.sandbox()
        let text = try sandbox.file("report.txt", "words\n")
        let target = try sandbox.file("report.pdf", "not a PDF, and kept")
        let directory = (target as NSString).deletingLastPathComponent
        for expected in ["report-1.pdf", "report-2.pdf"] {
            let run = try sandbox.run("perform", "org.actshare.print-to-pdf", text, "-o", "output=\(target)")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == "\(directory)/\(expected)\n")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "not a PDF, and kept")
        // Without output or output-dir: the XDG documents folder, made if missing.
        let run = try sandbox.run("perform", "org.actshare.print-to-pdf", "--text", "typed text")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "\(sandbox.root)/home/Documents/Text.pdf\n")
    }

    @Test func badInputNamesTheFileAndLeavesNoPDF() throws {
        let sandbox = try Self.sandbox()
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let good = try sandbox.file("good.txt", "fine\n")
        let corrupt = try sandbox.data("broken.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 64))
        let corruptJPEG = try sandbox.data("broken.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 1, count: 64))
        let binaryText = try sandbox.data("nul.txt", Data("text\0with a NUL\n".utf8))
        let cases: [(String, String)] = [
            (corrupt, "actshare: org.actshare.print-to-pdf: \(corrupt) is not a readable PNG image ("),
            (corruptJPEG, "actshare: org.actshare.print-to-pdf: \(corruptJPEG) is not a readable image ("),
            (binaryText, "actshare: org.actshare.print-to-pdf: \(binaryText) is binary, not text (it holds NUL bytes)"),
        ]
        for (bad, message) in cases {
            let run = try sandbox.run("perform", "org.actshare.print-to-pdf", good, bad, "-o", "output-dir=\(output)")
            #expect(run.status == 2)
            #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        }
        let notAFolder = try sandbox.file("plain", "x")
        let unwritable = try sandbox.run("perform", "org.actshare.print-to-pdf", good, "-o", "output-dir=\(notAFolder)")
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr == "actshare: org.actshare.print-to-pdf: cannot write in \(notAFolder): Not a directory\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).isEmpty)

        // Binary data that is neither an image nor a PDF is not offered at all.
        let binary = try sandbox.data("blob.bin", Data((0..<256).map { UInt8($0) }))
        let listed = try sandbox.run("list", binary, "--json")
        #expect(!(try listed.listedTypes()).contains("org.actshare.print-to-pdf"))
        #expect(try sandbox.run("perform", "org.actshare.print-to-pdf", binary).status == 3)
    }
}

extension PrintToPDFTests {
    /// A text file is read a megabyte at a time: a UTF-8 character and a UTF-16 surrogate
    /// pair cut by the first megabyte's end come out whole (the UTF-8 file is judged
    /// UTF-8 across the cut, not Latin-1).
    @Test func aLongFileIsReadInPiecesAndComesOutWhole() throws {
        let sandbox = try Self.sandbox()
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        // 1 MiB less one byte of ASCII in lines of 2,000 characters.
        let megabyte = 1 << 20
        var ascii = Data(repeating: UInt8(ascii: "a"), count: megabyte - 1)
        for index in stride(from: 1999, to: ascii.count, by: 2000) { ascii[index] = 0x0A }
        let utf8 = try sandbox.data("split.txt", ascii + Data("é then the end\n".utf8))
        // BOM, then UTF-16 units up to 2 bytes before the megabyte, then a surrogate pair.
        var wide = Data([0xFF, 0xFE])
        let units = (megabyte - 4) / 2
        wide += String((0..<units).map { $0 % 1000 == 999 ? "\n" : "b" }).data(using: .utf16LittleEndian)!
        wide += "𝄞 AFTER-PAIR\n".data(using: .utf16LittleEndian)!
        let utf16 = try sandbox.data("wide.txt", wide)
        for (file, expected) in [(utf8, "é then the end"), (utf16, "AFTER-PAIR")] {
            let run = try sandbox.run("perform", "org.actshare.print-to-pdf", file, "-o", "output-dir=\(output)")
            #expect(run.status == 0, "\(run.stderr)")
            let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
            let text = try Self.tool("pdftotext", "-enc", "UTF-8", "\(output)/\(stem).pdf", "-")
            #expect(text.contains(expected), "\(file)")
            #expect(!text.contains("Ã"), "read as UTF-8 where it is")
        }
    }
}

extension PrintToPDFTests {
    /// What readers found (issue 13): a form feed starts a page; a long URL is broken
    /// without a hyphen added; the header and footer stay inside the page and clear of
    /// the text, and a margin too small to hold them is refused.
    @Test func formFeedsURLsAndTheFurniture() throws {
        let sandbox = try Self.sandbox()
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let url = "https://example.org/" + (0..<30).map { "segment\($0)" }.joined(separator: "/") + "?query=value"
        let text = try sandbox.file("pages.txt", "first page\n\u{0C}\nsecond page \(url)\n\u{0C}third page\n")
        let run = try sandbox.run("perform", "org.actshare.print-to-pdf", text, "-o", "output-dir=\(output)", "-o", "paper=a4")
        #expect(run.status == 0, "\(run.stderr)")
        let pdf = "\(output)/pages.pdf"
        #expect(try Self.info(pdf)["Pages"] == "3")
        for (page, expected) in [(1, "first page"), (2, "second page"), (3, "third page")] {
            #expect(try Self.tool("pdftotext", "-f", "\(page)", "-l", "\(page)", pdf, "-").contains(expected))
        }
        let second = try Self.tool("pdftotext", "-f", "2", "-l", "2", "-layout", pdf, "-")
        let joined = second.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        #expect(joined.contains(url), "the URL, broken over lines, with nothing added: \(second)")
        #expect(try !Self.tool("qpdf", "--check", pdf).isEmpty)

        // Every word's box (pdftotext -bbox) at least 6 mm inside the page.
        let boxes = try Self.tool("pdftotext", "-bbox", pdf, "-")
        let edge = 6 * 72 / 25.4
        var words = 0
        for line in boxes.split(separator: "\n") where line.contains("<word ") {
            func value(_ key: String) -> Double? {
                guard let range = line.range(of: "\(key)=\"") else { return nil }
                return Double(line[range.upperBound...].prefix { $0 != "\"" })
            }
            guard let yMin = value("yMin"), let yMax = value("yMax") else { continue }
            words += 1
            #expect(yMin >= edge && yMax <= 841.89 - edge, "\(line)")
        }
        #expect(words > 10)

        let tooSmall = try sandbox.run("perform", "org.actshare.print-to-pdf", text, "-o", "output-dir=\(output)", "-o", "margin=0")
        #expect(tooSmall.status == 2)
        #expect(tooSmall.stderr.contains("at least 12mm (room for the header and footer)"), "\(tooSmall.stderr)")
        #expect(try sandbox.run("perform", "org.actshare.print-to-pdf", text, "-o", "output-dir=\(output)", "-o", "margin=12mm").status == 0)
    }
}

extension PrintToPDFTests {
    /// A long text is laid out by one thread per processor: its pages, their order, their
    /// footers and the PDF's size are the same as when one processor lays it all out
    /// (`taskset -c 0`), with lines of different heights (CJK, emoji), right-to-left
    /// paragraphs, CRLF line ends, form feeds and empty lines among them.
    @Test func aTextLaidOutOnSeveralThreadsIsTheTextLaidOutOnOne() throws {
        let sandbox = try Self.sandbox()
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let kinds = [
            "plain words that wrap when the line grows longer than the page is wide, again and again and again",
            "中文测试：你好，世界。汉字的行比拉丁字母的行高。", "مرحبا بالعالم", "emoji 😀 in a line 😀", "", "short\r",
        ]
        var text = ""
        for number in 1...9_000 {
            text += String(format: "L%05d ", number) + kinds[number % kinds.count] + (number % 2_500 == 0 ? "\u{0C}" : "") + "\n"
        }
        let file = try sandbox.file("long.txt", text)
        var extracted: [String] = []
        var sizes: [Int] = []
        for (name, pinned) in [("parallel", false), ("one", true)] {
            let arguments = ["perform", "org.actshare.print-to-pdf", file, "-o", "output=\(output)/\(name).pdf"]
            let run = pinned
                ? try Sandbox.execute("/usr/bin/taskset", ["-c", "0", Sandbox.binary] + arguments, environment: sandbox.environment, stdin: nil)
                : try sandbox.run(arguments)
            #expect(run.status == 0, "\(run.stderr)")
            let pdf = "\(output)/\(name).pdf"
            #expect(try Self.tool("qpdf", "--check", pdf).contains("No syntax or stream encoding errors"))
            let pages = try #require(Int(try Self.info(pdf)["Pages"] ?? ""))
            #expect(pages > 100)
            let words = try Self.tool("pdftotext", "-enc", "UTF-8", pdf, "-")
            let pageTexts = words.split(separator: "\u{0C}", omittingEmptySubsequences: false).dropLast()
            #expect(pageTexts.count == pages)
            for (index, page) in pageTexts.enumerated() {
                let footer = page.split(separator: "\n").last.map { $0.replacingOccurrences(of: " ", with: "") }
                #expect(footer == "\(index + 1)/\(pages)", "page \(index + 1) of \(name)")
            }
            let numbers = words.split(whereSeparator: { $0 == "\n" || $0 == " " }).filter { $0.count == 6 && $0.hasPrefix("L") }
            #expect(numbers == (1...9_000).map { Substring(String(format: "L%05d", $0)) }, "every line, in order")
            extracted.append(words)
            sizes.append(try FileManager.default.attributesOfItem(atPath: pdf)[.size] as? Int ?? 0)
        }
        #expect(extracted[0] == extracted[1], "the same text on the same pages")
        #expect(sizes[0] == sizes[1])
    }
}

extension PrintToPDFTests {
    /// The first pass measures a short line of printable ASCII from its characters'
    /// advances, without laying it out; the pages it counts must be the pages the second
    /// pass draws. Lines around the wrapping width, full of kerning pairs, in the prose
    /// face and in monospace: every page's footer says `n / N` with N the PDF's own page
    /// count, and every line comes out once, in order (issue 13).
    @Test func linesMeasuredWithoutLayoutArePagedAsTheyAreDrawn() throws {
        let sandbox = try Self.sandbox()
        let pairs = ["AV", "To", "Wa", "Ty", "LT", "ff", "fi", "Yo", "P.", "r,", "\"A", "W "]
        for name in ["prose.txt", "code.c"] {
            var text = ""
            for number in 1...3_000 {
                // From 60 to 150 characters: each side of where a line wraps, in both faces.
                let length = 60 + (number * 37) % 91
                var line = String(format: "L%05d ", number)
                var pair = number
                while line.count < length {
                    line += pairs[pair % pairs.count]
                    pair = (pair * 31 + 7) % 1_000_003
                }
                text += line + (number % 7 == 0 ? "\tx" : "") + "\n"
            }
            let file = try sandbox.file(name, text)
            let pdf = "\(sandbox.root)/\(name).pdf"
            let run = try sandbox.run("perform", "org.actshare.print-to-pdf", file, "-o", "output=\(pdf)")
            #expect(run.status == 0, "\(run.stderr)")
            let pages = try #require(Int(try Self.info(pdf)["Pages"] ?? ""))
            let words = try Self.tool("pdftotext", "-enc", "UTF-8", pdf, "-")
            let pageTexts = words.split(separator: "\u{0C}", omittingEmptySubsequences: false).dropLast()
            #expect(pageTexts.count == pages && pages > 40, "\(name): \(pages) pages")
            for (index, page) in pageTexts.enumerated() {
                let footer = page.split(separator: "\n").last.map { $0.replacingOccurrences(of: " ", with: "") }
                #expect(footer == "\(index + 1)/\(pages)", "\(name): page \(index + 1)")
            }
            let numbers = words.split(whereSeparator: { $0 == "\n" || $0 == " " }).filter { $0.count == 6 && $0.hasPrefix("L0") }
            #expect(numbers == (1...3_000).map { Substring(String(format: "L%05d", $0)) }, "\(name): every line, in order")
        }
    }
}

extension PrintToPDFTests {
    /// The same colour emoji twice on a page: cairo 1.16 names its image twice in the
    /// page's resources, which qpdf rejects and CUPS's pdftopdf drops (issue 13). The PDF
    /// passes `qpdf --check` (no warning: exit 0), and mutool draws every page.
    @Test func theSameEmojiTwiceMakesAPDFThatQpdfAccepts() throws {
        let sandbox = try Self.sandbox()
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let text = try sandbox.file("emoji.txt", "hello 😀 world 😀\nagain 😀 and 🎉 🎉\n")
        let run = try sandbox.run("perform", "org.actshare.print-to-pdf", text, "-o", "output-dir=\(output)")
        #expect(run.status == 0, "\(run.stderr)")
        let pdf = "\(output)/emoji.pdf"
        let check = try Sandbox.execute("/usr/bin/qpdf", ["--check", pdf], environment: [:], stdin: nil)
        #expect(check.status == 0, "qpdf: \(check.stdout) \(check.stderr)")
        #expect(!check.stderr.contains("duplicated key"))
        let images = try Self.tool("pdfimages", "-list", pdf).split(separator: "\n").dropFirst(2)
            .filter { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first == "image" }
        #expect(images.count == 5, "every emoji is drawn: \(images)")
        let draw = try Sandbox.execute("/usr/bin/mutool", ["draw", "-o", "\(output)/page-%d.png", pdf], environment: [:], stdin: nil)
        #expect(draw.status == 0 && !draw.stderr.contains("error"), "mutool: \(draw.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(output)/page-1.png"))
    }

    /// Print to PDF is offered for an image only where a loader reads its format: WebP
    /// through webp-pixbuf-loader (installed by scripts/install-deps) is offered and
    /// printed; AVIF, which no installed loader reads, is not offered, and performing it
    /// anyway fails without a PDF.
    @Test func imagesAreOfferedOnlyWhereALoaderReadsThem() throws {
        let loaders = try String(contentsOfFile: "/usr/lib/x86_64-linux-gnu/gdk-pixbuf-2.0/2.10.0/loaders.cache", encoding: .utf8)
        try #require(loaders.contains("\"image/webp\""), "webp-pixbuf-loader is installed (scripts/install-deps)")
        try #require(!loaders.contains("\"image/avif\""), "no AVIF loader here")
        let sandbox = try Self.sandbox()
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let webp = "\(sandbox.root)/files/photo.webp"
        try FileManager.default.createDirectory(atPath: "\(sandbox.root)/files", withIntermediateDirectories: true)
        let made = try Sandbox.execute(
            "/usr/bin/python3", ["-c", "from PIL import Image; Image.new('RGB', (320, 200), (30, 90, 200)).save('\(webp)')"],
            environment: [:], stdin: nil)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try sandbox.run("list", "--json", webp).stdout.contains("\"org.actshare.print-to-pdf\""))
        let printed = try sandbox.run("perform", "org.actshare.print-to-pdf", webp, "-o", "output-dir=\(output)")
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(try Self.tool("pdfimages", "-list", "\(output)/photo.pdf").split(separator: "\n").count == 3, "one image")

        // The start of an AVIF file: its type comes from its name and its `ftyp` box.
        let avif = try sandbox.data("photo.avif", Data([0, 0, 0, 0x1C]) + Data("ftypavif".utf8) + Data(count: 4) + Data("avifmif1miaf".utf8))
        let offered = try sandbox.run("list", "--json", avif)
        #expect(!offered.stdout.contains("org.actshare.print-to-pdf"), "\(offered.stdout)")
        #expect(offered.stdout.contains("org.actshare.mail"), "other activities still are")
        let refused = try sandbox.run("perform", "org.actshare.print-to-pdf", avif, "-o", "output-dir=\(output)")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("cannot perform"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["photo.pdf"])
    }
}
