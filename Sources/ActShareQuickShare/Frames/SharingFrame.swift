import CQuickShareWire

/// A Quick Share frame (`sharing.nearby.Frame`), carried as a BYTES payload once the
/// connection is secure.
public enum SharingFrame: Equatable, Sendable {
    /// What the sender offers: files and texts, each with the payload that will carry it.
    case introduction(files: [FileOffer], texts: [TextOffer])
    /// The receiver's answer to an introduction.
    case response(Response)
    /// The paired-key exchange: what it holds only matters between one account's
    /// devices (contacts visibility); actshare sends random bytes, as NearDrop does. A
    /// sender found through its QR code adds `qrCodeHandshakeData`: the UKEY2 auth string
    /// signed with the code's key (``QuickShareQRCode``), by which the phone knows it.
    case pairedKeyEncryption(secretIDHash: [UInt8], signedData: [UInt8], qrCodeHandshakeData: [UInt8]? = nil)
    /// The paired-key exchange's outcome; actshare says `unable`.
    case pairedKeyResult
    /// The sender cancelled the share.
    case cancel
    /// A frame type actshare does not take part in: its number.
    case unsupported(Int32)

    public enum Response: Int32, Sendable {
        case accept = 1, reject = 2, notEnoughSpace = 3, unsupportedAttachmentType = 4, timedOut = 5
    }

    /// A file as an introduction offers it; `name` and `mimeType` are the sender's bytes,
    /// unchecked (the receiver's rules check names).
    public struct FileOffer: Equatable, Sendable {
        public var name: [UInt8]
        public var mimeType: [UInt8]
        public var payloadID: Int64
        public var size: Int64

        public init(name: [UInt8], mimeType: [UInt8], payloadID: Int64, size: Int64) {
            self.name = name
            self.mimeType = mimeType
            self.payloadID = payloadID
            self.size = size
        }
    }

    /// A text (or a URL, an address, a phone number) as an introduction offers it: its
    /// title (its first words) here, the text itself in its payload.
    public struct TextOffer: Equatable, Sendable {
        public enum Kind: Int32, Sendable { case unknown = 0, text = 1, url = 2, address = 3, phoneNumber = 4 }

        public var title: [UInt8]
        public var kind: Kind
        public var payloadID: Int64
        public var size: Int64

        public init(title: [UInt8], kind: Kind, payloadID: Int64, size: Int64) {
            self.title = title
            self.kind = kind
            self.payloadID = payloadID
            self.size = size
        }
    }

    /// The frame in `bytes`, or nil where they are not a version-1 Frame whose parts
    /// are there.
    public init?(decoding bytes: [UInt8]) {
        guard let read = Unpacked(bytes, sharing__frame__unpack), read.message.has_version != 0,
              read.message.version == SHARING__FRAME__VERSION__V1, let v1 = read.message.v1?.pointee, v1.has_type != 0
        else { return nil }
        switch v1.type {
        case SHARING__V1_FRAME__FRAME_TYPE__INTRODUCTION:
            guard let introduction = v1.introduction?.pointee else { return nil }
            var files: [FileOffer] = [], texts: [TextOffer] = []
            for index in 0..<introduction.n_file_metadata {
                guard let file = introduction.file_metadata[index]?.pointee, file.has_payload_id != 0, file.has_size != 0 else { return nil }
                files.append(FileOffer(name: file.has_name != 0 ? file.name.array : [], mimeType: file.has_mime_type != 0 ? file.mime_type.array : [],
                                       payloadID: file.payload_id, size: file.size))
            }
            for index in 0..<introduction.n_text_metadata {
                guard let text = introduction.text_metadata[index]?.pointee, text.has_payload_id != 0, text.has_size != 0 else { return nil }
                texts.append(TextOffer(title: text.has_text_title != 0 ? text.text_title.array : [],
                                       kind: TextOffer.Kind(rawValue: text.has_type != 0 ? Int32(bitPattern: text.type.rawValue) : 0) ?? .unknown,
                                       payloadID: text.payload_id, size: text.size))
            }
            self = .introduction(files: files, texts: texts)
        case SHARING__V1_FRAME__FRAME_TYPE__RESPONSE:
            guard let response = v1.connection_response?.pointee, response.has_status != 0,
                  let status = Response(rawValue: Int32(bitPattern: response.status.rawValue))
            else { return nil }
            self = .response(status)
        case SHARING__V1_FRAME__FRAME_TYPE__PAIRED_KEY_ENCRYPTION:
            let frame = v1.paired_key_encryption?.pointee
            self = .pairedKeyEncryption(secretIDHash: frame.map { $0.has_secret_id_hash != 0 ? $0.secret_id_hash.array : [] } ?? [],
                                        signedData: frame.map { $0.has_signed_data != 0 ? $0.signed_data.array : [] } ?? [],
                                        qrCodeHandshakeData: frame.flatMap { $0.has_qr_code_handshake_data != 0 ? $0.qr_code_handshake_data.array : nil })
        case SHARING__V1_FRAME__FRAME_TYPE__PAIRED_KEY_RESULT:
            self = .pairedKeyResult
        case SHARING__V1_FRAME__FRAME_TYPE__CANCEL:
            self = .cancel
        default:
            self = .unsupported(Int32(bitPattern: v1.type.rawValue))
        }
    }

