/// One account of the config's `uploads:`: a WebDAV folder the Upload activity
/// (`org.actshare.webdav`) sends to, its password kept in the Secret Service.
public struct UploadAccount: Sendable, Equatable {
    /// What the user reads, and the target's id: "Cloud".
    public var name: String
    /// The folder uploads go to, ending in `/`.
    public var url: String
    public var user: String
    /// The base of a public link to what is uploaded (the name follows it), or "".
    public var link: String
    /// Whether an `http://` URL is allowed.
    public var insecure: Bool
    /// The server's public key, `sha256//BASE64` (curl's pin), trusted instead of the CAs; or "".
    public var pin: String
    /// Where the account was written, for errors that point at it.
    public var location: SourceLocation

    public init(name: String, url: String, user: String, link: String = "", insecure: Bool = false, pin: String = "",
                location: SourceLocation) {
        self.name = name
        self.url = url
        self.user = user
        self.link = link
        self.insecure = insecure
        self.pin = pin
        self.location = location
    }

    /// The provider that uploads, and the option it reads the accounts from.
    public static let provider = "org.actshare.webdav"
    public static let option = "accounts"

    /// The accounts as the provider reads them (Providers/WebDAV/webdav.h): a line each, its
    /// fields separated by tabs — name, url, user, link, insecure, pin. The decoder has
    /// made sure no field holds a tab or a line break.
    public static func optionValue(_ accounts: [UploadAccount]) -> String {
        accounts.map { [$0.name, $0.url, $0.user, $0.link, $0.insecure ? "true" : "false", $0.pin].joined(separator: "\t") }
            .joined(separator: "\n")
    }
}
