import Foundation
import Testing

@Suite struct ListTests {
    @Test func listsActivitiesForAPythonFileAsJSON() throws {
        let sandbox = try Sandbox()
        let script = try sandbox.file("tool.py", "print('hello world')\n")
        let run = try sandbox.run("list", "--json", script)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let json = try run.json()
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.count == 1)
        #expect(Set(items[0].keys) == ["kind", "path", "content_type", "size"])
        #expect(items[0]["kind"] as? String == "file")
        #expect(items[0]["path"] as? String == script)
        #expect(items[0]["content_type"] as? String == "text/x-python")
        #expect(items[0]["size"] as? Int == 21)
        // text/x-python is a text/plain, so the text/* word counter takes it; Reverse wants text items.
        #expect(try run.listedTypes() == [
            "org.example.wordcount.count", "org.example.wordcount.describe", "org.example.hello.greet", "org.example.hello.sign",
        ])
        let activities = try #require(json["activities"] as? [[String: Any]])
        #expect(Set(activities[0].keys) == ["type", "title", "image", "category", "provider", "targets"])
        #expect(activities[0]["title"] as? String == "Count Words")
        #expect(activities[0]["image"] as? String == "accessories-text-editor")
        #expect(activities[0]["category"] as? String == "action")
        #expect(activities[0]["provider"] as? String == "org.example.wordcount")
    }

    @Test func canPerformHooksNarrowTheOffer() throws {
        let sandbox = try Sandbox()
        // Hello's can-perform refuses empty items; Describe's refuses when no item is under 1 MiB.
        let empty = try sandbox.file("empty.txt", "")
        #expect(try sandbox.run("list", "--json", empty).listedTypes() == [
            "org.example.wordcount.count", "org.example.wordcount.describe", "org.example.hello.sign",
        ])
        let big = try sandbox.data("big.bin", Data(repeating: 7, count: 2 << 20))
        #expect(try sandbox.run("list", "--json", big).listedTypes() == ["org.example.hello.greet", "org.example.hello.sign"])
    }

    @Test func listsTextURLAndStandardInputItems() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run("list", "--json", "https://example.org/page", "--text", "héllo")
        let items = try #require(try run.json()["items"] as? [[String: Any]])
        #expect(items[0]["kind"] as? String == "url")
        #expect(items[0]["url"] as? String == "https://example.org/page")
        #expect(items[0]["content_type"] as? String == "x-scheme-handler/https")
        #expect(items[1]["kind"] as? String == "text")
        #expect(items[1]["text"] as? String == "héllo")
        #expect(items[1]["size"] as? Int == 6)
        #expect(try run.listedTypes() == ["org.example.wordcount.describe", "org.example.hello.greet"])

        let stdin = try sandbox.run("list", "--json", "-", "--type", "text/markdown", stdin: "# Title\n")
        let stdinItems = try #require(try stdin.json()["items"] as? [[String: Any]])
        #expect(stdinItems[0]["kind"] as? String == "text")
        #expect(stdinItems[0]["content_type"] as? String == "text/markdown")
        #expect(try stdin.listedTypes().contains("org.example.reverse.text"))

        let binary = try sandbox.run(["list", "--json", "-"], stdin: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]))
        let binaryItems = try #require(try binary.json()["items"] as? [[String: Any]])
        #expect(binaryItems[0]["kind"] as? String == "data")
        #expect(binaryItems[0]["content_type"] as? String == "image/png")
    }

    @Test func exclusionsFromConfigAndFlags() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("a.txt", "some words\n")
        try sandbox.writeConfig("exclude: [org.example.hello.sign]\ndisabled-providers: [org.example.reverse]\n")
        #expect(try sandbox.run("list", "--json", text).listedTypes() == [
            "org.example.wordcount.count", "org.example.wordcount.describe", "org.example.hello.greet",
        ])
        #expect(try sandbox.run("list", "--json", "-x", "org.example.wordcount.count", "--exclude", "org.example.hello.greet", text).listedTypes()
            == ["org.example.wordcount.describe"])
        #expect(try sandbox.run("list", "--json", "--only", "org.example.hello.greet", "--only", "org.example.hello.sign", text).listedTypes()
            == ["org.example.hello.greet"])
        #expect(try sandbox.run("list", "--json", "-a", "org.example.wordcount.count", text).listedTypes() == ["org.example.wordcount.count"])
        // The disabled provider's activity is gone even where its rules would take the item.
        #expect(try sandbox.run("list", "--json", "--text", "hi").listedTypes().contains("org.example.reverse.text") == false)
    }

    @Test func exitCodeThreeWhenNothingCanPerform() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("a.txt", "words\n")
        let run = try sandbox.run("list", "--json", "--only", "org.example.reverse.text", text)
        #expect(run.status == 3)
        #expect(try run.listedTypes().isEmpty)
        let plain = try sandbox.run("list", "--only", "org.example.reverse.text", text)
        #expect(plain.status == 3)
        #expect(plain.stderr == "actshare: no activity can perform on the items\n")
    }

    @Test func withoutItemsListsEveryActivity() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run("list")
        #expect(run.status == 0)
        #expect(run.stdout == """
            Count Words     org.example.wordcount.count
            Describe Items  org.example.wordcount.describe
            Reverse Text    org.example.reverse.text
            Say Hello       org.example.hello.greet
            Sign With Name  org.example.hello.sign

            """)
    }

    @Test func pinsComeFirstThenRecents() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("a.txt", "some words\n")
        try sandbox.writeConfig("pin: [org.example.hello.sign]\n")
        #expect(try sandbox.run("perform", "org.example.hello.greet", text).status == 0)
        #expect(try sandbox.run("perform", "org.example.wordcount.describe", text).status == 0)
        #expect(try sandbox.run("list", "--json", text).listedTypes() == [
            "org.example.hello.sign", "org.example.wordcount.describe", "org.example.hello.greet", "org.example.wordcount.count",
        ])
        let recents = try String(contentsOfFile: "\(sandbox.root)/state/actshare/recents", encoding: .utf8)
        #expect(recents == "org.example.wordcount.describe\norg.example.hello.greet\n")
    }

    @Test func noLibraryIsLoadedForActivitiesRemovedBeforeCanPerform() throws {
        let sandbox = try Sandbox(providerPath: [Sandbox.examples, Sandbox.fixtureProviders])
        let canary = "\(sandbox.root)/state/canary.log"
        sandbox.extraEnvironment["ACTSHARE_CANARY_FILE"] = canary
        let text = try sandbox.file("a.txt", "words\n")
        let png = try sandbox.data("a.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]))

        // The static rules take only images: no load for a text file.
        #expect(try !sandbox.run("list", "--json", text).listedTypes().contains("org.actshare.test.canary.images"))
        #expect(!FileManager.default.fileExists(atPath: canary))
        // Excluded: no load even for an image.
        #expect(try !sandbox.run("list", "--json", "-x", "org.actshare.test.canary.images", png).listedTypes().contains("org.actshare.test.canary.images"))
        try sandbox.writeConfig("disabled-providers: [org.actshare.test.canary]\n")
        _ = try sandbox.run("list", "--json", png)
        #expect(!FileManager.default.fileExists(atPath: canary))
        // Offered: its can-perform hook runs, so the library loads.
        try sandbox.writeConfig("")
        #expect(try sandbox.run("list", "--json", png).listedTypes().contains("org.actshare.test.canary.images"))
        #expect(try String(contentsOfFile: canary, encoding: .utf8) == "loaded\n")
    }

    @Test func performingOneActivityAsksNoOtherProvider() throws {
        let sandbox = try Sandbox(providerPath: [Sandbox.examples, Sandbox.fixtureProviders])
        let canary = "\(sandbox.root)/canary.log"
        sandbox.extraEnvironment["ACTSHARE_CANARY_FILE"] = canary
        let png = try sandbox.data("a.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]))
        // The canary's activity takes images and has a can-perform hook; performing
        // another activity on an image must not load it.
        #expect(try sandbox.run("perform", "org.example.hello.sign", png, "-o", "name=Ada").status == 0)
        #expect(!FileManager.default.fileExists(atPath: canary))
    }
}
