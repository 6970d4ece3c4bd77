import Foundation
import Testing

/// The app developer's kit: an app's package takes ActShareKit as SwiftPM takes any
/// dependency from others, by version. SwiftPM refuses a versioned dependency whose
/// targets carry unsafe flags, so none of ActShareKit's may (the release flags are
/// scripts/swift-release's command line).
@Suite struct AppSDKTests {
    @Test func anAppDependsOnActShareKitByVersion() throws {
        let work = NSTemporaryDirectory() + "actshare-app-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: work) }
        // This repository as the app sees it: a clone of what is committed, tagged.
        let repository = "\(work)/actshare"
        let git = { (arguments: [String]) throws -> Run in
            try Sandbox.execute("/usr/bin/git", arguments, environment: ProcessInfo.processInfo.environment, stdin: nil, timeout: 120)
        }
        let cloned = try git(["clone", "--quiet", Sandbox.repository, repository])
        try #require(cloned.status == 0, "\(cloned.stderr)")
        #expect(try git(["-C", repository, "tag", "9.9.9"]).status == 0)
        try Sandbox.write("""
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "notes",
                dependencies: [.package(url: "file://\(repository)", exact: "9.9.9")],
                targets: [.executableTarget(name: "notes", dependencies: [.product(name: "ActShareKit", package: "actshare")])]
            )
            """, to: "\(work)/notes/Package.swift")
        try Sandbox.write("""
            import ActShareKit
            let activity = UserActivity(activityType: "org.example.notes.editing")
            activity.title = "Shopping list"
            print(activity.activityType, activity.title ?? "")
            """, to: "\(work)/notes/Sources/notes/main.swift")
        // The compilers' environment (HOME has SwiftPM's cache of the dependencies).
        let built = try Sandbox.execute("/usr/bin/env", ["swift", "build", "--package-path", "\(work)/notes"],
                                        environment: ProcessInfo.processInfo.environment, stdin: nil, timeout: 900)
        #expect(built.status == 0, "\(built.stdout.suffix(2000))\(built.stderr.suffix(2000))")
        #expect(!built.stderr.contains("unsafe build flags"), "\(built.stderr)")
        let ran = try Sandbox.execute("\(work)/notes/.build/debug/notes", [], environment: [:], stdin: nil)
        #expect(ran.stdout == "org.example.notes.editing Shopping list\n", "\(ran.stderr)")
    }
}
