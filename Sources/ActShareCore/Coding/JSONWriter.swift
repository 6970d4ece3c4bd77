/// Writes compact JSON into one byte buffer. actshare's JSON shapes are small and fixed,
/// so a writer is simpler and faster to start than an encoder.
public struct JSONWriter {
    /// The UTF-8 bytes written so far.
    public private(set) var bytes: [UInt8] = []
    /// For each open object or array, whether the next element needs a comma first.
    private var needsComma: [Bool] = [false]

    public init() {}

    /// A JSON value that can be written.
    public enum Value {
        case string(String?)
        case number(UInt64)
        /// A number such as 0.25 (null when not finite).
        case fraction(Double)
        case bool(Bool)
    }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Writes `"name":`; the value (or object or array) written next belongs to it.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    /// Writes `"name":value`.
    public mutating func member(_ name: String, _ value: Value) {
        key(name)
        self.value(value)
    }

    public mutating func value(_ value: Value) {
        separate()
        switch value {
        case .string(let string):
            if let string { appendString(string) } else { bytes.append(contentsOf: "null".utf8) }
        case .number(let number): bytes.append(contentsOf: String(number).utf8)
        case .fraction(let number): bytes.append(contentsOf: (number.isFinite ? String(number) : "null").utf8)
        case .bool(let bool): bytes.append(contentsOf: (bool ? "true" : "false").utf8)
        }
    }

    /// `{"key": value, …}` with keys in the given order, as text.
    public static func object(_ members: [(String, Value)]) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        for (key, value) in members { writer.member(key, value) }
        writer.endObject()
        return writer.text
    }

    // MARK: Bytes

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        needsComma.removeLast()
        bytes.append(bracket)
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
                case 0..<0x20:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
