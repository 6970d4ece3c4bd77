import Foundation
import Synchronization
import Testing

/// A link of its own for tests that multicast: `hosts` network namespaces, each with an
/// `eth0` on one bridge (in a namespace of its own too), addressed 10.77.0.1, .2 … /24.
/// Nothing of it touches the machine's interfaces; it is all gone when this is.
final class NetworkLink {
    let hosts: [String]
    private let hub: String
    static let ip = "/usr/sbin/ip"

    /// Links made so far by this run: numbered, two tests given one tag never share one.
    private static let made = Mutex(0)

    init(hosts count: Int, tag: String) throws {
        let number = Self.made.withLock { made in
            made += 1
            return made
        }
        let prefix = "as\(getpid())\(tag)\(number)"
        hub = "\(prefix)-hub"
        hosts = (0..<count).map { "\(prefix)-h\($0)" }
        try Self.ipCommand(["netns", "add", hub])
        try Self.ipCommand(["-n", hub, "link", "add", "br0", "type", "bridge"])
        try Self.ipCommand(["-n", hub, "link", "set", "br0", "up"])
        for (index, host) in hosts.enumerated() {
            try Self.ipCommand(["netns", "add", host])
            try Self.ipCommand(["link", "add", "eth0", "netns", host, "type", "veth", "peer", "name", "p\(index)", "netns", hub])
            try Self.ipCommand(["-n", hub, "link", "set", "p\(index)", "master", "br0", "up"])
            try Self.ipCommand(["-n", host, "addr", "add", "\(address(index))/24", "dev", "eth0"])
            try Self.ipCommand(["-n", host, "link", "set", "eth0", "up"])
            try Self.ipCommand(["-n", host, "link", "set", "lo", "up"])
        }
    }

    deinit {
        for namespace in hosts + [hub] { _ = try? Self.ipCommand(["netns", "del", namespace]) }
    }

    func address(_ index: Int) -> String { "10.77.0.\(index + 1)" }

    /// Runs `arguments` in host `index`'s namespace.
    /// Whether a TCP socket in host `index`'s namespace listens on `port` (its
    /// /proc/net/tcp, read without connecting: a connection would be one a listener counts).
    func listening(_ index: Int, port: Int) -> Bool {
        Self.isListening(port, in: (try? run(index, ["/bin/cat", "/proc/net/tcp"]).stdout) ?? "")
    }

    /// Whether a TCP socket of this test's own network namespace listens on `port`.
    static func listening(on port: Int) -> Bool {
        isListening(port, in: (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? "")
    }

    /// Whether `table` (a /proc/net/tcp) has a socket listening on `port`.
    static func isListening(_ port: Int, in table: String) -> Bool {
        let wanted = String(format: ":%04X", port)
        return table.split(separator: "\n").dropFirst().contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1].hasSuffix(wanted) && fields[3] == "0A"
        }
    }

    func run(_ index: Int, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Int = 30) throws -> Run {
        try Sandbox.execute(Self.ip, ["netns", "exec", hosts[index]] + arguments, environment: environment, stdin: nil, timeout: timeout)
    }

    /// A program in host `index`'s namespace that runs until the returned value is gone (its
    /// standard input closes then, which the fixtures take as their end, and it is waited
    /// for), with the first thing it printed: the fixtures print a line when ready.
    func start(_ index: Int, _ arguments: [String]) throws -> (process: HostProcess, said: String) {
        let process = try HostProcess(["netns", "exec", hosts[index]] + arguments)
        return (process, process.firstOutput())
    }

    /// Limits what host `index` sends to `megabits` per second (a token bucket on its
    /// `eth0`): a transfer a test must catch midway then lasts seconds, not a fraction of
    /// one that a loaded machine may not give the test in time.
    func limitRate(_ index: Int, megabits: Int) throws {
        let run = try Sandbox.execute(
            "/usr/sbin/tc", ["-n", hosts[index], "qdisc", "add", "dev", "eth0", "root", "tbf", "rate", "\(megabits)mbit", "burst", "256kb", "latency", "100ms"],
            environment: ProcessInfo.processInfo.environment, stdin: nil)
        try #require(run.status == 0, "tc: \(run.stderr)")
    }

    /// Moves host `index` to another address on the link, as a laptop that rejoined.
    func readdress(_ index: Int, from old: String, to new: String) throws {
        try Self.ipCommand(["-n", hosts[index], "addr", "del", "\(old)/24", "dev", "eth0"])
        try Self.ipCommand(["-n", hosts[index], "addr", "add", "\(new)/24", "dev", "eth0"])
    }

    @discardableResult
    static func ipCommand(_ arguments: [String]) throws -> Run {
        let run = try Sandbox.execute(ip, arguments, environment: ProcessInfo.processInfo.environment, stdin: nil)
        try #require(run.status == 0, "ip \(arguments.joined(separator: " ")): \(run.stderr)")
        return run
    }
}

/// A program ``NetworkLink/start(_:_:)`` runs: it ends when this does.
final class HostProcess {
    private let process = Process()
    private let input = Pipe(), output = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: NetworkLink.ip)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// What it has printed first (waiting for it), trimmed.
    func firstOutput() -> String {
        String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
