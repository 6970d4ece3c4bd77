import ActShareCore

/// The XDG download directory, as `xdg-user-dir DOWNLOAD` gives it, without running it:
/// `XDG_DOWNLOAD_DIR` in `$XDG_CONFIG_HOME/user-dirs.dirs` (a path, absolute or
/// `$HOME/…`), else `~/Downloads`.
public enum DownloadDirectory {
    public static func fromEnvironment() -> String {
        let home = Environment.value("HOME") ?? "/"
        let configHome = XDGDirectories.fromEnvironment().configHome
        let text = (try? FileSystem.readText(FileSystem.join(configHome, "user-dirs.dirs"))) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("XDG_DOWNLOAD_DIR=") {
            var value = line.dropFirst("XDG_DOWNLOAD_DIR=".count)
            guard value.count >= 2, value.first == "\"", value.last == "\"" else { continue }
            value = value.dropFirst().dropLast()
            // The format allows only an absolute path or one starting with $HOME/.
            if value.hasPrefix("$HOME/") { return FileSystem.join(home, String(value.dropFirst("$HOME/".count))) }
            if value.hasPrefix("/") { return String(value) }
        }
        return FileSystem.join(home, "Downloads")
    }
}
