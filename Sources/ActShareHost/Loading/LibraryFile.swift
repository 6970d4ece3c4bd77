import ActShareCore

/// Explains why a file cannot be loaded as this machine's shared library, better than
/// `dlerror` does (which says "No such file or directory" for an existing library built
/// for another architecture).
enum LibraryFile {
    /// What is wrong with the file at `path` as a library, or nil if its header is fine.
    static func problem(_ path: String) -> String? {
        guard let header = try? FileSystem.read(path, limit: 64) else { return nil }
        guard header.count >= 20, header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46 else {
            return "not an ELF shared library"
        }
        guard header[4] == 2 else { return "a 32-bit library; this actshare is 64-bit" }
        let machine = Int(header[18]) | Int(header[19]) << 8
        guard machine == hostMachine else {
            return "built for another architecture (\(name(ofMachine: machine))); this machine is \(name(ofMachine: hostMachine))"
        }
        return nil
    }

    private static var hostMachine: Int {
        #if arch(x86_64)
        return 62
        #elseif arch(arm64)
        return 183
        #else
        return -1
        #endif
    }

    private static func name(ofMachine machine: Int) -> String {
        switch machine {
        case 3: return "x86"
        case 40: return "ARM"
        case 62: return "x86-64"
        case 183: return "AArch64"
        case 243: return "RISC-V"
        default: return "ELF machine \(machine)"
        }
    }
}
