// actshare-mail-throughput MAILDIR ATTACHMENT COUNT
//
// A resident share sheet's view of Mail: one process (an app using ActShareHost) mails
// COUNT messages, each a text and ATTACHMENT, into MAILDIR through the built-in Mail
// provider, as Benchmarks/support/mail-python.py does with Python's email and mailbox.
// Used by Benchmarks/mail-vs-python.
import ActShareCore
import ActShareHost
import Glibc

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]), let status = FileSystem.status(arguments[2]) else {
    print("usage: actshare-mail-throughput MAILDIR ATTACHMENT COUNT")
    exit(2)
}
let paths = SearchPaths.fromEnvironment(configFile: nil)
let contents = try ManifestLoader(paths: paths).load()
let host = ActivityHost(
    registry: ProviderRegistry(manifests: contents.manifests, hasNoConflicts: contents.hasNoConflicts),
    config: Config(), providerHost: paths.providerHost)
let options = [("to", "reader@example.org"), ("from", "bench@example.org"), ("subject", "benchmark"), ("spool", "maildir:\(arguments[1])")]
for _ in 0..<count {
    // The items are made for every message, as a share sheet makes them for every share.
    let items = [Item.text("A message with a 100 KiB attachment."), Item.file(arguments[2], status: status)]
    let offers = host.offers(for: items, exclusions: Exclusions(onlyTypes: ["org.actshare.mail"]), recents: [])
    guard let offer = offers.offers.first else { fatalError("Mail is not offered: \(offers.faults)") }
    let request = ActivityRequest(activityType: offer.type, items: items, options: options.map { (name: $0.0, value: $0.1) })
    let result = host.perform(offer, request: request, observer: nil)
    guard result.completed else { fatalError(result.error ?? "Mail failed") }
}
