import ActShareCore
#if canImport(Glibc)
import Glibc
#endif

/// Finds the file behind a freedesktop icon name, for a dialog that shows image files
/// rather than icon names (zenity's list).
///
/// A small part of the Icon Theme Specification: the user's GTK theme, then Adwaita, then
/// hicolor, in `$XDG_DATA_HOME/icons` and each `$XDG_DATA_DIRS/icons`, then
/// `/usr/share/pixmaps`; in each theme the size directories nearest the wanted size
/// first (scalable after the fixed sizes); and a name with no icon falls back to its
/// less specific forms (`mail-send` to `mail`), as the specification says. Symbolic
/// variants stand in where a theme has only those (Adwaita has few full-colour icons).
struct IconTheme {
    /// For each theme directory, in the order they are searched, its icon directories
    /// (`24x24/actions`…), the sizes nearest `size` first.
    private let themes: [[String]]
    private let pixmaps = "/usr/share/pixmaps"

    /// Icons for a dialog that shows them `size` pixels tall.
    init(size: Int = 24, directories: XDGDirectories = .fromEnvironment()) {
        var names = ["Adwaita", "hicolor"]
        if let chosen = Self.gtkThemeName(directories.configHome), !names.contains(chosen) { names.insert(chosen, at: 0) }
        let bases = ([directories.dataHome] + directories.dataDirs).map { FileSystem.join($0, "icons") }
        let themeDirectories = names.flatMap { name in bases.map { FileSystem.join($0, name) } }.filter(FileSystem.isDirectory)
        themes = themeDirectories.map { theme in
            Self.sizeDirectories(theme, nearest: size).flatMap { FileSystem.contents(ofDirectory: $0, prefixedWith: $0 + "/") ?? [] }
        }
    }

    /// The file of `image`: itself when it is a path, else the icon of that name; nil when
    /// there is none.
    func file(for image: String) -> String? {
        if image.hasPrefix("/") { return access(image, R_OK) == 0 ? image : nil }
        guard !image.isEmpty, !image.contains("/") else { return nil }
        var name = Substring(image)
        while true {
            for theme in themes {
                if let file = lookUp(String(name), in: theme) { return file }
            }
            for suffix in [".png", ".svg", ".xpm"] {
                let file = FileSystem.join(pixmaps, name + suffix)
                if access(file, R_OK) == 0 { return file }
            }
            guard let dash = name.lastIndex(of: "-") else { return nil }
            name = name[..<dash]
        }
    }

    /// `name` in one theme's `directories`: full colour in any size first, then symbolic.
    private func lookUp(_ name: String, in directories: [String]) -> String? {
        for fileName in [name + ".png", name + ".svg", name + "-symbolic.svg", name + "-symbolic.symbolic.png"] {
            for directory in directories {
                let file = FileSystem.join(directory, fileName)
                if access(file, R_OK) == 0 { return file }
            }
        }
        return nil
    }

    /// A theme's size directories (`24x24`, `scalable`, `symbolic`…), nearest `size` first.
    private static func sizeDirectories(_ theme: String, nearest size: Int) -> [String] {
        let names = FileSystem.contents(ofDirectory: theme) ?? []
        let ranked: [(distance: Int, name: String)] = names.compactMap { name in
            if name == "scalable" || name == "symbolic" { return (10_000, name) }
            let parts = name.split(separator: "x")
            guard parts.count == 2, let width = Int(parts[0]), !name.contains("@") else { return nil }
            // Smaller icons blur when scaled up, so one a little larger wins a tie.
            return (abs(width - size) * 2 + (width < size ? 1 : 0), name)
        }
        return ranked.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
            .map { FileSystem.join(theme, $0.name) }
    }

    /// `gtk-icon-theme-name` from GTK's settings.ini, the theme the desktop shows.
    private static func gtkThemeName(_ configHome: String) -> String? {
        for version in ["gtk-4.0", "gtk-3.0"] {
            guard let text = try? FileSystem.readText(FileSystem.join(configHome, "\(version)/settings.ini")) else { continue }
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(trimmed)
                if parts.count == 2, parts[0] == "gtk-icon-theme-name", !parts[1].isEmpty, !parts[1].contains("/") { return String(parts[1]) }
            }
        }
        return nil
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else { return "" }
        return text[first...last]
    }
}
