import ActShareHandoff
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// ``LocalSendDeviceInfo``: what a LocalSend device says of itself, read from the wire and
/// checked field by field.
@Suite struct LocalSendDeviceInfoTests {
    /// A multicast announcement as `localsendd` 0.1.1 (protocol v2.2) sent it, captured here.
    static let localsendd = #"{"alias": "Pixel Test", "version": "2.2", "deviceModel": "Linux", "deviceType": "desktop", "fingerprint": "6CEBFAE702A02A7BC9BE3A4CF4DAA81225A6B0EE05CF98E89F57E4E48DB109FB", "port": 53318, "protocol": "https", "download": true, "announce": true}"#

    static func decode(_ text: String) throws(LocalSendError) -> LocalSendDeviceInfo {
        try LocalSendDeviceInfo.decode(Array(text.utf8))
    }

    @Test func aRealAnnouncementReads() throws {
        let info = try Self.decode(Self.localsendd)
        #expect(info == LocalSendDeviceInfo(alias: "Pixel Test", version: "2.2", deviceModel: "Linux", deviceType: .desktop,
                                            fingerprint: "6CEBFAE702A02A7BC9BE3A4CF4DAA81225A6B0EE05CF98E89F57E4E48DB109FB", port: 53318,
                                            scheme: .https, download: true, announce: true))
        #expect(info.sameFingerprint(as: "6cebfae702a02a7bc9be3a4cf4daa81225a6b0ee05cf98e89f57e4e48db109fb"))
    }

    @Test func whatActshareAnnouncesReadsBack() throws {
        let ours = LocalSendDeviceInfo(alias: "Büro PC", deviceModel: "actshare", deviceType: .desktop,
                                       fingerprint: String(repeating: "ab", count: 32), port: 53317, download: false, announce: true)
        let bytes = try JSONEncoder().encode(ours)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""protocol":"https""#))
        #expect(try LocalSendDeviceInfo.decode(Array(bytes)) == ours)
    }

    @Test func whatTheProtocolLeavesOpenIsRead() throws {
        // No deviceModel, a kind of device from a newer LocalSend, no protocol (https).
        let info = try Self.decode(#"{"alias": "Tablet", "version": "2.0", "deviceType": "watch", "fingerprint": "\#(String(repeating: "0", count: 64))", "port": 53317}"#)
        #expect(info.deviceType == nil && info.deviceModel == nil && info.scheme == .https)
        // Over HTTP the fingerprint is any short string: it proves nothing, and is shown as such.
        #expect(try Self.decode(#"{"alias": "Old", "version": "2.1", "fingerprint": "x7-random", "port": 53317, "protocol": "http"}"#).scheme == .http)
    }

    @Test(arguments: [
        (String(repeating: " ", count: 4097), LocalSendError.tooLarge(limit: 4096)),
        ("not json", .malformed),
        (#"["a list"]"#, .malformed),
        (#"{"alias": "A", "version": "2.2", "port": 53317}"#, .malformed),
        (#"{"alias": "Clear\u001b[2J", "version": "2.2", "fingerprint": "\#(String(repeating: "a", count: 64))", "port": 53317}"#,
         .invalidField("alias", "is not a name of 1 to 64 bytes without control characters")),
        (#"{"alias": "", "version": "2.2", "fingerprint": "\#(String(repeating: "a", count: 64))", "port": 53317}"#,
         .invalidField("alias", "is not a name of 1 to 64 bytes without control characters")),
        (#"{"alias": "\#(String(repeating: "n", count: 65))", "version": "2.2", "fingerprint": "\#(String(repeating: "a", count: 64))", "port": 53317}"#,
         .invalidField("alias", "is not a name of 1 to 64 bytes without control characters")),
        (#"{"alias": "A", "deviceModel": "M\u0007", "version": "2.2", "fingerprint": "\#(String(repeating: "a", count: 64))", "port": 53317}"#,
         .invalidField("deviceModel", "is not a name of at most 64 bytes without control characters")),
        (#"{"alias": "A", "version": "3.0", "fingerprint": "\#(String(repeating: "a", count: 64))", "port": 53317}"#, .unsupportedVersion("3.0")),
        (#"{"alias": "A", "version": "2", "fingerprint": "\#(String(repeating: "a", count: 64))", "port": 53317}"#,
         .invalidField("version", "is not major.minor")),
        (#"{"alias": "A", "version": "2.2", "fingerprint": "\#(String(repeating: "a", count: 64))", "port": 0}"#,
         .invalidField("port", "is not a port from 1 to 65535")),
        (#"{"alias": "A", "version": "2.2", "fingerprint": "\#(String(repeating: "a", count: 64))", "port": 70000}"#,
         .invalidField("port", "is not a port from 1 to 65535")),
        (#"{"alias": "A", "version": "2.2", "fingerprint": "not-a-certificate", "port": 53317, "protocol": "https"}"#,
         .invalidField("fingerprint", "is not a SHA-256 in hex")),
        (#"{"alias": "A", "version": "2.2", "fingerprint": "a", "port": 53317, "protocol": "gopher"}"#, .malformed),
    ])
    func whatTheProtocolDoesNotAllowIsRefused(_ text: String, _ expected: LocalSendError) {
        #expect(throws: expected) { try Self.decode(text) }
    }
}
