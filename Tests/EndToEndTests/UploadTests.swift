import Foundation
import Testing

/// Upload (`org.actshare.webdav`) against a real WebDAV server — wsgidav from PyPI, over
/// HTTPS with a self-signed certificate pinned in the account, basic auth — with the
/// password in a real Secret Service (gnome-keyring on the test desktop's own session bus)
/// and the link read back from the X clipboard by xclip.
@Suite(.serialized) struct UploadTests {
    static let server = "\(Sandbox.repository)/Tests/Fixtures/webdav-server.py"
    static let python = "\(Sandbox.repository)/.build-venv/bin/python"
    static let password = "s3cret, with 'quotes'"

    /// A desktop with a keyring and a WebDAV server of its own, and an account for it.
    final class Cloud {
        let sandbox: Sandbox
        let desktop: AccessibleDesktop
        private var keyring: ClipboardTests.Server?
        private(set) var webdav: ClipboardTests.Server?
        /// Where the server keeps what it is sent (on disk: a GiB goes there).
        let root: String
        let certificate: String, key: String
        private(set) var port = 0

        init() throws {
            try #require(FileManager.default.isExecutableFile(atPath: UploadTests.python), "no .build-venv: run scripts/install-deps")
            sandbox = try PrintToPDFTests.sandbox()
            desktop = try AccessibleDesktop.showing(sandbox)
            root = "\(sandbox.root)/server"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            certificate = "\(sandbox.root)/cert.pem"
            key = "\(sandbox.root)/key.pem"
            let made = try Sandbox.execute("/usr/bin/openssl", [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                "-out", certificate, "-days", "2", "-subj", "/CN=localhost"], environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
            try #require(made.status == 0, "\(made.stderr)")
            // The keyring, unlocked with a password of its own, on the desktop's bus.
            let unlock = "\(sandbox.root)/keyring-password"
            try "keyring password".write(toFile: unlock, atomically: true, encoding: .utf8)
            keyring = try ClipboardTests.Server(["/usr/bin/gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
                                                environment: sandbox.environment.map { "\($0.key)=\($0.value)" }, stdin: unlock)
            try startServer()
        }

        /// Starts the WebDAV server (again, after a stop) and waits for its port.
        func startServer() throws {
            let portFile = "\(sandbox.root)/port-\(UUID().uuidString)"
            let out = open(portFile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            defer { close(out) }
            webdav = try ClipboardTests.Server([UploadTests.python, UploadTests.server, root, certificate, key, "ann", UploadTests.password],
                                               environment: ["PATH=/usr/bin:/bin", "HOME=\(sandbox.root)/home"], stdout: out)
            var found: Int?
            eventually {
                found = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                return found != nil
            }
            port = try #require(found, "the WebDAV server told no port")
        }

        /// Kills the WebDAV server at once, as a machine that goes away.
        func stopServer() {
            if let webdav { kill(webdav.pid, SIGKILL) }
            webdav = nil
        }

        /// The pin of the server's key, as curl takes it: sha256// and base64.
        func pin(of certificate: String? = nil) throws -> String {
            let der = "\(sandbox.root)/key-\(UUID().uuidString).der", hash = der + ".sha256"
            let publicKey = try Sandbox.execute("/usr/bin/openssl", ["x509", "-in", certificate ?? self.certificate, "-pubkey", "-noout"],
                                             environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
            let encoded = try Sandbox.execute("/usr/bin/openssl", ["pkey", "-pubin", "-outform", "der", "-out", der],
                                              environment: ["PATH": "/usr/bin:/bin"], stdin: Data(publicKey.stdout.utf8))
            let digest = try Sandbox.execute("/usr/bin/openssl", ["dgst", "-sha256", "-binary", "-out", hash, der],
                                             environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
            try #require(encoded.status == 0 && digest.status == 0, "\(encoded.stderr)\(digest.stderr)")
            return "sha256//" + (try Data(contentsOf: URL(fileURLWithPath: hash))).base64EncodedString()
        }

        /// Writes the config with one account, Cloud, for this server.
        func account(pin: String? = nil, url: String? = nil, extra: String = "") throws {
            let pinned = try pin ?? self.pin()
            try sandbox.writeConfig("""
                uploads:
                  - name: Cloud
                    url: "\(url ?? "https://127.0.0.1:\(port)/dav/")"
                    user: ann
                    link: "https://share.example.org/s/"
                    pin: "\(pinned)"
                \(extra)
                """)
        }

        /// Stores `password` with `actshare uploads login Cloud`, once the keyring answers.
        func login(_ password: String = UploadTests.password) throws {
            var last = ""
            let stored = try eventually {
                let run = try sandbox.run(["uploads", "login", "Cloud"], stdin: Data((password + "\n").utf8))
                last = run.stderr
                return run.status == 0
            }
            #expect(stored, "the password was not stored: \(last)")
        }

        /// What the X clipboard holds as text, read as an application reads it.
        func clipboard() throws -> String {
            try Sandbox.execute("/usr/bin/xclip", ["-o", "-selection", "clipboard"], environment: ["DISPLAY": desktop.display.name],
                                stdin: nil, timeout: 20).stdout
        }

        /// A cloud with its account and password stored, and a sparse GiB to send to it.
        static func withAGibibyte() throws -> (Cloud, String) {
            let cloud = try Cloud()
            try cloud.account()
            try cloud.login()
            let big = "\(cloud.sandbox.root)/files/big.bin"
            try FileManager.default.createDirectory(atPath: "\(cloud.sandbox.root)/files", withIntermediateDirectories: true)
            Sandbox.sparseFile(big, size: 1 << 30)
            return (cloud, big)
        }

        /// The names in the server's folder, hidden ones too.
        func names(in folder: String = "") -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: root + folder)) ?? []).sorted()
        }
    }

