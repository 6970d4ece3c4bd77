import ActShareCore
import ActShareCrypto
import Foundation
import NIOSSL
import Testing

@testable import ActShareDaemon

/// The identity the daemon makes on first start, read back by NIOSSL and by OpenSSL's
/// command line (a reader we did not write).
@Suite struct SelfSignedIdentityTests {
    /// Runs openssl with `arguments`; its standard output.
    private func openssl(_ arguments: [String]) throws -> String {
        let outcome = try ChildProcess.run("/usr/bin/openssl", arguments, timeLimit: .seconds(30))
        #expect(outcome.status == 0, "openssl \(arguments.joined(separator: " ")) failed")
        return String(decoding: outcome.output, as: UTF8.self)
    }

    private func files(_ identity: SelfSignedIdentity) throws -> (key: String, certificate: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UInt64.random(in: 0...UInt64.max))").path
        try FileSystem.createDirectories(directory)
        let key = directory + "/key.pem", certificate = directory + "/certificate.pem"
        try FileSystem.writeAtomically(identity.keyPEM, to: key)
        try FileSystem.writeAtomically(identity.certificatePEM, to: certificate)
        return (key, certificate)
    }

    @Test func opensslReadsWhatTLSNeeds() throws {
        let identity = try SelfSignedIdentity(commonName: "actshare laptop")
        let (key, certificate) = try files(identity)
        #expect(String(decoding: identity.keyPEM, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----\n"))

        let text = try openssl(["x509", "-in", certificate, "-noout", "-text"])
        #expect(text.contains("Version: 3 (0x2)"))
        #expect(text.contains("Signature Algorithm: ecdsa-with-SHA256"))
        #expect(text.contains("ASN1 OID: prime256v1"))
        #expect(text.contains("X509v3 Basic Constraints: critical\n                CA:FALSE"))
        #expect(
            try openssl(["x509", "-in", certificate, "-noout", "-subject", "-issuer", "-nameopt", "RFC2253"])
                == "subject=CN=actshare laptop\nissuer=CN=actshare laptop\n")
        // Valid now, and for years.
        _ = try openssl(["x509", "-in", certificate, "-noout", "-checkend", String(19 * 365 * 86400)])
        // Signed by its own key: OpenSSL verifies it with itself as the only trusted certificate.
        #expect(try openssl(["verify", "-CAfile", certificate, "-partial_chain", certificate]).hasSuffix(": OK\n"))
        // The key is the certificate's.
        #expect(try openssl(["pkey", "-in", key, "-pubout"]) == openssl(["x509", "-in", certificate, "-noout", "-pubkey"]))
    }

    @Test func nioSSLLoadsItAndThePinIsTheKeysDigest() throws {
        let identity = try SelfSignedIdentity(commonName: "actshare laptop")
        let certificate = try NIOSSLCertificate(bytes: identity.certificatePEM, format: .pem)
        _ = try NIOSSLPrivateKey(bytes: identity.keyPEM, format: .pem)
        let spki = try certificate.extractPublicKey().toSPKIBytes()
        #expect(try Identity.pin(of: certificate) == Hex.string(SHA256.hash(data: spki)))
        // Two identities never share a key or a serial.
        let other = try NIOSSLCertificate(bytes: try SelfSignedIdentity(commonName: "actshare laptop").certificatePEM, format: .pem)
        #expect(try other.extractPublicKey().toSPKIBytes() != spki)
        #expect(other.serialNumber != certificate.serialNumber)
    }

    @Test func aLongOrUnicodeNameFitsX509sLimit() throws {
        let long = "actshare " + String(repeating: "ü", count: 100)
        let (_, certificate) = try files(try SelfSignedIdentity(commonName: long))
        let subject = try openssl(["x509", "-in", certificate, "-noout", "-subject", "-nameopt", "RFC2253,-esc_msb"])
        #expect(subject == "subject=CN=" + String(long.prefix(SelfSignedIdentity.commonNameLimit)) + "\n")
    }
}
