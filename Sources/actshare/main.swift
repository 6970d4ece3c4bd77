import ActShareCore
import ActShareManifests
import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

// A provider that closes its pipe, or leaves standard input unread, fails with EPIPE
// where the write happens; the signal would end actshare with no word said.
signal(SIGPIPE, SIG_IGN)

// Runs the command with actshare's exit codes: argument-parser's usage errors exit 2
// (not EX_USAGE), and every error is one line on stderr starting with "actshare:".
// The arguments as the kernel gave them: a file name that is not UTF-8 is kept byte for
// byte (PathName), where CommandLine.arguments would replace its bytes with U+FFFD.
let arguments = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map { PathName.decode(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? ""
}

// Run as `actshare-manifests` (by ManifestLoader), this program is the YAML helper: one
// executable, one copy of the Swift runtime, for both (docs/PACKAGING.md).
// Run as `actshare-daemon` (a release install's link to it), it runs the handoff daemon
// from its library.
if let zero = CommandLine.unsafeArgv[0] {
    switch FileSystem.baseName(String(cString: zero)) {
    case SearchPaths.manifestHelperName: ManifestsHelper.main(arguments)
    case SearchPaths.daemonName: DaemonLibrary.run(SearchPaths.fromEnvironment().daemonLibrary)
    default: break
    }
}

do {
    switch FastPath.command(arguments) {
    case .list(let items, let options)?:
        try ListRunner(items: items, options: options).run()
    case .perform(let type, let items, let options)?:
        try PerformCommand.perform(type, items: items, options: options)
    case nil:
        var command = try ActShareCommand.parseAsRoot(arguments)
        try command.run()
    }
    exit(ExitStatus.completed.rawValue)
} catch {
    // An error of the core or the host ends the command as its CommandFailure says.
    if let failure = (error as? CommandFailure) ?? (error as? ActShareError).map(CommandFailure.init) {
        if let message = failure.message {
            JSONFailure.printIfAsked(arguments, error: message.description)
            StandardStreams.error(message.translated)
        }
        exit(failure.status.rawValue)
    }
    let code = ActShareCommand.exitCode(for: error)
    if code == .success {
        StandardStreams.out(ActShareCommand.fullMessage(for: error) + "\n")
        exit(0)
    }
    JSONFailure.printIfAsked(arguments, error: ActShareCommand.message(for: error))
    // actshare's own checks (its commands' ValidationError) are said in the person's
    // language; what argument-parser says of the command line is its own, in English.
    StandardStreams.error(Localized.lookup(ActShareCommand.message(for: error)))
    // argument-parser's full message names the (sub)command whose usage was broken, in
    // "See 'actshare handoff pair --help' for more information."
    let full = ActShareCommand.fullMessage(for: error)
    let help = full.split(separator: "\n").lazy.compactMap { line -> Substring? in
        guard let quote = line.firstIndex(of: "'"), line[..<quote].hasSuffix("See ") else { return nil }
        let rest = line[line.index(after: quote)...]
        return rest.firstIndex(of: "'").map { rest[..<$0] }
    }.first
    StandardStreams.err(Localized.text("Usage: see '%s'.", help ?? "actshare --help") + "\n")
    exit(ExitStatus.badInput.rawValue)
}
