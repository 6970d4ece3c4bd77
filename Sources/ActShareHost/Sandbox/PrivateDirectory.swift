import ActShareCore
import CActShareSystem
#if canImport(Glibc)
import Glibc
#endif

/// A helper's private temporary directory (its `TMPDIR`, the only place a provider that
/// declares nothing may write), removed with everything in it when the helper is done.
final class PrivateDirectory {
    let path: String

    struct Failure: Error {}

    init() throws {
        let base = Environment.value("TMPDIR").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array("\(base)/actshare-provider-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ProviderProcess.Fault(description: "cannot make a private directory in \(base): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    deinit {
        _ = cactshare_remove_tree(path)
    }
}
