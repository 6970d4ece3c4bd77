import ActShareCore
import ActShareHandoff
import NIOConcurrencyHelpers
import NIOCore

/// An app's control connection, kept for its activity's events.
final class AppLink: Sendable {
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let pending = NIOLockedValueBox<CheckedContinuation<[String: JSONValue]?, Never>?>(nil)

    init(outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.outbound = outbound
    }

    /// Asks the app to save (`will-save`) and waits up to 2 s for its `update`.
    func save(_ id: String) async -> [String: JSONValue]? {
        let timer = Task {
            try await Task.sleep(for: .seconds(2))
            self.answer(nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            // Waiting before the event goes out: a quick answer cannot be missed.
            pending.withLockedValue { $0 = continuation }
            let outbound = self.outbound
            Task {
                let event = ControlResponse.success(id: id, event: "will-save")
                if (try? await outbound.write(try Wire.line(event))) == nil { self.answer(nil) }
            }
        }
    }

    /// The app's update (or nil on timeout): resumes a waiting `save`.
    func answer(_ userInfo: [String: JSONValue]?) {
        pending.withLockedValue { waiting in
            waiting?.resume(returning: userInfo)
            waiting = nil
        }
    }

    func tellContinued(_ id: String, by device: String) async {
        let event = ControlResponse.success(id: id, device: Device(id: "", name: device, host: "", port: 0), event: "continued")
        _ = try? await outbound.write(try Wire.line(event))
    }
}
