/// Where a provider's output may go without giving it more than its output: not the home
/// folder or above it, not the user's configuration, data or keys.
///
/// An output option names a folder (the provider may write in it) or a file (it may write
/// in the file's folder). Named by the user, a file whose folder is one of these places
/// gives the provider that file only; named by a manifest's `default:`, such a place is
/// refused (docs/PLUGINS.md, Permissions).
public enum OutputPlace {
    /// Whether writing anywhere in `folder` (absolute, links resolved) would reach more
    /// than output: `/`, the home folder or a folder above it, a hidden folder of the home
    /// folder or anything in one (`~/.config`, `~/.ssh`, `~/.local`), or the XDG config,
    /// data, state, cache and runtime folders.
    public static func isBroad(_ folder: String, home: String, xdg: XDGDirectories) -> Bool {
        func within(_ path: String, _ base: String) -> Bool { path == base || path.hasPrefix(base.hasSuffix("/") ? base : base + "/") }
        if folder == "/" || within(home, folder) { return true }
        if within(folder, home) {
            let inside = folder.dropFirst(home.count).drop { $0 == "/" }
            if inside.hasPrefix(".") { return true }
        }
        let userFolders = [xdg.configHome, xdg.dataHome, xdg.stateHome, xdg.cacheHome] + (xdg.runtimeDir.map { [$0] } ?? [])
        return userFolders.contains { within(folder, $0) }
    }

    /// Why an output option's `default:` (as written in a manifest) names a place a
    /// provider must not be given by default, or nil: the home folder, `/` or `/home`, a
    /// hidden file or folder of the home folder or anything in one (`~/.bashrc`,
    /// `~/.config/autostart`), or an XDG folder of the user's.
    public static func defaultProblem(_ text: String) -> String? {
        var path = text
        // As the grant reads it: a `kind:` before the path (`maildir:~/Mail`) is left aside.
        if !path.hasPrefix("/") && !path.hasPrefix("~") && !path.hasPrefix("$"), let colon = path.firstIndex(of: ":") {
            path = String(path[path.index(after: colon)...])
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if parts.contains("..") { return "has '..' in it" }
        guard let first = parts.first else { return path.hasPrefix("/") ? "is the whole file system" : nil }
        switch first {
        case "~", "$HOME":
            if parts.count == 1 { return "is the home folder" }
            if parts[1].hasPrefix(".") { return "is in the home folder's hidden files, where its configuration lives" }
        case "$XDG_CONFIG_HOME", "$XDG_DATA_HOME", "$XDG_STATE_HOME", "$XDG_CACHE_HOME", "$XDG_RUNTIME_DIR":
            return "is among the user's own configuration, data and state"
        case "home" where path.hasPrefix("/") && parts.count <= 2, "root" where path.hasPrefix("/") && parts.count == 1:
            return "is a home folder or the folder of them"
        default:
            break
        }
        return nil
    }
}
