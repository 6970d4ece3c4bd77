import ActShareCore
import ActShareCrypto
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import Synchronization

/// What a TLS handshake learnt of the other side: its certificate's pin and public key.
final class PeerIdentity: Sendable {
    private let box = Mutex<(pin: String, spki: [UInt8])?>(nil)

    var value: (pin: String, spki: [UInt8])? { box.withLock { $0 } }

    func record(pin: String, spki: [UInt8]) { box.withLock { $0 = (pin, spki) } }
}

/// TLS 1.3 between self-signed identities, both sides presenting a certificate; who is
/// trusted is decided by pin alone, in the verification callback (no CA, no host name).
enum TLS {
    static func serverContext(_ identity: Identity) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.privateKey))
        configure(&configuration)
        return try NIOSSLContext(configuration: configuration)
    }

    static func clientContext(_ identity: Identity) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateChain = [.certificate(identity.certificate)]
        configuration.privateKey = .privateKey(identity.privateKey)
        configure(&configuration)
        return try NIOSSLContext(configuration: configuration)
    }

    /// For LocalSend devices, which speak TLS 1.2 or 1.3 with any certificate: this
    /// device's certificate offered, the other's checked against the fingerprint it
    /// announced (``localSendVerifier(expecting:presented:)``).
    static func localSendClientContext(_ identity: Identity) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateChain = [.certificate(identity.certificate)]
        configuration.privateKey = .privateKey(identity.privateKey)
        configuration.minimumTLSVersion = .tlsv12
        configuration.certificateVerification = .noHostnameVerification
        configuration.trustRoots = .certificates([])
        return try NIOSSLContext(configuration: configuration)
    }

    /// LocalSend's server: this device's certificate; a client's certificate asked for but
    /// not required (a device that sends none is still heard, and only asked about), and
    /// any accepted: ``localSendRecorder(_:)`` notes which one it was.
    static func localSendServerContext(_ identity: Identity) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.privateKey))
        configuration.minimumTLSVersion = .tlsv12
        configuration.certificateVerification = .optionalVerification
        configuration.trustRoots = .certificates([])
        return try NIOSSLContext(configuration: configuration)
    }

    /// LocalSend's fingerprint of a certificate: the SHA-256 of its DER, in capitals.
    static func localSendFingerprint(_ certificate: NIOSSLCertificate) -> String? {
        guard let der = try? certificate.toDERBytes() else { return nil }
        return Hex.string(SHA256.hash(data: der)).uppercased()
    }

    /// Accepts the certificate whose fingerprint is `expected`, recording what was presented.
    static func localSendVerifier(expecting expected: String, presented: NIOLockedValueBox<String?>) -> NIOSSLCustomVerificationCallback {
        { certificates, promise in
            let fingerprint = certificates.first.flatMap(localSendFingerprint)
            presented.withLockedValue { $0 = fingerprint }
            promise.succeed(fingerprint == expected.uppercased() ? .certificateVerified : .failed)
        }
    }

    /// Accepts whatever certificate a LocalSend client presents, recording its fingerprint:
    /// the only proof of the fingerprint a request claims is the certificate presented on
    /// the connection that carries it.
    static func localSendRecorder(_ presented: NIOLockedValueBox<String?>) -> NIOSSLCustomVerificationCallback {
        { certificates, promise in
            presented.withLockedValue { $0 = certificates.first.flatMap(localSendFingerprint) }
            promise.succeed(.certificateVerified)
        }
    }

    private static func configure(_ configuration: inout TLSConfiguration) {
        configuration.minimumTLSVersion = .tlsv13
        // .none would never ask a client for its certificate, nor call the callback.
        configuration.certificateVerification = .noHostnameVerification
        configuration.trustRoots = .certificates([])
    }

    /// Records the peer's pin into `peer` and accepts it when `accept` says so.
    static func verifier(_ peer: PeerIdentity, accept: @escaping @Sendable (String) -> Bool) -> NIOSSLCustomVerificationCallback {
        { certificates, promise in
            guard let leaf = certificates.first, let spki = try? leaf.extractPublicKey().toSPKIBytes() else {
                promise.succeed(.failed)
                return
            }
            let pin = Hex.string(SHA256.hash(data: spki))
            peer.record(pin: pin, spki: spki)
            promise.succeed(accept(pin) ? .certificateVerified : .failed)
        }
    }
}
