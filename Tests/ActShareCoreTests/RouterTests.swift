import Testing
@testable import ActShareCore

@Suite struct RouterTests {
    static let here = SourceLocation(file: "test.yaml", line: 1, column: 1)

    static func activity(_ type: String, title: String? = nil, accepts: AcceptRules = AcceptRules()) -> ActivityDeclaration {
        ActivityDeclaration(
            type: type, title: title ?? type, image: "system-run", category: .action, accepts: accepts, options: [],
            hooks: ActivityHooks(perform: .standard(.perform, symbol: "go", at: here)), location: here)
    }

    static func provider(_ id: String, _ activities: [ActivityDeclaration], file: String = "p.yaml") -> ProviderManifest {
        ProviderManifest(
            file: file, id: id, name: id, version: "1", library: "/lib.so", libraryLocation: here, isolation: .inProcess,
            timeoutMilliseconds: 1000, activities: activities)
    }

    static let python = Item(kind: .file, path: "/a.py", url: "file:///a.py", contentType: "text/x-python", size: 10)
    static let png = Item(kind: .file, path: "/a.png", url: "file:///a.png", contentType: "image/png", size: 3000)
    static let https = Item.url("https://example.org")
    static let mailto = Item.url("mailto:me@example.org")

    @Test func kindsContentTypesAndSchemes() {
        let text = AcceptRules(contentTypes: ["text/plain"])
        #expect(Router.accepts(text, items: [Self.python]))
        #expect(!Router.accepts(text, items: [Self.png]))
        #expect(Router.accepts(AcceptRules(contentTypes: ["text/*", "image/png"]), items: [Self.python, Self.png]))

        let urls = AcceptRules(kinds: [.url], urlSchemes: ["http", "https"])
        #expect(Router.accepts(urls, items: [Self.https]))
        #expect(!Router.accepts(urls, items: [Self.mailto]))
        #expect(!Router.accepts(urls, items: [Self.python]))
        // url-schemes constrain URL items only.
        #expect(Router.accepts(AcceptRules(urlSchemes: ["https"]), items: [Self.python, Self.https]))
    }

