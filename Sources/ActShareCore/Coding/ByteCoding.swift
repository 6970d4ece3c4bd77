/// A compact binary writer for the manifest index: varints and length-prefixed strings.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func write(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func write(_ value: Int) { write(UInt64(bitPattern: Int64(value))) }
    mutating func write(_ value: Int64) { write(UInt64(bitPattern: value)) }
    mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func write(_ string: String) {
        write(string.utf8.count)
        bytes.append(contentsOf: string.utf8)
    }

    mutating func write(_ string: String?) {
        write(string != nil)
        if let string { write(string) }
    }

    mutating func write(_ strings: [String]) {
        write(strings.count)
        for string in strings { write(string) }
    }

    mutating func append(raw: [UInt8]) { bytes.append(contentsOf: raw) }

    mutating func write(_ strings: [String]?) {
        write(strings != nil)
        if let strings { write(strings) }
    }
}

/// Reads what ``ByteWriter`` wrote; any inconsistency throws, and the index is rebuilt.
struct ByteReader {
    struct Malformed: Error {}

    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func readUInt64() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw Malformed() }
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    mutating func readInt() throws -> Int { Int(Int64(bitPattern: try readUInt64())) }
    mutating func readInt64() throws -> Int64 { Int64(bitPattern: try readUInt64()) }

    /// A count of elements that follow, checked against the bytes left.
    mutating func readCount() throws -> Int {
        let count = try readInt()
        guard count >= 0, count <= bytes.count - offset else { throw Malformed() }
        return count
    }

    mutating func readBool() throws -> Bool {
        guard offset < bytes.count else { throw Malformed() }
        defer { offset += 1 }
        return bytes[offset] != 0
    }

    mutating func readString() throws -> String {
        let count = try readInt()
        guard count >= 0, offset + count <= bytes.count else { throw Malformed() }
        defer { offset += count }
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[offset..<offset + count]), as: UTF8.self)
        }
    }

    mutating func readOptionalString() throws -> String? {
        try readBool() ? try readString() : nil
    }

    mutating func readStrings() throws -> [String] {
        try (0..<(try readCount())).map { _ in try readString() }
    }

    mutating func readOptionalStrings() throws -> [String]? {
        try readBool() ? try readStrings() : nil
    }

    /// Moves to `offset`, which must be within the bytes.
    mutating func seek(to offset: Int) throws {
        guard offset >= 0, offset <= bytes.count else { throw Malformed() }
        self.offset = offset
    }

    /// Skips `count` bytes.
    mutating func skip(_ count: Int) throws {
        guard count >= 0, offset + count <= bytes.count else { throw Malformed() }
        offset += count
    }
}
