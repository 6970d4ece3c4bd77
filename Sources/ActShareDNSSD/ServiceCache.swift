/// The records other responders sent, each until its TTL runs out, and the service
/// instances they add up to. Bounded: whoever floods the link fills this and no more.
struct ServiceCache {
    /// The most records kept; beyond it those closest to expiring go first.
    static let capacity = 2048
    /// The most instances of the browsed type kept: a new one beyond it is not taken.
    static let instanceLimit = 256
    /// A record is believed this long at most, whatever TTL it came with.
    static let longestSeconds: Double = 75 * 60

    private struct Key: Hashable {
        var name: DNSName
        var type: DNSRecord.RecordType
    }

    private struct Entry {
        var record: DNSRecord
        var expires: Double
        var received: Double
    }

    private var entries: [Key: [Entry]] = [:]
    private var count = 0
    /// When the first record held runs out.
    private var nextExpiry = Double.infinity
    private var lastSweep = -Double.infinity
    /// Sweeps at most this often: records that run out one after another (a flood of
    /// goodbyes) cost one sweep of the cache for each quarter second, not each record.
    static let sweepSeconds = 0.25

    /// When the engine is next to sweep: so that a device that said goodbye leaves the
    /// list one second after (RFC 6762 §10.1), not at the next packet or query.
    var nextSweep: Double { max(nextExpiry, lastSweep + Self.sweepSeconds) }

    /// Takes the records of one response received at `now` (monotonic seconds); whether
    /// a record was added or dropped (not only refreshed).
    @discardableResult
    mutating func insert(_ records: [DNSRecord], now: Double) -> Bool {
        let before = count
        // A cache-flush record replaces what is held for its name and type, but for what
        // came within the last second: a responder's records may span several packets
        // (RFC 6762 §10.2).
        for record in records where record.cacheFlush {
            let key = Key(name: record.name, type: record.type)
            guard let held = entries[key] else { continue }
            let kept = held.filter { $0.received >= now - 1 || $0.record.data == record.data }
            count -= held.count - kept.count
            entries[key] = kept
        }
        var added = false
        for record in records {
            let key = Key(name: record.name, type: record.type)
            var held = entries[key] ?? []
            // A goodbye (TTL 0) is kept one second more (RFC 6762 §10.1).
            let expires = now + (record.ttl == 0 ? 1 : min(Double(record.ttl), Self.longestSeconds))
            nextExpiry = min(nextExpiry, expires)
            if let index = held.firstIndex(where: { $0.record.data == record.data }) {
                held[index].expires = expires
                held[index].received = now
            } else {
                if record.type == .pointer, held.count >= Self.instanceLimit { continue }
                held.append(Entry(record: record, expires: expires, received: now))
                count += 1
                added = true
            }
            entries[key] = held
        }
        if count > Self.capacity { evict(downTo: Self.capacity * 9 / 10) }
        removeExpired(now: now)
        return added || count != before
    }

    /// Drops what has expired; a sweep a second at most.
    mutating func removeExpired(now: Double) {
        guard now >= nextSweep else { return }
        lastSweep = now
        nextExpiry = .infinity
        for key in Array(entries.keys) {
            let held = entries[key] ?? []
            let kept = held.filter { $0.expires > now }
            count -= held.count - kept.count
            entries[key] = kept.isEmpty ? nil : kept
            for entry in kept { nextExpiry = min(nextExpiry, entry.expires) }
        }
    }

    /// Drops the records soonest to expire until `target` are left.
    private mutating func evict(downTo target: Int) {
        let expiries = entries.values.flatMap { $0.map(\.expires) }.sorted()
        let cutoff = expiries[max(0, expiries.count - target - 1)]
        for key in Array(entries.keys) {
            let held = entries[key] ?? []
            let kept = held.filter { $0.expires > cutoff }
            count -= held.count - kept.count
            entries[key] = kept.isEmpty ? nil : kept
        }
    }

    private func records(_ name: DNSName, _ type: DNSRecord.RecordType) -> [DNSRecord] {
        entries[Key(name: name, type: type)]?.map(\.record) ?? []
    }

    /// The instances of `serviceType` whose SRV, TXT and address are all known.
    func services(of serviceType: DNSName) -> [DiscoveredService] {
        var found: [DiscoveredService] = []
        for case .pointer(let instanceName) in records(serviceType, .pointer).map(\.data) where instanceName.parent == serviceType {
            guard case .service(_, _, let port, let host)? = records(instanceName, .service).first?.data,
                  let instance = instanceName.first
            else { continue }
            let addresses = records(host, .a).compactMap { record -> String? in
                if case .a(let address) = record.data { return NetworkInterface.dotted(address) }
                return nil
            }
            guard !addresses.isEmpty else { continue }
            var text: [String: String] = [:]
            if case .text(let strings)? = records(instanceName, .text).first?.data { text = DiscoveredService.keysAndValues(strings) }
            found.append(DiscoveredService(instance: instance, host: host, port: port, addresses: addresses.sorted(), text: text))
        }
        return found.sorted { $0.instance < $1.instance }
    }

    /// The names still to resolve for `serviceType`: instances without SRV or TXT, and
    /// hosts without an address.
    func unresolved(of serviceType: DNSName) -> [DNSQuestion] {
        var questions: [DNSQuestion] = []
        for case .pointer(let instanceName) in records(serviceType, .pointer).map(\.data) where instanceName.parent == serviceType {
            let services = records(instanceName, .service)
            if services.isEmpty { questions.append(DNSQuestion(name: instanceName, type: .service)) }
            if records(instanceName, .text).isEmpty { questions.append(DNSQuestion(name: instanceName, type: .text)) }
            for case .service(_, _, _, let host) in services.map(\.data) where records(host, .a).isEmpty {
                questions.append(DNSQuestion(name: host, type: .a))
            }
        }
        return questions
    }
}
