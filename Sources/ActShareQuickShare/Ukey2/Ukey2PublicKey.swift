import CQuickShareWire

/// A P-256 public key as UKEY2 carries it: a `GenericPublicKey` of type EC_P256 whose
/// coordinates are big-endian two's complement, as Java's BigInteger writes them (33
/// bytes when the top bit is set, fewer when the number is small).
struct Ukey2PublicKey: Equatable {
    /// The coordinates, unsigned, 32 bytes each.
    var x: [UInt8], y: [UInt8]

    init(x: [UInt8], y: [UInt8]) {
        self.x = x
        self.y = y
    }

    init(decoding bytes: [UInt8]) throws(Ukey2Error) {
        guard let read = Unpacked(bytes, securemessage__generic_public_key__unpack),
              read.message.type == SECUREMESSAGE__PUBLIC_KEY_TYPE__EC_P256, let point = read.message.ec_p256_public_key
        else { throw .badPublicKey }
        x = try Self.unsigned(point.pointee.x.array)
        y = try Self.unsigned(point.pointee.y.array)
    }

    func encoded() -> [UInt8] {
        WireArena.pack { arena in
            var key = Securemessage__GenericPublicKey()
            securemessage__generic_public_key__init(&key)
            key.type = SECUREMESSAGE__PUBLIC_KEY_TYPE__EC_P256
            key.ec_p256_public_key = arena.message { (point: inout Securemessage__EcP256PublicKey) in
                securemessage__ec_p256_public_key__init(&point)
                point.x = arena.bytes(Self.signed(x))
                point.y = arena.bytes(Self.signed(y))
            }
            return arena.packed(&key)
        }
    }

    /// `coordinate` as the shortest two's complement of a positive number.
    static func signed(_ coordinate: [UInt8]) -> [UInt8] {
        let digits = Array(coordinate.drop { $0 == 0 })
        return digits.first.map { $0 & 0x80 != 0 } ?? true ? [0] + digits : digits
    }

    /// A coordinate from its two's complement: a number from 0 to 2²⁵⁶ − 1, as 32 bytes.
    /// A negative number, or one of more than 33 bytes, is no coordinate.
    static func unsigned(_ bytes: [UInt8]) throws(Ukey2Error) -> [UInt8] {
        guard let first = bytes.first, first & 0x80 == 0, bytes.count <= 33 else { throw .badPublicKey }
        let digits = Array(bytes.drop { $0 == 0 })
        guard digits.count <= 32 else { throw .badPublicKey }
        return [UInt8](repeating: 0, count: 32 - digits.count) + digits
    }
}
