import CActShareHandoff

/// The built-in Hand Off activity, as the share sheet's row of devices performs it.
/// Defined once, in `handoff_protocol.h`.
public enum HandOffActivity {
    /// Its activity type, `org.actshare.handoff`.
    public static let type = ACTSHARE_HANDOFF_ACTIVITY_TYPE
    /// Its option naming the device to send to, by id or name.
    public static let deviceOption = ACTSHARE_HANDOFF_DEVICE_OPTION
    /// Its option (`true`) putting the items on the device's clipboard instead.
    public static let clipboardOption = ACTSHARE_HANDOFF_CLIPBOARD_OPTION
}
