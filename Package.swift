// swift-tools-version:6.0
//
// actshare: a share sheet for Linux.
//
// The targets read bottom-up as the architecture:
//   C interfaces and shims (CActShare, CActShareCall for libffi, CActShareSystem)
//   → ActShareCore   items, content types, manifests, config, registry, routing (loads no code)
//   → ActShareYAML   YAML (libyaml) into nodes with positions
//   → ActShareManifests  manifest and config decoding: the YAML helper (actshare run as actshare-manifests)
//   → ActShareHost   dlopen, libffi calls, sessions
//   → actshare       the command-line interface
// Providers under Providers/ are built as dynamic libraries against CActShare's header only:
// the Swift example here, the C ones by meson (as a plugin author would; SwiftPM would link
// them with the Swift runtime, which a C provider must not need). Release builds are
// scripts/swift-release's, with their compiler flags on its command line.

import PackageDescription

/// The executables' release linking (their targets only: no library target has unsafe
/// flags). Release builds link libstdc++ statically when `scripts/static-libstdc++` has put a link to
/// GCC's libstdc++.a in .build/static-libstdc++ (where ld finds it before libstdc++.so):
/// loading libstdc++.so and binding its 1,700 symbols took a third of a millisecond of every
/// start. Its symbols stay hidden (the static Swift link passes --exclude-libs ALL), so a
/// provider that loads libstdc++.so (poppler, for Print to PDF) gets its own. GCC's
/// unwinder (libgcc) is linked statically too, for the same reason: loading libgcc_s.so
/// took 7 % of a list (no exception crosses into a provider: hooks are C calls).
///
/// They export nothing: the static Swift link passes -export-dynamic, which put every
/// Swift symbol of the package and its dependencies (NIO, BoringSSL...) in the dynamic
/// symbol table, 3 MB in the daemon that nothing looks up (providers call no host symbol).
/// And they are linked by the toolchain's lld with packed relative relocations (DT_RELR,
/// glibc 2.36, Debian 12): the 40,000 pointers the loader fixes at every start take a few
/// kilobytes instead of a megabyte (docs/PACKAGING.md has the figures). The functions the
/// common commands run are placed together (scripts/startup-order.txt, written by
/// scripts/startup-order): a list takes 18 fewer page faults and is 5 % faster; a name the
/// code no longer has is skipped.
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-L", Context.packageDirectory + "/.build/static-libstdc++", "-Xlinker", "--no-export-dynamic",
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xclang-linker", "-static-libgcc",
            "-Xlinker", "--symbol-ordering-file=" + Context.packageDirectory + "/scripts/startup-order.txt",
            "-Xlinker", "--no-warn-symbol-ordering",
        ],
        .when(platforms: [.linux], configuration: .release)),
]

// The release builds' compiler flags are not here but on scripts/swift-release's command
// line, one set for the command line's products and one for the daemon's: a library
// target with unsafe flags cannot be a versioned dependency (ActShareKit is meant to be).

