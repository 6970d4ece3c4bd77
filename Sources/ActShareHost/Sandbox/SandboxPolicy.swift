import ActShareCore
import CActShareProtocol
#if canImport(Glibc)
import Glibc
#endif

/// What one helper process's sandbox allows: each path with its rights, the network,
/// programs, and the resource limits.
///
/// Made from the provider's `permissions:`, the request's items and options, and this
/// user's directories; the helper only enforces it (`sandbox.c`). A path that does not
/// exist grants nothing.
struct SandboxPolicy: Equatable {
    struct Rule: Equatable {
        var path: String
        var rights: UInt8
    }

    var rules: [Rule] = []
    /// Where each path's rule is in `rules`: a request of 100,000 items adds as many.
    private var ruleIndex: [String: Int] = [:]
    var network: Bool
    var exec: Bool
    /// Whether it may open Unix sockets, to connect to `sockets` only.
    var unixSockets: Bool
    /// Whether it may make memory files and System V shared memory (a display client).
    var sharedMemory: Bool
    /// The Unix sockets it may connect to (``SessionSockets``).
    var sockets: [[UInt8]] = []
    /// Output files granted alone (a file the user named in a broad folder, such as the
    /// home folder): made, empty, before the helper starts (``OutputFile``), as a rule
    /// names only what exists.
    var outputFiles: [String] = []
    /// Whether the helper must refuse to run without Landlock (config `sandbox: required`).
    var required = false
    var limits: SandboxLimits

    /// What every provider may read: the system's programs, libraries and data, its
    /// configuration in `/etc` (which libraries read on their own: the loader's cache,
    /// fonts, time zones, locale, certificates, `passwd`; what is secret there is the
    /// system's, closed to users already), the font cache, and the process's own
    /// information. Few rules: each costs the helper's start (Benchmarks/isolation-cost).
    static let systemReadable = [
        "/usr", "/lib", "/lib64", "/bin", "/sbin", "/opt", "/etc", "/var/cache/fontconfig",
        "/proc", "/sys/devices/system/cpu", "/sys/fs/cgroup", "/dev/zero", "/dev/urandom", "/dev/random",
    ]
    /// ``systemReadable`` less the links into another of its folders (`/bin`, `/sbin`,
    /// `/lib` and `/lib64` into `/usr`, where `/usr` is merged): Landlock follows a link
    /// when the rule is made, so such a rule would repeat the folder's, at a cost to every
    /// helper's start. Looked at once per process.
    static let systemReadableRules: [String] = systemReadable.filter { path in
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let target = FileSystem.resolved(path) else { return true }
        return !systemReadable.contains { $0 != path && (target == $0 || target.hasPrefix($0 + "/")) }
    }
    /// What every provider may write besides its private directory.
    static let systemWritable = ["/dev/null"]

    /// The helper's private `TMPDIR`, the one place it may write whatever it declares
    /// (nil for a helper that runs only `can-perform` hooks: ``HookPhase``).
    var privateDirectory: String?

