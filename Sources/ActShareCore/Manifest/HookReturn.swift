/// What a hook returns, and how the host reads it.
public enum HookReturn: String, Sendable {
    /// `int32_t`: 0 done, 2 cancelled, anything else failed.
    case status
    /// C `bool`: true done (or "can perform"), false not.
    case bool
    /// `const char *`: UTF-8 the host copies (and never frees); from perform it becomes a
    /// returned text item, and NULL means failure.
    case string
    /// Nothing: the call always succeeds.
    case void
    /// `int32_t`: non-zero yes, zero no — the standard `can-perform` signature.
    case verdict
}
