import ActShareCore
import ActShareYAML
#if canImport(Glibc)
import Glibc
#endif

/// Reads `config.yaml`. Every error names `FILE:LINE:COLUMN` and the key.
public struct ConfigDecoder: Sendable {
    public init() {}

    private static let kind = ActShareError.Code.badConfig

    /// The accounts of `uploads:`, each checked: a name of its own, an https URL (http only
    /// with `insecure: true`), a user, an optional https `link` and `pin`.
    private func uploadAccounts(_ value: YAMLValue) throws -> [UploadAccount] {
        let kind = Self.kind
        var accounts: [UploadAccount] = []
        for entry in try value.sequence(kind: kind) {
            let map = try entry.mapping(kind: kind)
            try map.checkKeys(["name", "url", "user", "link", "insecure", "pin"], in: "an upload account")
            func text(_ key: String, required: Bool) throws -> String {
                guard let field = map[key] else {
                    if required { throw entry.error("an upload account needs '\(key)'", kind: kind) }
                    return ""
                }
                let string = try field.string(kind: kind)
                guard !string.isEmpty, string.utf8.count <= 2048, !string.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    throw field.error("'\(field.path)' must be one line of at most 2048 bytes, not empty", kind: kind)
                }
                return string
            }
            let name = try text("name", required: true)
            guard name.utf8.count <= 64 else { throw (map["name"] ?? entry).error("an upload account's name has at most 64 bytes", kind: kind) }
            guard !accounts.contains(where: { $0.name == name }) else {
                throw (map["name"] ?? entry).error("two upload accounts are named '\(name)': give each a name of its own", kind: kind)
            }
            let insecure = try map["insecure"]?.bool(kind: kind) ?? false
            var url = try text("url", required: true)
            let https = url.hasPrefix("https://"), http = url.hasPrefix("http://")
            guard https || (http && insecure) else {
                throw (map["url"] ?? entry).error(http
                    ? "'\(name)' would send its password and files unencrypted over http://: use https://, or say insecure: true"
                    : "an upload account's url must start with https://, not '\(url)'", kind: kind)
            }
            if !url.hasSuffix("/") { url += "/" }
            let link = try text("link", required: false)
            guard link.isEmpty || link.hasPrefix("https://") || (insecure && link.hasPrefix("http://")) else {
                throw (map["link"] ?? entry).error("an upload account's link must start with https://, not '\(link)'", kind: kind)
            }
            let pin = try text("pin", required: false)
            guard pin.isEmpty || (pin.hasPrefix("sha256//") && pin.utf8.count == 52) else {
                throw (map["pin"] ?? entry).error(
                    "'pin' must be sha256// and the base64 of the SHA-256 of the server's public key (44 characters), as curl pins; docs/CONFIG.md says how to read it",
                    kind: kind)
            }
            accounts.append(UploadAccount(name: name, url: url, user: try text("user", required: true), link: link,
                                          insecure: insecure, pin: pin, location: entry.location))
        }
        return accounts
    }

    /// Reads the config at `path`.
    public func decode(file path: String) throws -> Config {
        try decode(try YAMLValue.readFile(path, kind: Self.kind), file: path)
    }

    /// Decodes config text; `file` names it in errors.
    public func decode(_ text: String, file: String) throws -> Config {
        let kind = Self.kind
        var config = Config()
        config.file = file
        guard let root = try YAMLValue.parse(text, file: file, kind: kind) else { return config }
        if case .scalar(let text, _) = root.node.content, text.isEmpty || text == "~" { return config }
        let top = try root.mapping(kind: kind)
        try top.checkKeys(["exclude", "pin", "disabled-providers", "in-process", "providers", "timeouts", "sandbox", "limits", "handoff", "remember-choices", "uploads"], in: "the config")

        config.exclude = try typeList(top["exclude"])
        config.pin = try typeList(top["pin"])
        config.disabledProviders = try typeList(top["disabled-providers"])
        config.inProcess = try typeList(top["in-process"])

        if let providers = top["providers"] {
            for (id, keyValue, value) in try providers.mapping(kind: kind).entries {
                guard ReverseDNS.isValid(id) else {
                    throw keyValue.error("'providers' has '\(id)', which is not a provider id such as org.example.hello", kind: kind)
                }
                var options: [String: ConfigValue] = [:]
                for (name, nameValue, optionValue) in try value.mapping(kind: kind).entries {
                    guard OptionName.isValid(name) else {
                        throw nameValue.error("'\(nameValue.path)' is not an option name", kind: kind)
                    }
                    options[name] = ConfigValue(try optionValue.string(kind: kind), at: optionValue.location)
                }
                config.providerOptions[id] = options
            }
        }

        if let timeouts = top["timeouts"] {
            for (id, keyValue, value) in try timeouts.mapping(kind: kind).entries {
                guard ReverseDNS.isValid(id) else {
                    throw keyValue.error("'timeouts' has '\(id)', which is not a provider id such as org.example.hello", kind: kind)
                }
                let text = try value.string(kind: kind)
                guard let milliseconds = Units.milliseconds(text), milliseconds > 0, milliseconds <= 3_600_000 else {
                    throw value.error("'\(value.path)' must be a duration from 1ms to 1h such as 5s or 500ms, not '\(text)'", kind: kind)
                }
                config.providerTimeouts[id] = milliseconds
            }
        }

        if let uploads = top["uploads"] {
            config.uploads = try uploadAccounts(uploads)
            // The Upload provider reads them as an option of its own (UploadAccount.optionValue).
            config.providerOptions[UploadAccount.provider, default: [:]][UploadAccount.option] =
                ConfigValue(UploadAccount.optionValue(config.uploads), at: uploads.location)
        }

        if let remember = top["remember-choices"] { config.rememberChoices = try remember.bool(kind: kind) }

        if let sandbox = top["sandbox"] {
            let mode = try sandbox.string(kind: kind)
            guard mode == "auto" || mode == "required" else {
                throw sandbox.error("'sandbox' must be auto (run providers unsandboxed on a kernel without Landlock, with a warning) or required (do not run them), not '\(mode)'", kind: kind)
            }
            config.sandboxRequired = mode == "required"
        }

        if let limits = top["limits"] {
            let map = try limits.mapping(kind: kind)
            try map.checkKeys(["memory", "file-size", "temporary-files", "open-files", "processes"], in: "'limits'")
            for (key, _, value) in map.entries {
                switch key {
                case "memory", "file-size", "temporary-files":
                    let text = try value.string(kind: kind)
                    guard let bytes = Units.bytes(text), bytes >= 64 << 20 else {
                        throw value.error("'limits.\(key)' must be a size of at least 64MiB such as 4GiB, not '\(text)'", kind: kind)
                    }
                    switch key {
                    case "memory": config.limits.memory = bytes
                    case "file-size": config.limits.fileSize = bytes
                    default: config.limits.temporaryFiles = bytes
                    }
                default:
                    let number = try value.int(kind: kind)
                    guard (1...1_000_000).contains(number) else {
                        throw value.error("'limits.\(key)' must be a whole number from 1 to 1000000, not \(number)", kind: kind)
                    }
                    if key == "open-files" {
                        guard number >= 16 else { throw value.error("'limits.open-files' must be at least 16, not \(number)", kind: kind) }
                        config.limits.openFiles = UInt32(number)
                    } else {
                        config.limits.processes = UInt32(number)
                    }
                }
            }
        }

        if let handoff = top["handoff"] {
            config.handoff = try decodeHandoff(handoff)
        }
        return config
    }

    /// The `handoff:` section, each value checked and typed where it is written.
    private func decodeHandoff(_ handoff: YAMLValue) throws -> HandoffSettings {
        let kind = Self.kind
        let map = try handoff.mapping(kind: kind)
        try map.checkKeys(["device-name", "port", "discovery", "peers", "browser", "receive-dir", "keep-partial", "listen",
                           "clipboard", "clipboard-max", "clipboard-expires", "clipboard-primary", "localsend", "localsend-port", "localsend-pin",
                           "quickshare"], in: "'handoff'")
        var settings = HandoffSettings()
        func port(_ value: YAMLValue, _ key: String) throws -> Int {
            let port = try value.int(kind: kind)
            guard (1...65535).contains(port) else { throw value.error("'handoff.\(key)' must be from 1 to 65535, not \(port)", kind: kind) }
            return port
        }
        func seconds(_ value: YAMLValue, _ key: String, _ bounds: ClosedRange<Int>, saying range: String) throws -> Int {
            let text = try value.string(kind: kind)
            guard let milliseconds = Units.milliseconds(text), (bounds.lowerBound * 1000...bounds.upperBound * 1000).contains(milliseconds) else {
                throw value.error("'handoff.\(key)' must be a duration from \(range), not '\(text)'", kind: kind)
            }
            return milliseconds / 1000
        }
        func word<Word: RawRepresentable>(_ value: YAMLValue, _ key: String, _: Word.Type, saying words: String) throws -> Word where Word.RawValue == String {
            // YAML 1.1 reads a bare on/off as a boolean: both spellings are taken.
            let text = try value.string(kind: kind)
            guard let word = Word(rawValue: ["true": "on", "false": "off"][text] ?? text) else {
                throw value.error("'handoff.\(key)' must be \(words), not '\(text)'", kind: kind)
            }
            return word
        }
        for (key, _, value) in map.entries {
            switch key {
            case "device-name": settings.deviceName = try value.string(kind: kind)
            case "port": settings.port = try port(value, key)
            case "discovery": settings.discovery = try word(value, key, HandoffSettings.Discovery.self, saying: "multicast or static")
            case "peers":
                let entries = try value.sequence(kind: kind)
                settings.peers = try zip(try value.stringList(kind: kind), entries).map { text, entry in
                    try Self.peer(text) ?? { throw entry.error("'handoff.peers' lists '\(text)', which is not HOST or HOST:PORT (a port from 1 to 65535)", kind: kind) }()
                }
            case "browser": settings.browser = try value.string(kind: kind)
            case "receive-dir": settings.receiveDirectory = try value.string(kind: kind)
            case "keep-partial": settings.keepPartialSeconds = try seconds(value, key, 60...30 * 86_400, saying: "1m to 720h such as 24h")
            case "listen":
                let address = try value.string(kind: kind)
                var v4 = in_addr(), v6 = in6_addr()
                guard inet_pton(AF_INET, address, &v4) == 1 || inet_pton(AF_INET6, address, &v6) == 1 else {
                    throw value.error("'handoff.listen' must be an IP address such as 0.0.0.0, :: or 192.168.1.20, not '\(address)'", kind: kind)
                }
                settings.listenAddress = address
            case "clipboard": settings.clipboard.mode = try word(value, key, ClipboardSettings.Mode.self, saying: "off, manual or auto")
            case "clipboard-max":
                let text = try value.string(kind: kind)
                guard let bytes = Units.bytes(text), bytes > 0, bytes <= 1 << 30 else {
                    throw value.error("'handoff.clipboard-max' must be a size up to 1GiB such as 64MiB, not '\(text)'", kind: kind)
                }
                settings.clipboard.maximumBytes = bytes
            case "clipboard-expires":
                settings.clipboard.offerSeconds = Double(try seconds(value, key, 5...3600, saying: "5s to 1h such as 2m"))
            case "clipboard-primary": settings.clipboard.primary = try value.bool(kind: kind)
            case "localsend": settings.localSend.mode = try word(value, key, LocalSendSettings.Mode.self, saying: "on, off or receive-only")
            case "localsend-port": settings.localSend.port = try port(value, key)
            case "localsend-pin":
                let pin = try value.string(kind: kind)
                guard (1...64).contains(pin.utf8.count), pin.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
                    throw value.error("'handoff.localsend-pin' must be 1 to 64 characters without spaces, such as 4711", kind: kind)
                }
                settings.localSend.pin = pin
            default: settings.quickShare.mode = try word(value, key, QuickShareSettings.Mode.self, saying: "on, off or receive-only")
            }
        }
        return settings
    }

    /// `HOST`, `HOST:PORT` or `[ADDRESS]:PORT` (a bare IPv6 address takes the default port).
    static func peer(_ text: String) -> HandoffSettings.Peer? {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard !host.isEmpty else { return nil }
            if rest.isEmpty { return HandoffSettings.Peer(host: host) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), (1...65535).contains(port) else { return nil }
            return HandoffSettings.Peer(host: host, port: port)
        }
        let colons = text.filter { $0 == ":" }.count
        if colons != 1 { return text.isEmpty ? nil : HandoffSettings.Peer(host: text) }
        let colon = text.firstIndex(of: ":")!
        guard colon != text.startIndex, let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        return HandoffSettings.Peer(host: String(text[..<colon]), port: port)
    }

    private func typeList(_ value: YAMLValue?) throws -> [String] {
        guard let value else { return [] }
        let names = try value.stringList(kind: Self.kind)
        for (index, name) in names.enumerated() where !ReverseDNS.isValid(name) {
            let entry = (try? value.sequence(kind: Self.kind))?[index] ?? value
            throw entry.error("'\(value.path)' lists '\(name)', which is not a reverse-DNS name", kind: Self.kind)
        }
        return names
    }
}
