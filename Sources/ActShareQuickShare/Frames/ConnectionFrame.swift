import CQuickShareWire

/// A Nearby Connections frame (`OfflineFrame`), the layer under Quick Share: plain for the
/// connection request and responses, inside a ``SecureChannel`` after them.
public enum ConnectionFrame: Equatable, Sendable {
    /// Who connects: its endpoint id (4 characters) and endpoint info (its name and type).
    case connectionRequest(endpointID: String, endpointInfo: [UInt8])
    /// Whether the side that sends it goes on with the connection.
    case connectionResponse(accepted: Bool)
    /// A piece of a payload, or a control message about one.
    case payloadTransfer(PayloadTransfer)
    /// Sent every few seconds each way; `ack` answers one.
    case keepAlive(ack: Bool, sequence: UInt32)
    /// The peer ends the connection.
    case disconnection
    /// A frame type actshare does not take part in (a bandwidth upgrade, say): its number.
    case unsupported(Int32)

    /// The frame in `bytes`, or nil where they are not an OfflineFrame of version 1.
    public init?(decoding bytes: [UInt8]) {
        guard let read = Unpacked(bytes, connections__offline_frame__unpack), read.message.has_version != 0,
              read.message.version == CONNECTIONS__OFFLINE_FRAME__VERSION__V1, let v1 = read.message.v1?.pointee, v1.has_type != 0
        else { return nil }
        switch v1.type {
        case CONNECTIONS__V1_FRAME__FRAME_TYPE__CONNECTION_REQUEST:
            guard let request = v1.connection_request?.pointee, request.has_endpoint_id != 0,
                  let endpointID = String(validating: request.endpoint_id.array, as: UTF8.self)
            else { return nil }
            self = .connectionRequest(endpointID: endpointID, endpointInfo: request.has_endpoint_info != 0 ? request.endpoint_info.array : [])
        case CONNECTIONS__V1_FRAME__FRAME_TYPE__CONNECTION_RESPONSE:
            guard let response = v1.connection_response?.pointee else { return nil }
            // The status field (0 = accepted) came first; the response enum replaced it.
            let accepted = response.has_response != 0
                ? response.response == CONNECTIONS__CONNECTION_RESPONSE_FRAME__RESPONSE_STATUS__ACCEPT
                : response.has_status != 0 && response.status == 0
            self = .connectionResponse(accepted: accepted)
        case CONNECTIONS__V1_FRAME__FRAME_TYPE__PAYLOAD_TRANSFER:
            guard let transfer = v1.payload_transfer?.pointee, let decoded = PayloadTransfer(transfer) else { return nil }
            self = .payloadTransfer(decoded)
        case CONNECTIONS__V1_FRAME__FRAME_TYPE__KEEP_ALIVE:
            let alive = v1.keep_alive?.pointee
            self = .keepAlive(ack: alive.map { $0.has_ack != 0 && $0.ack != 0 } ?? false,
                              sequence: alive.map { $0.has_seq_num != 0 ? $0.seq_num : 0 } ?? 0)
        case CONNECTIONS__V1_FRAME__FRAME_TYPE__DISCONNECTION:
            self = .disconnection
        default:
            self = .unsupported(Int32(bitPattern: v1.type.rawValue))
        }
    }

    public func encoded() -> [UInt8] {
        WireArena.pack { arena in
            var frame = Connections__OfflineFrame()
            connections__offline_frame__init(&frame)
            frame.has_version = 1
            frame.version = CONNECTIONS__OFFLINE_FRAME__VERSION__V1
            frame.v1 = arena.message { (v1: inout Connections__V1Frame) in
                connections__v1_frame__init(&v1)
                v1.has_type = 1
                fill(&v1, arena)
            }
            return arena.packed(&frame)
        }
    }

    private func fill(_ v1: inout Connections__V1Frame, _ arena: WireArena) {
        switch self {
        case let .connectionRequest(endpointID, endpointInfo):
            v1.type = CONNECTIONS__V1_FRAME__FRAME_TYPE__CONNECTION_REQUEST
            v1.connection_request = arena.message { (request: inout Connections__ConnectionRequestFrame) in
                connections__connection_request_frame__init(&request)
                request.has_endpoint_id = 1
                request.endpoint_id = arena.bytes(Array(endpointID.utf8))
                request.has_endpoint_info = 1
                request.endpoint_info = arena.bytes(endpointInfo)
                request.n_mediums = 1
                request.mediums = arena.scalars([CONNECTIONS__CONNECTION_REQUEST_FRAME__MEDIUM__WIFI_LAN])
            }
        case let .connectionResponse(accepted):
            v1.type = CONNECTIONS__V1_FRAME__FRAME_TYPE__CONNECTION_RESPONSE
            v1.connection_response = arena.message { (response: inout Connections__ConnectionResponseFrame) in
                connections__connection_response_frame__init(&response)
                response.has_status = 1
                response.status = accepted ? 0 : 1
                response.has_response = 1
                response.response = accepted
                    ? CONNECTIONS__CONNECTION_RESPONSE_FRAME__RESPONSE_STATUS__ACCEPT : CONNECTIONS__CONNECTION_RESPONSE_FRAME__RESPONSE_STATUS__REJECT
                response.os_info = arena.message { (info: inout Connections__OsInfo) in
                    connections__os_info__init(&info)
                    info.has_type = 1
                    info.type = CONNECTIONS__OS_INFO__OS_TYPE__LINUX
                }
            }
        case let .payloadTransfer(transfer):
            v1.type = CONNECTIONS__V1_FRAME__FRAME_TYPE__PAYLOAD_TRANSFER
            v1.payload_transfer = transfer.encoded(arena)
        case let .keepAlive(ack, sequence):
            v1.type = CONNECTIONS__V1_FRAME__FRAME_TYPE__KEEP_ALIVE
            v1.keep_alive = arena.message { (alive: inout Connections__KeepAliveFrame) in
                connections__keep_alive_frame__init(&alive)
                alive.has_ack = 1
                alive.ack = ack ? 1 : 0
                alive.has_seq_num = 1
                alive.seq_num = sequence
            }
        case .disconnection:
            v1.type = CONNECTIONS__V1_FRAME__FRAME_TYPE__DISCONNECTION
            v1.disconnection = arena.message { (frame: inout Connections__DisconnectionFrame) in
                connections__disconnection_frame__init(&frame)
            }
        case let .unsupported(type):
            v1.type = Connections__V1Frame__FrameType(rawValue: UInt32(bitPattern: type))
        }
    }
}
