import CActShareSystem

#if canImport(Glibc)
import Glibc
#endif

/// Messages for people in their language, through gettext (domain `actshare`; the
/// catalogs are made from `po/`, docs/TRANSLATING.md).
///
/// Only what a person reads is translated: the window, notices, prompts, the lines that
/// say what a share did, and the errors on a terminal (``Phrase``). `--json`, error names,
/// exit codes and the checks of manifests and the config stay as they are, for programs
/// and for searching (docs/TRANSLATING.md).
///
/// Messages are C format strings, as translators and `msgfmt --check` know them: `%s`,
/// `%d` and `%u` take the values in order, `%1$s` by position.
public enum Localized {
    public static let domain = "actshare"
    /// Where the catalogs are (nil: the system's place), found once, when the first
    /// message is translated: most runs (`actshare list`, a script's `perform`) say nothing
    /// to a person and pay nothing for it. The language comes from the environment.
    private static let directory: String? = {
        var found: String?
        if let program = FileSystem.resolved("/proc/self/exe") {
            let folder = FileSystem.directoryName(program)
            // PREFIX/share/locale when installed, .build/locale in the build tree.
            found = ["../share/locale", "../locale", "../../locale"].map { FileSystem.join(folder, $0) }
                .first { FileSystem.isDirectory($0) }
        }
        cactshare_localization_set_up(domain, found)
        return found
    }()

    /// `message` in every language a catalog has it in, as `(language, text)` pairs in
    /// order of language, for files that carry them all (desktop entries' `Name[de]=`).
    public static func translations(of message: String, _ values: [CustomStringConvertible] = []) -> [(language: String, text: String)] {
        guard let directory = Self.directory, let languages = FileSystem.contents(ofDirectory: directory) else { return [] }
        return languages.sorted().compactMap { language in
            guard FileSystem.exists(FileSystem.join(directory, "\(language)/LC_MESSAGES/\(domain).mo")) else { return nil }
            let text = message.withCString { String(cString: cactshare_translate_into(domain, $0, language)) }
            return text == message ? nil : (language, fill(text, values))
        }
    }

    /// `message` in the person's language, its `%` places filled with `values`.
    public static func text(_ message: String, _ values: CustomStringConvertible...) -> String {
        text(message, values: values)
    }

    /// `message` in the person's language, its `%` places filled with `values`.
    public static func text(_ message: String, values: [CustomStringConvertible]) -> String {
        _ = directory  // the catalogs, set up on first use
        // Untranslated, gettext returns the pointer it was given: read while it is valid.
        return fill(message.withCString { String(cString: cactshare_translate(domain, $0)) }, values)
    }

    /// `message` in the person's language as it is, with no places to fill: for text
    /// that may or may not be a message of the catalogs (what a library passes on).
    public static func lookup(_ message: String) -> String {
        _ = directory  // the catalogs, set up on first use
        return message.withCString { String(cString: cactshare_translate(domain, $0)) }
    }

    /// `one` or `many` as `count` asks in the person's language, filled with `values`.
    public static func plural(_ one: String, _ many: String, count: Int, _ values: CustomStringConvertible...) -> String {
        _ = directory  // the catalogs, set up on first use
        // Untranslated, ngettext returns one of the pointers it was given: read while valid.
        let text = one.withCString { one in
            many.withCString { many in String(cString: cactshare_translate_plural(domain, one, many, UInt(max(count, 0)))) }
        }
        return fill(text, values)
    }

    /// `template` with `%s`, `%d`, `%u` replaced by `values` in order, `%N$s` by position,
    /// and `%%` by `%`.
    static func fill(_ template: String, _ values: [CustomStringConvertible]) -> String {
        guard template.contains("%") else { return template }
        var result = ""
        var next = 0
        var characters = template[...]
        while let percent = characters.firstIndex(of: "%") {
            result += characters[..<percent]
            var rest = characters[characters.index(after: percent)...]
            if rest.first == "%" {
                result += "%"
                characters = rest.dropFirst()
                continue
            }
            var position: Int?
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, rest.dropFirst(digits.count).first == "$" {
                position = Int(digits).map { $0 - 1 }
                rest = rest.dropFirst(digits.count + 1)
            }
            guard let conversion = rest.first, "sdu".contains(conversion) else {
                result += "%"
                characters = characters[characters.index(after: percent)...]
                continue
            }
            let index = position ?? next
            next = index + 1
            result += index >= 0 && index < values.count ? values[index].description : ""
            characters = rest.dropFirst()
        }
        return result + characters
    }
}
