import Foundation
import Testing
@testable import ActShareCore
@testable import ActShareManifests

/// `permissions:`: its places, how they expand for a user, its words, and its decoding.
@Suite struct PermissionsTests {
    let xdg = XDGDirectories(
        dataHome: "/h/data", dataDirs: [], configHome: "/h/config", configDirs: [], stateHome: "/h/state", cacheHome: "/h/cache",
        runtimeDir: nil)

    @Test func placesParseAndExpand() {
        #expect(PermissionPlace("items") == .items)
        #expect(PermissionPlace("output") == .output)
        for text in ["Documents", "./x", "~user/x", "$PATH/x", "~/a/../b", "/etc/../root", "$XDG_CONFIG_HOMEX"] {
            #expect(PermissionPlace(text) == nil, "\(text)")
        }
        let cases: [(String, String?)] = [
            ("~", "/home/u"), ("~/Music", "/home/u/Music"), ("$HOME/x", "/home/u/x"), ("/srv/data", "/srv/data"),
            ("$XDG_CONFIG_HOME", "/h/config"), ("$XDG_DATA_HOME/fonts", "/h/data/fonts"), ("$XDG_CACHE_HOME/fc", "/h/cache/fc"),
            ("$XDG_STATE_HOME/actshare", "/h/state/actshare"), ("$XDG_RUNTIME_DIR/x", nil),
        ]
        for (text, expanded) in cases {
            #expect(PermissionPlace(text)?.expanded(home: "/home/u", xdg: xdg) == expanded, "\(text)")
        }
    }

    @Test func permissionsInWordsAndBroadOnes() {
        #expect(ProviderPermissions.standard.summary == "reads the shared items; writes nothing of yours; no network; runs no programs")
        let broad = ProviderPermissions(read: [.items, .path("~")], write: [.output, .path("~/.ssh")], outputOptions: ["output-dir", "output"],
                                        network: true, exec: true)
        #expect(broad.summary == "reads the shared items, ~; writes to the folder named by option output-dir or output, ~/.ssh; uses the network; runs programs")
        #expect(broad.broadPlaces.map { "\($0.key) \($0.place)" } == ["read ~", "write ~/.ssh"])
        #expect(ProviderPermissions(read: []).summary.hasPrefix("reads nothing of yours"))
    }

    @Test func theManifestKeyDecodes() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let file = "\(directory)/provider.yaml"
        try Fixtures.write("""
            schema: actshare/provider@1
            id: org.example.p
            name: P
            version: 1
            library: \(Fixtures.path("manifests/libfake.so"))
            permissions:
              read: [items, "~", $XDG_DATA_HOME/p]
              write: [output]
              output-option: [dir, file]
              network: true
            activities:
              - type: org.example.p.go
                title: Go
                options: [{name: dir, type: string}, {name: file, type: string}]
                hooks: {perform: go}
            """, to: file)
        let manifest = try ManifestDecoder().decode(file: file)
        #expect(manifest.permissions == ProviderPermissions(
            read: [.items, .path("~"), .path("$XDG_DATA_HOME/p")], write: [.output], outputOptions: ["dir", "file"], network: true))
        #expect(ManifestDecoder().problems(file: file).map(\.description) == [
            "\(file):7:9: warning: 'permissions.read' lists '~', which lets the provider read every file there; list only the folders it needs",
        ])
    }
}
