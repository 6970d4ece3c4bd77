#if canImport(Glibc)
import Glibc
#endif

/// One `mime.cache`, the binary form of shared-mime-info's database that
/// update-mime-database writes into each `XDG_DATA_DIRS/mime/` (format 1.1 and 1.2:
/// big-endian 32-bit offsets into the file, lists sorted for binary search).
///
/// The file is read into memory whole rather than mapped, so a cache replaced or cut
/// short while actshare runs cannot fault. Every read is bounds-checked: a truncated or
/// corrupt cache answers "no match", never traps or loops (walks are depth- and
/// step-bounded).
struct MimeCache: Sendable {
    /// The largest cache read (Debian's is 150 KiB).
    static let sizeLimit = 32 << 20

    let bytes: [UInt8]

    /// The header's offsets to each section.
    enum Section: Int {
        case aliases = 4, parents = 8, literals = 12, suffixTree = 16, globs = 20, magic = 24
    }

    init?(bytes: [UInt8]) {
        self.bytes = bytes
        guard bytes.count >= 40, u16(0) == 1, let minor = u16(2), (1...2).contains(minor) else { return nil }
    }

    /// The cache at `path`, or nil when there is none or it is not a cache this reads.
    init?(path: String) {
        guard let bytes = FileSystem.readHead(path, count: Self.sizeLimit + 1), bytes.count <= Self.sizeLimit else { return nil }
        self.init(bytes: bytes)
    }

    func u16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    func u32(_ offset: Int) -> Int? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }

    /// Where a section's list begins.
    func list(_ section: Section) -> Int? { u32(section.rawValue) }

    /// The NUL-terminated string at `offset`, as bytes without the NUL.
    func string(at offset: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, offset < bytes.count, let end = bytes[offset...].firstIndex(of: 0) else { return nil }
        return bytes[offset..<end]
    }

    /// The MIME type named at `offset`.
    func type(at offset: Int) -> String? {
        string(at: offset).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `strcmp` of the string at `offset` with `key`: the order the cache's lists are sorted in.
    /// (Plain arrays, not generic collections: a generic zip here cost a runtime type
    /// lookup at every start.)
    func compare(at offset: Int, with key: [UInt8]) -> Int? {
        guard offset >= 0, offset < bytes.count else { return nil }
        var index = 0
        while true {
            guard offset + index < bytes.count else { return nil }
            let stored = bytes[offset + index]
            let wanted: UInt8 = index < key.count ? key[index] : 0
            if stored != wanted { return stored < wanted ? -1 : 1 }
            if stored == 0 { return index == key.count ? 0 : -1 }  // a key with a NUL in it is longer
            index += 1
        }
    }

    /// Binary search of a list of `count` entries of `stride` bytes from `first`, each
    /// beginning with the offset of its key string; the index of the entry equal to `key`.
    func search(_ key: [UInt8], first: Int, count: Int, stride: Int) -> Int? {
        var low = 0, high = count - 1
        while low <= high {
            let middle = (low + high) / 2
            guard let keyOffset = u32(first + stride * middle), let order = compare(at: keyOffset, with: key) else { return nil }
            if order < 0 { low = middle + 1 } else if order > 0 { high = middle - 1 } else { return middle }
        }
        return nil
    }
}
