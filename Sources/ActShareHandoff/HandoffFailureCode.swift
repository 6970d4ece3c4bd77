import ActShareCore
import CActShareHandoff

/// Why a control request failed: the `exit_code` of its answer, which the CLI exits with
/// and the Hand Off provider maps to its status. Defined once, in `handoff_protocol.h`.
public struct HandoffFailureCode: RawRepresentable, Sendable, Equatable {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Anything else: the device is unreachable, a disk is full.
    public static let failed = Self(rawValue: ACTSHARE_HANDOFF_FAILED)
    /// The request cannot be used as given: an unknown device, a bad activity, a link.
    public static let badInput = Self(rawValue: ACTSHARE_HANDOFF_BAD_INPUT)
    /// Nothing to continue, or nothing here continues it.
    public static let notFound = Self(rawValue: ACTSHARE_HANDOFF_NOT_FOUND)
    /// The user cancelled.
    public static let cancelled = Self(rawValue: ACTSHARE_HANDOFF_CANCELLED)
}

/// What the handoff daemon and its clients assume unless configured.
public enum HandoffDefaults {
    /// The TCP port daemons listen on for each other (config `handoff.port`).
    public static let port = HandoffSettings.defaultPort
    /// The DNS-SD service name daemons advertise, `_actshare` (of `_actshare._tcp`).
    public static let serviceName = ACTSHARE_HANDOFF_SERVICE_NAME
    /// How long `handoff discover` waits for answers unless told.
    public static let discoverSeconds = 1.0
}
