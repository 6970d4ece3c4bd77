import ActShareCore
import CActShare

/// Turns what a provider offers with `actshare_add_target` into a target, or says why it
/// is left out: the same checks whichever way the provider runs.
enum OfferedTarget {
    /// The most targets one activity offers (`ACTSHARE_MAX_TARGETS`).
    static let maximum = Int(ACTSHARE_MAX_TARGETS)
    /// The longest id, in bytes (`ACTSHARE_MAX_TARGET_ID`).
    static let maximumID = Int(ACTSHARE_MAX_TARGET_ID)
    /// The most characters of a title or subtitle kept: a line, not a page.
    static let maximumTitle = 120

    /// The target for what was offered, or why it is left out: an unknown kind, an id
    /// that is empty, too long, not UTF-8 or holds a control character, or a title that
    /// is empty or not UTF-8. A title's and subtitle's controls are shown escaped and a
    /// long one cut; an image that is neither an icon name nor an absolute path is dropped.
    static func make(kind: Int32, id: [UInt8], title: [UInt8], subtitle: [UInt8]?, image: [UInt8]?) -> Result<ActivityTarget, Refusal> {
        guard let targetKind = ActivityTarget.Kind(cValue: kind) else {
            return .failure(Refusal(id: shown(id), reason: "\(kind) is not a target kind (0 device, 1 person, 2 app, 3 place)"))
        }
        guard let name = String(validatingUTF8Bytes: id), !name.isEmpty else {
            return .failure(Refusal(id: shown(id), reason: id.isEmpty ? "its id is empty" : "its id is not UTF-8"))
        }
        guard id.count <= maximumID else {
            return .failure(Refusal(id: shown(id), reason: "its id is \(id.count) bytes long, more than \(maximumID)"))
        }
        guard !name.unicodeScalars.contains(where: TerminalText.isControl) else {
            return .failure(Refusal(id: shown(id), reason: "its id holds a control character"))
        }
        guard let heading = line(title), !heading.isEmpty else {
            return .failure(Refusal(id: name, reason: "it has no title in UTF-8"))
        }
        return .success(ActivityTarget(
            id: name, title: heading, subtitle: subtitle.flatMap(line).flatMap { $0.isEmpty ? nil : $0 },
            image: image.flatMap(String.init(validatingUTF8Bytes:)).flatMap { isIconName($0) || $0.hasPrefix("/") ? $0 : nil },
            kind: targetKind))
    }

    /// A target left out, and why.
    struct Refusal: Error, Equatable {
        /// Its id as the user can read it.
        var id: String
        var reason: String
    }

    /// One line of text a person reads: controls shown escaped, cut at ``maximumTitle``.
    private static func line(_ bytes: [UInt8]) -> String? {
        guard let text = String(validatingUTF8Bytes: bytes) else { return nil }
        // Trimmed on a Substring: a chain of lazy views here cost a list 0.2 ms of generic
        // metadata made at run time (Benchmarks/list-startup).
        var trimmed = Substring(text)
        while trimmed.first == " " { trimmed.removeFirst() }
        while trimmed.last == " " { trimmed.removeLast() }
        let visible = TerminalText.oneLine(String(trimmed))
        return visible.count > maximumTitle ? visible.prefix(maximumTitle) + "…" : visible
    }

    /// A freedesktop icon name as themes spell them: `camera-photo`, `org.gnome.Nautilus`.
    private static func isIconName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255
            && name.utf8.allSatisfy { $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || "-_.+".utf8.contains($0)) }
    }

    private static func shown(_ bytes: [UInt8]) -> String {
        TerminalText.oneLine(PathName.display(PathName.decode(bytes.prefix(maximumID))))
    }
}
