/// Any JSON value: a user activity's userInfo travels as it was given.
public enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// The bytes this value takes as compact JSON, or a little more (a number counts as
    /// 24): what the userInfo limit is measured in, without encoding it.
    public var encodedSize: Int {
        switch self {
        case .null: return 4
        case .bool(let value): return value ? 4 : 5
        case .number: return 24
        case .string(let value): return Self.quotedSize(value)
        case .array(let values): return 2 + values.reduce(max(values.count - 1, 0)) { $0 + $1.encodedSize }
        case .object(let members):
            return 2 + members.reduce(max(members.count - 1, 0)) { $0 + Self.quotedSize($1.key) + 1 + $1.value.encodedSize }
        }
    }

    private static func quotedSize(_ text: String) -> Int {
        2 + text.utf8.reduce(0) { size, byte in size + (byte < 0x20 ? 6 : byte == 0x22 || byte == 0x5C ? 2 : 1) }
    }
}
