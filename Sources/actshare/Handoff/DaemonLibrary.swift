import ActShareCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs the handoff daemon from `libactshare-daemon.so`: what `actshare` does when it is
/// run as `actshare-daemon` (a release install's link to it).
///
/// The library holds the daemon's code (SwiftNIO, TLS) and no Swift runtime: it uses this
/// program's, which exports what the library needs (scripts/link-release). So the package
/// carries one runtime, and the command line never loads NIO or TLS: only a daemon opens
/// the library. Its path comes from where this executable is (SearchPaths), never from
/// the environment, and it must be the library of this actshare's own link (ReleaseLink).
enum DaemonLibrary {
    /// The daemon's entry point in the library: its `main`, under SwiftPM's name for the
    /// `actshare-daemon` executable's.
    static let entryPoint = "actshare_daemon_main"

    static func run(_ library: String) -> Never {
        func fail(_ message: String) -> Never {
            StandardStreams.error(message)
            exit(ExitStatus.failed.rawValue)
        }
        // Checked before it is loaded: loading runs its constructors on this runtime.
        guard let expected = ReleaseLink.daemonLibraryBuildID else {
            fail("this actshare was not linked with a daemon library (scripts/link-release): run the actshare-daemon program of its build")
        }
        let found = ReleaseLink.buildID(ofFile: library)
        guard found == expected else {
            fail("\(library) is not the daemon library this actshare was built with (its build id is \(found ?? "missing"), "
                + "actshare's is \(expected)): the two come from one build; reinstall actshare")
        }
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            fail("cannot load the daemon: \(dlerror().map { String(cString: $0) } ?? library)")
        }
        guard let symbol = dlsym(handle, entryPoint) else { fail("\(library) has no \(entryPoint)") }
        typealias Main = @convention(c) (Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32
        exit(unsafeBitCast(symbol, to: Main.self)(CommandLine.argc, CommandLine.unsafeArgv))
    }
}
