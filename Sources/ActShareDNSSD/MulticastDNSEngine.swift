/// The responder and the browser of one link, as a state machine: it is given datagrams
/// and the time, and says what to send and when to wake it next. ``ServiceDiscovery``
/// runs it on a thread of its own; nothing here blocks.
struct MulticastDNSEngine {
    /// What the engine sends: a message to the group on an interface, or to one address
    /// and port (a unicast answer).
    struct Outgoing: Equatable {
        var message: DNSMessage
        var interfaceIndex: Int32
        var address: UInt32 = MulticastDNS.group
        var port: UInt16 = MulticastDNS.port
    }

    let advertisement: ServiceAdvertisement?
    let browsed: DNSName
    /// With a daemon bound to one address, only the interface that has it is advertised on.
    let advertisedAddress: UInt32?

    private(set) var cache = ServiceCache()
    private(set) var interfaces: [NetworkInterface] = []
    /// Queries go out 0, 1, 2, 4 … seconds after start, then once a minute (RFC 6762 §5.2
    /// lets the interval grow further; a minute keeps a device that left seen as gone soon).
    private var nextQuery = 0.0
    private var queryInterval = 1.0
    static let longestQueryInterval = 60.0
    /// Announcements left to send, a second apart (RFC 6762 §8.3: at least two).
    private var announcementsLeft = 0
    private var nextAnnouncement = 0.0
    private var nextResolve: Double?
    /// The services as last reported, to tell a change.
    private var lastServices: [DiscoveredService] = []
    /// Answers held back 20–120 ms, so that many responders answering one query do not
    /// all send at once (RFC 6762 §6).
    private var delayed: [(due: Double, outgoing: Outgoing)] = []

    init(advertisement: ServiceAdvertisement?, browsing browsed: DNSName, advertisedAddress: UInt32?) {
        self.advertisement = advertisement
        self.browsed = browsed
        self.advertisedAddress = advertisedAddress
    }

    /// The interfaces to answer on now; a change is announced at once.
    mutating func setInterfaces(_ current: [NetworkInterface], now: Double) {
        guard current != interfaces else { return }
        interfaces = current
        announcementsLeft = advertisement == nil ? 0 : 2
        nextAnnouncement = now
        // A new network: ask again from the start.
        nextQuery = now
        queryInterval = 1
    }

    private func advertised(on interface: NetworkInterface) -> Bool {
        advertisement != nil && (advertisedAddress.map { $0 == interface.address } ?? true)
    }

    /// Asks the link now, as `handoff discover` does.
    mutating func queryNow(now: Double) {
        nextQuery = now
    }

    /// What is due at `now`, and when to be called next.
    mutating func due(now: Double) -> (send: [Outgoing], wakeAt: Double) {
        var send: [Outgoing] = []
        if now >= nextQuery {
            let question = DNSQuestion(name: browsed, type: .pointer)
            for interface in interfaces { send.append(Outgoing(message: DNSMessage(isResponse: false, questions: [question]), interfaceIndex: interface.index)) }
            nextQuery = now + queryInterval
            queryInterval = min(queryInterval * 2, Self.longestQueryInterval)
        }
        if let resolve = nextResolve, now >= resolve {
            let questions = Array(cache.unresolved(of: browsed).prefix(16))
            nextResolve = questions.isEmpty ? nil : now + 1
            if !questions.isEmpty {
                for interface in interfaces { send.append(Outgoing(message: DNSMessage(isResponse: false, questions: questions), interfaceIndex: interface.index)) }
            }
        }
        if announcementsLeft > 0, now >= nextAnnouncement {
            for interface in interfaces where advertised(on: interface) {
                guard let advertisement else { break }
                send.append(Outgoing(message: DNSMessage(isResponse: true, answers: advertisement.records(address: interface.address)), interfaceIndex: interface.index))
            }
            announcementsLeft -= 1
            nextAnnouncement = now + 1
        }
        send += delayed.filter { $0.due <= now }.map(\.outgoing)
        delayed.removeAll { $0.due <= now }
        cache.removeExpired(now: now)
        var wakeAt = min(nextQuery, cache.nextSweep)
        if announcementsLeft > 0 { wakeAt = min(wakeAt, nextAnnouncement) }
        if let resolve = nextResolve { wakeAt = min(wakeAt, resolve) }
        if let soonest = delayed.map(\.due).min() { wakeAt = min(wakeAt, soonest) }
        return (send, wakeAt)
    }

