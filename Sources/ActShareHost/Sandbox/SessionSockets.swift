import ActShareCore

/// The Unix sockets of this session that a provider may be granted: its display server's
/// and its session bus's, found as their client libraries find them (libxcb,
/// libwayland-client, libdbus), so that a grant means exactly what the provider would
/// have connected to.
///
/// An address is a path, or a NUL followed by an abstract socket's name (as in
/// `sockaddr_un`); the provider host's guard connects only to these (supervisor.h).
struct SessionSockets: Equatable {
    /// Socket addresses, as bytes.
    var addresses: [[UInt8]] = []
    /// Files the clients must read to be let in (the X authority file).
    var readableFiles: [String] = []

    /// The sockets of `display` and `dbus` in the session `variable` describes.
    init(display: Bool, dbus: Bool, home: String, runtimeDirectory: String?, variable: (String) -> String?) {
        if display {
            addresses += Self.x11(variable("DISPLAY"))
            if let wayland = Self.wayland(variable("WAYLAND_DISPLAY"), runtimeDirectory: runtimeDirectory) { addresses.append(wayland) }
            // libXau's rule: $XAUTHORITY, else ~/.Xauthority.
            readableFiles.append(variable("XAUTHORITY").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? FileSystem.join(home, ".Xauthority"))
        }
        if dbus { addresses += Self.sessionBus(variable("DBUS_SESSION_BUS_ADDRESS"), runtimeDirectory: runtimeDirectory) }
        // What a sockaddr_un holds, and the most the helper takes (provider_protocol.h); an
        // abstract name with a NUL inside is not one a client library makes.
        addresses = Array(addresses.filter { $0.count <= 107 && $0.count > 1 && !$0.dropFirst().contains(0) }.prefix(16))
    }

    /// `:N`, `:N.S`, `unix:N` (local displays): `/tmp/.X11-unix/XN`, as a path and as the
    /// abstract name libxcb tries first. A display on another host is reached over TCP,
    /// which only `network: true` gives.
    static func x11(_ display: String?) -> [[UInt8]] {
        guard let display, let colon = display.lastIndex(of: ":") else { return [] }
        let host = display[..<colon]
        guard host.isEmpty || host == "unix" else { return [] }
        let number = display[display.index(after: colon)...].prefix { $0 != "." }
        guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber) else { return [] }
        let path = Array("/tmp/.X11-unix/X\(number)".utf8)
        return [path, [0] + path]
    }

    /// `$WAYLAND_DISPLAY`: a path, or a name in `$XDG_RUNTIME_DIR`.
    static func wayland(_ name: String?, runtimeDirectory: String?) -> [UInt8]? {
        guard let name, !name.isEmpty else { return nil }
        if name.hasPrefix("/") { return PathName.bytes(name) }
        guard let runtimeDirectory, !name.contains("/") else { return nil }
        return PathName.bytes(FileSystem.join(runtimeDirectory, name))
    }

    /// The `unix:path=` and `unix:abstract=` addresses of a D-Bus address list
    /// (`;`-separated, values %-escaped); without one, `$XDG_RUNTIME_DIR/bus`.
    static func sessionBus(_ address: String?, runtimeDirectory: String?) -> [[UInt8]] {
        guard let address, !address.isEmpty else {
            return runtimeDirectory.map { [PathName.bytes(FileSystem.join($0, "bus"))] } ?? []
        }
        var found: [[UInt8]] = []
        for entry in address.split(separator: ";") {
            guard entry.hasPrefix("unix:") else { continue }
            for pair in entry.dropFirst(5).split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let key = pair[..<equals]
                guard let value = unescape(pair[pair.index(after: equals)...]), !value.isEmpty else { continue }
                if key == "path", value.first == UInt8(ascii: "/") { found.append(value) }
                if key == "abstract" { found.append([0] + value) }
            }
        }
        return found
    }

    /// D-Bus's %-escaping undone; nil if malformed.
    private static func unescape(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        return bytes
    }
}
