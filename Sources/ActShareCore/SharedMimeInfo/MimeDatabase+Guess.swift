extension MimeDatabase {
    /// The type of a file named `name` (its last component is used) whose first bytes are
    /// `data`, as GIO's `g_content_type_guess` gives it: a name with one type is that
    /// type; otherwise the bytes decide (a magic rule of priority 80 or more wins, or picks
    /// among the name's types the one it is a subclass of), and text without a rule is
    /// `text/plain`.
    public func guess(name: [UInt8]?, data: [UInt8]?) -> GuessedType {
        var nameTypes: [String] = []
        if let name {
            if name.last == UInt8(ascii: "/") { return GuessedType(type: "inode/directory", uncertain: false) }
            let baseName = name.lastIndex(of: UInt8(ascii: "/")).map { Array(name[($0 + 1)...]) } ?? name
            nameTypes = types(byName: baseName)
        }
        if nameTypes.count == 1 { return GuessedType(type: nameTypes[0], uncertain: false) }

        var sniffed: String?
        var priority = 0
        if let data {
            (sniffed, priority) = type(byData: data)
            if sniffed == nil && Self.looksLikeText(data) { sniffed = Self.plainText }
            // A desktop entry runs programs: GIO never takes one for a file whose name
            // does not say so.
            if name != nil && sniffed == "application/x-desktop" { sniffed = Self.plainText }
        }
        guard let first = nameTypes.first else {
            return GuessedType(type: sniffed ?? Self.unknown, uncertain: sniffed == nil)
        }
        if let sniffed {
            if priority >= 80 { return GuessedType(type: sniffed, uncertain: false) }
            if let named = nameTypes.first(where: { isSubclass($0, of: sniffed) }) {
                return GuessedType(type: named, uncertain: false)
            }
        }
        return GuessedType(type: first, uncertain: true)
    }

    /// The types a file name's globs give, the heaviest first: a whole-name glob (the
    /// name lower-cased, then as it is), else the longest suffix glob, else fnmatch globs,
    /// each looked for only while fewer than two types are found.
    func types(byName name: [UInt8]) -> [String] {
        let lowered = name.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        for (key, caseSensitiveCheck) in [(lowered, false), (name, true)] {
            caches: for cache in caches {
                switch cache.literal(key, caseSensitiveCheck: caseSensitiveCheck) {
                case .match(let type): return [type]
                case .refused: break caches
                case .notListed: continue
                }
            }
        }
        var matches: [GlobMatch] = []
        func add(_ lookup: (MimeCache, Int) -> [GlobMatch]) {
            for cache in caches where matches.count < Self.nameMatchLimit {
                matches += lookup(cache, Self.nameMatchLimit - matches.count)
            }
        }
        add { $0.suffixMatches(lowered, caseSensitiveCheck: false, limit: $1) }
        if matches.count < 2 { add { $0.suffixMatches(name, caseSensitiveCheck: true, limit: $1) } }
        if matches.count < 2 { add { $0.patternMatches(lowered, caseSensitiveCheck: false, limit: $1) } }
        if matches.count < 2 { add { $0.patternMatches(name, caseSensitiveCheck: true, limit: $1) } }
        return Self.heaviestFirst(matches)
    }

    /// One entry per type at its greatest weight, heaviest first. Duplicates are removed
    /// and ties ordered as GIO does (the last entry moved into a removed one's place,
    /// then a stable sort), so that a tie goes the same way.
    static func heaviestFirst(_ found: [GlobMatch]) -> [String] {
        var matches = found
        var index = 0
        while index < matches.count {
            var other = index + 1
            while other < matches.count {
                if matches[other].type == matches[index].type {
                    matches[index].weight = max(matches[index].weight, matches[other].weight)
                    matches[other] = matches[matches.count - 1]
                    matches.removeLast()
                } else {
                    other += 1
                }
            }
            index += 1
        }
        let ordered = matches.enumerated().sorted { ($0.element.weight, -$0.offset) > ($1.element.weight, -$1.offset) }
        return ordered.map(\.element.type)
    }

    /// The type the bytes' magic gives, with its priority; else `text/plain` at priority 0
    /// when the first 128 bytes hold no control character but tab and line ends; else nil.
    func type(byData data: [UInt8]) -> (type: String?, priority: Int) {
        if data.isEmpty { return (Self.empty, 100) }
        var best: MagicMatch?
        for cache in caches {
            if let match = cache.magicMatch(data), match.priority > (best?.priority ?? 0) { best = match }
        }
        if let best { return (best.type, best.priority) }
        let binary = data.prefix(128).contains { $0 < 32 && $0 != 9 && $0 != 10 && $0 != 13 }
        return (binary ? nil : Self.plainText, 0)
    }

    /// GIO's last test for text: no control character but backspace, tab, line feed, form
    /// feed and carriage return (a vertical tab makes bytes binary to GIO, as `gio info`
    /// shows of a bash completion script holding one).
    static func looksLikeText(_ data: [UInt8]) -> Bool {
        !data.contains { ($0 < 32 && !(8...13).contains($0)) || $0 == 11 || $0 == 127 }
    }
}
