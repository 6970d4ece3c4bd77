import ActShareCore
import CNIOBoringSSL

/// A new P-256 key and a self-signed X.509 certificate for it, both in PEM.
///
/// Made with the BoringSSL that swift-nio-ssl links for TLS (see ``SHA256``). The
/// certificate is what TLS needs and no more: version 3, a random serial, the
/// subject as issuer, valid from an hour ago for 20 years, basic constraints "not a CA"
/// (critical), ECDSA with SHA-256. Peers trust it by the pin of its key, never by its
/// names or dates.
struct SelfSignedIdentity {
    /// The private key, PKCS #8 ("BEGIN PRIVATE KEY").
    let keyPEM: [UInt8]
    let certificatePEM: [UInt8]

    /// The longest common name X.509 allows (RFC 5280, ub-common-name), in characters.
    static let commonNameLimit = 64

    init(commonName: String) throws {
        func failure(_ step: String) -> ActShareError {
            ActShareError(.io, "cannot make this device's identity (\(step))")
        }
        guard let ecKey = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1) else { throw failure("key") }
        guard let key = EVP_PKEY_new() else {
            EC_KEY_free(ecKey)
            throw failure("key")
        }
        defer { EVP_PKEY_free(key) }
        // The key now owns ecKey.
        guard EVP_PKEY_assign_EC_KEY(key, ecKey) == 1 else {
            EC_KEY_free(ecKey)
            throw failure("key")
        }
        guard EC_KEY_generate_key(ecKey) == 1 else { throw failure("key") }

        guard let certificate = X509_new() else { throw failure("certificate") }
        defer { X509_free(certificate) }
        guard X509_set_version(certificate, Int(X509_VERSION_3)) == 1 else { throw failure("version") }

        // 16 random octets, the first from 0x01 to 0x7F: positive and 16 octets long
        // (RFC 5280 allows up to 20).
        var serial = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&serial, serial.count) == 1 else { throw failure("serial") }
        serial[0] &= 0x7F
        serial[0] |= 0x01
        guard let number = BN_bin2bn(serial, serial.count, nil) else { throw failure("serial") }
        defer { BN_free(number) }
        guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil else {
            throw failure("serial")
        }

        guard X509_gmtime_adj(X509_getm_notBefore(certificate), -3600) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), 20 * 365 * 86400) != nil
        else { throw failure("validity") }

        guard let name = X509_NAME_new() else { throw failure("name") }
        defer { X509_NAME_free(name) }
        let commonName = Array(String(String.UnicodeScalarView(commonName.unicodeScalars.prefix(Self.commonNameLimit))).utf8)
        guard X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, commonName.count, -1, 0) == 1,
            X509_set_subject_name(certificate, name) == 1,
            X509_set_issuer_name(certificate, name) == 1
        else { throw failure("name") }
        guard X509_set_pubkey(certificate, key) == 1 else { throw failure("public key") }

        guard let constraints = BASIC_CONSTRAINTS_new() else { throw failure("constraints") }
        defer { BASIC_CONSTRAINTS_free(constraints) }
        constraints.pointee.ca = 0
        guard X509_add1_ext_i2d(certificate, NID_basic_constraints, constraints, 1, UInt(X509V3_ADD_DEFAULT)) == 1
        else { throw failure("constraints") }

        guard X509_sign(certificate, key, EVP_sha256()) > 0 else { throw failure("signature") }

        keyPEM = try Self.pem("key") { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
        certificatePEM = try Self.pem("certificate") { PEM_write_bio_X509($0, certificate) }
    }

    /// What `write` put into a memory BIO.
    private static func pem(_ what: String, _ write: (OpaquePointer) -> Int32) throws -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw ActShareError(.io, "cannot make this device's identity (\(what) PEM)")
        }
        defer { BIO_free(bio) }
        var contents: UnsafePointer<UInt8>?
        var length = 0
        guard write(bio) == 1, BIO_mem_contents(bio, &contents, &length) == 1, let contents else {
            throw ActShareError(.io, "cannot make this device's identity (\(what) PEM)")
        }
        return Array(UnsafeBufferPointer(start: contents, count: length))
    }
}
