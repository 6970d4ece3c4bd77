/// The XDG base directories, from the environment with the specification's defaults.
/// Relative paths in the variables are ignored, as the specification asks.
public struct XDGDirectories: Sendable {
    public var dataHome: String
    public var dataDirs: [String]
    public var configHome: String
    public var configDirs: [String]
    public var stateHome: String
    public var cacheHome: String
    /// `$XDG_RUNTIME_DIR`, or nil when it is unset (there is no default).
    public var runtimeDir: String?

    public static func fromEnvironment() -> XDGDirectories {
        let home = FileSystem.homeDirectory
        return XDGDirectories(
            dataHome: absolute("XDG_DATA_HOME") ?? FileSystem.join(home, ".local/share"),
            dataDirs: absoluteList("XDG_DATA_DIRS") ?? ["/usr/local/share", "/usr/share"],
            configHome: absolute("XDG_CONFIG_HOME") ?? FileSystem.join(home, ".config"),
            configDirs: absoluteList("XDG_CONFIG_DIRS") ?? ["/etc/xdg"],
            stateHome: absolute("XDG_STATE_HOME") ?? FileSystem.join(home, ".local/state"),
            cacheHome: absolute("XDG_CACHE_HOME") ?? FileSystem.join(home, ".cache"),
            runtimeDir: absolute("XDG_RUNTIME_DIR"))
    }

    private static func absolute(_ name: String) -> String? {
        guard let value = Environment.value(name), value.hasPrefix("/") else { return nil }
        return value
    }

    private static func absoluteList(_ name: String) -> [String]? {
        guard let value = Environment.value(name) else { return nil }
        let dirs = FileSystem.pathList(value).filter { $0.hasPrefix("/") }
        return dirs.isEmpty ? nil : dirs
    }
}
