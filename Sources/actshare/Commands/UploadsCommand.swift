import ActShareCore
import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// `actshare uploads`: the accounts the Upload activity sends to (config `uploads:`).
struct UploadsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uploads",
        abstract: "Store the password of an upload account (your own cloud, a WebDAV server).",
        discussion: """
            Accounts are listed under uploads: in the config (docs/CONFIG.md). Their \
            passwords or app tokens live in the Secret Service (GNOME Keyring, KWallet), \
            never in the config or on a command line.
            """,
        subcommands: [UploadsLoginCommand.self])
}

/// `actshare uploads login NAME`: asks for the account's password and stores it in the
/// Secret Service, through the Upload provider's own library (libsecret).
struct UploadsLoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Store an upload account's password in the Secret Service.",
        discussion: """
            Asks for the password on the terminal without showing it; without a terminal \
            it reads one line from standard input (printf '%s\\n' "$TOKEN" | actshare \
            uploads login Cloud).
            """)

    @Argument(help: ArgumentHelp("The account's name, as uploads: in the config has it.", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("Read this config file instead of $XDG_CONFIG_HOME/actshare/config.yaml.", valueName: "file"), completion: .file())
    var config: String?

    func run() throws {
        let invocation = try Invocation(configFile: config)
        guard let account = invocation.config.uploads.first(where: { $0.name == name }) else {
            let names = invocation.config.uploads.map(\.name)
            throw CommandFailure(.badInput, names.isEmpty
                ? "no upload account: add one under uploads: in the config (docs/CONFIG.md)"
                : "no upload account is named '\(name)' (the config has: \(names.joined(separator: ", ")))")
        }
        guard let provider = invocation.registry.provider(id: UploadAccount.provider) else {
            throw CommandFailure(.failed, "the Upload provider (\(UploadAccount.provider)) is not installed")
        }
        let password = try Self.readPassword(prompt: Localized.text("Password for %s at %s: ", account.user, account.url))
        guard !password.isEmpty else { throw CommandFailure(.badInput, "no password given: nothing stored") }
        let library = FileSystem.join(FileSystem.directoryName(provider.library), "libwebdav-upload.so")
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL), let symbol = dlsym(handle, "webdav_store_password") else {
            throw CommandFailure(.failed, "cannot load \(library): \(dlerror().map { String(cString: $0) } ?? "no webdav_store_password")")
        }
        typealias Store = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>,
                                          UnsafePointer<CChar>, UnsafeMutablePointer<CChar>, Int) -> Int32
        var error = [CChar](repeating: 0, count: 600)
        let stored = unsafeBitCast(symbol, to: Store.self)(account.url, account.user, account.pin, "actshare: upload account \(account.name)", password,
                                                            &error, error.count)
        guard stored == 0 else { throw CommandFailure(.failed, Phrase(verbatim: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))) }
        StandardStreams.out(Localized.text("Stored the password of %s in the Secret Service.", account.name) + "\n")
    }

    /// The password: typed on the terminal with echo off, or one line of standard input.
    static func readPassword(prompt: String) throws -> String {
        let terminal = isatty(0) != 0
        var saved = termios()
        if terminal {
            StandardStreams.err(prompt)
            tcgetattr(0, &saved)
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSAFLUSH, &quiet)
        }
        defer {
            if terminal {
                tcsetattr(0, TCSAFLUSH, &saved)
                StandardStreams.err("\n")
            }
        }
        // One line, bounded: a password or token is never this long.
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 4096, read(0, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
