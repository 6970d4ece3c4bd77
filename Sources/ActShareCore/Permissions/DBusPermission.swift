/// The D-Bus bus a provider may reach (`permissions.dbus`).
///
/// Only the whole session bus can be granted: actshare does not filter D-Bus names, so a
/// provider on it can ask any program there to act for it (docs/SECURITY.md). The system
/// bus is never granted.
public enum DBusPermission: String, Sendable, Equatable, CaseIterable {
    /// No bus: the default.
    case none
    /// The user's session bus (`$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
    case session
}