    init(manifest: ProviderManifest, request: ActivityRequest, privateDirectory: String?, limits: SandboxLimits,
         home: String = FileSystem.homeDirectory, xdg: XDGDirectories = .fromEnvironment(),
         variable: (String) -> String? = Environment.value) {
        let permissions = manifest.permissions
        network = permissions.network
        exec = permissions.exec
        unixSockets = permissions.reachesUnixSockets
        sharedMemory = permissions.display
        self.limits = limits
        let execute = permissions.exec ? UInt8(ASP_RIGHT_EXEC) : 0
        let read = UInt8(ASP_RIGHT_READ), write = UInt8(ASP_RIGHT_WRITE)
        for path in Self.systemReadableRules { add(path, read | execute) }
        add(FileSystem.directoryName(manifest.file), read | execute)
        add(FileSystem.directoryName(manifest.library), read | execute)
        for path in Self.systemWritable { add(path, read | write) }
        self.privateDirectory = privateDirectory
        if let privateDirectory { add(privateDirectory, read | write) }
        if unixSockets {
            let session = SessionSockets(
                display: permissions.display, dbus: permissions.dbus == .session, home: home, runtimeDirectory: xdg.runtimeDir,
                variable: variable)
            sockets = session.addresses
            for file in session.readableFiles { add(file, read) }
        }
        for (places, rights) in [(permissions.read, read | execute), (permissions.write, read | write)] {
            for place in places {
                switch place {
                case .items:
                    let pinned = request.items.filter(\.pinned).compactMap(\.path)
                    for path in Self.itemGrants(request.items.filter { !$0.pinned }.compactMap(\.path)) { add(path, rights) }
                    for path in pinned { add(path, rights | UInt8(ASP_RIGHT_NO_LINKS)) }
                case .output:
                    for option in permissions.outputOptions {
                        switch request.option(option).flatMap({ Self.outputGrant($0, home: home, xdg: xdg) }) {
                        case .folder(let folder): add(folder, rights)
                        case .file(let file):
                            add(file, rights)
                            if !outputFiles.contains(file) { outputFiles.append(file) }
                        case nil: break
                        }
                    }
                case .path:
                    if let path = place.expanded(home: home, xdg: xdg) { add(path, rights) }
                case .besideItems:
                    // Nothing in the sandbox: actshare places the files (ReturnedFiles).
                    break
                }
            }
        }
    }

    /// What an output option's value grants.
    enum OutputGrant: Equatable {
        /// Writing in a folder.
        case folder(String)
        /// Writing one file, and nothing else in its folder.
        case file(String)
    }

    /// The grant for an output option's value: the folder it names, or the folder of the
    /// file it names, unless that folder is a broad place (``OutputPlace/isBroad``: the
    /// home folder, a hidden folder of it…): then the file alone.
    static func outputGrant(_ value: String, home: String, xdg: XDGDirectories) -> OutputGrant? {
        guard let folder = outputFolder(value, home: home) else { return nil }
        guard let file = outputPath(value, home: home), folder != file else { return .folder(folder) }
        let resolved = FileSystem.resolved(folder) ?? folder
        return OutputPlace.isBroad(resolved, home: FileSystem.resolved(home) ?? home, xdg: xdg) ? .file(file) : .folder(folder)
    }

