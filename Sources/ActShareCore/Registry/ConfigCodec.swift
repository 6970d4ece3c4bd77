/// Writes a decoded config (or its error) into the manifest index, and reads it back.
enum ConfigCodec {
    static func write(_ result: Result<Config, ActShareError>, to writer: inout ByteWriter) {
        switch result {
        case .failure(let error):
            writer.write(false)
            writer.write(error.message)
            writer.write(error.location?.line ?? 0)
            writer.write(error.location?.column ?? 0)
        case .success(let config):
            writer.write(true)
            writer.write(config.exclude)
            writer.write(config.pin)
            writer.write(config.disabledProviders)
            writer.write(config.inProcess)
            writer.write(config.providerOptions.count)
            for (id, options) in config.providerOptions.sorted(by: { $0.key < $1.key }) {
                writer.write(id)
                write(options, to: &writer)
            }
            writer.write(config.providerTimeouts.count)
            for (id, milliseconds) in config.providerTimeouts.sorted(by: { $0.key < $1.key }) {
                writer.write(id)
                writer.write(milliseconds)
            }
            write(config.handoff, to: &writer)
            writer.write(config.sandboxRequired)
            writer.write(config.limits.memory)
            writer.write(config.limits.fileSize)
            writer.write(config.limits.temporaryFiles)
            writer.write(Int(config.limits.openFiles))
            writer.write(Int(config.limits.processes))
            writer.write(config.rememberChoices)
            writer.write(config.uploads.count)
            for account in config.uploads {
                for field in [account.name, account.url, account.user, account.link, account.pin] { writer.write(field) }
                writer.write(account.insecure)
                writer.write(account.location.line)
                writer.write(account.location.column)
            }
        }
    }

    static func read(file: String, from reader: inout ByteReader) throws -> Result<Config, ActShareError> {
        guard try reader.readBool() else {
            let message = try reader.readString()
            let line = try reader.readInt(), column = try reader.readInt()
            let location = line > 0 ? SourceLocation(file: file, line: line, column: column) : nil
            return .failure(ActShareError(.badConfig, Phrase(verbatim: message), at: location))
        }
        var config = Config()
        config.file = file
        config.exclude = try reader.readStrings()
        config.pin = try reader.readStrings()
        config.disabledProviders = try reader.readStrings()
        config.inProcess = try reader.readStrings()
        for _ in 0..<(try reader.readCount()) {
            let id = try reader.readString()
            config.providerOptions[id] = try readValues(file: file, from: &reader)
        }
        for _ in 0..<(try reader.readCount()) {
            let id = try reader.readString()
            config.providerTimeouts[id] = try reader.readInt()
        }
        config.handoff = try readHandoff(from: &reader)
        config.sandboxRequired = try reader.readBool()
        config.limits.memory = try reader.readUInt64()
        config.limits.fileSize = try reader.readUInt64()
        config.limits.temporaryFiles = try reader.readUInt64()
        guard let openFiles = UInt32(exactly: try reader.readInt()), let processes = UInt32(exactly: try reader.readInt()) else {
            throw ByteReader.Malformed()
        }
        config.limits.openFiles = openFiles
        config.limits.processes = processes
        config.rememberChoices = try reader.readBool()
        for _ in 0..<(try reader.readCount()) {
            let name = try reader.readString(), url = try reader.readString(), user = try reader.readString()
            let link = try reader.readString(), pin = try reader.readString(), insecure = try reader.readBool()
            let location = SourceLocation(file: file, line: try reader.readInt(), column: try reader.readInt())
            config.uploads.append(UploadAccount(name: name, url: url, user: user, link: link, insecure: insecure, pin: pin, location: location))
        }
        return .success(config)
    }

    private static func write(_ values: [String: ConfigValue], to writer: inout ByteWriter) {
        writer.write(values.count)
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            writer.write(name)
            writer.write(value.value)
            writer.write(value.location.line)
            writer.write(value.location.column)
        }
    }

    private static func readValues(file: String, from reader: inout ByteReader) throws -> [String: ConfigValue] {
        var values: [String: ConfigValue] = [:]
        for _ in 0..<(try reader.readCount()) {
            let name = try reader.readString()
            let value = try reader.readString()
            let location = SourceLocation(file: file, line: try reader.readInt(), column: try reader.readInt())
            values[name] = ConfigValue(value, at: location)
        }
        return values
    }

    private static func write(_ handoff: HandoffSettings, to writer: inout ByteWriter) {
        write(handoff.deviceName, to: &writer)
        writer.write(handoff.port)
        writer.write(handoff.discovery.rawValue)
        writer.write(handoff.peers.count)
        for peer in handoff.peers {
            writer.write(peer.host)
            writer.write(peer.port)
        }
        write(handoff.browser, to: &writer)
        write(handoff.receiveDirectory, to: &writer)
        writer.write(handoff.keepPartialSeconds)
        writer.write(handoff.listenAddress)
        writer.write(handoff.clipboard.mode.rawValue)
        writer.write(handoff.clipboard.maximumBytes)
        writer.write(Int(handoff.clipboard.offerSeconds * 1000))
        writer.write(handoff.clipboard.primary)
        writer.write(handoff.localSend.mode.rawValue)
        writer.write(handoff.localSend.port)
        write(handoff.localSend.pin, to: &writer)
        writer.write(handoff.quickShare.mode.rawValue)
    }

    private static func readHandoff(from reader: inout ByteReader) throws -> HandoffSettings {
        var handoff = HandoffSettings()
        handoff.deviceName = try readOptional(from: &reader)
        handoff.port = try reader.readInt()
        handoff.discovery = try word(from: &reader)
        for _ in 0..<(try reader.readCount()) {
            handoff.peers.append(HandoffSettings.Peer(host: try reader.readString(), port: try reader.readInt()))
        }
        handoff.browser = try readOptional(from: &reader)
        handoff.receiveDirectory = try readOptional(from: &reader)
        handoff.keepPartialSeconds = try reader.readInt()
        handoff.listenAddress = try reader.readString()
        handoff.clipboard.mode = try word(from: &reader)
        handoff.clipboard.maximumBytes = try reader.readUInt64()
        handoff.clipboard.offerSeconds = Double(try reader.readInt()) / 1000
        handoff.clipboard.primary = try reader.readBool()
        handoff.localSend.mode = try word(from: &reader)
        handoff.localSend.port = try reader.readInt()
        handoff.localSend.pin = try readOptional(from: &reader)
        handoff.quickShare.mode = try word(from: &reader)
        return handoff
    }

    private static func write(_ text: String?, to writer: inout ByteWriter) {
        writer.write(text != nil)
        if let text { writer.write(text) }
    }

    private static func readOptional(from reader: inout ByteReader) throws -> String? {
        try reader.readBool() ? try reader.readString() : nil
    }

    private static func word<Word: RawRepresentable>(from reader: inout ByteReader) throws -> Word where Word.RawValue == String {
        guard let word = Word(rawValue: try reader.readString()) else { throw ByteReader.Malformed() }
        return word
    }
}