let package = Package(
    name: "actshare",
    products: [
        .executable(name: "actshare", targets: ["actshare"]),
        .executable(name: "actshare-daemon", targets: ["actshare-daemon"]),
        .library(name: "ActShareCore", targets: ["ActShareCore"]),
        .library(name: "ActShareHost", targets: ["ActShareHost"]),
        // For apps: publish user activities the NSUserActivity way.
        .library(name: "ActShareKit", targets: ["ActShareKit"]),
        // For providers written in Swift: the C interface with safe wrappers.
        .library(name: "ActShareProvider", targets: ["ActShareProvider"]),
        // The Swift example provider, loaded by the tests as a third-party one would be.
        .library(name: "reverse", type: .dynamic, targets: ["ExampleReverse"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The handoff daemon only: the CLI links none of these.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // MARK: C interfaces and system libraries
        .target(name: "CActShare", path: "Sources/CActShare"),
        .target(name: "CActShareSystem", path: "Sources/CActShareSystem"),
        // Calls a hook through libffi; shared with actshare-provider-host (built with cc).
        .target(
            name: "CActShareCall", dependencies: ["CActShare"], path: "Sources/CActShareCall",
            linkerSettings: [.linkedLibrary("ffi")]),
        // The handoff daemon's file names, shared with the C Hand Off provider.
        .target(name: "CActShareHandoff", path: "Sources/CActShareHandoff"),
        // The pipe protocol with actshare-provider-host: its specification and C codec.
        .target(name: "CActShareProtocol", path: "Sources/CActShareProtocol"),
        // Multicast socket options and recvmsg's control messages, for discovery.
        .target(name: "CActShareMulticast", path: "Sources/CActShareMulticast"),

        // MARK: The host
        .target(
            name: "ActShareCore",
            dependencies: ["CActShareSystem", "CActShareHandoff"]),
        // libyaml, from Debian's libyaml-dev: the YAML parser (docs/PACKAGING.md says why
        // not Yams: its Foundation brought ICU, 40 MB, into every program reading YAML).
        .systemLibrary(name: "CLibYAML", path: "Sources/CLibYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // YAML read into nodes that know their file, line and column.
        .target(name: "ActShareYAML", dependencies: ["ActShareCore", "CLibYAML"]),
        .target(
            name: "ActShareManifests",
            dependencies: ["ActShareCore", "ActShareYAML"]),
        .target(
            name: "ActShareHost",
            dependencies: ["ActShareCore", "ActShareHandoff", "CActShare", "CActShareCall", "CActShareProtocol", "CActShareSystem"]),
        .executableTarget(
            name: "actshare",
            dependencies: [
                "ActShareCore", "ActShareHost", "ActShareHandoff", "ActShareManifests",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["meson.build"],  // meson's step that runs SwiftPM
            linkerSettings: releaseLinking),

        // MARK: Handoff
        // User activities, the control protocol and its client: no NIO, no TLS (the CLI uses it).
        .target(name: "ActShareHandoff", dependencies: ["ActShareCore", "CActShareHandoff"]),
        // DNS-SD over multicast DNS: the message codec, a responder and a browser.
        .target(name: "ActShareDNSSD", dependencies: ["CActShareMulticast"]),
        // SHA-256, HMAC, HKDF, P-256 and AES over the BoringSSL swift-nio-ssl links (one copy).
        .target(name: "ActShareCrypto", dependencies: [.product(name: "NIOSSL", package: "swift-nio-ssl")]),
        // Quick Share's protocol buffers in C: proto/*.proto through protoc-c
        // (scripts/generate-protobuf; the generated code is committed), on Debian's libprotobuf-c.
        // Each generated function in a section of its own in release builds
        // (scripts/swift-release): the unused ones (most packers) are left out of the
        // daemon's library.
        .target(
            name: "CQuickShareWire", path: "Sources/CQuickShareWire", exclude: ["proto"],
            linkerSettings: [.linkedLibrary("protobuf-c")]),
        // Quick Share: its encodings, key schedule, handshake and framing (the daemon runs it).
        .target(
            name: "ActShareQuickShare",
            dependencies: ["ActShareCore", "ActShareCrypto", "CQuickShareWire", .product(name: "NIOCore", package: "swift-nio")]),
        // The daemon: SwiftNIO, TLS 1.3 with pinned identities, pairing.
        .target(
            name: "ActShareDaemon",
            dependencies: [
                "ActShareHandoff", "ActShareCore", "CActShareSystem", "ActShareDNSSD", "ActShareYAML", "ActShareCrypto", "ActShareQuickShare",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Run as it is by the tests and benchmarks; a release install links its objects as
        // libactshare-daemon.so instead, on actshare's Swift runtime (scripts/link-release).
        .executableTarget(name: "actshare-daemon", dependencies: ["ActShareDaemon", "ActShareManifests", "CActShareSystem"], linkerSettings: releaseLinking),
        // The app-facing API over the control socket, in the shape of NSUserActivity.
        .target(name: "ActShareKit", dependencies: ["ActShareHandoff", "ActShareCore"]),

        // MARK: Providers in Swift
        .target(name: "ActShareProvider", dependencies: ["CActShare"]),
        .target(
            name: "ExampleReverse", dependencies: ["ActShareProvider"],
            path: "Providers/Examples/Reverse", exclude: ["provider.yaml"]),

        // MARK: Benchmarks (Benchmarks/mail-vs-python)
        .executableTarget(
            name: "actshare-mail-throughput", dependencies: ["ActShareCore", "ActShareHost"],
            path: "Benchmarks/MailThroughput", linkerSettings: releaseLinking),

        // MARK: Tests
        // What every test target waits with: `eventually` (docs/TESTING.md).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "ActShareCoreTests",
            dependencies: ["ActShareCore", "ActShareManifests", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "ActShareYAMLTests", dependencies: ["ActShareYAML", "ActShareCore"]),
        .testTarget(name: "ActShareHandoffTests", dependencies: ["ActShareHandoff", "ActShareCore"]),
        .testTarget(name: "ActShareDNSSDTests", dependencies: ["ActShareDNSSD"]),
        .testTarget(
            name: "ActShareCryptoTests", dependencies: ["ActShareCrypto"]),
        .testTarget(
            name: "ActShareQuickShareTests",
            dependencies: [
                "ActShareQuickShare", "ActShareCrypto", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .testTarget(
            name: "ActShareDaemonTests",
            dependencies: [
                "ActShareDaemon", "ActShareCore", "ActShareCrypto", "TestSupport", .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]),
        .testTarget(name: "ActShareHostTests", dependencies: ["ActShareHost", "ActShareCore", "TestSupport"]),
        .testTarget(name: "ActShareProviderTests", dependencies: ["ActShareProvider"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["ActShareCore", "ActShareKit", "CActShareSystem", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
