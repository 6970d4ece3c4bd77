import CQuickShareWire

/// A message protobuf-c read from a peer's bytes, freed with this value. protobuf-c
/// checks the wire format, lengths and `required` fields; what the fields mean is the
/// caller's to check. Read it only while this value lives.
final class Unpacked<Message> {
    let pointer: UnsafeMutablePointer<Message>

    /// `bytes` read by a generated `…__unpack` function, or nil where they are not such
    /// a message.
    init?(_ bytes: [UInt8], _ unpack: (UnsafeMutablePointer<ProtobufCAllocator>?, Int, UnsafePointer<UInt8>?) -> UnsafeMutablePointer<Message>?) {
        guard let pointer = bytes.withUnsafeBufferPointer({ unpack(nil, $0.count, $0.baseAddress) }) else { return nil }
        self.pointer = pointer
    }

    var message: Message { pointer.pointee }

    deinit {
        protobuf_c_message_free_unpacked(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: ProtobufCMessage.self), nil)
    }
}

extension ProtobufCBinaryData {
    /// The field's bytes, copied.
    var array: [UInt8] { data.map { Array(UnsafeBufferPointer(start: $0, count: len)) } ?? [] }
}
