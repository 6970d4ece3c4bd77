/// File names as the kernel has them: bytes, not always UTF-8.
///
/// A name that is not valid UTF-8 (`caf\xE9.txt` from a Latin-1 system) must still reach
/// the file system, the providers and file URIs byte for byte. Swift strings hold only
/// Unicode, so each byte that is not part of valid UTF-8 is kept as one scalar of a
/// private-use range (U+10FF80 + the byte's low 7 bits, for bytes 0x80-0xFF), as Python's
/// `surrogateescape` does with its own code points. ``bytes(_:)`` gives them back, and
/// ``display(_:)`` shows them as `\xE9`.
public enum PathName {
    /// The first of the 128 private-use scalars that stand for single bytes 0x80-0xFF.
    static let escapeBase: UInt32 = 0x10FF80

    /// A name from its bytes, every byte kept.
    public static func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if let valid = String(validatingUTF8Bytes: Array(bytes)) { return valid }
        var text = String.UnicodeScalarView()
        var input = Array(bytes)[...]
        while !input.isEmpty {
            let length = validSequenceLength(input)
            if length > 0 {
                text.append(contentsOf: String(decoding: input.prefix(length), as: UTF8.self).unicodeScalars)
                input = input.dropFirst(length)
            } else {
                let byte = input.removeFirst()
                text.append(byte < 0x80 ? Unicode.Scalar(byte) : Unicode.Scalar(escapeBase + UInt32(byte - 0x80))!)
            }
        }
        return String(text)
    }

    /// The bytes `name` stands for.
    public static func bytes(_ name: String) -> [UInt8] {
        guard hasEscapes(name) else { return Array(name.utf8) }
        var bytes: [UInt8] = []
        for scalar in name.unicodeScalars {
            if scalar.value >= escapeBase && scalar.value < escapeBase + 0x80 {
                bytes.append(UInt8(scalar.value - escapeBase + 0x80))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with `name` as the C string of its bytes.
    public static func withCString<R>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        guard hasEscapes(name) else { return try name.withCString(body) }
        return try (bytes(name) + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// `name` to show: each byte that is not UTF-8 as `\xE9`.
    public static func display(_ name: String) -> String {
        guard hasEscapes(name) else { return name }
        var shown = ""
        for scalar in name.unicodeScalars {
            if scalar.value >= escapeBase && scalar.value < escapeBase + 0x80 {
                shown += "\\x" + String(scalar.value - escapeBase + 0x80, radix: 16, uppercase: true)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    static func hasEscapes(_ name: String) -> Bool {
        // Escapes are 4-byte scalars starting F4 8F BE/BF: cheap to rule out.
        name.utf8.contains(0xF4) && name.unicodeScalars.contains { $0.value >= escapeBase }
    }

    /// How many bytes at the start of `bytes` form one valid UTF-8 scalar (0: none).
    private static func validSequenceLength(_ bytes: ArraySlice<UInt8>) -> Int {
        var iterator = bytes.prefix(4).makeIterator()
        var decoder = UTF8()
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): return String(scalar).utf8.count
        default: return 0
        }
    }
}
