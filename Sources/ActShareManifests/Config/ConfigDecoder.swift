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
            let map = try handoff.mapping(kind: kind)
            try map.checkKeys(["device-name", "port", "discovery", "peers", "browser", "receive-dir", "keep-partial", "listen",
                               "clipboard", "clipboard-max", "clipboard-expires", "clipboard-primary", "localsend", "localsend-port", "localsend-pin",
                               "quickshare"], in: "'handoff'")
            for (key, _, value) in map.entries {
                if key == "peers" {
                    let peers = try value.stringList(kind: kind)
                    config.handoff[key] = ConfigValue(peers.joined(separator: ","), at: value.location)
                } else if key == "port" || key == "localsend-port" {
                    let port = try value.int(kind: kind)
                    guard (1...65535).contains(port) else {
                        throw value.error("'handoff.\(key)' must be from 1 to 65535, not \(port)", kind: kind)
                    }
                    config.handoff[key] = ConfigValue(String(port), at: value.location)
                } else if key == "listen" {
                    let address = try value.string(kind: kind)
                    var v4 = in_addr(), v6 = in6_addr()
                    guard inet_pton(AF_INET, address, &v4) == 1 || inet_pton(AF_INET6, address, &v6) == 1 else {
                        throw value.error("'handoff.listen' must be an IP address such as 0.0.0.0, :: or 192.168.1.20, not '\(address)'", kind: kind)
                    }
                    config.handoff[key] = ConfigValue(address, at: value.location)
                } else if key == "keep-partial" {
                    let text = try value.string(kind: kind)
                    guard let milliseconds = Units.milliseconds(text), milliseconds >= 60_000, milliseconds <= 30 * 86_400_000 else {
                        throw value.error("'handoff.keep-partial' must be a duration from 1m to 720h such as 24h, not '\(text)'", kind: kind)
                    }
                    config.handoff[key] = ConfigValue(String(milliseconds / 1000), at: value.location)
                } else if key == "localsend" || key == "quickshare" {
                    // YAML 1.1 reads a bare on/off as a boolean: both spellings are taken.
                    let word = try value.string(kind: kind)
                    let mode = ["true": "on", "false": "off"][word] ?? word
                    guard ["on", "off", "receive-only"].contains(mode) else {
                        throw value.error("'handoff.\(key)' must be on, off or receive-only, not '\(word)'", kind: kind)
                    }
                    config.handoff[key] = ConfigValue(mode, at: value.location)
                } else if key == "localsend-pin" {
                    let pin = try value.string(kind: kind)
                    guard (1...64).contains(pin.utf8.count), pin.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
                        throw value.error("'handoff.localsend-pin' must be 1 to 64 characters without spaces, such as 4711", kind: kind)
                    }
                    config.handoff[key] = ConfigValue(pin, at: value.location)
                } else if key == "clipboard" {
                    let word = try value.string(kind: kind)
                    guard ["off", "manual", "auto"].contains(word) else {
                        throw value.error("'handoff.clipboard' must be off, manual or auto, not '\(word)'", kind: kind)
                    }
                    config.handoff[key] = ConfigValue(word, at: value.location)
                } else if key == "clipboard-max" {
                    let text = try value.string(kind: kind)
                    guard let bytes = Units.bytes(text), bytes > 0, bytes <= 1 << 30 else {
                        throw value.error("'handoff.clipboard-max' must be a size up to 1GiB such as 64MiB, not '\(text)'", kind: kind)
                    }
                    config.handoff[key] = ConfigValue(String(bytes), at: value.location)
                } else if key == "clipboard-primary" {
                    config.handoff[key] = ConfigValue(String(try value.bool(kind: kind)), at: value.location)
                } else if key == "clipboard-expires" {
                    let text = try value.string(kind: kind)
                    guard let milliseconds = Units.milliseconds(text), milliseconds >= 5_000, milliseconds <= 3_600_000 else {
                        throw value.error("'handoff.clipboard-expires' must be a duration from 5s to 1h such as 2m, not '\(text)'", kind: kind)
                    }
                    config.handoff[key] = ConfigValue(String(milliseconds / 1000), at: value.location)
                } else if key == "discovery" {
                    let word = try value.string(kind: kind)
                    guard word == "multicast" || word == "static" else {
                        throw value.error("'handoff.discovery' must be multicast or static, not '\(word)'", kind: kind)
                    }
                    config.handoff[key] = ConfigValue(word, at: value.location)
                } else {
                    config.handoff[key] = ConfigValue(try value.string(kind: kind), at: value.location)
                }
            }
        }
        return config
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
