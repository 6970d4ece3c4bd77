import ActShareHandoff

/// An offer of one device's clipboard to a paired device (`clipboard-offer`,
/// docs/PROTOCOL.md): what it holds, never the bytes, which the receiver fetches on paste.
struct ClipboardOffer: Codable, Sendable {
    struct Target: Codable, Sendable {
        /// The X11 target: a MIME type (`image/png`) or an X name (`UTF8_STRING`).
        var name: String
        var size: UInt64
        /// SHA-256 of its bytes, hex: checked on fetch; targets with equal bytes share one.
        var sha256: String
    }

    var id: String
    /// Seconds since 1970 on the offering device: the newest copy wins.
    var created: Double
    var expires: Double
    var targets: [Target]
    /// The start of its text, for `clipboard status` and notices.
    var preview: String?
    /// Set when the copy is over the offering device's `clipboard-max`: nothing to fetch,
    /// `total` bytes noticed.
    var tooLarge: Bool?
    var total: UInt64?
    /// Files copied (a file manager's copy): their names. The targets are then formats of
    /// a list of files, made anew on the receiving device for where the files land there.
    var files: [String]?

    static let maximumTargets = 32
    static let previewLength = 80

    /// Why a peer's offer is refused, or nil: every field is checked here, since it comes
    /// from another machine.
    func problem(maximumBytes: UInt64) -> String? {
        guard ActivityChecks.isActivityID(id) else { return "its id is not valid" }
        guard created.isFinite, expires.isFinite, expires >= created else { return "its times are not valid" }
        guard targets.count <= Self.maximumTargets else { return "more than \(Self.maximumTargets) targets" }
        if tooLarge != true, targets.isEmpty { return "no targets" }
        var total: UInt64 = 0
        for target in targets {
            guard Self.isTargetName(target.name) else { return "a target's name is not valid" }
            guard Self.isSHA256(target.sha256) else { return "a target's hash is not valid" }
            let (sum, overflow) = total.addingReportingOverflow(target.size)
            guard !overflow, sum <= maximumBytes else { return "larger than this device's clipboard-max" }
            total = sum
        }
        if let preview, !ActivityChecks.isDisplayText(preview, limit: 4 * Self.previewLength) { return "its preview is not valid" }
        if let files {
            guard !files.isEmpty, files.count <= LocalTree.maximumEntries,
                  files.allSatisfy({ ActivityChecks.isDisplayText($0, limit: 255) && !$0.isEmpty }) else { return "its file names are not valid" }
            // Names, not paths: where the files land is this device's choice.
            guard files.allSatisfy({ !$0.contains("/") && !$0.contains("\\") && $0 != "." && $0 != ".." }) else {
                return "a file name is a path"
            }
            guard targets.allSatisfy({ FileClipboard.targets.contains($0.name) }) else { return "a target is not a format of files" }
        }
        return nil
    }

    /// A SHA-256 as offered: 64 lowercase hex digits.
    static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// An X atom's name as offered: printable ASCII without spaces, 1–255 bytes.
    static func isTargetName(_ name: String) -> Bool {
        (1...255).contains(name.utf8.count) && name.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    var summaryTargets: [ClipboardTargetSummary] { targets.map { ClipboardTargetSummary(name: $0.name, size: $0.size) } }
}
