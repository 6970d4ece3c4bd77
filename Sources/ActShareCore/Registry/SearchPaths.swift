/// Where actshare finds providers, config, state and cache, following the XDG base
/// directory specification. Relative paths in XDG variables are ignored, as it asks.
public struct SearchPaths: Sendable {
    /// Provider directories, first wins.
    public var providerDirectories: [String]
    /// Where a relative `library:` that is not beside its manifest may be found.
    public var libraryDirectories: [String]
    /// Candidate config files, first existing wins.
    public var configFiles: [String]
    /// `$XDG_STATE_HOME/actshare`: recents, device identity, paired devices.
    public var stateDirectory: String
    /// `$XDG_CACHE_HOME/actshare`: the manifest index.
    public var cacheDirectory: String
    /// The program that parses YAML: the running `actshare` itself, run as
    /// ``manifestHelperName`` (see ``ManifestLoader``).
    public var manifestHelper: String
    /// The name (`argv[0]`) under which `actshare` is the YAML helper.
    public static let manifestHelperName = "actshare-manifests"
    /// `actshare-provider-host`, the helper that runs an isolated provider.
    public var providerHost: String
    /// `actshare-sheet`, the share sheet's window, beside the provider host (built only
    /// where GTK 4 is).
    public var sheet: String { FileSystem.join(FileSystem.directoryName(providerHost), "actshare-sheet") }
    /// `actshare-clipboard-agent`, the daemon's hands on an X display's clipboard (the
    /// Universal Clipboard), beside the provider host.
    public var clipboardAgent: String { FileSystem.join(FileSystem.directoryName(providerHost), "actshare-clipboard-agent") }
    /// `actshare-bluetooth-trigger`, Quick Share's Bluetooth LE signal for the daemon,
    /// beside the provider host.
    public var bluetoothTrigger: String { FileSystem.join(FileSystem.directoryName(providerHost), "actshare-bluetooth-trigger") }
    /// `actshare-daemon`, the handoff daemon `actshare daemon` runs: beside the running
    /// executable in a build tree, `PREFIX/libexec/actshare` when installed. A release
    /// install makes it a link to `actshare`, which then runs ``daemonLibrary``.
    public var daemon = "actshare-daemon"
    /// The name (`argv[0]`) under which `actshare` runs the daemon from ``daemonLibrary``.
    public static let daemonName = "actshare-daemon"
    /// `libactshare-daemon.so`, the daemon's code (SwiftNIO, TLS) without a Swift runtime
    /// of its own: `PREFIX/lib/actshare` when installed from a release build (see
    /// docs/PACKAGING.md), beside the running executable in a build tree.
    public var daemonLibrary = "libactshare-daemon.so"
    /// Where the built-in providers' manifests are (whether or not they are searched).
    public var builtinDirectories: [String] = []
    /// Where `actshare.pc` is, the plugin author's pkg-config file: `.build/pkgconfig` in
    /// a build tree, `PREFIX/lib/pkgconfig` when installed.
    public var pkgConfigDirectory: String?

    public init(providerDirectories: [String], libraryDirectories: [String], configFiles: [String],
                stateDirectory: String, cacheDirectory: String, manifestHelper: String, providerHost: String) {
        self.providerDirectories = providerDirectories
        self.libraryDirectories = libraryDirectories
        self.configFiles = configFiles
        self.stateDirectory = stateDirectory
        self.cacheDirectory = cacheDirectory
        self.manifestHelper = manifestHelper
        self.providerHost = providerHost
    }