    public func encoded() -> [UInt8] {
        WireArena.pack { arena in
            var frame = Sharing__Frame()
            sharing__frame__init(&frame)
            frame.has_version = 1
            frame.version = SHARING__FRAME__VERSION__V1
            frame.v1 = arena.message { (v1: inout Sharing__V1Frame) in
                sharing__v1_frame__init(&v1)
                v1.has_type = 1
                fill(&v1, arena)
            }
            return arena.packed(&frame)
        }
    }

    private func fill(_ v1: inout Sharing__V1Frame, _ arena: WireArena) {
        switch self {
        case let .introduction(files, texts):
            v1.type = SHARING__V1_FRAME__FRAME_TYPE__INTRODUCTION
            v1.introduction = arena.message { (introduction: inout Sharing__IntroductionFrame) in
                sharing__introduction_frame__init(&introduction)
                introduction.n_file_metadata = files.count
                introduction.file_metadata = arena.array(files.map { offer in
                    arena.message { (file: inout Sharing__FileMetadata) in
                        sharing__file_metadata__init(&file)
                        file.has_name = 1
                        file.name = arena.bytes(offer.name)
                        file.has_mime_type = 1
                        file.mime_type = arena.bytes(offer.mimeType)
                        file.has_type = 1
                        file.type = Self.fileType(offer.mimeType)
                        file.has_payload_id = 1
                        file.payload_id = offer.payloadID
                        file.has_size = 1
                        file.size = offer.size
                        file.has_id = 1
                        file.id = offer.payloadID
                    }
                })
                introduction.n_text_metadata = texts.count
                introduction.text_metadata = arena.array(texts.map { offer in
                    arena.message { (text: inout Sharing__TextMetadata) in
                        sharing__text_metadata__init(&text)
                        text.has_text_title = 1
                        text.text_title = arena.bytes(offer.title)
                        text.has_type = 1
                        text.type = Sharing__TextMetadata__Type(rawValue: UInt32(offer.kind.rawValue))
                        text.has_payload_id = 1
                        text.payload_id = offer.payloadID
                        text.has_size = 1
                        text.size = offer.size
                        text.has_id = 1
                        text.id = offer.payloadID
                    }
                })
            }
        case let .response(status):
            v1.type = SHARING__V1_FRAME__FRAME_TYPE__RESPONSE
            v1.connection_response = arena.message { (response: inout Sharing__ConnectionResponseFrame) in
                sharing__connection_response_frame__init(&response)
                response.has_status = 1
                response.status = Sharing__ConnectionResponseFrame__Status(rawValue: UInt32(status.rawValue))
            }
        case let .pairedKeyEncryption(secretIDHash, signedData, qrCodeHandshakeData):
            v1.type = SHARING__V1_FRAME__FRAME_TYPE__PAIRED_KEY_ENCRYPTION
            v1.paired_key_encryption = arena.message { (frame: inout Sharing__PairedKeyEncryptionFrame) in
                sharing__paired_key_encryption_frame__init(&frame)
                frame.has_secret_id_hash = 1
                frame.secret_id_hash = arena.bytes(secretIDHash)
                frame.has_signed_data = 1
                frame.signed_data = arena.bytes(signedData)
                if let qrCodeHandshakeData {
                    frame.has_qr_code_handshake_data = 1
                    frame.qr_code_handshake_data = arena.bytes(qrCodeHandshakeData)
                }
            }
        case .pairedKeyResult:
            v1.type = SHARING__V1_FRAME__FRAME_TYPE__PAIRED_KEY_RESULT
            v1.paired_key_result = arena.message { (frame: inout Sharing__PairedKeyResultFrame) in
                sharing__paired_key_result_frame__init(&frame)
                frame.has_status = 1
                frame.status = SHARING__PAIRED_KEY_RESULT_FRAME__STATUS__UNABLE
            }
        case .cancel:
            v1.type = SHARING__V1_FRAME__FRAME_TYPE__CANCEL
        case let .unsupported(type):
            v1.type = Sharing__V1Frame__FrameType(rawValue: UInt32(bitPattern: type))
        }
    }

    /// The kind Android sorts a file under, from its MIME type.
    static func fileType(_ mimeType: [UInt8]) -> Sharing__FileMetadata__Type {
        let type = String(decoding: mimeType, as: UTF8.self)
        if type.hasPrefix("image/") { return SHARING__FILE_METADATA__TYPE__IMAGE }
        if type.hasPrefix("video/") { return SHARING__FILE_METADATA__TYPE__VIDEO }
        if type.hasPrefix("audio/") { return SHARING__FILE_METADATA__TYPE__AUDIO }
        if type == "application/vnd.android.package-archive" { return SHARING__FILE_METADATA__TYPE__ANDROID_APP }
        return SHARING__FILE_METADATA__TYPE__DOCUMENT
    }
}
