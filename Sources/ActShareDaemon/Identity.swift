import ActShareCore
import ActShareCrypto
import NIOSSL
#if canImport(Glibc)
import Glibc
#endif

/// This device's identity: a P-256 key and a self-signed certificate, kept 0600 in the
/// state directory and made on first start. Peers pin the SHA-256 of its public key.
struct Identity: Sendable {
    let certificate: NIOSSLCertificate
    let privateKey: NIOSSLPrivateKey
    /// SHA-256 of the DER SubjectPublicKeyInfo, in hex.
    let pin: String

    /// The device id shown to users: the first 16 hex digits of the pin.
    var deviceID: String { String(pin.prefix(16)) }

    static func loadOrCreate(in directory: String, name: String) throws -> Identity {
        let keyFile = FileSystem.join(directory, "identity-key.pem")
        let certificateFile = FileSystem.join(directory, "identity-certificate.pem")
        try FileSystem.createDirectories(directory)
        chmod(directory, 0o700)
        if !FileSystem.exists(keyFile) || !FileSystem.exists(certificateFile) {
            let made = try SelfSignedIdentity(commonName: "actshare \(name)")
            // The key is written once, with O_EXCL and 0600: never readable by others, not even briefly.
            unlink(keyFile)
            try writeNew(made.keyPEM, to: keyFile)
            try FileSystem.writeAtomically(made.certificatePEM, to: certificateFile)
        }
        guard let certificate = try NIOSSLCertificate.fromPEMFile(certificateFile).first else {
            throw ActShareError(.io, "\(certificateFile): no certificate in it")
        }
        let privateKey = try NIOSSLPrivateKey(file: keyFile, format: .pem)
        return Identity(certificate: certificate, privateKey: privateKey, pin: try Self.pin(of: certificate))
    }

    /// The pin of a certificate: SHA-256 of its public key's DER SubjectPublicKeyInfo.
    static func pin(of certificate: NIOSSLCertificate) throws -> String {
        let spki = try certificate.extractPublicKey().toSPKIBytes()
        return Hex.string(SHA256.hash(data: spki))
    }

    static func spki(of certificate: NIOSSLCertificate) throws -> [UInt8] {
        try certificate.extractPublicKey().toSPKIBytes()
    }

    private static func writeNew(_ bytes: [UInt8], to file: String) throws {
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ActShareError(.io, "cannot write \(file): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard FileSystem.writeAll(bytes, to: fd), fsync(fd) == 0 else {
            throw ActShareError(.io, "cannot write \(file): \(String(cString: strerror(errno)))")
        }
    }
}
