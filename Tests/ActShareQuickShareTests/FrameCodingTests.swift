import Testing

@testable import ActShareQuickShare

/// Connection and sharing frames read back as written; what a stranger sends with parts
/// missing is no frame, and a name keeps every byte (a NUL inside is seen, not cut).
@Suite struct FrameCodingTests {
    @Test(arguments: [
        ConnectionFrame.connectionRequest(endpointID: "AB12", endpointInfo: [1, 2, 3]),
        .connectionResponse(accepted: true),
        .connectionResponse(accepted: false),
        .payloadTransfer(PayloadTransfer(id: 42, kind: .file, totalSize: 1 << 40, content: .chunk(offset: 7, body: [9, 9], last: false))),
        .payloadTransfer(PayloadTransfer(id: -3, kind: .bytes, totalSize: 0, content: .chunk(offset: 0, body: [], last: true))),
        .payloadTransfer(PayloadTransfer(id: 5, kind: .file, totalSize: 10, content: .cancelled)),
        .keepAlive(ack: true, sequence: 9),
        .disconnection,
        .unsupported(4),
    ])
    func connectionFramesReadBack(_ frame: ConnectionFrame) {
        #expect(ConnectionFrame(decoding: frame.encoded()) == frame)
    }

    @Test(arguments: [
        SharingFrame.introduction(
            files: [.init(name: Array("a\u{0}/../b.txt".utf8), mimeType: Array("text/plain".utf8), payloadID: 1, size: 5)],
            texts: [.init(title: Array("https://example.org".utf8), kind: .url, payloadID: 2, size: 19)]),
        .introduction(files: [], texts: []),
        .response(.accept),
        .response(.reject),
        .pairedKeyEncryption(secretIDHash: [1, 2, 3, 4, 5, 6], signedData: [7]),
        .pairedKeyEncryption(secretIDHash: [1], signedData: [2], qrCodeHandshakeData: [UInt8](repeating: 9, count: 64)),
        .pairedKeyResult,
        .cancel,
        .unsupported(5),
    ])
    func sharingFramesReadBack(_ frame: SharingFrame) {
        #expect(SharingFrame(decoding: frame.encoded()) == frame)
    }

    @Test func strangersBytesAreNoFrame() {
        for bytes: [UInt8] in [[], [0xFF], [0x08, 0x02], [0x08, 0x01], [0x12, 0x05, 0x01]] {
            #expect(ConnectionFrame(decoding: bytes) == nil)
            #expect(SharingFrame(decoding: bytes) == nil)
        }
    }
}
