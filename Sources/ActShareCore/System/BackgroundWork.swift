#if canImport(Glibc)
import Glibc
#endif

/// Runs one piece of work on a thread of its own while the caller does something else.
///
/// Used where start-up would otherwise wait on the kernel twice in a row (statting a
/// thousand manifests while their summaries are decoded). A plain pthread: no executor,
/// no Foundation, nothing to start up.
public final class BackgroundWork<Result: Sendable>: @unchecked Sendable {
    // Written by the thread before it ends and read only after pthread_join, which orders the two.
    private var result: Result?
    private var thread = pthread_t()
    private var started = false

    /// Starts `work` on a thread of its own, or runs it here and now when `inline`.
    public init(inline: Bool = false, _ work: @escaping @Sendable () -> Result) {
        if inline {
            result = work()
            return
        }
        let body = ThreadBody { [unowned(unsafe) self] in self.result = work() }
        let context = Unmanaged.passRetained(body).toOpaque()
        started = pthread_create(&thread, nil, { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context) == 0
        if !started {
            // No thread could be made: do the work here.
            Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
        }
    }

    /// Runs `work` on a thread nobody waits for: an answer that is welcome while actshare
    /// runs and not worth waiting for at its end (or here and now when no thread can be made).
    public static func detached(_ work: @escaping @Sendable () -> Void) {
        let body = ThreadBody(work)
        let context = Unmanaged.passRetained(body).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context) == 0 else {
            return Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
        }
        pthread_detach(thread)
    }

    deinit {
        // The thread writes into this object: it must end before the object does.
        if started { pthread_join(thread, nil) }
    }

    /// Waits for the work to finish and returns what it gave.
    public func wait() -> Result {
        if started {
            pthread_join(thread, nil)
            started = false
        }
        return result!
    }
}

/// The non-generic closure a C thread entry point can call.
private final class ThreadBody {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }
}
