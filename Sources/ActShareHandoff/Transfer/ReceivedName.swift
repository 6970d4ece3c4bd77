import ActShareCore

/// A name for a file or folder that came from another device, made safe to create here.
///
/// A peer's name can hold anything JSON can: `/` and `..` to climb out of the receive
/// directory, a leading `-` read as an option by a later command, a leading `.` hiding
/// the file, control characters and bidirectional overrides that rewrite what a terminal
/// or file manager shows, or more bytes than a file system takes. Each is replaced, not
/// refused, so that a file with an odd but harmless name still arrives.
public enum ReceivedName {
    /// The longest name in bytes (ext4, btrfs and xfs take 255).
    public static let maximumBytes = 255
    /// The deepest folder nesting taken in a received tree.
    public static let maximumDepth = 64

    /// `name` made safe: `/`, `\\`, control characters and bidirectional overrides become
    /// `_`; `.` and `..` become `_` and `__`; a name over ``maximumBytes`` is cut on a
    /// character boundary, keeping its extension. Nil for an empty name.
    ///
    /// A top-level name (`topLevel`, what lands in the receive folder itself) also has its
    /// leading dots and dashes made `_`: there a `.bashrc` would arrive hidden, and a `-rf`
    /// be read as an option by the next `rm *` in Downloads. Inside a sent folder they are
    /// kept, as scp, rsync and LocalSend keep them: a repository's `.git/HEAD` and
    /// `.gitignore` must arrive as they are, and they cannot leave their folder.
    public static func sanitised(_ name: some StringProtocol, topLevel: Bool = true) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            let unsafe = scalar == "/" || scalar == "\\" || TerminalText.isControl(scalar)
            scalars.append(unsafe ? "_" : scalar)
        }
        var result = String(scalars)
        guard !result.isEmpty else { return nil }
        if topLevel || result == "." || result == ".." {
            let leading = result.prefix { $0 == "." || $0 == "-" }
            result = String(repeating: "_", count: leading.count) + result.dropFirst(leading.count)
        }
        return fitted(result)
    }

    /// `name` cut to ``maximumBytes`` bytes on a character boundary, its extension kept.
    static func fitted(_ name: String) -> String {
        guard name.utf8.count > maximumBytes else { return name }
        let dot = name.lastIndex(of: ".").flatMap { name.distance(from: $0, to: name.endIndex) <= 16 ? $0 : nil }
        let suffix = dot.map { String(name[$0...]) } ?? ""
        var stem = String(name[..<(dot ?? name.endIndex)])
        while stem.utf8.count + suffix.utf8.count > maximumBytes { stem.removeLast() }
        return stem + suffix
    }

    /// The first of `name`, `name (1)`, `name (2)`… (before the extension: `a (1).txt`)
    /// for which `taken` is false, numbers tried from `first`. Nil after 10,000 tries.
    public static func unique(_ name: String, from first: Int = 1, taken: (String) -> Bool) -> String? {
        guard taken(name) else { return name }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = String(name[..<(dot ?? name.endIndex)]), suffix = dot.map { String(name[$0...]) } ?? ""
        for number in max(1, first)..<(max(1, first) + 10_000) {
            let tag = " (\(number))"
            var short = stem
            while short.utf8.count + tag.utf8.count + suffix.utf8.count > maximumBytes, !short.isEmpty { short.removeLast() }
            let candidate = short + tag + suffix
            if !taken(candidate) { return candidate }
        }
        return nil
    }
}
