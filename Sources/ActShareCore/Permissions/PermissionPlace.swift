/// A place in a provider's `permissions:` lists.
public enum PermissionPlace: Sendable, Equatable {
    /// Exactly the files and folders being shared.
    case items
    /// Where the activity writes: the folder an `output-option` names (for a file, its
    /// folder).
    case output
    /// New files beside the shared items, in `write:` only. Not a sandbox grant (Landlock
    /// cannot allow making a file without allowing to write what is there): the provider
    /// returns files it made in its `$TMPDIR`, and actshare places them (``ReturnedFiles``).
    case besideItems
    /// A path as written: absolute, `~`, `~/…`, or starting with an XDG variable
    /// (`$XDG_DATA_HOME/…`) or `$HOME`.
    case path(String)

    /// The variables a path may start with.
    public static let variables = ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"]

    /// Reads a list entry: `items`, `output`, or a path of the forms above; nil otherwise.
    public init?(_ text: String) {
        switch text {
        case "items": self = .items
        case "output": self = .output
        case "beside-items": self = .besideItems
        default:
            guard Self.isValidPath(text) else { return nil }
            self = .path(text)
        }
    }

    static func isValidPath(_ text: String) -> Bool {
        if text.utf8.contains(0) || text.split(separator: "/").contains("..") { return false }
        if text.hasPrefix("/") || text == "~" || text.hasPrefix("~/") { return true }
        guard text.hasPrefix("$") else { return false }
        let name = text.dropFirst().prefix { $0 != "/" }
        return variables.contains(String(name))
    }

    /// The path for this user: `~` and the variables expanded; nil for `items`, `output`
    /// and `beside-items`, or for `$XDG_RUNTIME_DIR` when it is unset.
    public func expanded(home: String, xdg: XDGDirectories) -> String? {
        guard case .path(let text) = self else { return nil }
        if text == "~" { return home }
        if text.hasPrefix("~/") { return FileSystem.join(home, String(text.dropFirst(2))) }
        guard text.hasPrefix("$") else { return text }
        let name = String(text.dropFirst().prefix { $0 != "/" })
        let rest = String(text.dropFirst(1 + name.utf8.count).drop { $0 == "/" })
        let base: String?
        switch name {
        case "HOME": base = home
        case "XDG_CONFIG_HOME": base = xdg.configHome
        case "XDG_DATA_HOME": base = xdg.dataHome
        case "XDG_STATE_HOME": base = xdg.stateHome
        case "XDG_CACHE_HOME": base = xdg.cacheHome
        case "XDG_RUNTIME_DIR": base = xdg.runtimeDir
        default: base = nil
        }
        guard let base else { return nil }
        return rest.isEmpty ? base : FileSystem.join(base, rest)
    }

    /// In plain words, for `actshare providers`.
    func words(outputOptions: [String]) -> String {
        switch self {
        case .items: return "the shared items"
        case .output: return "the folder named by option \(outputOptions.joined(separator: " or "))"
        case .besideItems: return "new files beside the shared items (placed there by actshare)"
        case .path(let text): return text
        }
    }

    /// As written in a manifest.
    public var text: String {
        switch self {
        case .items: return "items"
        case .output: return "output"
        case .besideItems: return "beside-items"
        case .path(let text): return text
        }
    }
}
