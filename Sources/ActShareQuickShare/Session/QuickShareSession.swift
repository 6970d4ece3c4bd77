/// The limits every Quick Share connection is held to, whichever side it is.
public enum QuickShareSession {
    /// Files and texts in one introduction.
    public static let maximumItems = 1000
    /// A text is received whole in memory: at most this long.
    public static let maximumTextBytes = 1 << 20
    /// A negotiation frame (a BYTES payload that is no text offered): at most this long.
    public static let maximumFrameBytes = 1 << 20
    /// BYTES payloads being assembled at once.
    public static let maximumPayloadsInFlight = 4
    /// How often each side says it is alive, as Android does.
    public static let keepAliveSeconds = 10
}
