/// The resource limits of a provider's helper process (config `limits:`).
public struct SandboxLimits: Sendable, Equatable {
    /// The address space it may map, in bytes: its heap, libraries and thread stacks.
    public var memory: UInt64 = 4 << 30
    /// The largest file it may write, in bytes.
    public var fileSize: UInt64 = 16 << 30
    /// How much its private temporary directory (`TMPDIR`) may hold, in bytes; never more
    /// than `memory`, since what it holds is memory.
    public var temporaryFiles: UInt64 = 512 << 20
    /// How many files it may have open at once.
    public var openFiles: UInt32 = 1024
    /// How many processes it may start beyond those running (with `exec: true`; without,
    /// it may start none).
    public var processes: UInt32 = 64

    public init() {}
}
