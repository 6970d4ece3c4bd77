/// A service this responder answers for: its instance under a service type, the host
/// name its SRV record points to, the port and the TXT strings (RFC 6763 §4–6).
public struct ServiceAdvertisement: Sendable, Equatable {
    public var serviceType: DNSName
    /// The instance's own label, shown to people: `laptop [a1b2c3d4]`.
    public var instance: String
    /// The host label, under `.local`; the A records of each interface go with it.
    public var host: String
    public var port: UInt16
    /// `key=value` strings.
    public var text: [String]

    public init(serviceType: DNSName, instance: String, host: String, port: UInt16, text: [String]) {
        self.serviceType = serviceType
        self.instance = instance
        self.host = host
        self.port = port
        self.text = text
    }

    public var instanceName: DNSName { serviceType.prepending(instance) }
    public var hostName: DNSName { DNSName([host, "local"]) }

    /// Every record of the service on an interface of `address`: the shared PTR records
    /// first, then the unique SRV, TXT and A records this responder owns.
    func records(address: UInt32, ttl: UInt32 = MulticastDNS.recordSeconds) -> [DNSRecord] {
        [
            DNSRecord(name: serviceType, data: .pointer(instanceName), ttl: ttl),
            DNSRecord(name: MulticastDNS.serviceTypes, data: .pointer(serviceType), ttl: ttl),
            DNSRecord(name: instanceName, data: .service(priority: 0, weight: 0, port: port, target: hostName), ttl: ttl, cacheFlush: true),
            DNSRecord(name: instanceName, data: .text(text.map { Array($0.utf8) }), ttl: ttl, cacheFlush: true),
            DNSRecord(name: hostName, data: .a(address), ttl: ttl, cacheFlush: true),
        ]
    }

    /// What answers `question` on an interface of `address`, and the records that go along
    /// as additional ones (RFC 6763 §12: a PTR brings its SRV, TXT and address).
    func answers(to question: DNSQuestion, address: UInt32) -> (answers: [DNSRecord], additionals: [DNSRecord]) {
        let all = records(address: address)
        let answers = all.filter(question.isAnswered)
        guard !answers.isEmpty else { return ([], []) }
        var additionals: [DNSRecord] = []
        if answers.contains(where: { $0.type == .pointer && $0.name == serviceType }) {
            additionals = all.filter { $0.type == .service || $0.type == .text || $0.type == .a }
        } else if answers.contains(where: { $0.type == .service }) {
            additionals = all.filter { $0.type == .a }
        }
        return (answers, additionals.filter { !answers.contains($0) })
    }
}