    @Test func filesATreeAndTextGoUpWholeAndTheLinkIsOnTheClipboard() throws {
        let cloud = try Cloud()
        try cloud.account()
        try cloud.login()
        let photo = try cloud.sandbox.data("photo, 'one'.jpg", Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        try cloud.sandbox.file("trip/day 1.txt", "Lyon\n")
        try cloud.sandbox.file("trip/maps/route.txt", "A7\n")
        let run = try cloud.sandbox.run(["perform", "org.actshare.webdav", photo, "\(cloud.sandbox.root)/files/trip",
                                         "--text", "Shopping list\nmilk\n", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(cloud.names() == ["Shopping list.txt", "photo, 'one'.jpg", "trip"])
        #expect(FileManager.default.contents(atPath: "\(cloud.root)/photo, 'one'.jpg") == FileManager.default.contents(atPath: photo))
        #expect(FileManager.default.contents(atPath: "\(cloud.root)/trip/maps/route.txt") == Data("A7\n".utf8))
        #expect(FileManager.default.contents(atPath: "\(cloud.root)/Shopping list.txt") == Data("Shopping list\nmilk\n".utf8))
        let links = (try run.json()["returned_items"] as? [[String: Any]])?.compactMap { $0["url"] as? String }
        #expect(links == ["https://share.example.org/s/photo%2C%20%27one%27.jpg", "https://share.example.org/s/trip",
                          "https://share.example.org/s/Shopping%20list.txt"])
        #expect(try run.json()["links"] as? [String] == links, "--json's links are the returned URLs")

        // A name taken on the server is never replaced: the second goes up as "(1)".
        let again = try cloud.sandbox.run(["perform", "org.actshare.webdav", photo])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "https://share.example.org/s/photo%2C%20%27one%27%20%281%29.jpg\n")
        #expect(cloud.names().contains("photo, 'one' (1).jpg"))
        var copied = ""
        eventually {
            copied = (try? cloud.clipboard()) ?? ""
            return copied.contains("photo%2C%20%27one%27%20%281%29.jpg")
        }
        #expect(copied.hasPrefix("https://share.example.org/s/photo%2C%20%27one%27%20%281%29.jpg"), "clipboard: \(copied)")
        #expect(!cloud.names().contains { $0.hasPrefix(".") }, "no partial file is left: \(cloud.names())")
    }

