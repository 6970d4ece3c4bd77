import ActShareCore
import CActShareSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The user's sandbox settings (config `sandbox:` and `limits:`), and what every
/// sandboxed helper gets: a clean environment and one warning on a kernel without
/// Landlock.
public struct SandboxSettings: Sendable {
    /// Whether a provider must not run unsandboxed (config `sandbox: required`).
    public var required: Bool
    public var limits: SandboxLimits

    public init(required: Bool = false, limits: SandboxLimits = SandboxLimits()) {
        self.required = required
        self.limits = limits
    }

    /// The variables a provider keeps: who and where the user is, the language, the
    /// display, and actshare's own. Tokens, agents' sockets and the rest stay behind.
    static let keptVariables: [StaticString] = [
        "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "PATH", "EMAIL", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY",
        "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_DIRS",
        "XDG_DATA_DIRS", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP",
    ]

    /// The helper's environment: the kept variables, `LC_*` and `ACTSHARE_*`, the session
    /// bus's address for a provider granted it, and `TMPDIR` pointing at its private
    /// directory if it has one (the user's own `TMPDIR` is never kept).
    static func environment(privateDirectory: String?, permissions: ProviderPermissions) -> [String] {
        var entries: [String] = []
        var pointer = cactshare_environ()
        while let entry = pointer?.pointee {
            // Names compared as bytes, and only what is kept made a String: this runs
            // before every helper's spawn, on the path a list waits for.
            let name = UnsafeRawBufferPointer(start: entry, count: strcspn(entry, "="))
            if keptVariables.contains(where: { Self.equal($0, name) }) || name.starts(with: "LC_".utf8)
                || (name.starts(with: "ACTSHARE_".utf8) && !Self.equal("ACTSHARE_ISOLATION", name) && !HandoffGrant.variable.utf8.elementsEqual(name))
                || (permissions.dbus == .session && name.elementsEqual("DBUS_SESSION_BUS_ADDRESS".utf8))
            {
                entries.append(String(cString: entry))
            }
            pointer = pointer?.advanced(by: 1)
        }
        if let privateDirectory { entries.append("TMPDIR=\(privateDirectory)") }
        return entries
    }

    private static func equal(_ name: StaticString, _ bytes: UnsafeRawBufferPointer) -> Bool {
        name.withUTF8Buffer { $0.elementsEqual(bytes) }
    }

    private static let warned = Atomic(false)

    /// Says once per run, on standard error, that providers run unsandboxed here.
    static func warnUnsandboxedOnce() {
        if !warned.exchange(true, ordering: .relaxed) { FileSystem.writeAll(Array((unsandboxedWarning + "\n").utf8), to: 2) }
    }

    /// What `providers` and the warning say on a kernel without Landlock.
    public static let unsandboxedWarning =
        "actshare: warning: not sandboxed: this kernel has no Landlock, so providers can read and change all of your files (config 'sandbox: required' refuses to run them)"
}
