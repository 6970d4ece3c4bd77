/// Writes a DNS message: names whole, never compressed, so what is written can be
/// checked against its length as it goes.
struct DNSWriter {
    private(set) var bytes: [UInt8] = []

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func uint32(_ value: UInt32) {
        uint16(UInt16(value >> 16))
        uint16(UInt16(value & 0xFFFF))
    }

    mutating func name(_ name: DNSName) {
        for label in name.labels {
            bytes.append(UInt8(label.utf8.count))
            bytes += label.utf8
        }
        bytes.append(0)
    }

    mutating func record(_ record: DNSRecord) {
        name(record.name)
        uint16(record.type.rawValue)
        uint16(record.cacheFlush ? 0x8001 : 0x0001)
        uint32(record.ttl)
        let lengthAt = bytes.count
        uint16(0)
        switch record.data {
        case .a(let address): uint32(address)
        case .pointer(let target): name(target)
        case .text(let strings):
            // An empty TXT record is one empty string (RFC 6763 §6.1).
            for string in strings.isEmpty ? [[]] : strings {
                bytes.append(UInt8(string.count))
                bytes += string
            }
        case .service(let priority, let weight, let port, let target):
            uint16(priority)
            uint16(weight)
            uint16(port)
            name(target)
        case .other(_, let data): bytes += data
        }
        let length = bytes.count - lengthAt - 2
        bytes[lengthAt] = UInt8(length >> 8)
        bytes[lengthAt + 1] = UInt8(length & 0xFF)
    }
}
