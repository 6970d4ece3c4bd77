/// The user's settings (`config.yaml`): exclusions, pins, disabled providers, option
/// defaults per provider, per-provider time limits, and handoff settings.
public struct Config: Sendable {
    /// Activity types never offered.
    public var exclude: [String] = []
    /// Activity types offered first, in this order.
    public var pin: [String] = []
    /// Provider ids whose activities are never offered and whose libraries never load.
    public var disabledProviders: [String] = []
    /// Option defaults by provider id, then option name.
    public var providerOptions: [String: [String: ConfigValue]] = [:]
    /// Hook time limits in milliseconds by provider id, overriding the manifest's `timeout:`.
    public var providerTimeouts: [String: Int] = [:]
    /// Provider ids the user trusts to run inside actshare (`in-process: [ID]`), whatever
    /// their manifests say; only the built-in providers may ask for it themselves.
    public var inProcess: [String] = []
    /// Whether a provider may run unsandboxed on a kernel without Landlock (`sandbox:
    /// auto`, the default) or must not run at all (`sandbox: required`).
    public var sandboxRequired = false
    /// The resource limits of providers' helper processes (`limits:`).
    public var limits = SandboxLimits()
    /// Whether completed shares are remembered to rank the sheet's choices
    /// (`remember-choices`, on by default; ``ChoiceHistory``).
    public var rememberChoices = true
    /// The accounts the Upload activity sends to (`uploads:`).
    public var uploads: [UploadAccount] = []
    /// The handoff daemon's settings (`handoff:`).
    public var handoff = HandoffSettings()
    /// The file this config was read from, if any.
    public var file: String?

    public init() {}
}

/// A config value with the place it was written, so later checks can point at it.
public struct ConfigValue: Sendable {
    public var value: String
    public var location: SourceLocation

    public init(_ value: String, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}
