import Testing

@testable import ActShareQuickShare

/// Quick Share's advertisement: the service name and the endpoint info, written as
/// Android reads them and read from whatever a stranger on the LAN sends.
@Suite struct QuickShareEndpointTests {
    @Test func theServiceNameIsTenBytesInURLSafeBase64() throws {
        let endpoint = try #require(QuickShareEndpoint(id: Array("ABCD".utf8)))
        // 0x23 "ABCD" FC 9F 5E 00 00, as Python's base64.urlsafe_b64encode writes it.
        #expect(endpoint.serviceName == "I0FCQ0T8n14AAA")
        #expect(try QuickShareEndpoint(serviceName: "I0FCQ0T8n14AAA") == endpoint)
        #expect(try QuickShareEndpoint(serviceName: "I0FCQ0T8n14AAA==") == endpoint)
        let random = QuickShareEndpoint.random()
        #expect(try QuickShareEndpoint(serviceName: random.serviceName) == random)
    }

    @Test(arguments: [
        "",                   // nothing
        "I0FCQ0T8n14A",       // nine bytes
        "I0FCQ0T8n14AAAA",    // 4n+3 digits with bits left over
        "JEFCQ0T8n14AAA",     // 0x24 first
        "I0FCQ0T8n10AAA",     // another service id
        "I0E_Q0T8n14AAA",     // an endpoint id that is not letters and digits
        "I0FCQ0T8n14AA+",     // not URL-safe base64
    ])
    func aNameThatIsNotQuickSharesIsRefused(_ name: String) {
        #expect(throws: QuickShareError.malformedServiceName) { try QuickShareEndpoint(serviceName: name) }
    }

    @Test func endpointInfoRoundTrips() throws {
        // A family emoji: three people joined by zero-width joiners, which stay.
        var info = QuickShareEndpointInfo(deviceType: .phone, name: "Ann’s Pixel 👨\u{200D}👩\u{200D}👧", metadata: Array(0..<16))
        info.vendor = 1
        let bytes = info.encoded()
        // Version 1, visible, a phone: 001 0 001 0.
        #expect(bytes[0] == 0b0010_0010)
        #expect(Array(bytes[1..<17]) == Array(0..<16))
        #expect(try QuickShareEndpointInfo(decoding: bytes) == info)

        var hidden = QuickShareEndpointInfo(deviceType: .laptop, name: nil)
        hidden.qrCodeData = Array(repeating: 7, count: 16)
        let read = try QuickShareEndpointInfo(decoding: hidden.encoded())
        #expect(read.isHidden && read.name == nil && read.qrCodeData == hidden.qrCodeData && read.deviceType == .laptop)
    }

    @Test func aLongNameIsCutAtACharacterBoundary() throws {
        let info = QuickShareEndpointInfo(deviceType: .laptop, name: String(repeating: "é", count: 200))
        let read = try QuickShareEndpointInfo(decoding: info.encoded())
        #expect(read.name == String(repeating: "é", count: 127))
    }

    @Test(arguments: [
        ([UInt8](repeating: 0, count: 16), "shorter than 17 bytes"),
        ([0x22] + [UInt8](repeating: 0, count: 16), "no name"),
        ([0x22] + [UInt8](repeating: 0, count: 16) + [5, 65, 66], "the name is cut short"),
        ([0x22] + [UInt8](repeating: 0, count: 16) + [2, 0xC3, 0x28], "the name is not UTF-8"),
        ([0x22] + [UInt8](repeating: 0, count: 16) + [3, 65, 0x0A, 66], "the name holds control characters"),
        ([0x22] + [UInt8](repeating: 0, count: 16) + [4, 0xE2, 0x80, 0xAE, 65], "the name holds control characters"),  // U+202E
        ([0x22] + [UInt8](repeating: 0, count: 16) + [1, 65, 1, 16, 1, 2], "a record is cut short"),
    ])
    func whatAStrangerSendsIsReadWithinItsBounds(_ bytes: [UInt8], _ problem: String) {
        #expect(throws: QuickShareError.malformedEndpointInfo(problem)) { try QuickShareEndpointInfo(decoding: bytes) }
    }

    @Test func anUnknownDeviceTypeAndUnknownRecordsAreTolerated() throws {
        let bytes: [UInt8] = [0b0010_1110] + [UInt8](repeating: 9, count: 16) + [1, 65] + [9, 2, 1, 2] + [2, 1, 1]
        let read = try QuickShareEndpointInfo(decoding: bytes)
        #expect(read.deviceType == .unknown && read.name == "A" && read.vendor == 1)
    }

    /// A hidden device is shown by its kind, in words spelled out (release builds of the
    /// daemon print no case names by reflection).
    @Test func aHiddenDeviceIsShownByItsKindInWords() {
        #expect(QuickShareEndpointInfo(deviceType: .phone, name: nil).shownName == "phone")
        #expect(QuickShareEndpointInfo(deviceType: .tablet, name: "Tab").shownName == "Tab")
        #expect(QuickShareError.malformedEndpointInfo("no name").description == "its endpoint info is malformed: no name")
    }
}
