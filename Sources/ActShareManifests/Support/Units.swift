import ActShareCore

/// Parses the sizes and durations manifests use (`50MiB`, `5s`).
enum Units {
    /// Bytes for `1024`, `512B`, `10kB`/`10KB`, `50MB`, `50MiB`, `1.5GiB`, … ; nil if malformed.
    static func bytes(_ text: String) -> UInt64? {
        let multipliers: [(String, Double)] = [
            ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("TiB", 1_099_511_627_776),
            ("kB", 1000), ("KB", 1000), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("B", 1),
        ]
        let trimmed = text.trimmingSpaces
        for (suffix, multiplier) in multipliers where trimmed.hasSuffix(suffix) {
            return scaled(String(trimmed.dropLast(suffix.count)), by: multiplier)
        }
        return scaled(trimmed, by: 1)
    }

    /// Milliseconds for `500ms`, `5s`, `1.5s`, `2m`; nil if malformed.
    static func milliseconds(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces
        let units: [(String, Double)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        for (suffix, multiplier) in units where trimmed.hasSuffix(suffix) {
            return scaled(String(trimmed.dropLast(suffix.count)), by: multiplier).map { Int($0) }
        }
        return nil
    }

    private static func scaled(_ number: String, by multiplier: Double) -> UInt64? {
        let number = number.trimmingSpaces
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(number), value.isFinite, value >= 0, value * multiplier < 1.8e19
        else { return nil }
        return UInt64((value * multiplier).rounded())
    }
}

extension String {
    var trimmingSpaces: String {
        var slice = Substring(self)
        while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
        while slice.last == " " || slice.last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
