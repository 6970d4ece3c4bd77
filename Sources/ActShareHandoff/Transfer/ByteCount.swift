/// A byte count as people read it: "1.2 GB", "340.5 MB", "12 bytes" (decimal units, as
/// file managers show sizes).
public enum ByteCount {
    public static func describe(_ bytes: UInt64) -> String {
        for (unit, size) in [("GB", 1e9), ("MB", 1e6), ("kB", 1e3)] where Double(bytes) >= size {
            let tenths = Int((Double(bytes) / size * 10).rounded(.down))
            return "\(tenths / 10).\(tenths % 10) \(unit)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
