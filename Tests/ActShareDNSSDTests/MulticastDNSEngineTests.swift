@testable import ActShareDNSSD
import Testing

/// The responder and browser as a state machine, fed datagrams and the time.
@Suite struct MulticastDNSEngineTests {
    static let service: DNSName = ["_actshare", "_tcp", "local"]
    static let link = NetworkInterface(index: 7, name: "veth0", address: 0x0A4D_0001, netmask: 0xFFFF_FF00)

    static func advertisement(_ name: String, id: String, port: UInt16 = 53840) -> ServiceAdvertisement {
        ServiceAdvertisement(serviceType: service, instance: "\(name) [\(id.prefix(8))]", host: "actshare-\(id)", port: port, text: ["id=\(id)", "name=\(name)"])
    }

    static func engine(_ advertisement: ServiceAdvertisement?) -> MulticastDNSEngine {
        var engine = MulticastDNSEngine(advertisement: advertisement, browsing: service, advertisedAddress: nil)
        engine.setInterfaces([link], now: 0)
        return engine
    }

    @Test func twoEnginesFindEachOtherButNotThemselves() throws {
        var laptop = Self.engine(Self.advertisement("laptop", id: "1111222233334444"))
        var desk = Self.engine(Self.advertisement("desk", id: "5555666677778888"))
        // The first turn: each asks and announces; every datagram reaches both (loopback).
        let sent = laptop.due(now: 0).send + desk.due(now: 0).send
        #expect(sent.contains { !$0.message.isResponse } && sent.contains { $0.message.isResponse })
        var changed = false
        for outgoing in sent {
            let bytes = try #require(outgoing.message.encoded())
            for index in 0..<2 {
                let from: UInt32 = index == 0 ? 0x0A4D_0001 : 0x0A4D_0002
                _ = laptop.receive(bytes, from: from, fromPort: 5353, interfaceIndex: 7, now: 0.01)
                changed = desk.receive(bytes, from: from, fromPort: 5353, interfaceIndex: 7, now: 0.01).changed || changed
            }
        }
        #expect(changed)
        #expect(desk.cache.services(of: Self.service).map(\.instance) == ["laptop [11112222]"])
        #expect(laptop.cache.services(of: Self.service).map(\.text["name"]) == ["desk"])
        #expect(desk.cache.services(of: Self.service).first?.addresses == ["10.77.0.1"])
    }

    @Test func aQueryIsAnsweredAfterADelayAndALegacyOneAtOnceToItsPort() throws {
        var engine = Self.engine(Self.advertisement("laptop", id: "1111222233334444"))
        _ = engine.due(now: 0)
        _ = engine.due(now: 1)
        let query = try #require(DNSMessage(isResponse: false, questions: [DNSQuestion(name: Self.service, type: .pointer)]).encoded())
        #expect(engine.receive(query, from: 0x0A4D_0009, fromPort: 5353, interfaceIndex: 7, now: 5).send.isEmpty)
        let later = engine.due(now: 5.2).send.filter(\.message.isResponse)
        #expect(later.count == 1 && later[0].address == MulticastDNS.group)
        #expect(later[0].message.additionals.contains { $0.type == .a && $0.data == .a(0x0A4D_0001) })

        var legacy = DNSMessage(isResponse: false, questions: [DNSQuestion(name: Self.service, type: .pointer)])
        legacy.id = 77
        let reply = engine.receive(try #require(legacy.encoded()), from: 0x0A4D_0009, fromPort: 40000, interfaceIndex: 7, now: 6).send
        #expect(reply.count == 1 && reply[0].address == 0x0A4D_0009 && reply[0].port == 40000)
        #expect(reply[0].message.id == 77 && reply[0].message.records.allSatisfy { $0.ttl <= 10 && !$0.cacheFlush })
    }

    @Test func whatComesFromOffTheLinkIsDropped() throws {
        var engine = Self.engine(Self.advertisement("laptop", id: "1111222233334444"))
        let query = try #require(DNSMessage(isResponse: false, questions: [DNSQuestion(name: Self.service, type: .pointer)]).encoded())
        #expect(engine.receive(query, from: 0xC0A8_0001, fromPort: 40000, interfaceIndex: 7, now: 1).send.isEmpty)
        let other = Self.advertisement("evil", id: "9999999999999999").records(address: 0xC0A8_0001)
        let response = try #require(DNSMessage(isResponse: true, answers: other).encoded())
        #expect(!engine.receive(response, from: 0xC0A8_0001, fromPort: 5353, interfaceIndex: 7, now: 1).changed)
        #expect(!engine.receive(response, from: 0x0A4D_0003, fromPort: 5353, interfaceIndex: 99, now: 1).changed)
    }

    @Test func aGoodbyeRemovesTheServiceWithinASecond() throws {
        var engine = Self.engine(nil)
        let desk = Self.advertisement("desk", id: "5555666677778888")
        let hello = try #require(DNSMessage(isResponse: true, answers: desk.records(address: 0x0A4D_0002)).encoded())
        _ = engine.receive(hello, from: 0x0A4D_0002, fromPort: 5353, interfaceIndex: 7, now: 1)
        #expect(engine.cache.services(of: Self.service).count == 1)
        let goodbye = try #require(DNSMessage(isResponse: true, answers: desk.records(address: 0x0A4D_0002, ttl: 0)).encoded())
        _ = engine.receive(goodbye, from: 0x0A4D_0002, fromPort: 5353, interfaceIndex: 7, now: 2)
        // The engine asks to be woken when the goodbye runs out, not at its next query.
        #expect(engine.due(now: 2.5).wakeAt == 3)
        #expect(engine.cache.services(of: Self.service).count == 1, "kept one second more")
        _ = engine.due(now: 3.0)
        #expect(engine.cache.services(of: Self.service).isEmpty)
    }

    @Test func aFloodOfServicesFillsTheCacheAndNoMore() throws {
        var engine = Self.engine(nil)
        for index in 0..<(ServiceCache.instanceLimit + 100) {
            let id = String(repeating: "0", count: 12) + String(index, radix: 16).leftPadded(to: 4)
            let records = Self.advertisement("d\(index)", id: id).records(address: 0x0A4D_0002)
            _ = engine.receive(try #require(DNSMessage(isResponse: true, answers: records).encoded()), from: 0x0A4D_0002, fromPort: 5353,
                               interfaceIndex: 7, now: Double(index) / 1000)
        }
        #expect(engine.cache.services(of: Self.service).count == ServiceCache.instanceLimit)
    }

    @Test func queriesBackOffToOneAMinute() {
        var engine = Self.engine(nil)
        var times: [Double] = []
        var now = 0.0
        while now < 400 {
            let (send, wakeAt) = engine.due(now: now)
            if send.contains(where: { !$0.message.isResponse }) { times.append(now) }
            now = wakeAt
        }
        #expect(Array(times.prefix(8)) == [0, 1, 3, 7, 15, 31, 63, 123])
        #expect(times.last.map { $0 - times[times.count - 2] } == 60)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
