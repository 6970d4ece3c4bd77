import Testing

import ActShareCrypto

/// The published test vectors of each algorithm (FIPS 180-2, RFC 4231, RFC 5869, NIST SP 800-38A;
/// SHA-256's are in SHA256Tests): the module computes what the standards say, whatever BoringSSL's
/// interface it goes through. Quick Share's tests check the same functions against
/// Python's `cryptography` with random inputs.
@Suite struct KnownAnswerTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
    }

    /// FIPS 180-2's "abc" for SHA-512 (UKEY2's commitment); a constant-time comparison.
    @Test func sha512() {
        #expect(Self.hex(SHA512.hash(data: Array("abc".utf8)))
            == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(ConstantTime.isEqual([1, 2], [1, 2]) && !ConstantTime.isEqual([1, 2], [1, 3]) && !ConstantTime.isEqual([1], [1, 2]))
    }

    /// RFC 4231, test case 2; a changed byte or a short code is not authentic.
    @Test func hmacSHA256() {
        let key = Array("Jefe".utf8), message = Array("what do ya want for nothing?".utf8)
        let code = HMACSHA256.authenticationCode(key: key, message)
        #expect(Self.hex(code) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(HMACSHA256.isAuthentic(message, code: code, key: key))
        var forged = code
        forged[0] ^= 1
        #expect(!HMACSHA256.isAuthentic(message, code: forged, key: key))
        #expect(!HMACSHA256.isAuthentic(message, code: Array(code.prefix(16)), key: key))
    }

    /// RFC 5869, test cases 1 and 3 (an empty salt and info); lengths out of range refused.
    @Test func hkdfSHA256() throws {
        let one = try HMACSHA256.derive(
            [UInt8](repeating: 0x0b, count: 22), salt: Self.bytes("000102030405060708090a0b0c"),
            info: Self.bytes("f0f1f2f3f4f5f6f7f8f9"), length: 42)
        #expect(Self.hex(one) == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        let three = try HMACSHA256.derive([UInt8](repeating: 0x0b, count: 22), salt: [], info: [], length: 42)
        #expect(Self.hex(three) == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
        #expect(throws: CryptoError.self) { try HMACSHA256.derive([1], salt: [], info: [], length: 0) }
        #expect(throws: CryptoError.self) { try HMACSHA256.derive([1], salt: [], info: [], length: 255 * 32 + 1) }
    }

    /// NIST SP 800-38A F.2.5 (CBC-AES256), its first block; PKCS #7 adds one whole block
    /// after a whole-block text, and the round trip gives the text back.
    @Test func aes256CBC() throws {
        let key = Self.bytes("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
        let iv = Self.bytes("000102030405060708090a0b0c0d0e0f"), text = Self.bytes("6bc1bee22e409f96e93d7e117393172a")
        let sealed = try AES256CBC.encrypt(text, key: key, iv: iv)
        #expect(sealed.count == 32)
        #expect(Self.hex(Array(sealed.prefix(16))) == "f58c4c04d6e5f1ba779eabfb5f7bfbd6")
        #expect(try AES256CBC.decrypt(sealed, key: key, iv: iv) == text)
        #expect(throws: CryptoError.doesNotDecrypt) { try AES256CBC.decrypt([], key: key, iv: iv) }
        #expect(throws: CryptoError.self) { try AES256CBC.encrypt(text, key: Array(key.prefix(16)), iv: iv) }
    }

    /// Two key pairs agree on their secret; coordinates of the wrong length are refused.
    @Test func p256Agreement() throws {
        let one = try P256KeyPair(), other = try P256KeyPair()
        let (x, y) = one.publicCoordinates(), (otherX, otherY) = other.publicCoordinates()
        #expect(x.count == 32 && y.count == 32)
        #expect(try one.sharedSecret(peerX: otherX, peerY: otherY) == other.sharedSecret(peerX: x, peerY: y))
        #expect(throws: CryptoError.notAP256Point) { try one.sharedSecret(peerX: Array(x.prefix(31)), peerY: y) }
    }

    /// RFC 6979, A.2.5: P-256 with SHA-256 over "sample" verifies; a changed byte or another
    /// message does not; a signature made here verifies with its own key only.
    @Test func ecdsaP256() throws {
        let x = Self.bytes("60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6")
        let y = Self.bytes("7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")
        let signature = Self.bytes("efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
            + "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8")
        #expect(P256KeyPair.verify(signature, of: Array("sample".utf8), x: x, y: y))
        #expect(!P256KeyPair.verify(signature, of: Array("samples".utf8), x: x, y: y))
        var forged = signature
        forged[40] ^= 1
        #expect(!P256KeyPair.verify(forged, of: Array("sample".utf8), x: x, y: y))
        #expect(!P256KeyPair.verify(Array(signature.prefix(63)), of: Array("sample".utf8), x: x, y: y))

        let key = try P256KeyPair(), other = try P256KeyPair()
        let made = try key.signature(of: [1, 2, 3])
        #expect(made.count == 64)
        #expect(P256KeyPair.verify(made, of: [1, 2, 3], x: key.publicCoordinates().x, y: key.publicCoordinates().y))
        #expect(!P256KeyPair.verify(made, of: [1, 2, 3], x: other.publicCoordinates().x, y: other.publicCoordinates().y))
    }

    /// The GCM specification's test cases 1 and 2 (a zero key and nonce); a changed byte,
    /// other authenticated data or a short text does not open.
    @Test func aes128GCM() throws {
        let key = [UInt8](repeating: 0, count: 16), nonce = [UInt8](repeating: 0, count: 12)
        #expect(Self.hex(try AES128GCM.seal([], key: key, nonce: nonce, authenticating: [])) == "58e2fccefa7e3061367f1d57a4e7455a")
        let sealed = try AES128GCM.seal([UInt8](repeating: 0, count: 16), key: key, nonce: nonce, authenticating: [])
        #expect(Self.hex(sealed) == "0388dace60b6a392f328c2b971b2fe78" + "ab6e47d42cec13bdf53a67b21257bddf")
        #expect(try AES128GCM.open(sealed, key: key, nonce: nonce, authenticating: []) == [UInt8](repeating: 0, count: 16))
        var forged = sealed
        forged[3] ^= 1
        #expect(throws: CryptoError.doesNotDecrypt) { try AES128GCM.open(forged, key: key, nonce: nonce, authenticating: []) }
        #expect(throws: CryptoError.doesNotDecrypt) { try AES128GCM.open(sealed, key: key, nonce: nonce, authenticating: [1]) }
        #expect(throws: CryptoError.doesNotDecrypt) { try AES128GCM.open([1, 2], key: key, nonce: nonce, authenticating: []) }
    }
}
