import ActShareHandoff
import Testing

/// ``LocalSendPrepareUpload`` and ``LocalSendUploadTokens``: a transfer offered by a device
/// that proved nothing, and the answer to one of actshare's, checked before use.
@Suite struct LocalSendPrepareUploadTests {
    static let sender = #""info": {"alias": "Pixel", "version": "2.1", "fingerprint": "\#(String(repeating: "A", count: 64))", "port": 53317, "protocol": "https"}"#

    static func decode(_ files: String) throws(LocalSendError) -> LocalSendPrepareUpload {
        try LocalSendPrepareUpload.decode(Array("{\(sender), \"files\": {\(files)}}".utf8))
    }

    @Test func anOfferReads() throws {
        let offer = try Self.decode(#""a1": {"id": "a1", "fileName": "Trip/photo.jpg", "size": 3, "fileType": "image/jpeg", "sha256": "\#(String(repeating: "b", count: 64))"}"#)
        #expect(offer.info.alias == "Pixel")
        #expect(offer.files["a1"]?.fileName == "Trip/photo.jpg" && offer.files["a1"]?.size == 3)
    }

    @Test func whatTheProtocolDoesNotAllowIsRefused() {
        #expect(throws: LocalSendError.invalidField("files", "does not hold 1 to 10000 files")) { try Self.decode("") }
        // Listed under another id than its own: the token would name another file.
        #expect(throws: LocalSendError.self) { try Self.decode(#""a": {"id": "b", "fileName": "x", "size": 1, "fileType": "text/plain"}"#) }
        // An id that would change a URL's query.
        #expect(throws: LocalSendError.self) { try Self.decode(#""a&b=c": {"id": "a&b=c", "fileName": "x", "size": 1, "fileType": "text/plain"}"#) }
        #expect(throws: LocalSendError.self) { try Self.decode(#""a": {"id": "a", "fileName": "bad\u001b[2Jname", "size": 1, "fileType": "text/plain"}"#) }
        #expect(throws: LocalSendError.self) { try Self.decode(#""a": {"id": "a", "fileName": "", "size": 1, "fileType": "text/plain"}"#) }
        #expect(throws: LocalSendError.self) { try Self.decode(#""a": {"id": "a", "fileName": "x", "size": 4611686018427387904, "fileType": "text/plain"}"#) }
        #expect(throws: LocalSendError.self) { try Self.decode(#""a": {"id": "a", "fileName": "x", "size": -1, "fileType": "text/plain"}"#) }
        #expect(throws: LocalSendError.self) { try Self.decode(#""a": {"id": "a", "fileName": "x", "size": 1, "fileType": "text/plain", "sha256": "xyz"}"#) }
        let many = (0...LocalSendPrepareUpload.maximumFiles).map { #""f\#($0)": {"id": "f\#($0)", "fileName": "f", "size": 1, "fileType": "t"}"# }
        #expect(throws: LocalSendError.self) { try Self.decode(many.joined(separator: ",")) }
        #expect(throws: LocalSendError.tooLarge(limit: LocalSendPrepareUpload.maximumBytes)) {
            try LocalSendPrepareUpload.decode([UInt8](repeating: 0x20, count: LocalSendPrepareUpload.maximumBytes + 1))
        }
    }

    @Test func anAnswersTokensMustBeFitForAQuery() throws {
        let answer = try LocalSendUploadTokens.decode(Array(#"{"sessionId": "s-1_a", "files": {"0": "tok"}}"#.utf8))
        #expect(answer == LocalSendUploadTokens(sessionId: "s-1_a", files: ["0": "tok"]))
        #expect(throws: LocalSendError.self) { try LocalSendUploadTokens.decode(Array(#"{"sessionId": "s/../x", "files": {}}"#.utf8)) }
        #expect(throws: LocalSendError.self) { try LocalSendUploadTokens.decode(Array(#"{"sessionId": "s", "files": {"0": "a b"}}"#.utf8)) }
        #expect(throws: LocalSendError.malformed) { try LocalSendUploadTokens.decode(Array("[]".utf8)) }
    }
}
