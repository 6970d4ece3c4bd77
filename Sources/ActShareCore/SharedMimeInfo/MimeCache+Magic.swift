extension MimeCache {
    /// How many bytes from a file's start the magic rules look at.
    var magicExtent: Int {
        guard let list = list(.magic) else { return 0 }
        return u32(list + 4) ?? 0
    }

    /// The first rule, in the cache's order of descending priority, that `data` matches.
    func magicMatch(_ data: [UInt8]) -> MagicMatch? {
        guard let list = list(.magic), let count = u32(list), let first = u32(list + 8) else { return nil }
        // A corrupt cache could make a rule's tree a cycle, or a long chain: a budget of
        // comparisons bounds the walk whatever the file says.
        var budget = 200_000
        for index in 0..<count {
            let rule = first + 16 * index
            guard let priority = u32(rule), let typeOffset = u32(rule + 4),
                  let matchlets = u32(rule + 8), let firstMatchlet = u32(rule + 12)
            else { return nil }
            for matchlet in 0..<matchlets {
                if matches(matchlet: firstMatchlet + 32 * matchlet, data, depth: 0, budget: &budget) {
                    return type(at: typeOffset).map { MagicMatch(type: $0, priority: priority) }
                }
                if budget <= 0 { return nil }
            }
        }
        return nil
    }

    /// Whether a matchlet matches `data`, and then (if it has children) one of its children.
    private func matches(matchlet offset: Int, _ data: [UInt8], depth: Int, budget: inout Int) -> Bool {
        budget -= 1
        guard budget > 0, depth < 64, comparesEqual(matchlet: offset, data, budget: &budget) else { return false }
        guard let children = u32(offset + 24), let firstChild = u32(offset + 28) else { return false }
        if children == 0 { return true }
        for child in 0..<children {
            if matches(matchlet: firstChild + 32 * child, data, depth: depth + 1, budget: &budget) { return true }
            if budget <= 0 { return false }
        }
        return false
    }

    /// Whether the matchlet's value (under its mask, if any) is in `data` at one of the
    /// offsets of its range. As GIO, a range that runs past the data's end fails there.
    private func comparesEqual(matchlet offset: Int, _ data: [UInt8], budget: inout Int) -> Bool {
        guard let rangeStart = u32(offset), let rangeLength = u32(offset + 4), let valueLength = u32(offset + 12),
              let valueOffset = u32(offset + 16), let maskOffset = u32(offset + 20),
              valueOffset + valueLength <= bytes.count, maskOffset == 0 || maskOffset + valueLength <= bytes.count
        else { return false }
        var start = rangeStart
        while start < rangeStart + rangeLength {
            guard start + valueLength <= data.count else { return false }
            budget -= 1
            if budget <= 0 { return false }
            var equal = true
            for index in 0..<valueLength {
                let mask = maskOffset == 0 ? 0xFF : bytes[maskOffset + index]
                if bytes[valueOffset + index] & mask != data[start + index] & mask {
                    equal = false
                    break
                }
            }
            if equal { return true }
            start += 1
        }
        return false
    }
}
