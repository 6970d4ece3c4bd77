import ActShareHandoff
#if canImport(Glibc)
import Glibc
#endif

/// The LocalSend transfers waiting for the user's answer. Each is a `prepare-upload` whose
/// connection waits; it is answered by `actshare handoff accept ID` / `decline ID` or the
/// notification, and declined when nobody answers in time or the device hangs up.
///
/// Bounded: at most ``maximumPending`` wait at once, one per address; more are told the
/// device is busy (409), as LocalSend apps do.
actor LocalSendRequests {
    enum Answer: Sendable, Equatable {
        case accepted(always: Bool)
        case declined
        /// Nobody answered in time, or the device gave up.
        case unanswered
    }

    static let maximumPending = 8
    /// As long as LocalSend apps wait for an answer.
    static let answerSeconds = 60.0

    private struct Pending {
        var request: LocalSendRequest
        var deadline: Double
        var continuation: CheckedContinuation<Answer, Never>
    }

    private var pending: [String: Pending] = [:]

    /// Whether another request may wait now from `address`.
    func hasRoom(from address: String) -> Bool {
        pending.count < Self.maximumPending && !pending.values.contains { ClientAddress.host($0.request.address) == ClientAddress.host(address) }
    }

    /// Waits for the user's answer to `request`, at most ``answerSeconds``; `shown` is
    /// called once it can be answered (to show the notification).
    func ask(_ request: LocalSendRequest, shown: @escaping @Sendable () -> Void) async -> Answer {
        let deadline = LocalSendDiscovery.now() + Self.answerSeconds
        let id = request.id
        let timer = Task {
            try? await Task.sleep(for: .seconds(Self.answerSeconds))
            self.answer(id, .unanswered)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending[id] = Pending(request: request, deadline: deadline, continuation: continuation)
                shown()
            }
        } onCancel: {
            Task { await self.answer(id, .unanswered) }
        }
    }

    /// Answers the request `id`; false when none waits under it.
    @discardableResult
    func answer(_ id: String, _ answer: Answer) -> Bool {
        guard let waiting = pending.removeValue(forKey: id) else { return false }
        waiting.continuation.resume(returning: answer)
        return true
    }

    /// The requests waiting, oldest first, with the seconds left to answer.
    var list: [LocalSendRequest] {
        let now = LocalSendDiscovery.now()
        return pending.values.sorted { $0.deadline < $1.deadline }.map { waiting in
            var request = waiting.request
            request.expires = max(0, (waiting.deadline - now).rounded())
            return request
        }
    }
}
