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

    /// The new keys decode, and `providers check` explains each; a bus other than the
    /// session's, or an output default in a broad place, is an error at its position.
    @Test func displayBusHandoffAndOutputDefaults() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let file = "\(directory)/provider.yaml"
        func manifest(_ permissions: String, default value: String = "~/Documents") -> String {
            """
            schema: actshare/provider@1
            id: org.example.p
            name: P
            version: 1
            library: \(Fixtures.path("manifests/libfake.so"))
            permissions:
            \(permissions)
              write: [output]
              output-option: out
            activities:
              - type: org.example.p.go
                title: Go
                options: [{name: out, type: string, default: "\(value)"}]
                hooks: {perform: go}
            """
        }
        try Fixtures.write(manifest("  display: true\n  dbus: session\n  handoff: true"), to: file)
        let decoded = try ManifestDecoder().decode(file: file)
        #expect(decoded.permissions.display && decoded.permissions.dbus == .session && decoded.permissions.handoff)
        #expect(decoded.permissions.summary.hasSuffix("uses the display (it can see and type into your windows on X11); talks to programs on the session bus (D-Bus); hands the shared items to your paired devices, or to the phone that scans the QR code it shows"))
        let explained = ManifestDecoder().problems(file: file).map(\.description)
        #expect(explained.contains { $0.hasPrefix("\(file):7:12: note: 'permissions.display' lets the provider reach this session's display server") }, "\(explained)")
        #expect(explained.contains { $0.hasPrefix("\(file):8:9: warning: 'permissions.dbus' gives the provider the whole session bus") }, "\(explained)")
        #expect(explained.contains { $0.hasPrefix("\(file):9:12: note: 'permissions.handoff' lets the provider send the shared items") }, "\(explained)")

        try Fixtures.write(manifest("  dbus: system"), to: file)
        #expect(ManifestDecoder().problems(file: file).map(\.description).contains(
            "\(file):7:9: error: 'permissions.dbus' is 'system'; write session (the user's session bus) or none (the system bus is never granted)"))

        for (value, problem) in [
            ("~/.bashrc", "is in the home folder's hidden files, where its configuration lives"), ("~", "is the home folder"),
            ("$XDG_CONFIG_HOME/autostart", "is among the user's own configuration, data and state"), ("/", "is the whole file system"),
            ("mbox:~/.mail", "is in the home folder's hidden files, where its configuration lives"), ("/home/u", "is a home folder or the folder of them"),
        ] {
            try Fixtures.write(manifest("  read: [items]", default: value), to: file)
            let problems = ManifestDecoder().problems(file: file).map(\.description)
            #expect(problems == ["\(file):13:50: error: 'activities[0].options[0].default' of output option 'out' is '\(value)', which \(problem): the provider could change what is there for every user who does not choose; name a folder of its own, such as ~/Documents"], "\(value): \(problems)")
            #expect(throws: ActShareError.self) { try ManifestDecoder().decode(file: file) }
        }
        for value in ["~/Documents", "~/Documents/out.pdf", "maildir:~/Mail", "/srv/out"] {
            #expect(OutputPlace.defaultProblem(value) == nil, "\(value)")
        }
    }

    /// A user's output in a broad folder is granted alone; elsewhere its folder.
    @Test func broadFolders() {
        let xdg = XDGDirectories(
            dataHome: "/home/u/.local/share", dataDirs: [], configHome: "/home/u/.config", configDirs: [], stateHome: "/home/u/.local/state",
            cacheHome: "/home/u/.cache", runtimeDir: "/run/user/1000")
        for folder in ["/", "/home", "/home/u", "/home/u/.config/autostart", "/home/u/.ssh", "/run/user/1000/actshare"] {
            #expect(OutputPlace.isBroad(folder, home: "/home/u", xdg: xdg), "\(folder)")
        }
        for folder in ["/home/u/Documents", "/home/u/Documents/.drafts", "/srv", "/home/other", "/tmp/x"] {
            #expect(!OutputPlace.isBroad(folder, home: "/home/u", xdg: xdg), "\(folder)")
        }
    }
}
