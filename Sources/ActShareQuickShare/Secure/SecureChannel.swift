import ActShareCrypto
import CQuickShareWire

/// Every frame after the UKEY2 handshake, as Nearby's D2D layer wraps it: the frame in a
/// DeviceToDeviceMessage with its sequence number (1, 2, 3… each way), encrypted with
/// AES-256-CBC under a fresh IV, in a HeaderAndBody signed with HMAC-SHA256, in a
/// SecureMessage.
///
/// Reading checks the signature first (in constant time, over the exact bytes), then the
/// header, then decrypts, then requires the next sequence number: a frame replayed,
/// skipped or reordered is refused.
public struct SecureChannel: Sendable {
    private let keys: QuickShareKeychain
    private var sent: Int32 = 0
    private var received: Int32 = 0

    public init(keys: QuickShareKeychain) {
        self.keys = keys
    }

    /// `frame` sealed as the next SecureMessage to send.
    public mutating func seal(_ frame: [UInt8]) throws(SecureChannelError) -> [UInt8] {
        guard sent < Int32.max else { throw .exhausted }
        sent += 1
        let sequence = sent
        let inner = WireArena.pack { arena in
            var message = Securegcm__DeviceToDeviceMessage()
            securegcm__device_to_device_message__init(&message)
            message.has_message = 1
            message.message = arena.bytes(frame)
            message.has_sequence_number = 1
            message.sequence_number = sequence
            return arena.packed(&message)
        }
        let iv = RandomBytes.make(16)
        guard let body = try? AES256CBC.encrypt(inner, key: keys.encryptKey, iv: iv) else { throw .doesNotDecrypt }
        let headerAndBody = WireArena.pack { arena in
            var whole = Securemessage__HeaderAndBody()
            securemessage__header_and_body__init(&whole)
            whole.header = arena.message { (header: inout Securemessage__Header) in
                securemessage__header__init(&header)
                header.signature_scheme = SECUREMESSAGE__SIG_SCHEME__HMAC_SHA256
                header.encryption_scheme = SECUREMESSAGE__ENC_SCHEME__AES_256_CBC
                header.has_iv = 1
                header.iv = arena.bytes(iv)
                header.has_public_metadata = 1
                header.public_metadata = arena.bytes(Self.metadata)
            }
            whole.body = arena.bytes(body)
            return arena.packed(&whole)
        }
        return WireArena.pack { arena in
            var message = Securemessage__SecureMessage()
            securemessage__secure_message__init(&message)
            message.header_and_body = arena.bytes(headerAndBody)
            message.signature = arena.bytes(HMACSHA256.authenticationCode(key: keys.sendHMACKey, headerAndBody))
            return arena.packed(&message)
        }
    }

    /// The frame inside the peer's SecureMessage `bytes`.
    public mutating func open(_ bytes: [UInt8]) throws(SecureChannelError) -> [UInt8] {
        guard let message = Unpacked(bytes, securemessage__secure_message__unpack) else { throw .badMessage }
        let headerAndBody = message.message.header_and_body.array
        guard HMACSHA256.isAuthentic(headerAndBody, code: message.message.signature.array, key: keys.receiveHMACKey) else {
            throw .badSignature
        }
        guard let whole = Unpacked(headerAndBody, securemessage__header_and_body__unpack), let header = whole.message.header?.pointee else {
            throw .badMessage
        }
        guard header.signature_scheme == SECUREMESSAGE__SIG_SCHEME__HMAC_SHA256,
              header.encryption_scheme == SECUREMESSAGE__ENC_SCHEME__AES_256_CBC, header.has_iv != 0, header.iv.len == 16
        else { throw .badHeader }
        guard let inner = try? AES256CBC.decrypt(whole.message.body.array, key: keys.decryptKey, iv: header.iv.array) else {
            throw .doesNotDecrypt
        }
        guard let d2d = Unpacked(inner, securegcm__device_to_device_message__unpack), d2d.message.has_sequence_number != 0 else {
            throw .badMessage
        }
        guard received < Int32.max else { throw .exhausted }
        guard d2d.message.sequence_number == received + 1 else {
            throw .badSequenceNumber(expected: received + 1, received: d2d.message.sequence_number)
        }
        received += 1
        return d2d.message.message.array
    }

    /// The header's public metadata: GcmMetadata {type: DEVICE_TO_DEVICE_MESSAGE, version: 1}.
    static let metadata: [UInt8] = WireArena.pack { arena in
        var metadata = Securegcm__GcmMetadata()
        securegcm__gcm_metadata__init(&metadata)
        metadata.type = SECUREGCM__TYPE__DEVICE_TO_DEVICE_MESSAGE
        metadata.has_version = 1
        metadata.version = 1
        return arena.packed(&metadata)
    }
}