    /// Judged before the items are typed (helpers started ahead), by number and kinds: never
    /// false where ``Router/accepts(_:items:matcher:)`` may be true.
    @Test func mayAcceptJudgesByNumberAndKindsOnly() {
        let images = AcceptRules(kinds: [.file], contentTypes: ["image/*"], maxTotalSize: 1)
        #expect(Router.mayAccept(images, kinds: [.file]))
        #expect(!Router.mayAccept(images, kinds: [.text]))
        #expect(!Router.mayAccept(images, kinds: [.file, .text]))
        #expect(Router.mayAccept(AcceptRules(kinds: [.file], match: .any), kinds: [.file, .text]))
        #expect(!Router.mayAccept(AcceptRules(minItems: 2), kinds: [.file]))
        #expect(!Router.mayAccept(AcceptRules(maxItems: 1), kinds: [.file, .file]))
        #expect(Router.mayAccept(AcceptRules(), kinds: [.url, .text]))
        // Every accepted set of items may be accepted, whatever their types and sizes.
        let items = [Self.python, Self.png, Self.https, Self.mailto]
        let rules = [
            AcceptRules(contentTypes: ["text/plain"]), AcceptRules(kinds: [.url], urlSchemes: ["https"]),
            AcceptRules(kinds: [.file], maxItems: 1), AcceptRules(kinds: [.file, .url], match: .any), AcceptRules(minItems: 2),
        ]
        for rule in rules {
            for count in 1...items.count {
                for start in 0...(items.count - count) {
                    let chosen = Array(items[start..<(start + count)])
                    if Router.accepts(rule, items: chosen) { #expect(Router.mayAccept(rule, kinds: chosen.map(\.kind))) }
                }
            }
        }
    }

    /// `--explain` names the rule that refused the items, and says nothing when they pass:
    /// it must agree with ``Router/accepts(_:items:matcher:)`` on every case.
    @Test func aRejectionNamesTheRuleAndAgreesWithAccepts() {
        let cases: [(AcceptRules, [Item], String?)] = [
            (AcceptRules(contentTypes: ["image/*"]), [Self.python], "item 1 (a.py) is text/x-python; content-types are image/*"),
            (AcceptRules(kinds: [.url]), [Self.https, Self.python], "item 2 (a.py) is file; kinds are url"),
            (AcceptRules(maxItems: 1), [Self.python, Self.png], "max-items is 1; there are 2 items"),
            (AcceptRules(minItems: 2), [Self.python], "min-items is 2; there is 1 item"),
            (AcceptRules(maxTotalSize: 100), [Self.png], "max-total-size is 100 bytes; the items hold 3000"),
            (AcceptRules(urlSchemes: ["https"]), [Self.mailto], "item 1 (mailto:me@example.org) has the scheme mailto; url-schemes are https"),
            (AcceptRules(contentTypes: ["image/*"], match: .any), [Self.python, Self.png], nil),
            (AcceptRules(contentTypes: ["audio/*"], match: .any), [Self.python],
             "no item matches (match: any): item 1 (a.py) is text/x-python; content-types are audio/*"),
            (AcceptRules(), [Self.python, Self.https], nil),
        ]
        for (rules, items, reason) in cases {
            #expect(Router.rejection(rules, items: items) == reason)
            #expect(Router.accepts(rules, items: items) == (reason == nil))
        }
    }

    @Test func countsSizesAndMatchModes() {
        #expect(!Router.accepts(AcceptRules(), items: []))
        #expect(Router.accepts(AcceptRules(minItems: 0), items: []))
        #expect(!Router.accepts(AcceptRules(minItems: 2), items: [Self.python]))
        #expect(!Router.accepts(AcceptRules(maxItems: 1), items: [Self.python, Self.png]))
        #expect(Router.accepts(AcceptRules(maxTotalSize: 3010), items: [Self.python, Self.png]))
        #expect(!Router.accepts(AcceptRules(maxTotalSize: 3009), items: [Self.python, Self.png]))
        let images = AcceptRules(contentTypes: ["image/*"])
        #expect(!Router.accepts(images, items: [Self.python, Self.png]))
        var any = images
        any.match = .any
        #expect(Router.accepts(any, items: [Self.python, Self.png]))
        #expect(!Router.accepts(any, items: [Self.python]))
    }

    @Test func exclusionsComeFromConfigAndFlags() {
        let registry = ProviderRegistry(manifests: [
            .init(file: "a.yaml", result: .success(Self.provider("org.a", [Self.activity("org.a.one"), Self.activity("org.a.two")]))),
            .init(file: "b.yaml", result: .success(Self.provider("org.b", [Self.activity("org.b.one")]))),
        ])
        func offered(_ exclusions: Exclusions) -> [String] {
            Router(registry: registry, exclusions: exclusions).candidates(for: [Self.python]).map(\.type)
        }
        var config = Config()
        #expect(offered(Exclusions(config: config, exclude: [], only: [])) == ["org.a.one", "org.a.two", "org.b.one"])
        config.exclude = ["org.a.two"]
        #expect(offered(Exclusions(config: config, exclude: [], only: [])) == ["org.a.one", "org.b.one"])
        #expect(offered(Exclusions(config: config, exclude: ["org.b.one"], only: [])) == ["org.a.one"])
        config.disabledProviders = ["org.a"]
        #expect(offered(Exclusions(config: config, exclude: [], only: [])) == ["org.b.one"])
        #expect(offered(Exclusions(config: Config(), exclude: [], only: ["org.a.two", "org.b.one"])) == ["org.a.two", "org.b.one"])
        // Exclusion wins over --only.
        #expect(offered(Exclusions(config: Config(), exclude: ["org.b.one"], only: ["org.b.one"])) == [])
    }

    @Test func orderIsPinsThenRecentsThenTitle() {
        let provider = Self.provider("org.p", [
            Self.activity("org.p.mail", title: "Mail"), Self.activity("org.p.copy", title: "Copy"),
            Self.activity("org.p.print", title: "Print to PDF"), Self.activity("org.p.beam", title: "beam"),
        ])
        let offers = provider.activities.map { Offer(provider: provider, activity: $0) }
        let byTitle = Router.order(offers, pins: [], recents: []).map(\.type)
        #expect(byTitle == ["org.p.beam", "org.p.copy", "org.p.mail", "org.p.print"])
        let ordered = Router.order(offers, pins: ["org.p.print"], recents: ["org.p.mail", "org.p.print"]).map(\.type)
        #expect(ordered == ["org.p.print", "org.p.mail", "org.p.beam", "org.p.copy"])
    }

    @Test func theFirstProviderOfATypeWinsWithAWarning() {
        let registry = ProviderRegistry(manifests: [
            .init(file: "first.yaml", result: .success(Self.provider("org.first", [Self.activity("org.same.type")], file: "first.yaml"))),
            .init(file: "second.yaml", result: .success(Self.provider("org.second", [Self.activity("org.same.type")], file: "second.yaml"))),
            .init(file: "broken.yaml", result: .failure(ActShareError(.badManifest, "bad", at: SourceLocation(file: "broken.yaml", line: 2, column: 3)))),
        ])
        #expect(registry.activity(ofType: "org.same.type")?.provider.id == "org.first")
        // The loser stays listed as a provider, without the activity it lost.
        #expect(registry.providers.map { $0.activities.map(\.type) } == [["org.same.type"], []])
        #expect(registry.warnings.map(\.description) == [
            "test.yaml:1:1: warning: activity type 'org.same.type' is also declared in first.yaml, which wins",
        ])
        #expect(registry.diagnostics.first?.description == "broken.yaml:2:3: error: bad")
    }
}
