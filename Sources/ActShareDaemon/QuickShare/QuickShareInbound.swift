import ActShareCore
import ActShareHandoff
import ActShareQuickShare
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One phone's share coming in, as its connection's owner: the question goes to the
/// user through the requests LocalSend's go through (`handoff requests`, the
/// notification, with Quick Share's PIN), and, accepted, the files and texts are written
/// by ``LocalSendSession``'s rules (a hidden partial folder of the receive directory,
/// safe names, no overwrite, nothing under a real name until every item is whole).
///
/// A link alone (Android's URL share) is no file: accepted, it is kept as an activity
/// handed to this device (`handoff list`, `handoff continue`), and its notification opens
/// it (``QuickShareLinkNotice``).
///
/// Calls come on the connection's event loop, the answer from a task: the state is
/// behind one lock.
final class QuickShareInbound: QuickShareReceiverDelegate, Sendable {
    private let service: QuickShareService
    private let transfers: TransferService
    private let relay: ActivityRelay
    private let ownName: String
    private struct State {
        var sender = ""
        /// Made once the user accepted, before the answer goes back.
        var session: LocalSendSession?
        /// The open file of each item being written, by payload id.
        var writing: [Int64: Int32] = [:]
        var asking: Task<Void, Never>?
        var ended = false
        /// The share is one link, accepted: its payload is kept as an activity.
        var link: (endpointID: String, accepted: Bool)?
    }
    private let state = Mutex(State())

    init(service: QuickShareService, transfers: TransferService, relay: ActivityRelay, ownName: String) {
        self.service = service
        self.transfers = transfers
        self.relay = relay
        self.ownName = ownName
    }

    func quickShare(_ peer: QuickSharePeer, offers offer: QuickShareOffer, pin: String, answer: @escaping @Sendable (Bool) -> Void) {
        let sender = String(peer.name.prefix(LocalSendDeviceInfo.nameLimit))
        let files = Self.files(offer)
        let requests = service.requests
        let directory = transfers.receiveDirectory
        let ownName = ownName
        let message = offer.files.isEmpty ? offer.texts.first?.title : nil
        let isLink = offer.files.isEmpty && offer.texts.count == 1 && offer.texts[0].kind == .url
        if isLink { state.withLock { $0.link = (peer.endpointID, false) } }
        let asking = Task {
            guard await requests.hasRoom(from: peer.address) else {
                DaemonLog.line("refused a Quick Share transfer from \(sender) at \(peer.address): another one from there waits for an answer")
                return answer(false)
            }
            do {
                try LocalSendSession.check(files, from: sender, directory: directory, ownName: ownName)
            } catch {
                DaemonLog.line("refused files from Quick Share device \(sender): \(HandoffError(error))")
                return answer(false)
            }
            let request = LocalSendRequest(id: String(LocalSendSession.randomToken().prefix(8)), device: sender, address: peer.address, fingerprint: "",
                                           pinned: false, files: files.map { LocalSendRequest.File(name: $0.fileName, size: $0.size) },
                                           bytes: files.reduce(0) { $0 &+ $1.size }, message: message, expires: LocalSendRequests.answerSeconds,
                                           via: "quickshare", pin: pin)
            DaemonLog.line("Quick Share device \(sender) at \(peer.address) asks to send \(files.count) item\(files.count == 1 ? "" : "s"): request \(request.id), PIN \(pin)")
            let decision = await requests.ask(request) { LocalSendPrompt.show(request, requests: requests) }
            guard case .accepted = decision else {
                DaemonLog.line("the Quick Share transfer from \(sender) was \(decision == .declined ? "declined" : "not answered")")
                return answer(false)
            }
            if isLink {
                self.state.withLock { $0.link?.accepted = true }
                return answer(true)
            }
            do {
                let session = try LocalSendSession(
                    id: LocalSendSession.randomToken(), requestID: request.id, files: files, from: sender,
                    senderID: "qs" + String(decoding: peer.endpointID.utf8.filter { $0 < 0x80 }, as: UTF8.self).lowercased(),
                    address: peer.address, directory: directory, ownName: ownName)
                let stillOpen = self.state.withLock { state in
                    if !state.ended { state.session = session }
                    return !state.ended
                }
                guard stillOpen else { return session.discard() }
                self.service.underWay(session, requestID: request.id)
            } catch {
                DaemonLog.line("files from Quick Share device \(sender) not received: \(HandoffError(error))")
                return answer(false)
            }
            answer(true)
        }
        state.withLock { state in
            state.sender = sender
            state.asking = asking
        }
    }

