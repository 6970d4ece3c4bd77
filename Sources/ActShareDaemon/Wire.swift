import NIOCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JSON in and out of byte buffers, and time limits on what a peer does.
enum Wire {
    static func encode<T: Encodable>(_ value: T) throws -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ByteBuffer(bytes: try encoder.encode(value))
    }

    /// A control-socket line: the JSON and a newline.
    static func line<T: Encodable>(_ value: T) throws -> ByteBuffer {
        var buffer = try encode(value)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }

    static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
    }

    /// A peer's message; file bytes where a message was due cannot be one.
    static func decode<T: Decodable>(_ type: T.Type, from frame: PeerFrame) throws -> T {
        guard case .message(let buffer) = frame else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "file bytes where a message was due"))
        }
        return try decode(type, from: buffer)
    }

    /// `work`, or a `TimedOut` error after `seconds`.
    static func within<T: Sendable>(_ seconds: Double, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                throw TimedOut()
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}

struct TimedOut: Error {}
