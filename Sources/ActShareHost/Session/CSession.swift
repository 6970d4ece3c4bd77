import ActShareCore
import CActShare
#if canImport(Glibc)
import Glibc
#endif

/// The `actshare_session` a provider calls back into during a hook: progress, log,
/// returned items, option values, an error message and the cancelled flag.
///
/// The C struct is heap-allocated for the life of this object, because a provider may
/// keep the session pointer for the whole call (and call back from its own threads).
final class CSession {
    let pointer: UnsafeMutablePointer<actshare_session>
    let request: CRequest
    let provider: String
    weak var observer: (any SessionObserver)?

    private(set) var returnedItems: [Item] = []
    private(set) var errorMessage: String?
    private let lock = Lock()
    private let cancelled: UnsafeMutablePointer<Int32>

    init(request: CRequest, provider: String, observer: (any SessionObserver)?, cancelled: UnsafeMutablePointer<Int32>) {
        self.request = request
        self.provider = provider
        self.observer = observer
        self.cancelled = cancelled
        pointer = .allocate(capacity: 1)
        pointer.pointee = actshare_session(
            abi_version: UInt32(ACTSHARE_ABI_VERSION), struct_size: UInt32(MemoryLayout<actshare_session>.size),
            host_context: nil,
            progress: { session, fraction in CSession.from(session)?.reportProgress(fraction) },
            log: { session, level, message in CSession.from(session)?.log(level, message) },
            return_item: { session, kind, value, contentType in
                CSession.from(session)?.returnItem(kind, value, contentType) ?? -1
            },
            option: { session, name in
                guard let name else { return nil }
                return CSession.from(session)?.request.option(String(cString: name))
            },
            set_error: { session, message in CSession.from(session)?.setError(message) },
            is_cancelled: { session in CSession.from(session)?.isCancelled ?? 0 })
        pointer.pointee.host_context = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        pointer.deallocate()
    }

    private static func from(_ session: UnsafeMutablePointer<actshare_session>?) -> CSession? {
        guard let context = session?.pointee.host_context else { return nil }
        return Unmanaged<CSession>.fromOpaque(context).takeUnretainedValue()
    }

    // MARK: Callbacks

    private var isCancelled: Int32 { cancelled.pointee }

    private func reportProgress(_ fraction: Double) {
        guard fraction.isFinite else { return }
        observer?.progress(min(max(fraction, 0), 1), activity: request.request.activityType)
    }

    private func log(_ level: Int32, _ message: UnsafePointer<CChar>?) {
        guard let message else { return }
        observer?.log(LogLevel(rawValue: level) ?? .info, String(cString: message), provider: provider)
    }

    private func returnItem(_ kind: Int32, _ value: UnsafePointer<CChar>?, _ contentType: UnsafePointer<CChar>?) -> Int32 {
        guard let value else { return -1 }
        // A file's path is bytes (PathName); text is UTF-8, repaired if it is not.
        let text = kind == ItemKind.file.cValue ? PathName.decode(UnsafeRawBufferPointer(start: value, count: strlen(value))) : String(cString: value)
        guard let item = ReturnedItem.make(kind: kind, value: text, contentType: contentType.map { String(cString: $0) })
        else { return -1 }
        lock.withLock { returnedItems.append(item) }
        return 0
    }

    private func setError(_ message: UnsafePointer<CChar>?) {
        // Messages name files, whose names need not be UTF-8 (PathName keeps their bytes).
        let text = message.map { PathName.decode(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
        lock.withLock { errorMessage = text }
    }

    /// Adds a text item that a `string` hook returned.
    func appendReturnedText(_ text: String) {
        lock.withLock { returnedItems.append(.text(text)) }
    }
}