    /// The items as LocalSend's files: each under its payload id; a text as `message.txt`
    /// (LocalSend's name for a message kept). A Quick Share name is one name: a `/` in it
    /// makes no folder, its last part is kept (and then made safe as every name is).
    static func files(_ offer: QuickShareOffer) -> [LocalSendFile] {
        offer.files.map { file in
            let name = file.name.split(separator: "/").last.map(String.init) ?? file.name
            return LocalSendFile(id: String(file.payloadID), fileName: name, size: file.size, fileType: file.mimeType)
        }
            + offer.texts.enumerated().map { index, text in
                LocalSendFile(id: String(text.payloadID), fileName: index == 0 ? "message.txt" : "message \(index + 1).txt", size: UInt64(text.size),
                              fileType: "text/plain", preview: text.title)
            }
    }

    func quickShare(file payloadID: Int64, offset: UInt64, bytes: [UInt8], last: Bool) throws {
        try logged { try write(payloadID, bytes, last: last) }
    }

    func quickShare(text payloadID: Int64, _ text: [UInt8]) throws {
        let (link, sender) = state.withLock { ($0.link, $0.sender) }
        guard let link else { return try logged { try write(payloadID, text, last: true) } }
        guard link.accepted else { throw LocalSendSessionError.forbidden }
        // What a browser is given: http and https, a URL that reads as one, nothing else.
        var activity = UserActivity(type: UserActivity.handedOffURL, title: "")
        if let url = String(validating: text, as: UTF8.self) {
            activity.title = String(url.prefix(200))
            activity.webpageURL = url
            activity.userInfo = ["url": .string(url)]
        }
        guard let url = activity.webpageURL, ActivityChecks.isWebURL(url), ActivityChecks.problem(with: activity, fromPeer: false) == nil else {
            DaemonLog.line("refused a link from Quick Share device \(sender): not an http or https URL")
            throw LocalSendSessionError.forbidden
        }
        let relay = relay
        Task {
            let id = await relay.keep(activity, origin: "quickshare:" + String(decoding: link.endpointID.utf8.filter { $0 < 0x80 }, as: UTF8.self),
                                         originName: sender)
            DaemonLog.line("Quick Share device \(sender) sent a link: kept as \(id) (actshare handoff continue \(id))")
            QuickShareLinkNotice.show(id: id, url: url, from: sender)
        }
    }

    /// `body`, its failure said in the log (the connection then ends).
    private func logged(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch LocalSendSessionError.forbidden {
            throw LocalSendSessionError.forbidden
        } catch {
            let sender = state.withLock { $0.sender }
            DaemonLog.line("files from Quick Share device \(sender) cannot be written: \(HandoffError(error))")
            throw error
        }
    }

    /// Writes `bytes` to the item's file, opened at its first bytes; whole, it is closed
    /// and, the last of the share, everything is moved to its name and recorded.
    private func write(_ payloadID: Int64, _ bytes: [UInt8], last: Bool) throws {
        let id = String(payloadID)
        let (session, open) = state.withLock { ($0.session, $0.writing[payloadID]) }
        guard let session else { throw LocalSendSessionError.cannotWrite }
        // Stopped by the user (`handoff decline ID` once under way): the phone is told.
        guard !session.hasEnded else { throw LocalSendSessionError.forbidden }
        var fd = open ?? -1
        if open == nil {
            guard case .write(let opened, _, _) = try session.beginUpload(id, token: session.slots[id]?.token ?? "") else {
                throw LocalSendSessionError.cannotWrite
            }
            fd = opened
            state.withLock { $0.writing[payloadID] = opened }
        }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw LocalSendSessionError.cannotWrite }
            done += count
        }
        guard last else { return }
        fchmod(fd, TransferReceiver.fileMode(0o644))
        close(fd)
        state.withLock { _ = $0.writing.removeValue(forKey: payloadID) }
        if let received = try session.endUpload(id, sha256: "") {
            service.finished(session.requestID)
            transfers.record(received)
        }
    }

    func quickShareFinished() {
        let sender = state.withLock { $0.sender }
        DaemonLog.line("the Quick Share transfer from \(sender) arrived whole")
    }

    func quickShareEnded(_ error: QuickShareSessionError?) {
        let (sender, session, open, asking) = state.withLock { state in
            state.ended = true
            defer { state.writing = [:] }
            return (state.sender, state.session, Array(state.writing.values), state.asking)
        }
        asking?.cancel()
        for fd in open { close(fd) }
        if let session {
            session.discard()
            service.finished(session.requestID)
        }
        if let error { DaemonLog.line("the Quick Share connection from \(sender.isEmpty ? "a device" : sender) ended: \(error)") }
    }
}
