import Foundation
import Testing
@testable import ActShareCore
@testable import ActShareManifests

/// A seeded mutation fuzzer for the manifest and config decoders.
///
/// Every mutated input must either decode or be rejected with an `ActShareError` that
/// names `FILE:LINE:COLUMN` inside the input; anything else (another error type, a
/// position outside the text, a crash) fails. `ACTSHARE_FUZZ_COUNT` sets how many inputs
/// (default 2,000 in the test suite; `ACTSHARE_FUZZ_COUNT=100000 swift test --filter
/// ParserFuzzTests` for a long run) and `ACTSHARE_FUZZ_SEED` the seed.
@Suite struct ParserFuzzTests {
    static let count = Int(ProcessInfo.processInfo.environment["ACTSHARE_FUZZ_COUNT"] ?? "") ?? 2000
    static let seed = UInt64(ProcessInfo.processInfo.environment["ACTSHARE_FUZZ_SEED"] ?? "") ?? 0x5EED

    /// Inputs that are valid, to mutate from.
    static func corpus() throws -> [(text: String, isManifest: Bool)] {
        var inputs: [(String, Bool)] = []
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        for path in ["Providers/Examples/Hello/provider.yaml", "Providers/Examples/WordCount/provider.yaml", "Providers/Examples/Reverse/provider.yaml"] {
            let text = try String(contentsOfFile: "\(repository)/\(path)", encoding: .utf8)
            // Point the library at a file that exists wherever the test runs.
            inputs.append((text.replacingOccurrences(of: #"library: lib[a-z]+\.so"#, with: "library: libfake.so", options: .regularExpression), true))
        }
        inputs.append((try String(contentsOfFile: Fixtures.path("manifests/good.yaml"), encoding: .utf8), true))
        inputs.append(("""
            exclude: [org.example.hello.greet]
            pin: [org.actshare.print-to-pdf, org.actshare.mail]
            disabled-providers: [org.example.hello]
            providers:
              org.actshare.mail: {from: "Me <me@example.org>", spool: "maildir:~/Maildir"}
            timeouts: {org.example.slow: 250ms}
            handoff: {device-name: laptop, port: 53840, discovery: static, peers: [a.local]}
            """, false))
        return inputs
    }

    @Test func mutatedInputsAreDecodedOrRejectedWithAPosition() throws {
        var random = SplitMix(seed: Self.seed)
        let corpus = try Self.corpus()
        let file = Fixtures.path("manifests/fuzz.yaml")  // beside libfake.so and icons/
        let manifestDecoder = ManifestDecoder()
        let configDecoder = ConfigDecoder()
        var rejected = 0
        for iteration in 0..<Self.count {
            let (seedText, isManifest) = corpus[Int(random.next() % UInt64(corpus.count))]
            let text = Self.mutate(seedText, rounds: 1 + Int(random.next() % 4), random: &random)
            do {
                if isManifest { _ = try manifestDecoder.decode(text, file: file) } else { _ = try configDecoder.decode(text, file: file) }
            } catch let error as ActShareError {
                rejected += 1
                let location = try #require(error.location, "input \(iteration) rejected without a position: \(error.message)\n\(text)")
                let lines = Self.yamlLineCount(text)
                #expect(location.file == file)
                #expect(location.line >= 1 && location.line <= lines + 1, "input \(iteration): line \(location.line) of \(lines)\n\(text)")
                #expect(location.column >= 1, "input \(iteration): column \(location.column)")
                #expect(error.description.hasPrefix("\(file):\(location.line):\(location.column): error: "))
            } catch {
                Issue.record("input \(iteration) threw \(type(of: error)): \(error)\n\(text)")
            }
        }
        // The mutations must actually break things most of the time, or this proves nothing.
        #expect(rejected > Self.count / 2)
    }

    /// Lines as YAML counts them: LF, CR, CRLF, NEL, LS and PS all end a line.
    static func yamlLineCount(_ text: String) -> Int {
        var lines = 1
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": if !previousWasCR { lines += 1 }
            case "\r", "\u{85}", "\u{2028}", "\u{2029}": lines += 1
            default: break
            }
            previousWasCR = scalar == "\r"
        }
        return lines
    }

    /// Applies `rounds` random edits that YAML and the schema are sensitive to.
    static func mutate(_ text: String, rounds: Int, random: inout SplitMix) -> String {
        var bytes = Array(text.utf8)
        let tokens = [":", "- ", "[", "]", "{", "}", ",", "\"", "'", "\t", "\n", "  ", "&a ", "*a", "!!int ", "#", "|", ">",
                      "null", "~", "-1", "0x10", "1e9", "true", "9999999999999999999999", "é", "\u{0}", "%", "@", "`",
                      "type: ", "hooks:", "args: [item.data]", "returns: string", "kinds: [file]", "5s", "50MiB"].map { Array($0.utf8) }
        for _ in 0..<rounds {
            let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
            switch random.next() % 7 {
            case 0:  // insert a token
                bytes.insert(contentsOf: tokens[Int(random.next() % UInt64(tokens.count))], at: position)
            case 1:  // delete a span
                let length = min(bytes.count - position, 1 + Int(random.next() % 12))
                bytes.removeSubrange(position..<position + length)
            case 2:  // replace a byte with anything, invalid UTF-8 included
                if !bytes.isEmpty { bytes[position] = UInt8(truncatingIfNeeded: random.next()) }
            case 3:  // duplicate a line
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                let line = Int(random.next() % UInt64(lines.count))
                lines.insert(lines[line], at: line)
                bytes = Array(lines.joined(separator: "\n").utf8)
            case 4:  // swap two lines
                var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                if lines.count > 1 {
                    lines.swapAt(Int(random.next() % UInt64(lines.count)), Int(random.next() % UInt64(lines.count)))
                }
                bytes = Array(lines.joined(separator: "\n").utf8)
            case 5:  // truncate
                bytes.removeSubrange(position...)
            default:  // change indentation
                bytes.insert(contentsOf: Array(repeating: UInt8(ascii: " "), count: 1 + Int(random.next() % 3)), at: position)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A small, seedable random number generator (SplitMix64), so failures can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
