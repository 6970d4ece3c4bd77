import ActShareCore
import ArgumentParser

/// The languages `providers new` writes a provider in.
enum ProviderLanguage: String, ExpressibleByArgument, CaseIterable {
    case c, cpp, rust, swift
}

/// `actshare providers new --lang LANG ID [DIR]`: a provider that builds and passes
/// `providers check` as written.
struct ProvidersNewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new provider: a manifest, a source file and a build script (for plugin authors).",
        discussion: """
            The provider has one activity, ID.describe, which hands back a line about each \
            item. Run DIR/build.sh (it finds actshare's header through pkg-config), then \
            `actshare providers check DIR`, then try it with \
            ACTSHARE_PROVIDER_PATH=DIR actshare list FILE. C needs cc, C++ c++, Rust cargo \
            (offline: the crate has no dependencies but actshare's), Swift swiftc.
            """)

    @Option(help: ArgumentHelp("The language: c, cpp, rust or swift.", valueName: "language"))
    var lang: ProviderLanguage = .c

    @Argument(help: ArgumentHelp("The provider's id, reverse-DNS, such as org.example.hello.", valueName: "id"))
    var id: String

    @Argument(help: ArgumentHelp("The directory to create (default: the id's last part, here).", valueName: "dir"), completion: .directory)
    var directory: String?

    func run() throws {
        guard ReverseDNS.isValid(id) else {
            throw CommandFailure(.badInput, "'\(id)' is not a provider id such as org.example.hello")
        }
        let paths = SearchPaths.fromEnvironment()
        let scaffold = ProviderScaffold(
            id: id, language: lang, pkgConfigDirectory: paths.pkgConfigDirectory ?? "",
            rustCrate: Self.rustCrate(paths))
        let target = directory ?? scaffold.name
        if let contents = FileSystem.contents(ofDirectory: target), !contents.isEmpty {
            throw CommandFailure(.badInput, "\(target) exists and is not empty: name a new directory")
        }
        do {
            try FileSystem.createDirectories(target)
            for file in scaffold.files {
                let path = FileSystem.join(target, file.name)
                try FileSystem.createDirectories(FileSystem.directoryName(path))
                try FileSystem.writeAtomically(Array(file.contents.utf8), to: path)
                if file.executable { _ = chmod(path, 0o755) }
            }
        } catch let error as ActShareError {
            throw CommandFailure(error)
        }
        let names = scaffold.files.map(\.name).joined(separator: ", ")
        StandardStreams.out("""
            created \(id) in \(target): \(names)
            build:  \(target)/build.sh
            check:  actshare providers check \(target)
            try:    ACTSHARE_PROVIDER_PATH=\(FileSystem.absolute(target)) actshare perform \(id).describe FILE

            """)
    }

    /// The Rust crate: beside the repository's sources, or installed under share/.
    private static func rustCrate(_ paths: SearchPaths) -> String {
        guard let pkgconfig = paths.pkgConfigDirectory else { return "actshare-provider" }
        // .build/pkgconfig → the repository; PREFIX/lib/pkgconfig → PREFIX.
        let up = FileSystem.directoryName(FileSystem.directoryName(pkgconfig))
        if FileSystem.baseName(FileSystem.directoryName(pkgconfig)) == ".build" {
            return FileSystem.join(up, "bindings/rust/actshare-provider")
        }
        return FileSystem.join(up, "share/actshare/rust/actshare-provider")
    }
}

#if canImport(Glibc)
import Glibc
#endif
