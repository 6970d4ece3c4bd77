/// UKEY2's constants as Quick Share uses them (github.com/google/ukey2).
enum Ukey2 {
    /// The one version there is.
    static let version: Int32 = 1
    /// The length of each side's random value.
    static let randomLength = 32
    /// What the keys are for after the handshake: D2D SecureMessages.
    static let nextProtocol = "AES_256_CBC-HMAC_SHA256"
}