    /// The paths from the environment and the location of the running executable.
    ///
    /// Run from a SwiftPM build tree (`…/.build/…/actshare`), the built-in providers'
    /// manifests are in the repository's `.build/manifests`, and their libraries in the
    /// build directory (Swift) or `.build/providers` (C): where meson's build puts them
    /// (meson.build, "uninstalled").
    /// Installed as `PREFIX/bin/actshare`, they are `PREFIX/share/actshare/manifests`
    /// and `PREFIX/lib/actshare`.
    public static func fromEnvironment(configFile: String? = nil) -> SearchPaths {
        let xdg = XDGDirectories.fromEnvironment()

        var providers = FileSystem.pathList(Environment.value("ACTSHARE_PROVIDER_PATH") ?? "").map(FileSystem.absolute)
        providers.append(FileSystem.join(xdg.dataHome, "actshare/providers"))
        providers += xdg.dataDirs.map { FileSystem.join($0, "actshare/providers") }

        var libraries: [String] = []
        var helper = "actshare"
        var daemon = "actshare-daemon"
        var daemonLibrary = "libactshare-daemon.so"
        var providerHost = "actshare-provider-host"
        var builtinDirectories: [String] = []
        var pkgConfigDirectory: String?
        if let executable = FileSystem.executablePath {
            helper = executable
            let binDirectory = FileSystem.directoryName(executable)
            // ACTSHARE_NO_BUILTINS=1 leaves the built-in providers out (for tests and debugging).
            let builtins = Environment.value("ACTSHARE_NO_BUILTINS").map { $0.isEmpty || $0 == "0" } ?? true
            if let repository = buildTreeRepository(of: binDirectory) {
                builtinDirectories.append(FileSystem.join(repository, ".build/manifests"))
                if builtins { providers.append(FileSystem.join(repository, ".build/manifests")) }
                libraries += [binDirectory, FileSystem.join(repository, ".build/providers")]
                daemon = FileSystem.join(binDirectory, "actshare-daemon")
                daemonLibrary = FileSystem.join(binDirectory, "libactshare-daemon.so")
                providerHost = FileSystem.join(repository, ".build/bin/actshare-provider-host")
                pkgConfigDirectory = FileSystem.join(repository, ".build/pkgconfig")
            } else {
                let prefix = FileSystem.directoryName(binDirectory)
                builtinDirectories.append(FileSystem.join(prefix, "share/actshare/manifests"))
                if builtins { providers.append(FileSystem.join(prefix, "share/actshare/manifests")) }
                libraries.append(FileSystem.join(prefix, "lib/actshare"))
                providerHost = FileSystem.join(prefix, "libexec/actshare/actshare-provider-host")
                // Programs actshare runs, not people: out of PATH.
                daemon = FileSystem.join(prefix, "libexec/actshare/actshare-daemon")
                daemonLibrary = FileSystem.join(prefix, "lib/actshare/libactshare-daemon.so")
                pkgConfigDirectory = FileSystem.join(prefix, "lib/pkgconfig")
            }
        }

        let configs = configFile.map { [$0] }
            ?? ([xdg.configHome] + xdg.configDirs).map { FileSystem.join($0, "actshare/config.yaml") }
        var paths = SearchPaths(
            providerDirectories: providers, libraryDirectories: libraries, configFiles: configs,
            stateDirectory: FileSystem.join(xdg.stateHome, "actshare"),
            cacheDirectory: FileSystem.join(xdg.cacheHome, "actshare"), manifestHelper: helper, providerHost: providerHost)
        paths.daemon = daemon
        paths.daemonLibrary = daemonLibrary
        paths.builtinDirectories = builtinDirectories
        paths.pkgConfigDirectory = pkgConfigDirectory
        return paths
    }

    /// The repository holding a SwiftPM build directory, if `directory` is inside `.build`.
    static func buildTreeRepository(of directory: String) -> String? {
        // Plain string search: this runs on every start, where generic collection code
        // costs more in first-use runtime metadata than the work itself.
        var repository: String?
        var prefix = ""
        for component in FileSystem.pathList(directory, separator: "/") {
            if component == ".build" {
                repository = prefix
                break
            }
            prefix += "/" + component
        }
        guard let repository else { return nil }
        return FileSystem.exists(FileSystem.join(repository, "Package.swift")) ? repository : nil
    }
}
