/// A value an activity needs from the user: given with `-o NAME=VALUE`, by config, or asked for.
public struct OptionDeclaration: Sendable {
    /// The type of an option's value.
    public enum ValueType: String, Sendable, CaseIterable {
        case string
        case integer
        case boolean
        /// A file system path; `~/` is expanded to the home directory.
        case path
        /// A folder's path, as `path`; the share sheet offers the desktop's folder chooser.
        case folder
        /// One or more mail addresses, comma-separated (`Name <a@b>, c@d`): see MailAddressList.
        case email
    }

    public var name: String
    public var type: ValueType
    public var required: Bool
    public var defaultValue: String?
    /// The question asked on a terminal when a required option has no value.
    public var prompt: String?
    /// The only values allowed, if limited.
    public var choices: [String]?

    public init(
        name: String, type: ValueType = .string, required: Bool = false, defaultValue: String? = nil,
        prompt: String? = nil, choices: [String]? = nil
    ) {
        self.name = name
        self.type = type
        self.required = required
        self.defaultValue = defaultValue
        self.prompt = prompt
        self.choices = choices
    }

    /// Checks `value` against the type and choices; returns the value to use, or a reason.
    public func validate(_ value: String) -> Result<String, OptionValueError> {
        if let choices, !choices.contains(value) {
            return .failure(OptionValueError(reason: "must be one of \(choices.joined(separator: ", "))"))
        }
        switch type {
        case .string:
            return .success(value)
        case .integer:
            return Int(value) == nil ? .failure(OptionValueError(reason: "must be a whole number")) : .success(value)
        case .boolean:
            switch value.lowercased() {
            case "true", "yes", "on", "1": return .success("true")
            case "false", "no", "off", "0": return .success("false")
            default: return .failure(OptionValueError(reason: "must be true or false"))
            }
        case .path, .folder:
            if value.isEmpty { return .failure(OptionValueError(reason: "must be a path")) }
            return .success(FileSystem.expandingTilde(value))
        case .email:
            do {
                _ = try MailAddressList(value)
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
    }
}

/// Why an option's value was refused.
public struct OptionValueError: Error, Sendable {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}
