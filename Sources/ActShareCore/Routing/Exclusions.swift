/// The activities the user does not want offered: `exclude:` and `disabled-providers:` from
/// the config, and `--exclude` and `--only` from the command line.
///
/// Exclusion works for any type, third-party ones included, and is applied before a
/// provider's code is loaded.
public struct Exclusions: Sendable {
    public var excludedTypes: Set<String>
    public var disabledProviders: Set<String>
    /// When set, only these types are offered.
    public var onlyTypes: Set<String>?
    /// What named `onlyTypes`, as its reasons say it: `--only` on a command line, the
    /// request's `only` for a program (the D-Bus service's callers).
    public var onlyNamedBy = "--only"

    public init(excludedTypes: Set<String> = [], disabledProviders: Set<String> = [], onlyTypes: Set<String>? = nil) {
        self.excludedTypes = excludedTypes
        self.disabledProviders = disabledProviders
        self.onlyTypes = onlyTypes
    }

    /// The config's exclusions plus the command line's.
    public init(config: Config, exclude: [String], only: [String]) {
        self.init(
            excludedTypes: Set(config.exclude + exclude), disabledProviders: Set(config.disabledProviders),
            onlyTypes: only.isEmpty ? nil : Set(only))
    }

    /// Why `type` of `provider` is not offered, or nil if it may be.
    public func reason(excluding type: String, provider: String) -> String? {
        if disabledProviders.contains(provider) { return "its provider \(provider) is disabled in the config" }
        if excludedTypes.contains(type) { return "it is excluded" }
        if let onlyTypes, !onlyTypes.contains(type) { return "it is not named by \(onlyNamedBy)" }
        return nil
    }
}
