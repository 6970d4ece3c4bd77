import CActShareSystem

/// Whether a local process runs confined, as every sandboxed provider does
/// (`cactshare_process_is_confined`: with no new privileges, which it cannot undo). actshare's daemon and D-Bus service ask it of each caller, as the kernel
/// names it (SO_PEERCRED), and act for no confined one: a sandbox must not be widened by
/// asking actshare to do what it forbids.
public enum ProcessConfinement {
    public static func isConfined(pid: Int32) -> Bool { cactshare_process_is_confined(pid) != 0 }
}
