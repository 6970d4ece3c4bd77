import ActShareCore
import ActShareYAML
import Testing

/// libyaml's events composed into nodes: positions, styles, aliases, and the errors.
@Suite struct YAMLComposerTests {
    func parse(_ text: String) throws -> YAMLValue? {
        try YAMLValue.parse(text, file: "t.yaml", kind: .badManifest)
    }

    func failure(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func nodesKnowWhereTheyStandAndHowTheyWereWritten() throws {
        let root = try #require(try parse("a: 1\nb:\n  - \"2\"\n  - [x, y]\n"))
        let top = try root.mapping(kind: .badManifest)
        #expect(top.entries.map(\.key) == ["a", "b"])
        let one = try #require(top["a"])
        #expect((one.node.line, one.node.column) == (1, 4))
        #expect(try one.int(kind: .badManifest) == 1)
        let list = try #require(top["b"]).sequence(kind: .badManifest)
        #expect(list[0].path == "b[0]" && (list[0].node.line, list[0].node.column) == (3, 5))
        // Quoted, a number is a string, and said to be one.
        #expect(throws: ActShareError.self) { try list[0].int(kind: .badManifest) }
        #expect(try list[1].stringList(kind: .badManifest) == ["x", "y"])
    }

    @Test func emptyTextsHoldNoDocument() throws {
        #expect(try parse("") == nil)
        #expect(try parse("# only a comment\n") == nil)
    }

    @Test func aliasesAreTheNodesTheyName() throws {
        let root = try #require(try parse("base: &b {x: 1}\ncopy: *b\n")).mapping(kind: .badManifest)
        #expect(try root["copy"]?.mapping(kind: .badManifest)["x"]?.int(kind: .badManifest) == 1)
    }

    @Test func errorsSayWhatAndWhere() {
        #expect(failure("a: [1, 2\n") == "t.yaml:2:1: error: invalid YAML: while parsing a flow sequence, did not find expected ',' or ']'")
        #expect(failure("a: 1\na: 2\n") == "t.yaml:1:1: error: invalid YAML: duplicate key 'a'")
        #expect(failure("a: *nowhere\n") == "t.yaml:1:4: error: invalid YAML: found undefined alias")
        #expect(failure("a: 1\n---\nb: 2\n") == "t.yaml:2:1: error: invalid YAML: expected a single document in the stream, but found another document")
        #expect(failure("a: \u{1}\n")?.hasPrefix("t.yaml:1:4: error: invalid YAML: control characters are not allowed") == true)
    }

    /// A hostile file of 100,000 `[` is refused, not a stack overflow.
    @Test func deepNestingIsRefused() {
        let message = failure(String(repeating: "[", count: 100_000))
        #expect(message?.contains("nested more than 256 deep") == true, "\(message ?? "")")
    }
}
