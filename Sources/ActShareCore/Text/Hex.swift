/// Lowercase hex, for pins, nonces, commitments and build ids.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func string<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public static func bytes(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        for index in stride(from: 0, to: characters.count, by: 2) {
            guard let high = digits.firstIndex(of: characters[index]), let low = digits.firstIndex(of: characters[index + 1]) else { return nil }
            bytes.append(UInt8(high << 4 | low))
        }
        return bytes
    }
}
