import CQuickShareWire

/// The envelope of every UKEY2 handshake message: its type and its inner message's bytes.
/// The handshake's key schedule reads these exact bytes (ClientInit ‖ ServerInit), and the
/// client's commitment is the SHA-512 of its ClientFinished envelope.
struct Ukey2Message: Equatable {
    enum Kind: Int32 {
        case alert = 1, clientInit = 2, serverInit = 3, clientFinish = 4
    }

    var kind: Kind
    var data: [UInt8]

    init(_ kind: Kind, _ data: [UInt8]) {
        self.kind = kind
        self.data = data
    }

    init(decoding bytes: [UInt8]) throws(Ukey2Error) {
        guard let read = Unpacked(bytes, securegcm__ukey2_message__unpack), read.message.has_message_type != 0,
              let kind = Kind(rawValue: Int32(bitPattern: read.message.message_type.rawValue))
        else { throw .badMessage }
        self.kind = kind
        data = read.message.message_data.array
    }

    func encoded() -> [UInt8] {
        WireArena.pack { arena in
            var message = Securegcm__Ukey2Message()
            securegcm__ukey2_message__init(&message)
            message.has_message_type = 1
            message.message_type = Securegcm__Ukey2Message__Type(rawValue: UInt32(kind.rawValue))
            message.has_message_data = 1
            message.message_data = arena.bytes(data)
            return arena.packed(&message)
        }
    }
}
