import ActShareCore
import CActShare
#if canImport(Glibc)
import Glibc
#endif

/// An ``ActivityRequest`` laid out as the C `actshare_request` of `provider.h`.
///
/// All strings and arrays are allocated here and live until this object goes, which is
/// after the hook call returns: a provider may keep nothing without copying it.
final class CRequest {
    let request: ActivityRequest
    let pointer: UnsafeMutablePointer<actshare_request>
    private let items: UnsafeMutablePointer<actshare_item>
    private let options: UnsafeMutablePointer<actshare_option>
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private var buffers: [UnsafeMutableRawPointer] = []
    /// File contents read for `item.data`, by item index.
    private var fileData: [Int: (UnsafeRawPointer?, Int)] = [:]

    init(_ request: ActivityRequest) {
        self.request = request
        pointer = .allocate(capacity: 1)
        items = .allocate(capacity: max(request.items.count, 1))
        options = .allocate(capacity: max(request.options.count, 1))

        for (index, item) in request.items.enumerated() {
            let inline = item.kind == .file ? nil : item.inlineBytes
            let data = inline.map { copy($0) }
            items[index] = actshare_item(
                kind: item.kind.cValue, path: item.path.flatMap { PathName.withCString($0, string) }, uri: string(item.url),
                text: string(item.text), content_type: string(item.contentType), size: item.size,
                data: data.map { UnsafeRawPointer($0) }, data_length: inline?.count ?? 0)
        }
        for (index, option) in request.options.enumerated() {
            options[index] = actshare_option(name: string(option.name), value: string(option.value))
        }
        pointer.pointee = actshare_request(
            abi_version: UInt32(ACTSHARE_ABI_VERSION), struct_size: UInt32(MemoryLayout<actshare_request>.size),
            activity_type: string(request.activityType), subject: string(request.subject),
            item_count: request.items.count, items: items, option_count: request.options.count,
            options: options, host_context: nil, decline: nil, add_target: nil, target: nil)
        pointer.pointee.target = string(request.target)
    }

    deinit {
        strings.forEach { free($0) }
        buffers.forEach { $0.deallocate() }
        pointer.deallocate()
        items.deallocate()
        options.deallocate()
    }

    func item(_ index: Int) -> actshare_item { items[index] }

    /// The value of option `name` as a C string, or NULL.
    func option(_ name: String) -> UnsafePointer<CChar>? {
        for index in 0..<request.options.count where request.options[index].name == name {
            return options[index].value
        }
        return nil
    }

    /// The bytes of item `index` for `item.data`; a file is read on first use.
    func data(ofItem index: Int) throws -> (UnsafeRawPointer?, Int) {
        let item = items[index]
        if item.kind != ItemKind.file.cValue { return (item.data, item.data_length) }
        if let cached = fileData[index] { return cached }
        let bytes = try FileSystem.read(request.items[index].path ?? "")
        let result = (UnsafeRawPointer(copy(bytes)), bytes.count)
        fileData[index] = result
        return result
    }

    private func string(_ value: String?) -> UnsafePointer<CChar>? {
        value.flatMap { $0.withCString(string) }
    }

    /// A copy of a C string, freed with the request.
    private func string(_ value: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        guard let copy = strdup(value) else { return nil }
        strings.append(copy)
        return UnsafePointer(copy)
    }

    private func copy(_ bytes: [UInt8]) -> UnsafeMutableRawPointer {
        // One spare zero byte, so text data is also a C string.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bytes.count + 1, alignment: 16)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        buffer.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
        buffers.append(buffer)
        return buffer
    }
}
