/// A DNS message as multicast DNS sends it: a query with questions (and the answers the
/// asker already knows), or a response with answers and additional records.
public struct DNSMessage: Equatable, Sendable {
    /// 0 in multicast DNS; a legacy unicast query's id is echoed in its answer.
    public var id: UInt16 = 0
    public var isResponse: Bool
    public var questions: [DNSQuestion] = []
    public var answers: [DNSRecord] = []
    public var authorities: [DNSRecord] = []
    public var additionals: [DNSRecord] = []

    public init(isResponse: Bool, id: UInt16 = 0, questions: [DNSQuestion] = [], answers: [DNSRecord] = [], additionals: [DNSRecord] = []) {
        self.isResponse = isResponse
        self.id = id
        self.questions = questions
        self.answers = answers
        self.additionals = additionals
    }

    /// Every record of the message, answers first.
    public var records: [DNSRecord] { answers + authorities + additionals }

    /// The message on the wire; nil when a name or a TXT string does not fit DNS.
    public func encoded() -> [UInt8]? {
        let all = records
        guard questions.allSatisfy({ $0.name.isEncodable }), all.allSatisfy(Self.isEncodable) else { return nil }
        var writer = DNSWriter()
        writer.uint16(id)
        // A response is authoritative (RFC 6762 §18.4); a query's flags are all zero.
        writer.uint16(isResponse ? 0x8400 : 0)
        for count in [questions.count, answers.count, authorities.count, additionals.count] { writer.uint16(UInt16(count)) }
        for question in questions {
            writer.name(question.name)
            writer.uint16(question.type.rawValue)
            writer.uint16(question.unicastResponse ? 0x8001 : 0x0001)
        }
        for record in all { writer.record(record) }
        return writer.bytes
    }

    /// Reads a datagram; throws when it is not a whole DNS message.
    init(decoding bytes: [UInt8]) throws(DNSFormatError) {
        var reader = DNSReader(bytes)
        id = try reader.uint16()
        let flags = try reader.uint16()
        isResponse = flags & 0x8000 != 0
        let counts = [try reader.uint16(), try reader.uint16(), try reader.uint16(), try reader.uint16()].map(Int.init)
        // Each entry takes at least 5 bytes: more than that many cannot be in the datagram.
        guard counts.reduce(0, +) * 5 <= bytes.count else { throw .tooManyEntries }
        for _ in 0..<counts[0] {
            let name = try reader.name()
            let type = DNSRecord.RecordType(rawValue: try reader.uint16())
            let classField = try reader.uint16()
            questions.append(DNSQuestion(name: name, type: type, unicastResponse: classField & 0x8000 != 0))
        }
        for _ in 0..<counts[1] { answers.append(try reader.record()) }
        for _ in 0..<counts[2] { authorities.append(try reader.record()) }
        for _ in 0..<counts[3] { additionals.append(try reader.record()) }
    }

    /// A datagram read as a message, or nil: it is dropped.
    public static func decode(_ bytes: [UInt8]) -> DNSMessage? {
        try? DNSMessage(decoding: bytes)
    }

    private static func isEncodable(_ record: DNSRecord) -> Bool {
        guard record.name.isEncodable else { return false }
        switch record.data {
        case .pointer(let name), .service(_, _, _, let name): return name.isEncodable
        case .text(let strings): return strings.allSatisfy { $0.count <= 255 }
        case .other(_, let bytes): return bytes.count <= 0xFFFF
        case .a: return true
        }
    }
}