    /// The goodbyes (TTL 0) for every record advertised, when the daemon stops.
    func goodbyes() -> [Outgoing] {
        guard let advertisement else { return [] }
        return interfaces.filter(advertised).map { interface in
            Outgoing(message: DNSMessage(isResponse: true, answers: advertisement.records(address: interface.address, ttl: 0)), interfaceIndex: interface.index)
        }
    }

    /// Takes one datagram: answers a query about the advertised service, learns from a
    /// response. What comes from off the link, or is not a DNS message, is dropped.
    /// Returns what to send at once and whether the services seen changed.
    mutating func receive(_ bytes: [UInt8], from: UInt32, fromPort: UInt16, interfaceIndex: Int32, now: Double) -> (send: [Outgoing], changed: Bool) {
        guard let interface = interfaces.first(where: { $0.index == interfaceIndex }), interface.isOnLink(from),
              let message = DNSMessage.decode(bytes)
        else { return ([], false) }
        if !message.isResponse {
            return (answer(message, from: from, fromPort: fromPort, on: interface, now: now), false)
        }
        // Responses come from the port (RFC 6762 §11); a reply to our own question from
        // elsewhere is not one.
        guard fromPort == MulticastDNS.port else { return ([], false) }
        let relevant = message.records.filter(isAboutBrowsedService)
        guard !relevant.isEmpty else { return ([], false) }
        guard cache.insert(relevant, now: now) else { return ([], false) }
        if nextResolve == nil, !cache.unresolved(of: browsed).isEmpty { nextResolve = now + 0.02 }
        let services = cache.services(of: browsed)
        defer { lastServices = services }
        return ([], services != lastServices)
    }

    /// Records of the browsed type, its instances and the hosts they name: a response
    /// about anything else is not kept.
    private func isAboutBrowsedService(_ record: DNSRecord) -> Bool {
        // Our own announcements come back (multicast loops back, for other daemons here).
        if let advertisement {
            if record.name == advertisement.instanceName || record.name == advertisement.hostName { return false }
            if case .pointer(advertisement.instanceName) = record.data { return false }
        }
        switch record.type {
        case .pointer: return record.name == browsed
        case .service, .text: return record.name.parent == browsed
        case .a:
            // Any host name may be an SRV target; the cache's bound keeps these in check.
            return record.name.labels.count == 2 && record.name.labels.last?.asciiLowercased == "local"
        default: return false
        }
    }

    private mutating func answer(_ query: DNSMessage, from: UInt32, fromPort: UInt16, on interface: NetworkInterface, now: Double) -> [Outgoing] {
        guard let advertisement, advertised(on: interface) else { return [] }
        var answers: [DNSRecord] = [], additionals: [DNSRecord] = []
        for question in query.questions.prefix(64) {
            let found = advertisement.answers(to: question, address: interface.address)
            answers += found.answers.filter { !answers.contains($0) }
            additionals += found.additionals.filter { !additionals.contains($0) }
        }
        // What the asker already knows, with at least half its TTL left, is not sent
        // again (known-answer suppression, RFC 6762 §7.1).
        answers.removeAll { mine in
            query.answers.contains { $0.name == mine.name && $0.data == mine.data && $0.ttl >= mine.ttl / 2 }
        }
        guard !answers.isEmpty else { return [] }
        additionals.removeAll { answers.contains($0) }
        if fromPort != MulticastDNS.port {
            // A legacy unicast query (dig, getent through nss-mdns): answered to its port,
            // with its id and questions, no cache-flush bits, TTLs of 10 s (RFC 6762 §6.7).
            let plain = { (record: DNSRecord) in DNSRecord(name: record.name, data: record.data, ttl: min(record.ttl, 10)) }
            let reply = DNSMessage(isResponse: true, id: query.id, questions: query.questions, answers: answers.map(plain), additionals: additionals.map(plain))
            return [Outgoing(message: reply, interfaceIndex: interface.index, address: from, port: fromPort)]
        }
        let reply = DNSMessage(isResponse: true, answers: answers, additionals: additionals)
        if query.questions.allSatisfy(\.unicastResponse) {
            return [Outgoing(message: reply, interfaceIndex: interface.index, address: from, port: fromPort)]
        }
        if answers.allSatisfy(\.cacheFlush) { return [Outgoing(message: reply, interfaceIndex: interface.index)] }
        // The answers waiting are bounded too, and one answer waiting serves every asker.
        if delayed.count < 64, !delayed.contains(where: { $0.outgoing.message == reply && $0.outgoing.interfaceIndex == interface.index }) {
            delayed.append((now + Double.random(in: 0.02...0.12), Outgoing(message: reply, interfaceIndex: interface.index)))
        }
        return []
    }
}
