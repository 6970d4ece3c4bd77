// swift-tools-version:6.0
//
// actshare: a share sheet for Linux.
//
// The targets read bottom-up as the architecture:
//   C shims (CActShare, CLibFFI, CGIO)
//   → ActShareCore   items, content types, manifests, config, registry, routing (loads no code)
//   → ActShareManifests  YAML decoding (Yams), run in the actshare-manifests helper
//   → ActShareHost   dlopen, libffi calls, sessions
//   → actshare       the command-line interface
// Providers under Plugins/ are built as dynamic libraries against CActShare's header only.

import PackageDescription

let hiddenVisibility: [CSetting] = [.unsafeFlags(["-fvisibility=hidden"])]

let package = Package(
    name: "actshare",
    products: [
        .executable(name: "actshare", targets: ["actshare"]),
        .executable(name: "actshare-manifests", targets: ["actshare-manifests"]),
        .library(name: "ActShareCore", targets: ["ActShareCore"]),
        .library(name: "ActShareHost", targets: ["ActShareHost"]),
        // Example providers, loaded by the tests exactly as third-party ones would be.
        .library(name: "hello", type: .dynamic, targets: ["ExampleHello"]),
        .library(name: "wordcount", type: .dynamic, targets: ["ExampleWordCount"]),
        .library(name: "reverse", type: .dynamic, targets: ["ExampleReverse"]),
        // Test fixtures: providers that report on the host's behaviour.
        .library(name: "canary", type: .dynamic, targets: ["FixtureCanary"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
    ],
    targets: [
        // MARK: C interfaces and system libraries
        .target(name: "CActShare", path: "Sources/CActShare"),
        .target(name: "CActShareSystem", path: "Sources/CActShareSystem"),
        .systemLibrary(
            name: "CLibFFI", path: "Sources/CLibFFI", pkgConfig: "libffi",
            providers: [.apt(["libffi-dev"])]),
        .systemLibrary(
            name: "CGIO", path: "Sources/CGIO", pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]),

        // MARK: The host
        .target(
            name: "ActShareCore",
            dependencies: ["CGIO", "CActShareSystem"]),
        .target(
            name: "ActShareManifests",
            dependencies: ["ActShareCore", .product(name: "Yams", package: "Yams")]),
        .executableTarget(
            name: "actshare-manifests",
            dependencies: ["ActShareCore", "ActShareManifests"]),
        .target(
            name: "ActShareHost",
            dependencies: ["ActShareCore", "CActShare", "CLibFFI"]),
        .executableTarget(
            name: "actshare",
            dependencies: [
                "ActShareCore", "ActShareHost",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // MARK: Example providers
        .target(
            name: "ExampleHello", dependencies: ["CActShare"],
            path: "Plugins/Examples/Hello", exclude: ["provider.yaml"],
            cSettings: hiddenVisibility),
        .target(
            name: "ExampleWordCount",
            path: "Plugins/Examples/WordCount", exclude: ["provider.yaml"]),
        .target(
            name: "ExampleReverse", dependencies: ["CActShare"],
            path: "Plugins/Examples/Reverse", exclude: ["provider.yaml"]),

        // MARK: Tests
        .target(
            name: "FixtureCanary",
            path: "Tests/Fixtures/Providers/Canary", exclude: ["provider.yaml"]),
        .testTarget(
            name: "ActShareCoreTests",
            dependencies: ["ActShareCore", "ActShareManifests"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["ActShareCore"]),
    ],
    swiftLanguageModes: [.v6]
)
