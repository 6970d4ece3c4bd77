import ActShareCore
import CActShare
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The `actshare_session` a provider calls back into during an in-process hook call.
///
/// Each callback becomes a ``SessionEvent`` for the sink of the call that is running;
/// `option` and `is_cancelled` are answered here. The C struct is heap-allocated for the
/// life of this object, because a provider may keep the session pointer for the whole
/// call and call back from its own threads: the sink is called under a lock, one
/// callback at a time, and a callback after its call has returned is ignored.
final class CSession {
    let pointer: UnsafeMutablePointer<actshare_session>
    let request: CRequest
    /// Held while the sink is set, cleared or called: one callback at a time.
    private let lock = Mutex(())
    private var sink: ((SessionEvent) -> Bool)?
    private let cancelled: UnsafeMutablePointer<Int32>

    init(request: CRequest, cancelled: UnsafeMutablePointer<Int32>) {
        self.request = request
        self.cancelled = cancelled
        pointer = .allocate(capacity: 1)
        pointer.pointee = actshare_session(
            abi_version: UInt32(ACTSHARE_ABI_VERSION), struct_size: UInt32(MemoryLayout<actshare_session>.size),
            host_context: nil,
            progress: { session, fraction in _ = CSession.from(session)?.deliver(.progress(fraction)) },
            log: { session, level, message in
                guard let message else { return }
                _ = CSession.from(session)?.deliver(.log(level: level, message: CSession.bytes(message)))
            },
            return_item: { session, kind, value, contentType in
                guard let value, let session = CSession.from(session) else { return -1 }
                let event = SessionEvent.item(kind: kind, value: CSession.bytes(value), contentType: contentType.map(CSession.bytes))
                return session.deliver(event) ? 0 : -1
            },
            option: { session, name in
                guard let name else { return nil }
                return CSession.from(session)?.request.option(String(cString: name))
            },
            set_error: { session, message in
                guard let message else { return }
                _ = CSession.from(session)?.deliver(.setError(CSession.bytes(message)))
            },
            is_cancelled: { session in CSession.from(session)?.cancelled.pointee ?? 0 })
        pointer.pointee.host_context = Unmanaged.passUnretained(self).toOpaque()
        request.pointer.pointee.host_context = pointer.pointee.host_context
        request.pointer.pointee.decline = { request, reason in
            guard let reason, let context = request?.pointee.host_context else { return }
            _ = Unmanaged<CSession>.fromOpaque(context).takeUnretainedValue().deliver(.declined(CSession.bytes(reason)))
        }
        request.pointer.pointee.add_target = { request, target in
            guard let context = request?.pointee.host_context, let target,
                  target.pointee.struct_size >= MemoryLayout<actshare_target>.size, let id = target.pointee.id, let title = target.pointee.title
            else { return -1 }
            let event = SessionEvent.target(
                kind: target.pointee.kind, id: CSession.bytes(id, cut: HookReturnValue.maximumMessage), title: CSession.bytes(title, cut: HookReturnValue.maximumMessage),
                subtitle: target.pointee.subtitle.map { CSession.bytes($0, cut: HookReturnValue.maximumMessage) },
                image: target.pointee.image.map { CSession.bytes($0, cut: HookReturnValue.maximumMessage) })
            return Unmanaged<CSession>.fromOpaque(context).takeUnretainedValue().deliver(event) ? 0 : -1
        }
    }

    deinit {
        pointer.deallocate()
    }

    /// Runs `body` with `sink` receiving this session's callbacks.
    func withSink<T>(_ sink: (SessionEvent) -> Bool, _ body: () throws -> T) rethrows -> T {
        try withoutActuallyEscaping(sink) { sink in
            lock.withLock { _ in self.sink = sink }
            defer { lock.withLock { _ in self.sink = nil } }
            return try body()
        }
    }

    private func deliver(_ event: SessionEvent) -> Bool {
        lock.withLock { _ in sink?(event) ?? false }
    }

    private static func from(_ session: UnsafeMutablePointer<actshare_session>?) -> CSession? {
        guard let context = session?.pointee.host_context else { return nil }
        return Unmanaged<CSession>.fromOpaque(context).takeUnretainedValue()
    }

    private static func bytes(_ string: UnsafePointer<CChar>) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: string, count: strlen(string)))
    }

    /// At most `cut` bytes of a C string, as the helper cuts what it sends.
    private static func bytes(_ string: UnsafePointer<CChar>, cut: Int) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: string, count: strnlen(string, cut)))
    }
}
