#if canImport(Glibc)
import Glibc
#endif

/// A plain POSIX thread, detached, that runs a body once: for a loop that blocks (reading a
/// socket, waiting for a person) without Foundation's Thread, which would bring Foundation,
/// and without holding a thread of Swift's concurrency pool.
public enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a thread of its own; false (and `body` not run) if none could be made.
    @discardableResult
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
