import Testing
@testable import ActShareCore
@testable import ActShareManifests

@Suite struct ConfigDecoderTests {
    let decoder = ConfigDecoder()

    @Test func decodesEveryKey() throws {
        let text = """
            exclude: [org.example.hello.greet]
            pin: [org.actshare.print-to-pdf, org.actshare.mail]
            disabled-providers: [org.example.hello]
            providers:
              org.actshare.mail: {from: "Me <me@example.org>", spool: "maildir:~/Maildir"}
              org.actshare.print-to-pdf: {paper: a4}
            timeouts:
              org.example.slow: 250ms
            handoff: {device-name: laptop, port: 53841, discovery: static, peers: [a.local, "b.local:6000", "[fe80::1]:7000", "fe80::2"],
                      clipboard: auto, clipboard-max: 2MiB, clipboard-expires: 30s, localsend: off, quickshare: receive-only}
            """
        let config = try decoder.decode(text, file: "config.yaml")
        #expect(config.exclude == ["org.example.hello.greet"])
        #expect(config.pin == ["org.actshare.print-to-pdf", "org.actshare.mail"])
        #expect(config.disabledProviders == ["org.example.hello"])
        #expect(config.providerOptions["org.actshare.mail"]?["from"]?.value == "Me <me@example.org>")
        #expect(config.providerOptions["org.actshare.mail"]?["spool"]?.location == SourceLocation(file: "config.yaml", line: 5, column: 59))
        #expect(config.providerOptions["org.actshare.print-to-pdf"]?["paper"]?.value == "a4")
        #expect(config.providerTimeouts["org.example.slow"] == 250)
        // The handoff settings typed once, as the daemon reads them; the rest their defaults.
        var handoff = HandoffSettings()
        handoff.deviceName = "laptop"
        handoff.port = 53841
        handoff.discovery = .static
        handoff.peers = [.init(host: "a.local"), .init(host: "b.local", port: 6000), .init(host: "fe80::1", port: 7000), .init(host: "fe80::2")]
        handoff.clipboard = ClipboardSettings(mode: .auto, maximumBytes: 2 << 20, offerSeconds: 30)
        handoff.localSend.mode = .off
        handoff.quickShare.mode = .receiveOnly
        #expect(config.handoff == handoff)
        #expect(HandoffSettings().clipboard.mode == .manual && HandoffSettings().port == 53840 && HandoffSettings().keepPartialSeconds == 86_400)
    }

    /// The typed settings go through the manifest index as they are (the command line reads
    /// the config from there).
    @Test func handoffSettingsSurviveTheIndex() throws {
        let config = try decoder.decode("""
            handoff: {device-name: desk, peers: ["h:1"], receive-dir: ~/In, keep-partial: 2h, listen: "::", browser: firefox,
                      clipboard-primary: true, localsend-port: 5000, localsend-pin: "4711"}
            """, file: "c.yaml")
        var writer = ByteWriter()
        ConfigCodec.write(.success(config), to: &writer)
        var reader = ByteReader(writer.bytes)
        let read = try ConfigCodec.read(file: "c.yaml", from: &reader).get()
        #expect(read.handoff == config.handoff)
        #expect(read.handoff.receiveDirectory == "~/In" && read.handoff.keepPartialSeconds == 7200 && read.handoff.localSend.pin == "4711")
    }

