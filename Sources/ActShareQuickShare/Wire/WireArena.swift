import CQuickShareWire

#if canImport(Glibc)
import Glibc
#endif

/// Memory for one protobuf-c message being built from Swift: its byte fields, strings,
/// sub-messages and arrays, all freed together once the message is packed.
///
///     let bytes = WireArena.pack { arena in
///         var message = Securegcm__Ukey2Message()
///         securegcm__ukey2_message__init(&message)
///         message.message_data = arena.bytes(data)
///         return arena.packed(&message)
///     }
final class WireArena {
    private var blocks: [UnsafeMutableRawPointer] = []

    private init() {}

    deinit { blocks.forEach { free($0) } }

    /// What `build` returns, with everything it allocated freed afterwards.
    static func pack(_ build: (WireArena) -> [UInt8]) -> [UInt8] {
        let arena = WireArena()
        return build(arena)
    }

    /// A byte field holding `value`.
    func bytes(_ value: [UInt8]) -> ProtobufCBinaryData {
        let block = allocate(max(value.count, 1))
        value.withUnsafeBytes { if let base = $0.baseAddress { block.copyMemory(from: base, byteCount: value.count) } }
        return ProtobufCBinaryData(len: value.count, data: block.assumingMemoryBound(to: UInt8.self))
    }

    /// A string field holding `value` (protobuf strings are UTF-8; a NUL would end it early,
    /// so callers give only text they checked).
    func string(_ value: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = Array(value.utf8) + [0]
        let block = allocate(utf8.count)
        utf8.withUnsafeBytes { block.copyMemory(from: $0.baseAddress!, byteCount: utf8.count) }
        return block.assumingMemoryBound(to: CChar.self)
    }

    /// A sub-message, given to `initialize` (which calls its generated `__init` first).
    func message<Message>(_ initialize: (inout Message) -> Void) -> UnsafeMutablePointer<Message> {
        let pointer = allocate(MemoryLayout<Message>.stride).bindMemory(to: Message.self, capacity: 1)
        // Generated messages are plain C structs; `__init` overwrites every field.
        memset(pointer, 0, MemoryLayout<Message>.stride)
        initialize(&pointer.pointee)
        return pointer
    }

    /// A repeated message field: the array of pointers protobuf-c reads.
    func array<Message>(_ elements: [UnsafeMutablePointer<Message>]) -> UnsafeMutablePointer<UnsafeMutablePointer<Message>?> {
        let pointer = allocate(MemoryLayout<UnsafeMutablePointer<Message>?>.stride * max(elements.count, 1))
            .bindMemory(to: UnsafeMutablePointer<Message>?.self, capacity: max(elements.count, 1))
        for (index, element) in elements.enumerated() { pointer[index] = element }
        return pointer
    }

    /// A repeated scalar field (an enum's values, numbers).
    func scalars<Value>(_ values: [Value]) -> UnsafeMutablePointer<Value> {
        let pointer = allocate(MemoryLayout<Value>.stride * max(values.count, 1)).bindMemory(to: Value.self, capacity: max(values.count, 1))
        for (index, value) in values.enumerated() { pointer[index] = value }
        return pointer
    }

    /// `message` (a generated struct, whose first member is its ProtobufCMessage) as bytes.
    func packed<Message>(_ message: inout Message) -> [UInt8] {
        withUnsafePointer(to: &message) { pointer in
            let base = UnsafeRawPointer(pointer).assumingMemoryBound(to: ProtobufCMessage.self)
            var out = [UInt8](repeating: 0, count: protobuf_c_message_get_packed_size(base))
            let written = protobuf_c_message_pack(base, &out)
            precondition(written == out.count, "protobuf-c packed a size other than it measured")
            return out
        }
    }

    private func allocate(_ count: Int) -> UnsafeMutableRawPointer {
        // Swift's own allocations trap when memory runs out; so does this one.
        guard let block = malloc(count) else { fatalError("out of memory") }
        blocks.append(block)
        return block
    }
}
