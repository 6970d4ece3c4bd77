/// One question of a DNS message: a name and the type of record asked for.
public struct DNSQuestion: Equatable, Sendable {
    public var name: DNSName
    public var type: DNSRecord.RecordType
    /// The "QU" bit of multicast DNS: the asker wants the answer unicast (RFC 6762 §5.4).
    public var unicastResponse: Bool

    public init(name: DNSName, type: DNSRecord.RecordType, unicastResponse: Bool = false) {
        self.name = name
        self.type = type
        self.unicastResponse = unicastResponse
    }

    /// Whether `record` answers this question.
    func isAnswered(by record: DNSRecord) -> Bool {
        record.name == name && (type == .any || type == record.type)
    }
}
