import CQuickShareWire

/// A payload transfer frame: a chunk of payload `id` (bytes or a file) at `offset`, the
/// last one flagged; or a control message (the sender cancelled, or failed).
public struct PayloadTransfer: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case bytes, file }

    public enum Content: Equatable, Sendable {
        case chunk(offset: Int64, body: [UInt8], last: Bool)
        /// The payload was cancelled or failed on the sending side.
        case cancelled
    }

    public var id: Int64
    public var kind: Kind
    /// The whole payload's size, as the sender declares it.
    public var totalSize: Int64
    public var content: Content

    public init(id: Int64, kind: Kind, totalSize: Int64, content: Content) {
        self.id = id
        self.kind = kind
        self.totalSize = totalSize
        self.content = content
    }

    /// Only data and control frames with a header of a known kind; streams and the rest
    /// are no payload actshare takes.
    init?(_ frame: Connections__PayloadTransferFrame) {
        guard frame.has_packet_type != 0, let header = frame.payload_header?.pointee, header.has_id != 0, header.has_type != 0,
              header.has_total_size != 0
        else { return nil }
        switch header.type {
        case CONNECTIONS__PAYLOAD_TRANSFER_FRAME__PAYLOAD_HEADER__PAYLOAD_TYPE__BYTES: kind = .bytes
        case CONNECTIONS__PAYLOAD_TRANSFER_FRAME__PAYLOAD_HEADER__PAYLOAD_TYPE__FILE: kind = .file
        default: return nil
        }
        id = header.id
        totalSize = header.total_size
        switch frame.packet_type {
        case CONNECTIONS__PAYLOAD_TRANSFER_FRAME__PACKET_TYPE__DATA:
            guard let chunk = frame.payload_chunk?.pointee else { return nil }
            content = .chunk(offset: chunk.has_offset != 0 ? chunk.offset : 0, body: chunk.has_body != 0 ? chunk.body.array : [],
                             last: chunk.has_flags != 0 && chunk.flags & 1 != 0)
        case CONNECTIONS__PAYLOAD_TRANSFER_FRAME__PACKET_TYPE__CONTROL:
            content = .cancelled
        default:
            return nil
        }
    }

    func encoded(_ arena: WireArena) -> UnsafeMutablePointer<Connections__PayloadTransferFrame> {
        arena.message { (frame: inout Connections__PayloadTransferFrame) in
            connections__payload_transfer_frame__init(&frame)
            frame.has_packet_type = 1
            frame.payload_header = arena.message { (header: inout Connections__PayloadTransferFrame__PayloadHeader) in
                connections__payload_transfer_frame__payload_header__init(&header)
                header.has_id = 1
                header.id = id
                header.has_type = 1
                header.type = kind == .bytes
                    ? CONNECTIONS__PAYLOAD_TRANSFER_FRAME__PAYLOAD_HEADER__PAYLOAD_TYPE__BYTES
                    : CONNECTIONS__PAYLOAD_TRANSFER_FRAME__PAYLOAD_HEADER__PAYLOAD_TYPE__FILE
                header.has_total_size = 1
                header.total_size = totalSize
            }
            switch content {
            case let .chunk(offset, body, last):
                frame.packet_type = CONNECTIONS__PAYLOAD_TRANSFER_FRAME__PACKET_TYPE__DATA
                frame.payload_chunk = arena.message { (chunk: inout Connections__PayloadTransferFrame__PayloadChunk) in
                    connections__payload_transfer_frame__payload_chunk__init(&chunk)
                    chunk.has_flags = 1
                    chunk.flags = last ? 1 : 0
                    chunk.has_offset = 1
                    chunk.offset = offset
                    chunk.has_body = 1
                    chunk.body = arena.bytes(body)
                }
            case .cancelled:
                frame.packet_type = CONNECTIONS__PAYLOAD_TRANSFER_FRAME__PACKET_TYPE__CONTROL
                frame.control_message = arena.message { (control: inout Connections__PayloadTransferFrame__ControlMessage) in
                    connections__payload_transfer_frame__control_message__init(&control)
                    control.has_event = 1
                    control.event = CONNECTIONS__PAYLOAD_TRANSFER_FRAME__CONTROL_MESSAGE__EVENT_TYPE__PAYLOAD_CANCELED
                }
            }
        }
    }
}
