/// Builds compact JSON text. actshare's JSON shapes are small and fixed, so a writer is
/// simpler and faster to start than an encoder.
struct JSONWriter {
    private(set) var text = ""

    /// A JSON value that can be written.
    enum Value {
        case string(String?)
        case number(UInt64)
        case bool(Bool)
        case raw(String)
    }

    /// `{"key": value, …}` with keys in the given order.
    static func object(_ members: [(String, Value)]) -> String {
        var writer = JSONWriter()
        writer.text.append("{")
        for (index, (key, value)) in members.enumerated() {
            if index > 0 { writer.text.append(",") }
            writer.appendString(key)
            writer.text.append(":")
            writer.append(value)
        }
        writer.text.append("}")
        return writer.text
    }

    /// `[a,b,…]` from already-written JSON values.
    static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }

    private mutating func append(_ value: Value) {
        switch value {
        case .string(let string):
            if let string { appendString(string) } else { text.append("null") }
        case .number(let number): text.append(String(number))
        case .bool(let bool): text.append(bool ? "true" : "false")
        case .raw(let raw): text.append(raw)
        }
    }

    private mutating func appendString(_ string: String) {
        text.append("\"")
        // Most strings need no escaping: append them whole.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text.append(string)
            text.append("\"")
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text.append("\\\"")
            case "\\": text.append("\\\\")
            case "\n": text.append("\\n")
            case "\r": text.append("\\r")
            case "\t": text.append("\\t")
            case _ where scalar.value < 0x20:
                text.append("\\u00" + String(scalar.value, radix: 16).leftPadded(to: 2))
            default: text.unicodeScalars.append(scalar)
            }
        }
        text.append("\"")
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
