import ActShareCore
import ActShareHandoff

/// The connection to the handoff daemon that actshare opens for a sandboxed provider that
/// declares `handoff: true` (docs/SECURITY.md).
///
/// The daemon acts for no sandboxed process, and the sandbox lets the provider reach no
/// socket of the daemon: this connection, opened by actshare and restricted (`restrict`)
/// to the request's items before the helper gets it, is the provider's only way there.
/// The helper passes it on as descriptor ``descriptor``, named in `ACTSHARE_HANDOFF_FD`.
enum HandoffGrant {
    /// The descriptor the helper and the provider find the connection on.
    static let descriptor: Int32 = 5
    /// The variable that tells the provider so.
    static let variable = "ACTSHARE_HANDOFF_FD"

    /// A restricted connection for `items` (absolute paths), or nil when no daemon runs
    /// (the provider then says that no daemon is running, as it would in process).
    static func open(items: [String]) -> Int32? {
        guard let client = try? ControlClient(path: HandoffPaths.fromEnvironment().controlSocket),
            let answer = try? client.call(ControlRequest(.restrict, paths: items)), answer.ok
        else { return nil }
        // Above the helper's 3, 4 and 5, so that moving the pipes there cannot clobber it.
        let fd = client.duplicateDescriptor(atLeast: 10)
        return fd >= 0 ? fd : nil
    }
}
