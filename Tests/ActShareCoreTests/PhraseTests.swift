import ActShareCore
import Foundation
import Testing

/// Phrase: what a literal makes of itself (the message the catalogs know, its values), and
/// that the daemon's answers carry it whole.
@Suite struct PhraseTests {
    @Test func aLiteralKeepsItsMessageAndItsValues() {
        let path = "/tmp/a %s.txt", size = 12
        let phrase: Phrase = "\(path) is \(size) bytes; 100% read"
        #expect(phrase.message == "%s is %s bytes; 100%% read")
        #expect(phrase.values.map(\.description) == [path, "12"])
        // A value's own % is never read as a place.
        #expect(phrase.description == "/tmp/a %s.txt is 12 bytes; 100% read")
        // Without a catalog for the language, the words are the English ones.
        #expect(phrase.translated == phrase.description)
    }

    @Test func verbatimTextIsNeverAMessage() {
        let said = Phrase(verbatim: "50% of %s")
        #expect(said.description == "50% of %s")
        #expect(said.translated == "50% of %s")
        #expect(!said.isTranslatable)
    }

    @Test func aPhraseInsideAPhraseStaysAPhrase() {
        let inner: Phrase = "\("beta") is not reachable"
        let outer: Phrase = "cannot pair: \(inner)"
        #expect(outer.message == "cannot pair: %s")
        #expect(outer.values == [inner])
        #expect(outer.description == "cannot pair: beta is not reachable")
    }

    @Test func theControlProtocolCarriesItWhole() throws {
        let phrase: Phrase = "\(Phrase(verbatim: "beta")) refused the files: \(Phrase("no reason given"))"
        let encoded = try JSONEncoder().encode(phrase)
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""verbatim":true"#))
        let decoded = try JSONDecoder().decode(Phrase.self, from: encoded)
        #expect(decoded == phrase)
        #expect(decoded.description == "beta refused the files: no reason given")
    }
}
