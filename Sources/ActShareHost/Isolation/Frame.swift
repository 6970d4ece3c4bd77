import ActShareCore
import CActShareProtocol

/// One message of the pipe protocol with `actshare-provider-host`
/// (`actshare/provider_protocol.h`, its specification): a type byte and a payload, sent
/// behind a 32-bit little-endian length.
struct Frame {
    /// A frame type; the values are the header's.
    struct Kind: Equatable, CustomStringConvertible {
        let rawValue: UInt8

        init(_ value: Int) { rawValue = UInt8(value) }
        init?(rawValue: UInt8) {
            guard Self.all.contains(where: { $0.rawValue == rawValue }) else { return nil }
            self.rawValue = rawValue
        }

        // To the helper.
        static let sandbox = Kind(ASP_FRAME_SANDBOX)
        static let load = Kind(ASP_FRAME_LOAD)
        static let request = Kind(ASP_FRAME_REQUEST)
        static let call = Kind(ASP_FRAME_CALL)
        static let answer = Kind(ASP_FRAME_ANSWER)
        // From the helper.
        static let ok = Kind(ASP_FRAME_OK)
        static let error = Kind(ASP_FRAME_ERROR)
        static let progress = Kind(ASP_FRAME_PROGRESS)
        static let log = Kind(ASP_FRAME_LOG)
        static let item = Kind(ASP_FRAME_ITEM)
        static let setError = Kind(ASP_FRAME_SET_ERROR)
        static let decline = Kind(ASP_FRAME_DECLINE)
        static let target = Kind(ASP_FRAME_TARGET)
        static let done = Kind(ASP_FRAME_DONE)
        static let refused = Kind(ASP_FRAME_REFUSED)

        static let all: [Kind] = [sandbox, load, request, call, answer, ok, error, progress, log, item, setError, decline, target, done, refused]

        var description: String { String(UnicodeScalar(rawValue)) }
    }

    /// The largest frame either side accepts, type byte included.
    static let maximumSize = Int(ASP_MAX_FRAME)

    var kind: Kind
    var payload: [UInt8] = []

    init(_ kind: Kind) {
        self.kind = kind
    }

    // MARK: Writing

    mutating func append(_ byte: UInt8) { payload.append(byte) }

    mutating func append(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { payload.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func append(_ value: UInt64) {
        append(UInt32(truncatingIfNeeded: value))
        append(UInt32(truncatingIfNeeded: value >> 32))
    }

    /// `bytes` or `data`: a length and the bytes.
    mutating func append(bytes: [UInt8]) {
        append(UInt32(bytes.count))
        payload.append(contentsOf: bytes)
    }

    /// `opt bytes` or `opt data`.
    mutating func append(optional bytes: [UInt8]?) {
        append(UInt8(bytes == nil ? 0 : 1))
        if let bytes { append(bytes: bytes) }
    }

    /// The frame as sent: length, type, payload.
    var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(5 + payload.count)
        let length = UInt32(1 + payload.count)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        bytes.append(kind.rawValue)
        bytes += payload
        return bytes
    }
}

/// Reads a received frame's payload; any inconsistency is a malformed frame.
struct FrameReader {
    struct Malformed: Error {
        var what: String
    }

    private let payload: [UInt8]
    private var offset = 0

    init(_ payload: [UInt8]) {
        self.payload = payload
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset == payload.count }
    /// How many bytes were read.
    var consumed: Int { offset }

    mutating func byte() throws -> UInt8 {
        guard offset < payload.count else { throw Malformed(what: "a frame that ended early") }
        defer { offset += 1 }
        return payload[offset]
    }

    mutating func uint32() throws -> UInt32 {
        var value: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) { value |= UInt32(try byte()) << UInt32(shift) }
        return value
    }

    mutating func uint64() throws -> UInt64 {
        let low = UInt64(try uint32())
        return low | UInt64(try uint32()) << 32
    }

    /// `data`: any bytes.
    mutating func data() throws -> [UInt8] {
        let count = Int(try uint32())
        guard count <= payload.count - offset else { throw Malformed(what: "a frame that ended early") }
        defer { offset += count }
        return Array(payload[offset..<offset + count])
    }

    /// `bytes`: no NUL among them. Whether they are UTF-8 is for the caller to decide.
    mutating func bytes() throws -> [UInt8] {
        let value = try data()
        guard !value.contains(0) else { throw Malformed(what: "a string with a NUL byte") }
        return value
    }

    mutating func optionalBytes() throws -> [UInt8]? {
        switch try byte() {
        case 0: return nil
        case 1: return try bytes()
        default: throw Malformed(what: "an optional field that is neither absent nor present")
        }
    }

    mutating func optionalData() throws -> [UInt8]? {
        switch try byte() {
        case 0: return nil
        case 1: return try data()
        default: throw Malformed(what: "an optional field that is neither absent nor present")
        }
    }

    /// An ERROR frame's payload: its kind (`ASP_ERROR_*`) and message.
    mutating func error() throws -> (kind: Int32, message: [UInt8]) {
        (Int32(try byte()), try bytes())
    }
}
