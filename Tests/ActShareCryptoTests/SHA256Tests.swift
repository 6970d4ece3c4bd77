import Testing

import ActShareCrypto

/// SHA-256 (pins, pairing commitments, transfer digests, Quick Share's keys) against FIPS 180-2's
/// examples, fed whole and in pieces.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func digestsMatchTheStandard(_ text: String, _ digest: String) {
        #expect(KnownAnswerTests.hex(SHA256.hash(data: Array(text.utf8))) == digest)
    }

    @Test func aMillionAsInPiecesOfOddSizes() {
        var hasher = SHA256()
        var left = 1_000_000
        var size = 1
        while left > 0 {
            let piece = [UInt8](repeating: UInt8(ascii: "a"), count: min(size, left))
            piece.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            left -= piece.count
            size = size % 997 + 13
        }
        #expect(KnownAnswerTests.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func aCopyGoesOnByItselfAndFinalizingEndsNothing() {
        var first = SHA256()
        first.update(data: Array("ab".utf8))
        var second = first
        second.update(data: Array("c".utf8))
        #expect(KnownAnswerTests.hex(second.finalize()) == KnownAnswerTests.hex(SHA256.hash(data: Array("abc".utf8))))
        #expect(KnownAnswerTests.hex(first.finalize()) == KnownAnswerTests.hex(SHA256.hash(data: Array("ab".utf8))))
        first.update(data: Array("c".utf8))
        #expect(first.finalize() == second.finalize())
        first.update(bufferPointer: UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(first.finalize() == second.finalize())
    }
}