    @Test func aWrongPasswordAPinMismatchAndHTTPAreRefusedInWords() throws {
        let cloud = try Cloud()
        let note = try cloud.sandbox.file("note.txt", "hello\n")
        // No password stored yet.
        try cloud.account()
        let none = try cloud.sandbox.run("perform", "org.actshare.webdav", note)
        #expect(none.status == 2)
        #expect(none.stderr.contains("no password for Cloud in the Secret Service (for this url, user and pin): store it with actshare uploads login Cloud"),
                "\(none.stderr)")
        // A wrong one.
        try cloud.login("not the password")
        let wrong = try cloud.sandbox.run("perform", "org.actshare.webdav", note)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("Cloud's server refused the password of ann (401): store the right one with actshare uploads login Cloud"),
                "\(wrong.stderr)")
        // A folder the server does not have (its parent is missing: WebDAV's 409).
        try cloud.login()
        try cloud.account(url: "https://127.0.0.1:\(cloud.port)/dav/missing/")
        try cloud.login()
        let missing = try cloud.sandbox.run("perform", "org.actshare.webdav", note)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("the folder https://127.0.0.1:\(cloud.port)/dav/missing/ is not on Cloud's server (409): check the account's url"),
                "\(missing.stderr)")
        // The pin of another key.
        let otherKey = "\(cloud.sandbox.root)/other-key.pem", otherCertificate = "\(cloud.sandbox.root)/other-cert.pem"
        _ = try Sandbox.execute("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                     "-keyout", otherKey, "-out", otherCertificate, "-days", "2", "-subj", "/CN=localhost"],
                                environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
        // (The user's own account with that pin, its password stored for it.)
        try cloud.account(pin: try cloud.pin(of: otherCertificate))
        try cloud.login()
        let mismatch = try cloud.sandbox.run("perform", "org.actshare.webdav", note)
        #expect(mismatch.status == 1)
        #expect(mismatch.stderr.contains("Cloud's server did not show the key its pin names"), "\(mismatch.stderr)")
        // No pin: a self-signed certificate is not trusted.
        try cloud.sandbox.writeConfig("uploads:\n  - {name: Cloud, url: \"https://127.0.0.1:\(cloud.port)/dav/\", user: ann}\n")
        try cloud.login()
        let untrusted = try cloud.sandbox.run("perform", "org.actshare.webdav", note)
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("Cloud's server has a certificate this computer does not trust"), "\(untrusted.stderr)")
        // Plain http is refused where the config says it, unless the account says insecure.
        try cloud.sandbox.writeConfig("uploads:\n  - {name: Cloud, url: \"http://127.0.0.1:\(cloud.port)/dav/\", user: ann}\n")
        let http = try cloud.sandbox.run("perform", "org.actshare.webdav", note)
        #expect(http.status == 2)
        #expect(http.stderr.contains("config.yaml:2:"), "\(http.stderr)")
        #expect(http.stderr.contains("'Cloud' would send its password and files unencrypted over http://: use https://, or say insecure: true"),
                "\(http.stderr)")
        #expect(cloud.names().isEmpty, "\(cloud.names())")
    }

    @Test func aServerStoppedMidUploadLeavesNothingUnderTheRealName() throws {
        let (cloud, big) = try Cloud.withAGibibyte()
        let upload = try cloud.sandbox.start(["perform", "org.actshare.webdav", big])
        // Stopped once the partial file holds something: the server goes away mid-upload.
        eventually(every: 0.01) {
            cloud.names().contains { $0.hasPrefix(".big.bin.actshare-partial-") && ((try? FileManager.default.attributesOfItem(atPath: "\(cloud.root)/\($0)")[.size] as? Int) ?? 0) > 0 }
        }
        cloud.stopServer()
        upload.waitUntilExit()
        #expect(upload.terminationStatus == 1)
        #expect(!cloud.names().contains("big.bin"), "\(cloud.names())")
        // The server back (on another port: its password is stored anew, as it is kept per
        // URL): nothing under the real name, and the next upload goes there whole.
        try cloud.startServer()
        try cloud.account()
        try cloud.login()
        let note = try cloud.sandbox.file("note.txt", "hello\n")
        let after = try cloud.sandbox.run("perform", "org.actshare.webdav", note)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(cloud.names().filter { !$0.hasPrefix(".") } == ["note.txt"])
    }

    @Test func ctrlCDeletesThePartialUpload() throws {
        let (cloud, big) = try Cloud.withAGibibyte()
        let upload = try cloud.sandbox.start(["perform", "org.actshare.webdav", big])
        eventually(every: 0.01) { cloud.names().contains { $0.hasPrefix(".big.bin.actshare-partial-") } }
        upload.interrupt()
        upload.waitUntilExit()
        #expect(upload.terminationStatus == 4)
        #expect(cloud.names().isEmpty, "the partial upload is deleted: \(cloud.names())")
    }

    /// A GiB goes up streamed: actshare's peak memory (its maximum resident set, from
    /// GNU time) stays under 64 MiB, and the server has every byte.
    @Test func aGibibyteGoesUpInBoundedMemory() throws {
        let (cloud, big) = try Cloud.withAGibibyte()
        let run = try Sandbox.execute("/usr/bin/time", ["-f", "peak %M KiB", Sandbox.binary, "perform", "org.actshare.webdav", big],
                                      environment: cloud.sandbox.environment, stdin: nil, timeout: 600)
        #expect(run.status == 0, "\(run.stderr)")
        let peak = run.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }
            .flatMap { Int($0.dropFirst(5).prefix { $0.isNumber }) }
        let kib = try #require(peak, "\(run.stderr)")
        #expect(kib < 64 * 1024, "peak memory \(kib) KiB")
        print("Upload of 1 GiB: peak memory \(kib) KiB")
        let size = try FileManager.default.attributesOfItem(atPath: "\(cloud.root)/big.bin")[.size] as? Int
        #expect(size == 1 << 30)
    }

    /// Whoever runs the activity may give its options (`-o`, an app through D-Bus): an
    /// account copied with a pin of their own key, to hear the password over a connection
    /// they intercept, finds no password — it is stored for the account's pin alone — and
    /// nothing reaches the server.
    @Test func anAccountGivenWithAnotherPinGetsNoPassword() throws {
        let cloud = try Cloud()
        try cloud.account()
        try cloud.login()
        let attackerKey = "\(cloud.sandbox.root)/attacker-key.pem", attackerCertificate = "\(cloud.sandbox.root)/attacker-cert.pem"
        _ = try Sandbox.execute("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                     "-keyout", attackerKey, "-out", attackerCertificate, "-days", "2", "-subj", "/CN=localhost"],
                                environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
        let copied = ["Cloud", "https://127.0.0.1:\(cloud.port)/dav/", "ann", "", "false", try cloud.pin(of: attackerCertificate)]
            .joined(separator: "\t")
        let note = try cloud.sandbox.file("note.txt", "hello\n")
        let run = try cloud.sandbox.run("perform", "org.actshare.webdav", "-o", "accounts=\(copied)", note)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("no password for Cloud in the Secret Service"), "\(run.stderr)")
        #expect(cloud.names().isEmpty)
        // The user's own account still has it.
        #expect(try cloud.sandbox.run("perform", "org.actshare.webdav", note).status == 0)
    }
}
