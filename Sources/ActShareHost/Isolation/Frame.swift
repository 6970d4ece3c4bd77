import ActShareCore

/// One message of the pipe protocol with `actshare-provider-host` (docs/PLUGINS.md):
/// a type byte and a payload, sent behind a 32-bit little-endian length.
struct Frame {
    enum Kind: UInt8 {
        // To the helper.
        case load = 0x4C      // L
        case request = 0x52   // R
        case call = 0x43      // C
        case symbol = 0x53    // S
        // From the helper.
        case ok = 0x4F        // O
        case error = 0x45     // E
        case progress = 0x50  // P
        case log = 0x47       // G
        case item = 0x49      // I
        case setError = 0x58  // X
        case done = 0x44      // D
    }

    /// The largest frame either side accepts.
    static let maximumSize = 16 << 20

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

    mutating func append(_ string: String) {
        append(UInt32(string.utf8.count))
        payload.append(contentsOf: string.utf8)
    }

    mutating func append(optional string: String?) {
        append(UInt8(string == nil ? 0 : 1))
        if let string { append(string) }
    }

    /// A path as its bytes (PathName), which need not be UTF-8.
    mutating func append(optionalPath path: String?) {
        append(UInt8(path == nil ? 0 : 1))
        if let path { append(bytes: PathName.bytes(path)) }
    }

    mutating func append(bytes: [UInt8]) {
        append(UInt32(bytes.count))
        payload.append(contentsOf: bytes)
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

/// Reads a received frame's payload; any inconsistency is a malformed reply.
struct FrameReader {
    struct Malformed: Error {
        var what: String
    }

    private let bytes: [UInt8]
    private var offset = 0

    init(_ payload: [UInt8]) {
        bytes = payload
    }

    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw Malformed(what: "a reply ended early") }
        defer { offset += 1 }
        return bytes[offset]
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

    /// A string, which must be valid UTF-8.
    mutating func string() throws -> String {
        let count = Int(try uint32())
        guard count <= bytes.count - offset else { throw Malformed(what: "a reply ended early") }
        let slice = Array(bytes[offset..<offset + count])
        offset += count
        guard !slice.contains(0), let text = String(validatingUTF8Bytes: slice) else {
            throw Malformed(what: "text that is not UTF-8")
        }
        return text
    }

    /// A file's path: bytes, kept as they are (PathName).
    mutating func path() throws -> String {
        let count = Int(try uint32())
        guard count <= bytes.count - offset else { throw Malformed(what: "a reply ended early") }
        let slice = bytes[offset..<offset + count]
        offset += count
        guard !slice.contains(0) else { throw Malformed(what: "a path with a NUL byte") }
        return PathName.decode(slice)
    }

    mutating func optionalString() throws -> String? {
        try byte() == 0 ? nil : try string()
    }
}
