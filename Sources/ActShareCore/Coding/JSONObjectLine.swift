/// Reads one line of JSON that is a flat object — strings, integers, booleans and null as
/// its values — as the state files actshare appends to hold (``ChoiceHistory``). Anything
/// else (nesting, a fraction, a malformed escape, text after the object) is not read:
/// such a line is skipped, never guessed at.
public enum JSONObjectLine {
    public enum Value: Sendable, Equatable {
        case string(String)
        case number(Int64)
        case bool(Bool)
        case null
    }

    /// The members of `line`, or nil when it is not such an object.
    public static func members(_ line: [UInt8]) -> [String: Value]? {
        var reader = Reader(bytes: line)
        return reader.object()
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func object() -> [String: Value]? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [String: Value] = [:]
            if !take(UInt8(ascii: "}")) {
                repeat {
                    guard let key = string(), take(UInt8(ascii: ":")), let value = value() else { return nil }
                    members[key] = value
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return nil }
            }
            skipSpaces()
            return index == bytes.count ? members : nil
        }

        mutating func value() -> Value? {
            skipSpaces()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return word("null") ? .null : nil
            default: return number().map(Value.number)
            }
        }

        mutating func number() -> Int64? {
            let negative = take(UInt8(ascii: "-"))
            var value: Int64 = 0
            var digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow, digits < 18 else { return nil }
                value = times + Int64(bytes[index] - UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            return digits > 0 ? (negative ? -value : value) : nil
        }

        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() -> Bool {
                guard let text = String(validatingUTF8Bytes: run) else { return false }
                scalars.append(contentsOf: text.unicodeScalars)
                run.removeAll()
                return true
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return flush() ? String(scalars) : nil
                case UInt8(ascii: "\\"):
                    guard flush(), index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                              let scalar = Unicode.Scalar(code) else { return nil }
                        index += 4
                        scalars.append(scalar)
                    default: return nil
                    }
                case 0..<0x20: return nil
                default: run.append(byte)
                }
            }
            return nil
        }

        mutating func word(_ word: StaticString) -> Bool {
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else { return false }
            index += expected.count
            return true
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpaces()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpaces() {
            while index < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 }
        }
    }
}
