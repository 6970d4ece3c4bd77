import Testing
@testable import ActShareCore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ChoiceHistoryTests {
    static let day: Int64 = 86_400

    static func directory() -> String {
        let path = "/tmp/actshare-choices-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(path, 0o700)
        return path
    }

    @Test func aLineIsWrittenAndReadBackAndNothingElseIs() throws {
        let choice = ChoiceHistory.Choice(time: 1_764_320_000, family: .pdf, activity: "org.actshare.mail", target: "ann \"the\" \\ one")
        let line = ChoiceHistory.encode(choice)
        #expect(String(decoding: line, as: UTF8.self)
            == #"{"time":1764320000,"family":"pdf","activity":"org.actshare.mail","target":"ann \"the\" \\ one"}"# + "\n")
        #expect(ChoiceHistory.decode(Array(line.dropLast())) == choice)
        for junk in [
            "", "garbage", "{}", #"{"time":1,"family":"pdf","activity":"not a type","target":null}"#,
            #"{"time":1,"family":"sculpture","activity":"org.a.b","target":null}"#,
            #"{"time":1,"family":"pdf","activity":"org.a.b","target":"a\u0007b"}"#,
            #"{"time":1,"family":"pdf","activity":"org.a.b","target":null} trailing"#,
            #"{"time":1.5,"family":"pdf","activity":"org.a.b","target":null}"#,
            #"{"time":1,"family":"pdf","activity":"org.a.b","target":{"nested":1}}"#,
            #"{"time":99999999999999999999,"family":"pdf","activity":"org.a.b"}"#,
        ] {
            #expect(ChoiceHistory.decode(Array(junk.utf8)) == nil, "\(junk)")
        }
        // A line without a target, or with keys in another order, is a choice.
        #expect(ChoiceHistory.decode(Array(#" { "activity" : "org.a.b", "family":"url", "time":7 } "#.utf8))
            == ChoiceHistory.Choice(time: 7, family: .url, activity: "org.a.b", target: nil))
    }

    @Test func familiesAreTheItemsKindsOrMixed() {
        let pdf = Item(kind: .file, path: "/a.pdf", url: "file:///a.pdf", contentType: "application/pdf", size: 9)
        let png = Item(kind: .file, path: "/a.png", url: "file:///a.png", contentType: "image/png", size: 9)
        #expect(ChoiceHistory.family(of: [pdf, pdf]) == .pdf)
        #expect(ChoiceHistory.family(of: [png]) == .image)
        #expect(ChoiceHistory.family(of: [.url("https://example.org")]) == .url)
        #expect(ChoiceHistory.family(of: [.text("hi")]) == .text)
        #expect(ChoiceHistory.family(of: [pdf, png]) == .mixed)
    }

    /// Recent choices weigh more than old ones, for their family only; pins stay first,
    /// and what was never chosen keeps its order.
    @Test func rankingWeighsRecentChoicesForTheFamily() throws {
        let directory = Self.directory()
        defer { _ = try? FileSystem.removeFile("\(directory)/choices.jsonl"); rmdir(directory) }
        var history = ChoiceHistory(stateDirectory: directory)
        let now: Int64 = 1_800_000_000
        // Three old choices of b, one new of c: c's weighs more (b's are 90 days old).
        for _ in 0..<3 { try history.record(.init(time: now - 90 * Self.day, family: .pdf, activity: "org.t.b", target: nil)) }
        try history.record(.init(time: now, family: .pdf, activity: "org.t.c", target: "two"))
        try history.record(.init(time: now, family: .image, activity: "org.t.d", target: nil))
        let reread = ChoiceHistory(stateDirectory: directory)
        #expect(reread.choices.count == 5)
        let provider = RouterTests.provider("org.t", ["org.t.a", "org.t.b", "org.t.c", "org.t.d", "org.t.e"].map { RouterTests.activity($0) })
        let offers = provider.activities.map { Offer(provider: provider, activity: $0) }
        let targets = ["org.t.c": [ActivityTarget(id: "one", title: "One", kind: .device), ActivityTarget(id: "two", title: "Two", kind: .device)]]
        let (ranked, rankedTargets) = reread.ranked(offers, targets: targets, for: .pdf, pins: ["org.t.e"], now: now)
        #expect(ranked.map(\.type) == ["org.t.e", "org.t.c", "org.t.b", "org.t.a", "org.t.d"])
        #expect(rankedTargets["org.t.c"]?.map(\.id) == ["two", "one"])
        #expect(reread.ranked(offers, targets: [:], for: .url, pins: [], now: now).offers.map(\.type) == offers.map(\.type))
    }

    /// Past the limit, the oldest lines go.
    @Test func theNewestTwoThousandAreKept() throws {
        let directory = Self.directory()
        defer { _ = try? FileSystem.removeFile("\(directory)/choices.jsonl"); rmdir(directory) }
        var history = ChoiceHistory(stateDirectory: directory)
        for index in 0..<(ChoiceHistory.limit + 5) {
            try history.record(.init(time: Int64(index), family: .text, activity: "org.t.a", target: nil))
        }
        let reread = ChoiceHistory(stateDirectory: directory)
        #expect(reread.choices.count == ChoiceHistory.limit)
        #expect(reread.choices.first?.time == 5 && reread.choices.last?.time == Int64(ChoiceHistory.limit + 4))
        var status = stat()
        #expect(stat(reread.file, &status) == 0 && status.st_mode & 0o777 == 0o600, "kept private when written anew")
    }
}
