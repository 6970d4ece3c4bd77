#if canImport(Glibc)
import Glibc
#endif

extension MimeCache {
    /// A glob's flags word: its weight in the low byte, and whether it is case-sensitive.
    private static func flags(_ word: Int) -> (weight: Int, caseSensitive: Bool) {
        (word & 0xFF, word & 0x100 != 0)
    }

    /// Whole-name globs (`Makefile`, `core`). `caseSensitiveCheck` false skips the globs
    /// that are case-sensitive (the name given is then lower-cased).
    func literal(_ name: [UInt8], caseSensitiveCheck: Bool) -> LiteralLookup {
        guard let list = list(.literals), let count = u32(list),
              let index = search(name, first: list + 4, count: count, stride: 12),
              let typeOffset = u32(list + 4 + 12 * index + 4), let word = u32(list + 4 + 12 * index + 8)
        else { return .notListed }
        guard caseSensitiveCheck || !Self.flags(word).caseSensitive else { return .refused }
        return type(at: typeOffset).map(LiteralLookup.match) ?? .notListed
    }

    /// Suffix globs (`*.tar.gz`) from the reverse suffix tree: the types of the longest
    /// suffix of `name` that has any, at most `limit`.
    func suffixMatches(_ name: [UInt8], caseSensitiveCheck: Bool, limit: Int) -> [GlobMatch] {
        guard limit > 0, !name.isEmpty, let tree = list(.suffixTree), let count = u32(tree), let first = u32(tree + 4)
        else { return [] }
        return suffixMatches(name[...], nodes: first, count: count, caseSensitiveCheck: caseSensitiveCheck, limit: limit)
    }

    private func suffixMatches(
        _ name: ArraySlice<UInt8>, nodes: Int, count: Int, caseSensitiveCheck: Bool, limit: Int
    ) -> [GlobMatch] {
        // Nodes hold Unicode code points; like GIO, a name is walked byte by byte, so a
        // byte of a multi-byte character (read as a negative char there) matches nothing.
        guard let last = name.last, last < 0x80 else { return [] }
        var low = 0, high = count - 1
        while low <= high {
            let middle = (low + high) / 2
            let node = nodes + 12 * middle
            guard let character = u32(node) else { return [] }
            if character < Int(last) { low = middle + 1; continue }
            if character > Int(last) { high = middle - 1; continue }
            guard let children = u32(node + 4), let firstChild = u32(node + 8) else { return [] }
            let rest = name.dropLast()
            if !rest.isEmpty {
                let longer = suffixMatches(rest, nodes: firstChild, count: children, caseSensitiveCheck: caseSensitiveCheck, limit: limit)
                if !longer.isEmpty { return longer }
            }
            // The leaves (character 0) come first among a node's children.
            var matches: [GlobMatch] = []
            for index in 0..<children where matches.count < limit {
                let leaf = firstChild + 12 * index
                guard u32(leaf) == 0, let typeOffset = u32(leaf + 4), let word = u32(leaf + 8) else { break }
                let (weight, caseSensitive) = Self.flags(word)
                if caseSensitiveCheck || !caseSensitive, let type = type(at: typeOffset) {
                    matches.append(GlobMatch(type: type, weight: weight))
                }
            }
            return matches
        }
        return []
    }

    /// The other globs (`*.[1-9]`, `readme*`), matched with fnmatch(3), at most `limit`.
    func patternMatches(_ name: [UInt8], caseSensitiveCheck: Bool, limit: Int) -> [GlobMatch] {
        guard limit > 0, let list = list(.globs), let count = u32(list) else { return [] }
        var matches: [GlobMatch] = []
        (name + [0]).withUnsafeBufferPointer { cName in
            cName.withMemoryRebound(to: CChar.self) { cName in
                for index in 0..<count where matches.count < limit {
                    let entry = list + 4 + 12 * index
                    guard let patternOffset = u32(entry), let typeOffset = u32(entry + 4), let word = u32(entry + 8),
                          let pattern = string(at: patternOffset)
                    else { return }
                    let (weight, caseSensitive) = Self.flags(word)
                    guard caseSensitiveCheck || !caseSensitive else { continue }
                    let matched = (Array(pattern) + [0]).withUnsafeBufferPointer { cPattern in
                        cPattern.withMemoryRebound(to: CChar.self) { fnmatch($0.baseAddress!, cName.baseAddress!, 0) == 0 }
                    }
                    if matched, let type = type(at: typeOffset) { matches.append(GlobMatch(type: type, weight: weight)) }
                }
            }
        }
        return matches
    }
}
