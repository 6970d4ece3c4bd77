/// file:// URIs for paths, percent-encoded as RFC 8089 and file managers expect.
public enum FileURI {
    /// `file:///home/me/My%20File.txt` for `/home/me/My File.txt`.
    public static func make(_ path: String) -> String {
        var result = "file://"
        for byte in PathName.bytes(path) {
            if isUnreserved(byte) || byte == UInt8(ascii: "/") {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    /// The path of a `file:` URI on this host, or nil if it is not one.
    public static func path(of uri: String) -> String? {
        var rest: Substring
        if uri.hasPrefix("file://") {
            rest = uri.dropFirst(7)
            if !rest.hasPrefix("/") {
                // file://host/path: only this host is a local file.
                guard let slash = rest.firstIndex(of: "/") else { return nil }
                let host = rest[..<slash]
                guard host == "localhost" else { return nil }
                rest = rest[slash...]
            }
        } else if uri.hasPrefix("file:/") {
            rest = uri.dropFirst(5)
        } else {
            return nil
        }
        var bytes: [UInt8] = []
        var iterator = Array(rest.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return PathName.decode(bytes)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~".utf8.contains(byte)
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
