import CActShareSystem
#if canImport(Glibc)
import Glibc
#endif

/// What scripts/link-release made of this program, when it made it.
///
/// The release package carries one Swift runtime: `actshare` exports it, and
/// `libactshare-daemon.so` uses it. The two must come from one link — a library from
/// another, with the same symbol names and other layouts, would corrupt memory without a
/// word — so link-release writes the library's GNU build id into actshare, and actshare
/// reads the library's own (its ELF note, before loading it) and refuses another.
public enum ReleaseLink {
    /// The build id of the daemon library this actshare was linked with; nil in any other
    /// build (debug, SwiftPM's release link, sanitizers).
    public static let daemonLibraryBuildID: String? = cactshare_daemon_library_build_id().map { String(cString: $0) }

    /// Whether this actshare exports its Swift runtime (only the relinked release does).
    /// Then providers are opened `RTLD_DEEPBIND`, so that a Swift provider on the
    /// toolchain's runtime does not bind half of it to actshare's; anywhere else they are
    /// not, as the flag breaks sanitizers and hides `LD_PRELOAD` interposers.
    public static var exportsRuntime: Bool { daemonLibraryBuildID != nil }

    /// The GNU build id (`NT_GNU_BUILD_ID`, hex) of the ELF file at `path`, read from its
    /// program headers without loading it; nil when it has none or is not a 64-bit
    /// little-endian ELF file.
    public static func buildID(ofFile path: String) -> String? {
        let fd = PathName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        func read(_ count: Int, at offset: UInt64) -> [UInt8]? {
            guard count > 0, count <= 1 << 16 else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
        func integer(_ bytes: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        guard let header = read(64, at: 0), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else { return nil }
        let headersAt = integer(header, 32, 8), entrySize = Int(integer(header, 54, 2)), count = Int(integer(header, 56, 2))
        guard entrySize >= 56, count <= 256, let table = read(entrySize * count, at: headersAt) else { return nil }
        for index in 0..<count {
            let entry = index * entrySize
            guard integer(table, entry, 4) == 4,  // PT_NOTE
                  let notes = read(Int(min(integer(table, entry + 32, 8), 1 << 16)), at: integer(table, entry + 8, 8))
            else { continue }
            var at = 0
            while at + 12 <= notes.count {
                let nameSize = Int(integer(notes, at, 4)), descriptionSize = Int(integer(notes, at + 4, 4)), type = integer(notes, at + 8, 4)
                let nameAt = at + 12, descriptionAt = nameAt + (nameSize + 3) & ~3
                guard descriptionAt + descriptionSize <= notes.count else { break }
                if type == 3, nameSize == 4, notes[nameAt..<nameAt + 4] == [0x47, 0x4E, 0x55, 0] {  // NT_GNU_BUILD_ID, "GNU"
                    return Hex.string(notes[descriptionAt..<descriptionAt + descriptionSize])
                }
                at = descriptionAt + (descriptionSize + 3) & ~3
            }
        }
        return nil
    }
}
