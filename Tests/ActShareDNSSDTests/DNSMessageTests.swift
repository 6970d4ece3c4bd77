@testable import ActShareDNSSD
import Testing

/// The DNS message codec: what Avahi writes reads back, what we write reads back, and a
/// hostile datagram is dropped, never followed.
@Suite struct DNSMessageTests {
    static let service: DNSName = ["_actshare", "_tcp", "local"]

    /// Avahi 0.8's answer to a legacy unicast PTR query for `_actshare._tcp.local`, for a
    /// service published with `avahi-publish -s "desk [abcd]" _actshare._tcp 53840
    /// id=abcdef0123456789 name=desk`: compressed names, an AAAA record too.
    static let avahiAnswer = bytes(
        "123484000001000500000000095f6163747368617265045f746370056c6f63616c00000c0001c00c000c00010000000a000e0b6465736b20"
            + "5b616263645dc00cc032001000010000000a001e1369643d61626364656630313233343536373839096e616d653d6465736bc032002100"
            + "010000000a000f00000000d25006617674657374c01bc07c001c00010000000a0010fe80000000000000e4b8eafffef061afc07c000100"
            + "010000000a00040a4d0001")

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).map { $0 <= 57 ? $0 - 48 : $0 - 87 }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    @Test func avahisAnswerReads() throws {
        let message = try #require(DNSMessage.decode(Self.avahiAnswer))
        #expect(message.isResponse && message.id == 0x1234)
        #expect(message.questions == [DNSQuestion(name: Self.service, type: .pointer)])
        let instance = Self.service.prepending("desk [abcd]")
        #expect(message.answers.first?.data == .pointer(instance))
        var cache = ServiceCache()
        cache.insert(message.records, now: 0)
        let found = cache.services(of: Self.service)
        #expect(found == [DiscoveredService(instance: "desk [abcd]", host: ["avtest", "local"], port: 53840, addresses: ["10.77.0.1"],
                                            text: ["id": "abcdef0123456789", "name": "desk"])])
    }

    @Test func whatWeWriteReadsBack() throws {
        let advertisement = ServiceAdvertisement(serviceType: Self.service, instance: "laptop [a1b2c3d4]", host: "actshare-a1b2c3d4e5f60718",
                                                 port: 53840, text: ["id=a1b2c3d4e5f60718", "name=laptop"])
        let records = advertisement.records(address: 0x0A4D_0002)
        let message = DNSMessage(isResponse: true, answers: records)
        let decoded = try #require(message.encoded().flatMap(DNSMessage.decode))
        #expect(decoded == message)
        #expect(records.filter(\.cacheFlush).map(\.type) == [.service, .text, .a])
    }

    @Test func aQuestionForTheTypeBringsTheRestAlong() {
        let advertisement = ServiceAdvertisement(serviceType: Self.service, instance: "laptop", host: "actshare-1", port: 1, text: [])
        let (answers, additionals) = advertisement.answers(to: DNSQuestion(name: Self.service, type: .pointer), address: 1)
        #expect(answers.map(\.type) == [.pointer])
        #expect(Set(additionals.map(\.type.rawValue)) == [DNSRecord.RecordType.service.rawValue, DNSRecord.RecordType.text.rawValue, DNSRecord.RecordType.a.rawValue])
        #expect(advertisement.answers(to: DNSQuestion(name: ["_other", "_tcp", "local"], type: .pointer), address: 1).answers.isEmpty)
    }

    @Test func namesCompareWithoutASCIICase() {
        #expect(DNSName(["_ActShare", "_TCP", "Local"]) == Self.service)
        #expect(DNSName(["É"]) != DNSName(["é"]))
    }

    /// A compression pointer to itself, and a chain pointing forward: both would loop a
    /// reader that follows them blindly.
    @Test(arguments: [
        [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 12, 0, 12, 0, 1],
        [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 14, 0xC0, 12, 0, 12, 0, 1],
        [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 65, 0xC0, 12, 0, 12, 0, 1],
    ] as [[UInt8]])
    func aPointerLoopIsDropped(_ bytes: [UInt8]) {
        #expect(DNSMessage.decode(bytes) == nil)
    }

    @Test func aClaimedCountBeyondTheDatagramIsDropped() {
        #expect(DNSMessage.decode([0, 0, 0x84, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]) == nil)
    }

    @Test func everyCutOfARealAnswerIsDroppedOrReadWithoutCrashing() {
        for length in 0..<Self.avahiAnswer.count {
            #expect(DNSMessage.decode(Array(Self.avahiAnswer.prefix(length))) == nil, "cut at \(length)")
        }
    }

    @Test func aRecordWhoseDataOverrunsItsLengthIsDropped() throws {
        var writer = DNSWriter()
        writer.record(DNSRecord(name: ["a", "local"], data: .a(1)))
        var bytes: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0] + writer.bytes
        bytes[bytes.count - 5] = 3  // RDLENGTH 3 for an A record
        #expect(DNSMessage.decode(bytes)?.answers.first?.data == .other(.a, [0, 0, 0]))
    }

    @Test func aLabelTooLongForDNSIsNotWritten() {
        let message = DNSMessage(isResponse: true, answers: [DNSRecord(name: [String(repeating: "x", count: 64), "local"], data: .a(1))])
        #expect(message.encoded() == nil)
    }
}
