import ActShareCore
import CActShareProtocol

/// Something the sandbox refused a provider (a REFUSED frame), in the user's words.
struct SandboxRefusal {
    var what: Int32
    var subject: String

    /// "org.example.x tried to open /home/u/.ssh/id_ed25519, which its manifest does not allow".
    func description(provider: String) -> String {
        let shown = PathName.display(subject)
        switch Int(what) {
        case ASP_REFUSED_OPEN:
            return "\(provider) tried to open \(shown), which its manifest does not allow"
        case ASP_REFUSED_CONNECT:
            return "\(provider) tried to connect to \(shown), which its manifest does not allow (no network)"
        case ASP_REFUSED_SOCKET where subject == "1":
            return "\(provider) tried to open a Unix socket (to reach another program), which its manifest does not allow (no display, no D-Bus)"
        case ASP_REFUSED_UNIX:
            return "\(provider) tried to connect to \(shown), a Unix socket its manifest does not allow (only its display and D-Bus sockets)"
        case ASP_REFUSED_SOCKET:
            return "\(provider) tried to open a network socket (address family \(shown)), which its manifest does not allow (no network)"
        case ASP_REFUSED_EXEC:
            return "\(provider) tried to run \(shown), which its manifest does not allow (exec: false)"
        case ASP_REFUSED_PROCESS:
            return "\(provider) tried to start a process, which its manifest does not allow (exec: false)"
        case ASP_REFUSED_CALL:
            return "\(provider) tried to use \(shown), a system call no provider may use"
        default:
            return "\(provider) was refused something by its sandbox (\(what): \(shown))"
        }
    }
}
