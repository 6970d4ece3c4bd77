/// Reads a DNS message from a datagram, every length checked against what is there: a
/// datagram is anyone's (RFC 1035 §4.1; compression pointers §4.1.4).
struct DNSReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// A name with compression pointers followed: each pointer must point before the one
    /// that led to it, so a loop cannot keep the reader going; at most 128 labels.
    mutating func name() throws(DNSFormatError) -> DNSName {
        var labels: [String] = []
        var length = 1
        var position = offset
        var limit = offset
        var jumped = false
        while true {
            guard position < bytes.count else { throw .truncated }
            let size = Int(bytes[position])
            switch size & 0xC0 {
            case 0x00:
                if !jumped { offset = position + 1 + size }
                if size == 0 { return DNSName(labels) }
                guard position + 1 + size <= bytes.count else { throw .truncated }
                length += 1 + size
                guard length <= DNSName.maximumLength, labels.count < 128 else { throw .nameTooLong }
                labels.append(String(decoding: bytes[(position + 1)..<(position + 1 + size)], as: UTF8.self))
                position += 1 + size
            case 0xC0:
                guard position + 1 < bytes.count else { throw .truncated }
                let target = (size & 0x3F) << 8 | Int(bytes[position + 1])
                if !jumped { offset = position + 2 }
                guard target < limit else { throw .badPointer }
                jumped = true
                limit = target
                position = target
            default:
                throw .badLabel
            }
        }
    }

    mutating func uint8() throws(DNSFormatError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() throws(DNSFormatError) -> UInt16 {
        guard offset + 2 <= bytes.count else { throw .truncated }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func uint32() throws(DNSFormatError) -> UInt32 {
        UInt32(try uint16()) << 16 | UInt32(try uint16())
    }

    mutating func take(_ count: Int) throws(DNSFormatError) -> [UInt8] {
        guard count >= 0, offset + count <= bytes.count else { throw .truncated }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// A record: its data is read within its RDLENGTH, and must fill it.
    mutating func record() throws(DNSFormatError) -> DNSRecord {
        let name = try name()
        let type = DNSRecord.RecordType(rawValue: try uint16())
        let classField = try uint16()
        let ttl = try uint32()
        let length = Int(try uint16())
        let end = offset + length
        guard end <= bytes.count else { throw .truncated }
        let data: DNSRecord.Data
        switch type {
        case .a where length == 4:
            data = .a(try uint32())
        case .pointer:
            data = .pointer(try self.name())
        case .service where length >= 7:
            data = .service(priority: try uint16(), weight: try uint16(), port: try uint16(), target: try self.name())
        case .text:
            var strings: [[UInt8]] = []
            while offset < end {
                let size = Int(try uint8())
                guard offset + size <= end else { throw .truncated }
                strings.append(try take(size))
            }
            data = .text(strings)
        default:
            data = .other(type, try take(length))
        }
        guard offset == end else { throw .badRecordLength }
        return DNSRecord(name: name, data: data, ttl: ttl, cacheFlush: classField & 0x8000 != 0)
    }
}

/// Why a datagram is not a DNS message we can read.
enum DNSFormatError: Error, Equatable {
    case truncated, nameTooLong, badPointer, badLabel, badRecordLength, tooManyEntries
}