    /// The path an output option's value names: `~/` is the user's, as a shell would have
    /// it, and a `kind:` before the path (`maildir:~/Mail`) is left aside; nil for one that
    /// is relative or has `..` in it.
    static func outputPath(_ value: String, home: String) -> String? {
        var path = value
        if !path.hasPrefix("/") && !path.hasPrefix("~"), let colon = path.firstIndex(of: ":") {
            path = String(path[path.index(after: colon)...])
        }
        if path == "~" { path = home } else if path.hasPrefix("~/") { path = FileSystem.join(home, String(path.dropFirst(2))) }
        guard path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return nil }
        return path
    }

    /// The folder an output option's value names: the value itself when it is a folder,
    /// else the folder of the file it names.
    static func outputFolder(_ value: String, home: String) -> String? {
        guard let path = outputPath(value, home: home) else { return nil }
        return FileSystem.isDirectory(path) ? path : FileSystem.directoryName(path)
    }

    private mutating func add(_ path: String, _ rights: UInt8) {
        guard path.hasPrefix("/") else { return }
        if let index = ruleIndex[path] {
            rules[index].rights |= rights
        } else {
            ruleIndex[path] = rules.count
            rules.append(Rule(path: path, rights: rights))
        }
    }

    /// The paths that grant `items`: each item, except that a folder every entry of which
    /// is shared is granted whole (one rule for `ls | xargs actshare …`, and nothing more
    /// than was shared). Folders with fewer shared items than this are not looked into.
    static func itemGrants(_ items: [String]) -> [String] {
        let byFolder = Dictionary(grouping: Set(items), by: FileSystem.directoryName)
        var grants: [String] = []
        var whole = Set<String>()
        for folder in byFolder.keys.sorted() {
            guard let shared = byFolder[folder], shared.count >= minimumFolderItems else { continue }
            if let entries = FileSystem.contents(ofDirectory: folder), entries.count == shared.count,
               Set(entries.map { FileSystem.join(folder, $0) }) == Set(shared) {
                whole.insert(folder)
                grants.append(folder)
            }
        }
        var seen = Set<String>()
        for item in items where !whole.contains(FileSystem.directoryName(item)) && seen.insert(item).inserted { grants.append(item) }
        return grants
    }

    /// Shared items in one folder from which its entries are counted (``itemGrants(_:)``).
    static let minimumFolderItems = 64

    /// The rules in words, for `--explain`: "read /usr, /etc; read and write /tmp/…; no
    /// network; no programs; 4096 MiB of memory, …".
    var description: String {
        let read = UInt8(ASP_RIGHT_READ), write = UInt8(ASP_RIGHT_WRITE), execute = UInt8(ASP_RIGHT_EXEC)
        var groups: [String] = []
        for (rights, words) in [(read, "read"), (read | execute, "read and run"), (read | write, "read and write"),
                                (read | write | execute, "read, write and run")] {
            let paths = rules.filter { $0.rights & ~UInt8(ASP_RIGHT_NO_LINKS) == rights }.map { PathName.display($0.path) }
            if !paths.isEmpty { groups.append("\(words) \(paths.joined(separator: ", "))") }
        }
        groups.append(network ? "network" : "no network")
        groups.append(
            unixSockets
                ? "Unix sockets: \(sockets.isEmpty ? "none found" : sockets.map(Self.socketName).joined(separator: ", "))"
                : "no Unix sockets")
        groups.append(exec ? "programs (\(limits.processes) processes more)" : "no programs")
        groups.append(
            "\(limits.memory >> 20) MiB of memory, files up to \(limits.fileSize >> 20) MiB, "
                + (privateDirectory == nil ? "no temporary files" : "temporary files up to \(temporaryFiles >> 20) MiB")
                + ", \(limits.openFiles) open files")
        if sharedMemory { groups.append("memory files (for the display)") }
        return groups.joined(separator: "; ")
    }

    /// What the private TMPDIR may hold: its own limit, and never more than the memory;
    /// 0 (no file system made) without one.
    var temporaryFiles: UInt64 { privateDirectory == nil ? 0 : min(limits.temporaryFiles, limits.memory) }

    /// A socket address as ss(8) shows it: a path, or @ and an abstract name.
    static func socketName(_ address: [UInt8]) -> String {
        address.first == 0 ? "@" + PathName.display(PathName.decode(address.dropFirst())) : PathName.display(PathName.decode(address))
    }

    /// The SANDBOX frame that asks the helper to enforce this.
    var frame: Frame {
        var frame = Frame(.sandbox)
        frame.append(UInt8(
            (network ? ASP_SANDBOX_NETWORK : 0) | (exec ? ASP_SANDBOX_EXEC : 0) | (required ? ASP_SANDBOX_REQUIRED : 0)
                | (unixSockets ? ASP_SANDBOX_UNIX : 0) | (sharedMemory ? ASP_SANDBOX_SHARED_MEMORY : 0)))
        frame.append(UInt32(rules.count))
        for rule in rules {
            frame.append(rule.rights)
            frame.append(bytes: PathName.bytes(rule.path))
        }
        frame.append(limits.memory)
        frame.append(limits.fileSize)
        frame.append(limits.openFiles)
        frame.append(exec ? limits.processes : 0)
        frame.append(temporaryFiles)
        frame.append(UInt32(sockets.count))
        for address in sockets {
            let abstract = address.first == 0
            frame.append(UInt8(abstract ? 1 : 0))
            frame.append(bytes: abstract ? Array(address.dropFirst()) : address)
        }
        return frame
    }
}