    /// `uploads:` becomes Upload's option `accounts`, a line an account, tab-separated.
    @Test func uploadAccountsBecomeTheUploadProvidersOption() throws {
        let config = try decoder.decode("""
            uploads:
              - {name: Cloud, url: "https://cloud.example.org/dav", user: ann, link: "https://cloud.example.org/s/"}
              - {name: NAS, url: "http://nas.local/webdav/", user: me, insecure: true, pin: "sha256//7wvsFD8OMXMpu6/4Qe/24mYcJARdX9rK9Hn7ghCMtqU="}
            """, file: "c.yaml")
        #expect(config.uploads.map(\.name) == ["Cloud", "NAS"])
        #expect(config.uploads[0].url == "https://cloud.example.org/dav/", "a folder's URL ends in /")
        #expect(config.providerOptions[UploadAccount.provider]?[UploadAccount.option]?.value == """
            Cloud\thttps://cloud.example.org/dav/\tann\thttps://cloud.example.org/s/\tfalse\t
            NAS\thttp://nas.local/webdav/\tme\t\ttrue\tsha256//7wvsFD8OMXMpu6/4Qe/24mYcJARdX9rK9Hn7ghCMtqU=
            """)
    }

    @Test func anEmptyConfigIsTheDefault() throws {
        #expect(try decoder.decode("", file: "c.yaml").exclude.isEmpty)
        #expect(try decoder.decode("# nothing yet\n", file: "c.yaml").pin.isEmpty)
    }

    @Test(arguments: [
        ("colour: red\n", "c.yaml:1:1: error: unknown key 'colour' in the config (allowed: disabled-providers, exclude, handoff, in-process, limits, pin, providers, remember-choices, sandbox, timeouts, uploads)"),
        ("exclude: [hello]\n", "c.yaml:1:11: error: 'exclude' lists 'hello', which is not a reverse-DNS name"),
        ("pin: {a: b}\n", "c.yaml:1:6: error: 'pin' must be a list, not a mapping"),
        ("providers:\n  org.x.y: [1]\n", "c.yaml:2:12: error: 'providers.org.x.y' must be a mapping of keys to values, not a list"),
        ("providers:\n  mail: {from: me}\n", "c.yaml:2:3: error: 'providers' has 'mail', which is not a provider id such as org.example.hello"),
        ("timeouts:\n  org.x.y: soon\n", "c.yaml:2:12: error: 'timeouts.org.x.y' must be a duration from 1ms to 1h such as 5s or 500ms, not 'soon'"),
        ("handoff: {port: 70000}\n", "c.yaml:1:17: error: 'handoff.port' must be from 1 to 65535, not 70000"),
        ("handoff: {discovery: bluetooth}\n", "c.yaml:1:22: error: 'handoff.discovery' must be multicast or static, not 'bluetooth'"),
        ("handoff: {listen: everywhere}\n", "c.yaml:1:19: error: 'handoff.listen' must be an IP address such as 0.0.0.0, :: or 192.168.1.20, not 'everywhere'"),
        ("handoff: {clipboard: always}\n", "c.yaml:1:22: error: 'handoff.clipboard' must be off, manual or auto, not 'always'"),
        ("handoff: {clipboard-max: 2GiB}\n", "c.yaml:1:26: error: 'handoff.clipboard-max' must be a size up to 1GiB such as 64MiB, not '2GiB'"),
        ("handoff: {clipboard-expires: 1s}\n", "c.yaml:1:30: error: 'handoff.clipboard-expires' must be a duration from 5s to 1h such as 2m, not '1s'"),
        ("handoff: {clipboard-primary: sometimes}\n", "c.yaml:1:30: error: 'handoff.clipboard-primary' must be true or false, not 'sometimes'"),
        ("handoff: {colour: red}\n", "c.yaml:1:11: error: unknown key 'colour' in 'handoff' (allowed: browser, clipboard, clipboard-expires, clipboard-max, clipboard-primary, device-name, discovery, keep-partial, listen, localsend, localsend-pin, localsend-port, peers, port, quickshare, receive-dir)"),
        ("sandbox: maybe\n", "c.yaml:1:10: error: 'sandbox' must be auto (run providers unsandboxed on a kernel without Landlock, with a warning) or required (do not run them), not 'maybe'"),
        ("limits: {memory: 1KiB}\n", "c.yaml:1:18: error: 'limits.memory' must be a size of at least 64MiB such as 4GiB, not '1KiB'"),
        ("limits: {open-files: 3}\n", "c.yaml:1:22: error: 'limits.open-files' must be at least 16, not 3"),
        ("limits: {threads: 3}\n", "c.yaml:1:10: error: unknown key 'threads' in 'limits' (allowed: file-size, memory, open-files, processes, temporary-files)"),
        ("handoff: {localsend: maybe}\n", "c.yaml:1:22: error: 'handoff.localsend' must be on, off or receive-only, not 'maybe'"),
        ("handoff: {localsend-pin: \"47 11\"}\n", "c.yaml:1:26: error: 'handoff.localsend-pin' must be 1 to 64 characters without spaces, such as 4711"),
        ("handoff: {localsend-port: 0}\n", "c.yaml:1:27: error: 'handoff.localsend-port' must be from 1 to 65535, not 0"),
        ("handoff: {peers: [a.local, \"b:0\"]}\n", "c.yaml:1:28: error: 'handoff.peers' lists 'b:0', which is not HOST or HOST:PORT (a port from 1 to 65535)"),
        ("uploads:\n  - {name: Cloud, url: \"http://nas/dav/\", user: ann}\n",
         "c.yaml:2:24: error: 'Cloud' would send its password and files unencrypted over http://: use https://, or say insecure: true"),
        ("uploads:\n  - {name: A, url: \"https://a/\", user: u}\n  - {name: A, url: \"https://b/\", user: u}\n",
         "c.yaml:3:12: error: two upload accounts are named 'A': give each a name of its own"),
        ("uploads:\n  - {name: A, url: \"https://a/\", user: u, pin: abc}\n",
         "c.yaml:2:48: error: 'pin' must be sha256// and the base64 of the SHA-256 of the server's public key (44 characters), as curl pins; docs/CONFIG.md says how to read it"),
        ("uploads:\n  - {name: A, url: \"https://a/\"}\n", "c.yaml:2:5: error: an upload account needs 'user'"),
        ("uploads:\n  - {name: \"A\\tB\", url: \"https://a/\", user: u}\n", "c.yaml:2:12: error: 'uploads[0].name' must be one line of at most 2048 bytes, not empty"),
        ("exclude: [a.b\n", "c.yaml:2:1: error: invalid YAML: while parsing a flow sequence, did not find expected ',' or ']'"),
    ])
    func rejectsBrokenConfig(_ text: String, _ expected: String) throws {
        let error = try #require(throws: ActShareError.self) { try decoder.decode(text, file: "c.yaml") }
        #expect(error.code == .badConfig)
        #expect(error.description == expected)
    }
}
