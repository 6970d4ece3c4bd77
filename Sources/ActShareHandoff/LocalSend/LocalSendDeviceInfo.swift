import ActShareCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A LocalSend device as it describes itself: in its multicast announcement (UDP to
/// 224.0.0.167:53317), in `POST /api/localsend/v2/register` and in `GET …/info` (LocalSend
/// protocol v2; docs/PROTOCOL.md, "LocalSend"). Read only through
/// ``decode(_:limit:)``, which refuses what the protocol does not allow.
public struct LocalSendDeviceInfo: Codable, Sendable, Equatable {
    public enum DeviceType: String, Codable, Sendable, CaseIterable {
        case mobile, desktop, web, headless, server
    }

    public enum Scheme: String, Codable, Sendable {
        case http, https
    }

    /// The name it gives itself.
    public var alias: String
    /// Its protocol version, `major.minor` (actshare speaks 2.x).
    public var version: String
    public var deviceModel: String?
    /// Absent, or a kind LocalSend does not define, is nil.
    public var deviceType: DeviceType?
    /// With HTTPS, the SHA-256 of its certificate (64 hex digits, which actshare pins);
    /// with HTTP, a random string that proves nothing.
    public var fingerprint: String
    public var port: Int
    public var scheme: Scheme
    /// Whether it serves its files to be downloaded (protocol 5.2, 5.3).
    public var download: Bool?
    /// In a multicast message: true for an announcement, which asks for answers; false
    /// for an answer.
    public var announce: Bool?

    public init(alias: String, version: String = Self.protocolVersion, deviceModel: String? = nil, deviceType: DeviceType? = nil,
                fingerprint: String, port: Int, scheme: Scheme = .https, download: Bool? = nil, announce: Bool? = nil) {
        self.alias = alias
        self.version = version
        self.deviceModel = deviceModel
        self.deviceType = deviceType
        self.fingerprint = fingerprint
        self.port = port
        self.scheme = scheme
        self.download = download
        self.announce = announce
    }

    /// The version actshare announces.
    public static let protocolVersion = "2.1"
    /// A multicast message is one datagram; LocalSend's are about 250 bytes.
    public static let datagramLimit = 4096
    /// The longest alias and model shown (LocalSend's own are short names).
    public static let nameLimit = 64

    enum CodingKeys: String, CodingKey {
        case alias, version, deviceModel, deviceType, fingerprint, port, download, announce
        case scheme = "protocol"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        alias = try fields.decode(String.self, forKey: .alias)
        version = try fields.decode(String.self, forKey: .version)
        deviceModel = try fields.decodeIfPresent(String.self, forKey: .deviceModel)
        // A kind a newer LocalSend adds is shown as no kind, not refused.
        deviceType = (try? fields.decodeIfPresent(String.self, forKey: .deviceType)).flatMap { $0.flatMap(DeviceType.init(rawValue:)) }
        fingerprint = try fields.decode(String.self, forKey: .fingerprint)
        port = try fields.decode(Int.self, forKey: .port)
        scheme = try fields.decodeIfPresent(Scheme.self, forKey: .scheme) ?? .https
        download = try fields.decodeIfPresent(Bool.self, forKey: .download)
        announce = try fields.decodeIfPresent(Bool.self, forKey: .announce)
    }

    /// The device in `bytes` (a JSON object of at most `limit` bytes), checked field by
    /// field: a display name without control characters, a 2.x version, a port, and for
    /// HTTPS a fingerprint that is a SHA-256.
    public static func decode(_ bytes: some Collection<UInt8>, limit: Int = datagramLimit) throws(LocalSendError) -> LocalSendDeviceInfo {
        guard bytes.count <= limit else { throw .tooLarge(limit: limit) }
        let info: LocalSendDeviceInfo
        do {
            info = try JSONDecoder().decode(LocalSendDeviceInfo.self, from: Data(bytes))
        } catch {
            throw .malformed
        }
        try info.check()
        return info
    }

    /// Why the fields are not what the protocol allows, if they are not.
    func check() throws(LocalSendError) {
        guard !alias.isEmpty, ActivityChecks.isDisplayText(alias, limit: Self.nameLimit) else {
            throw .invalidField("alias", "is not a name of 1 to \(Self.nameLimit) bytes without control characters")
        }
        if let deviceModel, !ActivityChecks.isDisplayText(deviceModel, limit: Self.nameLimit) {
            throw .invalidField("deviceModel", "is not a name of at most \(Self.nameLimit) bytes without control characters")
        }
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            throw .invalidField("version", "is not major.minor")
        }
        guard parts[0] == "2" else { throw .unsupportedVersion(version) }
        guard (1...65_535).contains(port) else { throw .invalidField("port", "is not a port from 1 to 65535") }
        switch scheme {
        case .https:
            guard Self.isCertificateFingerprint(fingerprint) else { throw .invalidField("fingerprint", "is not a SHA-256 in hex") }
        case .http:
            guard !fingerprint.isEmpty, ActivityChecks.isDisplayText(fingerprint, limit: 128) else {
                throw .invalidField("fingerprint", "is not a string of 1 to 128 bytes without control characters")
            }
        }
    }

    /// 64 hex digits, either case (LocalSend writes capitals).
    public static func isCertificateFingerprint(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Whether `other` names the same certificate (fingerprints compare without case).
    public func sameFingerprint(as other: String) -> Bool {
        fingerprint.uppercased() == other.uppercased()
    }
}
