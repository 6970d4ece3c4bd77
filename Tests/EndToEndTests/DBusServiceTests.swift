import Foundation
import Testing

/// The session service org.actshare.Share, started by D-Bus activation on a private bus
/// (dbus-run-session), called with gdbus and with PyGObject as applications would.
@Suite struct DBusServiceTests {
    /// Runs `script` (bash) on a session bus of its own whose services include actshare's;
    /// its standard output and error.
    static func onSessionBus(_ sandbox: Sandbox, _ script: String, actshare: String = Sandbox.binary) throws -> Run {
        let services = "\(sandbox.root)/dbus/dbus-1/services"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        try Sandbox.write("""
            [D-BUS Service]
            Name=org.actshare.Share
            Exec=\(Sandbox.repository)/.build/bin/actshare-share-service \(actshare)

            """, to: "\(services)/org.actshare.Share.service")
        var environment = sandbox.environment
        environment["XDG_DATA_DIRS"] = "\(sandbox.root)/dbus:/usr/share"
        environment["PATH"] = "/usr/bin:/bin"
        return try Sandbox.executeWithSignals("/usr/bin/dbus-run-session", ["--", "/bin/bash", "-c", script], environment: environment)
    }

    /// An actshare that records each command line it is started with (one argument a line)
    /// in the log, then runs the real one: what the service put on a command line.
    static func argvRecorder(in sandbox: Sandbox) throws -> (wrapper: String, log: String) {
        let log = "\(sandbox.root)/argv.log"
        let wrapper = try sandbox.file("actshare-wrapper", "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(log)\nexec \(Sandbox.binary) \"$@\"\n")
        chmod(wrapper, 0o755)
        return (wrapper, log)
    }

    static let call = "gdbus call --session --dest org.actshare.Share --object-path /org/actshare/Share --method"
    /// An application's share: Share, then the request's Response (Tests/Fixtures/share_client.py).
    static let share = "/usr/bin/python3 \(Sandbox.repository)/Tests/Fixtures/share_client.py"
    /// The client as a module, for a test's own Python.
    static let importClient = "import sys; sys.dont_write_bytecode = True; sys.path.insert(0, '\(Sandbox.repository)/Tests/Fixtures'); from share_client import share"
    /// The first lines of a test's own PyGObject client: Gio, GLib, the client's share(),
    /// and connect(), a connection of its own to the session bus.
    static let pythonClient = """
        import os, sys, gi
        gi.require_version('Gio', '2.0')
        from gi.repository import Gio, GLib
        \(importClient)
        def connect():
            address = Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None)
            flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
            return Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
        """

    @Test func gdbusListsSharesAndIsToldWhatIsWrong() throws {
        let sandbox = try Sandbox()
        let run = try Self.onSessionBus(sandbox, """
            \(Self.call) org.actshare.Share1.ListActivities "{'text': <'hello'>}"
            gdbus introspect --session --dest org.actshare.Share --object-path /org/actshare/Share --only-properties | grep version
            \(Self.share) "{'text': <'hello world'>}" "{'activity': <'org.example.wordcount.count'>}"
            \(Self.share) "{'colour': <'red'>}" "{}"
            \(Self.share) "{}" "{}"
            \(Self.share) "{'text': <'x'>}" "{'activity': <'org.example.no.such'>}"
            \(Self.share) "{'uris': <['https://example.org/']>}" "{'activity': <'org.example.wordcount.describe'>}"
            \(Self.share) "{'text': <'<b>bold</b>'>, 'mime-type': <'text/html'>}" "{'activity': <'org.example.wordcount.describe'>}"
            \(Self.share) "{'text': <'x'>, 'mime-type': <'not a type'>}" "{}"
            \(Self.share) "{'text': <'x'>}" "{'activity': <'org.example.wordcount.count'>, 'options': <{'nosuch': 'x'}>}"
            \(Self.share) "{'text': <'x'>}" "{'handle_token': <'../x'>}"
            \(Self.share) "{'text': <'x'>}" "{'activity': <'org.example.wordcount.count'>, 'options': <{'': 'x'}>}"
            \(Self.share) "{'text': <'x'>}" "{'activity': <'org.example.wordcount.count'>, 'only': <['org.example.hello.greet']>}"
            \(Self.share) "{'text': <'x'>}" "{'activity': <'org.example.wordcount.count'>, 'handle_token': <'mine'>}"
            """)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("{'type': <'org.example.wordcount.count'>, 'title': <'Count Words'>, 'image': <'accessories-text-editor'>, 'category': <'action'>, 'provider': <'org.example.wordcount'>, 'targets': <@aa{sv} []>}") == true, "\(run.stdout)")
        #expect(lines.dropFirst().first?.contains("readonly u version = 2;") == true, "\(run.stdout)")
        // Share answers with a Request path at once; the outcome comes as its Response.
        #expect(lines.contains("response 0 {'activity': <'org.example.wordcount.count'>, 'completed': <true>, 'error': <''>, 'returned_items': <[{'kind': <'text'>, 'text': <'2 words, 0 lines, 11 bytes (item 1)'>, 'content_type': <'text/plain'>, 'size': <uint64 35>}]>}"), "\(run.stdout)")
        #expect(lines.contains("error org.freedesktop.DBus.Error.InvalidArgs: items has 'colour' of type s; the keys are fds (ah), uris (as), text (s) and mime-type (s)"), "\(run.stdout)")
        #expect(lines.contains("error org.actshare.Share.Error.InvalidItem: no items: give fds, uris or text"), "\(run.stdout)")
        // actshare's own refusal ends the request (response 2) with an error name to switch on.
        #expect(lines.contains("response 2 {'activity': <'org.example.no.such'>, 'completed': <false>, 'error': <'no provider offers activity type org.example.no.such'>, 'error_name': <'org.actshare.Share.Error.NoActivity'>, 'returned_items': <@aa{sv} []>}"), "\(run.stdout)")
        #expect(run.stdout.contains("response 0 {'activity': <'org.example.wordcount.describe'>, 'completed': <true>"), "\(run.stdout)")
        // Text with a mime-type keeps it; a type that is not one is refused, in words for a
        // program (no command-line flag).
        #expect(run.stdout.contains("text=<b>bold</b> content-type=text/html"), "\(run.stdout)")
        #expect(lines.contains("error org.actshare.Share.Error.InvalidItem: items 'mime-type' is not a MIME type such as text/html"), "\(run.stdout)")
        #expect(run.stdout.contains("'error': <\"option 'nosuch': org.example.wordcount.count has no option 'nosuch' (it has none)\">, 'error_name': <'org.actshare.Share.Error.InvalidOption'>"), "\(run.stdout)")
        #expect(lines.contains("error org.freedesktop.DBus.Error.InvalidArgs: options 'handle_token' is not 1 to 64 letters, digits and _"), "\(run.stdout)")
        // Said in the D-Bus keys the caller gave, never in command-line flags it never typed.
        #expect(run.stdout.contains("'error': <\"'options' has an option without a name (its value: 'x')\">"), "\(run.stdout)")
        #expect(run.stdout.contains("'error': <\"org.example.wordcount.count is not offered: it is not named by 'only'\">"), "\(run.stdout)")
        #expect(!run.stdout.contains("-o ") && !run.stdout.contains("--only"), "\(run.stdout)")
        #expect(lines.last?.hasPrefix("response 0 {'activity': <'org.example.wordcount.count'>, 'completed': <true>") == true, "\(run.stdout)")
    }

    /// dbus-daemon takes at most 16 descriptors in one message (docs/DBUS.md): 16 files
    /// are shared; a caller that sends 17 is dropped by the bus, and the service, which
    /// never saw it, answers the next caller.
    @Test func sixteenDescriptorsAreSharedAndSeventeenDropTheCaller() throws {
        let sandbox = try Sandbox()
        let notes = try sandbox.file("notes.txt", "three short words\n")
        let script = """
            \(Self.pythonClient)
            def share_files(count):
                fds = Gio.UnixFDList.new_from_array([os.open(sys.argv[1], os.O_RDONLY) for _ in range(count)])
                items = {'fds': GLib.Variant('ah', list(range(count)))}
                options = {'activity': GLib.Variant('s', 'org.example.wordcount.count')}
                try:
                    response, results = share(items, options, fds, bus=connect())
                    print(count, 'files:', len(results.unpack()['returned_items']), 'results')
                except GLib.Error as error:
                    print(count, 'files: dropped')
            share_files(16)
            share_files(17)
            result = connect().call_sync('org.actshare.Share', '/org/actshare/Share', 'org.actshare.Share1', 'ListActivities',
                GLib.Variant('(a{sv})', ({'text': GLib.Variant('s', 'hi')},)), None, Gio.DBusCallFlags.NONE, 60000, None)
            print('then:', len(result.unpack()[0]), 'activities')
            """
        try Sandbox.write(script, to: "\(sandbox.root)/client.py")
        let run = try Self.onSessionBus(sandbox, "/usr/bin/python3 \(sandbox.root)/client.py \(notes)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "16 files: 16 results", "\(run.stdout)")
        #expect(lines.dropFirst().first == "17 files: dropped", "\(run.stdout)")
        #expect(lines.last?.hasPrefix("then: ") == true && lines.last != "then: 0 activities", "\(run.stdout)")
    }

    /// An activity's targets reach an application in ListActivities, and the one it names
    /// in Share reaches the provider's perform, through actshare's standard input, never its
    /// command line; one not offered ends the share with NoActivity.
    @Test func targetsAreListedAndChosenOverTheBus() throws {
        let sandbox = try Sandbox(providerPath: [])
        try TargetTests.targetsProvider(in: sandbox)
        let notes = try sandbox.file("notes.txt", "three short words\n")
        let (wrapper, log) = try Self.argvRecorder(in: sandbox)
        let script = """
            \(Self.pythonClient)
            items = {'fds': GLib.Variant('ah', [0])}
            def fds(): return Gio.UnixFDList.new_from_array([os.open(sys.argv[1], os.O_RDONLY)])
            listed = connect().call_with_unix_fd_list_sync('org.actshare.Share', '/org/actshare/Share', 'org.actshare.Share1', 'ListActivities',
                GLib.Variant('(a{sv})', (items,)), None, Gio.DBusCallFlags.NONE, 60000, fds(), None)[0].unpack()[0]
            for activity in listed:
                for target in activity['targets']:
                    print('target', activity['type'], target['id'], target['kind'], target['title'], target.get('subtitle', '-'), target.get('image', '-'))
            def chosen(options):
                response, results = share(items, options, fds())
                results = results.unpack()
                print('share', response, results.get('error_name', ''), results['returned_items'][0]['text'] if results['returned_items'] else '')
            chosen({'activity': GLib.Variant('s', 'org.test.targets.describe'), 'target': GLib.Variant('s', 'ada@example.org')})
            chosen({'target': GLib.Variant('s', 'org.gnome.TextEditor.desktop')})
            chosen({'activity': GLib.Variant('s', 'org.test.targets.describe'), 'target': GLib.Variant('s', 'gamma')})
            """
        try Sandbox.write(script, to: "\(sandbox.root)/client.py")
        let run = try Self.onSessionBus(sandbox, "/usr/bin/python3 \(sandbox.root)/client.py \(notes)", actshare: wrapper)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("target ") } == [
            "target org.test.targets.describe beta-7f3a device beta not reachable now phone",
            "target org.test.targets.describe ada@example.org person Ada Lovelace - -",
            "target org.test.targets.describe org.gnome.TextEditor.desktop app Text Editor GNOME /usr/share/icons/editor.png",
        ], "\(run.stdout)")
        #expect(lines.filter { $0.hasPrefix("share ") } == [
            "share 0  ada@example.org", "share 0  org.gnome.TextEditor.desktop", "share 2 org.actshare.Share.Error.NoActivity ",
        ], "\(run.stdout)")
        let argv = try String(contentsOfFile: log, encoding: .utf8)
        #expect(!argv.contains("ada@example.org") && !argv.contains("TextEditor"), "a target on a command line: \(argv)")
    }

    /// What a caller shares never travels on a command line (every local user reads those):
    /// text and a subject starting with `-`, 10 MiB of text, a file's path and option values
    /// reach actshare on its standard input. A wrapper records each command line actshare
    /// is started with.
    @Test func itemsNeverTravelOnACommandLine() throws {
        let sandbox = try Sandbox()
        let notes = try sandbox.file("private-notes.txt", "three short words\n")
        let (wrapper, log) = try Self.argvRecorder(in: sandbox)
        let script = """
            \(Self.pythonClient)
            def share_and_print(items, options, fds=None):
                response, results = share(items, options, fds)
                print(results.unpack()['returned_items'][0]['text'][:200])
            describe = {'activity': GLib.Variant('s', 'org.example.wordcount.describe'),
                        'subject': GLib.Variant('s', '-s a subject'), 'options': GLib.Variant('a{ss}', {'label': '-x secret label'})}
            share_and_print({'text': GLib.Variant('s', '-rf the secret words')}, describe)
            share_and_print({'text': GLib.Variant('s', 'word ' * (2 << 20))}, {'activity': GLib.Variant('s', 'org.example.wordcount.count')})
            share_and_print({'fds': GLib.Variant('ah', [0])}, {'activity': GLib.Variant('s', 'org.example.wordcount.count')},
                  Gio.UnixFDList.new_from_array([os.open(sys.argv[1], os.O_RDONLY)]))
            """
        try Sandbox.write(script, to: "\(sandbox.root)/client.py")
        let run = try Self.onSessionBus(sandbox, "/usr/bin/python3 \(sandbox.root)/client.py \(notes)", actshare: wrapper)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("text=-rf the secret words") == true && lines.first?.contains("label=-x secret label") == true, "\(run.stdout)")
        #expect(lines.dropFirst().first == "2097152 words, 0 lines, 10485760 bytes (item 1)", "\(run.stdout)")
        #expect(lines.last == "3 words, 1 lines, 18 bytes (item 1)", "\(run.stdout)")
        let argv = try String(contentsOfFile: log, encoding: .utf8)
        for secret in ["secret", "subject", "private-notes", "word word"] {
            #expect(!argv.contains(secret), "\(secret) on a command line: \(argv)")
        }
        #expect(argv.contains("--items-from=0"), "\(argv)")
    }

    /// The service reads and writes for no sandboxed caller: not for a process with no
    /// new privileges, not for a provider granted the session bus (through its helper's
    /// guard); a file: URI is shared only if the caller could open the file itself, and a
    /// path without a scheme not at all.
    @Test func aSandboxedCallerIsRefusedAndPathsAreTheCallers() throws {
        let sandbox = try Sandbox()
        sandbox.providerPath.insert("\(sandbox.root)/intruder", at: 0)
        try Sandbox.write(SandboxTests.manifest(permissions: "  exec: true\n  dbus: session"), to: "\(sandbox.root)/intruder/provider.yaml")
        let notes = try sandbox.file("notes.txt", "three short words\n")
        let hidden = "\(sandbox.root)/hidden"
        try FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
        let secret = "\(hidden)/secret.txt"
        try "top secret\n".write(toFile: secret, atomically: true, encoding: .utf8)
        let list = "/usr/bin/\(Self.call) org.actshare.Share1.ListActivities \"{'text': <'hello'>}\""
        let count = "\"{'activity': <'org.example.wordcount.count'>}\""
        // The caller in a mount namespace of its own, where a tmpfs hides the secret's folder.
        let hiding = try sandbox.file("hiding.sh", """
            mount -t tmpfs none \(hidden) && \(Self.share) "{'uris': <['file://\(secret)']>}" \(count)
            """)
        // …and an absolute link to it, which must be resolved in the caller's root, not the service's.
        let link = "\(sandbox.root)/link.txt"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: secret)
        let linking = try sandbox.file("linking.sh", """
            mount -t tmpfs none \(hidden) && \(Self.share) "{'uris': <['file://\(link)']>}" \(count)
            """)
        let listing = try sandbox.file("list.sh", list)  // the provider's item, so that it may read it
        let run = try Self.onSessionBus(sandbox, """
            echo "confined: $(\(Sandbox.repository)/.build/bin/no-landlock \(list) 2>&1)"
            echo "provider: $(\(Sandbox.binary) perform org.test.intruder.command \(listing) -o "target=/bin/sh \(listing)" --json 2>&1)"
            echo "hidden: $(unshare --mount /bin/sh \(hiding) 2>&1)"
            echo "linked: $(unshare --mount /bin/sh \(linking) 2>&1)"
            echo "path: $(\(Self.share) "{'uris': <['\(secret)']>}" \(count) 2>&1)"
            echo "dash: $(\(Self.share) "{'uris': <['-']>}" \(count) 2>&1)"
            echo "own: $(\(Self.share) "{'uris': <['file://\(notes)']>}" \(count) 2>&1)"
            """)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        func line(_ label: String) -> String { lines.first { $0.hasPrefix(label + ": ") } ?? "" }
        let refused = "org.freedesktop.DBus.Error.AccessDenied: actshare does not share for a sandboxed process (pid "
        #expect(line("confined").contains(refused), "\(run.stdout)\(run.stderr)")
        #expect(line("provider").contains(refused), "\(run.stdout)")
        #expect(line("hidden").contains("error org.freedesktop.DBus.Error.AccessDenied: items 'uris'[0]: the caller cannot open \(secret) itself, so it is not shared"), "\(run.stdout)")
        #expect(line("linked").contains("error org.freedesktop.DBus.Error.AccessDenied: items 'uris'[0]: the caller cannot open \(link) itself, so it is not shared"), "\(run.stdout)")
        #expect(line("path").contains("error org.actshare.Share.Error.InvalidItem: items 'uris'[0] is not a URI; give a file as file:///… or as a descriptor in 'fds'"), "\(run.stdout)")
        #expect(line("dash").contains("org.actshare.Share.Error.InvalidItem: items 'uris'[0] is not a URI"), "\(run.stdout)")
        #expect(line("own").contains("response 0 {'activity': <'org.example.wordcount.count'>, 'completed': <true>, 'error': <''>, 'returned_items': <[{'kind': <'text'>, 'text': <'3 words, 1 lines, 18 bytes (item 1)'>"), "\(run.stdout)")
        #expect(!run.stdout.contains("top secret"))
    }

    /// An application hands over an open file (as sandboxed apps do: no path needed), and
    /// a descriptor that is not a file is refused.
    @Test func pyGObjectSharesAFileDescriptor() throws {
        let sandbox = try Sandbox()
        let notes = try sandbox.file("notes.txt", "three short words\n")
        let script = """
            \(Self.pythonClient)
            def share_descriptor(fd, handle=0):
                fds = Gio.UnixFDList.new_from_array([fd])
                items = {'fds': GLib.Variant('ah', [handle])}
                options = {'activity': GLib.Variant('s', 'org.example.wordcount.count')}
                try:
                    response, results = share(items, options, fds)
                    print(results.unpack()['returned_items'][0]['text'])
                except GLib.Error as error:
                    print(Gio.DBusError.get_remote_error(error), error.message)
            share_descriptor(os.open(sys.argv[1], os.O_RDONLY))
            share_descriptor(os.pipe()[0])
            share_descriptor(os.open(sys.argv[1], os.O_RDONLY), handle=3)
            share_descriptor(os.open(sys.argv[1], os.O_RDONLY), handle=-2147483647)
            share_descriptor(os.open(sys.argv[1], os.O_WRONLY))
            share_descriptor(os.open(sys.argv[1], os.O_PATH))
            share_descriptor(os.open(sys.argv[1], os.O_RDONLY))
            """
        try Sandbox.write(script, to: "\(sandbox.root)/client.py")
        let run = try Self.onSessionBus(sandbox, "/usr/bin/python3 \(sandbox.root)/client.py \(notes)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "3 words, 1 lines, 18 bytes (item 1)", "\(run.stdout)\(run.stderr)")
        let refused = "org.actshare.Share.Error.InvalidItem GDBus.Error:org.actshare.Share.Error.InvalidItem: items 'fds'[0]"
        // A pipe; handles past the descriptors sent and negative (GIO crashed on it); a
        // write-only descriptor and an O_PATH one (not opened for reading): each refused,
        // and the service still answers.
        #expect(Array(lines.dropFirst()) == [
            "\(refused) is not an open file or folder", "\(refused) is 3, which is not one of the 1 descriptors sent",
            "\(refused) is -2147483647, which is not one of the 1 descriptors sent",
            "\(refused) is not open for reading (open the file with O_RDONLY)",
            "\(refused) is not open for reading (open the file with O_RDONLY)",
            "3 words, 1 lines, 18 bytes (item 1)",
        ], "\(run.stdout)")
    }

    /// One caller cannot take every slot: one process is counted across all its
    /// connections (9 shares over 9 connections: the 9th refused), one connection across
    /// its calls (8 lists under way on one: a 9th refused), and another process is still served.
    @Test func oneCallerCannotFillTheService() throws {
        let (sandbox, manifest) = try IsolationTests.sandbox("waits", IsolationTests.hostile("waits", perform: "hostile_wait_for_cancel", timeout: "60s"))
        // Its can-perform hangs (until its 60 s limit): a list holds its slot.
        try Sandbox.write(IsolationTests.hostile("lingers", canPerform: "hostile_hang", timeout: "60s"),
                          to: (manifest as NSString).deletingLastPathComponent + "/lingers.yaml")
        let script = """
            \(Self.pythonClient)
            import signal, threading, time
            def call(bus, method, parameters, timeout=60000):
                try:
                    bus.call_sync('org.actshare.Share', '/org/actshare/Share', 'org.actshare.Share1', method, parameters,
                                  None, Gio.DBusCallFlags.NONE, timeout, None)
                    return 'ok'
                except GLib.Error as error:
                    return 'too many' if 'too many shares under way' in error.message else 'failed: ' + error.message
            def lists_under_way(bus):
                # The service's children: one `actshare list` for each list it is answering.
                return [pid for pid, words in service_children(bus) if b'list' in words]
            def service_children(bus):
                service = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'GetConnectionUnixProcessID',
                                        GLib.Variant('(s)', ('org.actshare.Share',)), None, Gio.DBusCallFlags.NONE, 10000, None).unpack()[0]
                children = []
                for entry in os.listdir('/proc'):
                    try:
                        with open('/proc/%s/stat' % entry) as stat: fields = stat.read().rsplit(')', 1)[1].split()
                        with open('/proc/%s/cmdline' % entry, 'rb') as cmdline: words = cmdline.read().split(b'\\0')
                    except (OSError, ValueError): continue
                    if int(fields[1]) == service: children.append((int(entry), words))
                return children
            items = {'text': GLib.Variant('s', 'words')}
            share = GLib.Variant('(a{sv}a{sv})', (items, {'activity': GLib.Variant('s', 'org.test.waits.go')}))
            if sys.argv[1] == 'shares':
                connections = [connect() for _ in range(9)]
                print('shares:', ' '.join(call(bus, 'Share', share) for bus in connections), flush=True)
                open(sys.argv[2], 'w').close()
                sys.stdin.read()
            else:
                # Eight lists, each held by the lingering can-perform; once the service runs
                # all eight, a ninth on the same connection.
                bus = connect()
                list_call = GLib.Variant('(a{sv})', (items,))
                for _ in range(8): threading.Thread(target=call, args=(bus, 'ListActivities', list_call), daemon=True).start()
                for _ in range(1200):
                    if len(lists_under_way(bus)) >= 8: break
                    time.sleep(0.1)
                print('lists:', len(lists_under_way(bus)), 'under way, the ninth', call(bus, 'ListActivities', list_call), flush=True)
                # Stopped as a person's Ctrl-C would, rather than left to their limit.
                for pid in lists_under_way(bus): os.kill(pid, signal.SIGTERM)
                os._exit(0)
            """
        try Sandbox.write(script, to: "\(sandbox.root)/fill.py")
        let fill = "/usr/bin/python3 \(sandbox.root)/fill.py"
        let run = try Self.onSessionBus(sandbox, """
            exec 3> >(\(fill) shares \(sandbox.root)/shared)
            for wait in $(seq 1200); do [ -e \(sandbox.root)/shared ] && break; sleep 0.1; done
            \(fill) lists
            echo "other: $(\(Self.share) "{'text': <'words'>}" "{'activity': <'org.test.waits.go'>}" --close-after 0.5 2>&1)"
            exec 3>&-
            """)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        func line(_ label: String) -> String { lines.first { $0.hasPrefix(label + ": ") } ?? "" }
        #expect(line("shares") == "shares: " + Array(repeating: "ok", count: 8).joined(separator: " ") + " too many", "\(run.stdout) \(run.stderr.suffix(2000))")
        #expect(line("lists") == "lists: 8 under way, the ninth too many", "\(run.stdout) \(run.stderr.suffix(2000))")
        #expect(line("other") == "other: closed", "another process is served: \(run.stdout)")
    }

    /// A descriptor whose path the caller swaps for a link to another file right after it
    /// asks is shared as the file it is open on, or refused: never as the link's target.
    @Test func aDescriptorWhosePathBecomesALinkIsNeverSharedAsTheLinksTarget() throws {
        let sandbox = try Sandbox()
        let secret = try sandbox.file("secret.txt", "top secret\n")
        let script = """
            \(Self.pythonClient)
            import signal, threading, time
            folder, secret = sys.argv[1], sys.argv[2]
            for attempt in range(12):
                name = os.path.join(folder, f'notes-{attempt}.txt')
                with open(name, 'w') as notes:
                    notes.write('one two three four\\n')
                fd = os.open(name, os.O_RDONLY)
                def swap(delay=attempt * 0.004):
                    time.sleep(delay)
                    os.symlink(secret, name + '.link')
                    os.rename(name + '.link', name)
                swapper = threading.Thread(target=swap)
                swapper.start()
                items = {'fds': GLib.Variant('ah', [0])}
                options = {'activity': GLib.Variant('s', 'org.example.wordcount.count')}
                try:
                    response, results = share(items, options, Gio.UnixFDList.new_from_array([fd]))
                    print(results.unpack()['returned_items'][0]['text'] if response == 0 else 'failed ' + results.unpack().get('error', ''))
                except GLib.Error as error:
                    print('refused', error.message)
                swapper.join()
            """
        try Sandbox.write(script, to: "\(sandbox.root)/swapper.py")
        let run = try Self.onSessionBus(sandbox, "/usr/bin/python3 \(sandbox.root)/swapper.py \(sandbox.root) \(secret)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 12, "\(run.stdout)\(run.stderr)")
        #expect(!lines.contains { $0.hasPrefix("2 words") }, "the secret was shared: \(run.stdout)")
        // The file it was open on, or a refusal: by the service, by actshare ("no longer the
        // file that was shared"), or by the sandbox (the path now leads through a link).
        #expect(lines.allSatisfy { $0.hasPrefix("4 words") || $0.hasPrefix("refused") || $0.hasPrefix("failed") }, "\(run.stdout)")
    }

    /// Without an activity, Share shows the window on the caller's display; what is picked
    /// there is performed and answered. A caller that leaves, or closes its request, cancels
    /// the share whether it was still asking or already performing: its window goes, no
    /// file is written, no Response comes.
    @Test func shareShowsTheWindowAndAnswersWithWhatWasPicked() throws {
        let display = try ClipboardTests.Display()
        let (sandbox, _) = try IsolationTests.sandbox("waits", IsolationTests.hostile("waits", perform: "hostile_wait_for_cancel", timeout: "60s"))
        sandbox.extraEnvironment["DISPLAY"] = display.name
        let notes = try sandbox.file("notes.txt", "three short words\n")
        let pick = "\(Sandbox.onPath("xdotool")) search --sync --onlyvisible --name '^Share$' windowfocus --sync; sleep 0.3; xdotool type --delay 20 count; xdotool key Return"
        // Each actshare the service runs says its process id (exec keeps it).
        let pids = "\(sandbox.root)/pids"
        let wrapper = try sandbox.file("actshare-wrapper", "#!/bin/sh\necho $$ >> \(pids)\nexec \(Sandbox.binary) \"$@\"\n")
        chmod(wrapper, 0o755)
        let run = try Self.onSessionBus(sandbox, """
            (\(pick)) &
            \(Self.share) "{'uris': <['file://\(notes)']>}" "{}"
            wait
            gone() {
                for attempt in $(seq 50); do xdotool search --onlyvisible --name '^Share$' >/dev/null || break; sleep 0.1; done
                xdotool search --onlyvisible --name '^Share$' >/dev/null && echo "$1: a window is left" || echo "$1: no window is left"
            }
            # A caller that leaves while the window asks, one that closes its request.
            \(Self.share) "{'text': <'x'>}" "{}" --leave-after 2; gone left
            \(Self.share) "{'text': <'x'>}" "{}" --close-after 2; gone closed
            # Closed while the activity runs (it waits 30 s to be cancelled).
            \(Self.share) "{'text': <'x'>}" "{'activity': <'org.test.waits.go'>}" --close-after 1
            performing=$(tail -n 1 \(pids))
            for attempt in $(seq 50); do kill -0 $performing 2>/dev/null || break; sleep 0.1; done
            kill -0 $performing 2>/dev/null && echo "still performing" || echo "performing no more"
            """, actshare: wrapper)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("response 0 {'activity': <'org.example.wordcount.count'>, 'completed': <true>, 'error': <''>, 'returned_items': <[{'kind': <'text'>, 'text': <'3 words, 1 lines, 18 bytes (item 1)'>"), "\(run.stdout)")
        #expect(run.stdout.contains("left: no window is left\nclosed\nclosed: no window is left\nclosed\nperforming no more\n"), "\(run.stdout)")
    }

    /// Two applications sharing at once each get a window of their own, and each is
    /// answered; a window given a parent_window is kept over that window (X11's
    /// WM_TRANSIENT_FOR, as a window manager reads it).
    @Test func twoCallersGetTwoSheets() throws {
        let display = try ClipboardTests.Display()
        let sandbox = try Sandbox()
        sandbox.extraEnvironment["DISPLAY"] = display.name
        let windows = "xdotool search --onlyvisible --name '^Share$'"
        let run = try Self.onSessionBus(sandbox, """
            \(Self.share) "{'text': <'first'>}" "{}" > \(sandbox.root)/one.out 2>&1 &
            for attempt in $(seq 100); do [ "$(\(windows) | wc -l)" -ge 1 ] && break; sleep 0.1; done
            parent=$(\(windows))
            \(Self.share) "{'text': <'second'>}" "{'parent_window': <'x11:$(printf %x "$parent")'>}" > \(sandbox.root)/two.out 2>&1 &
            for attempt in $(seq 100); do [ "$(\(windows) | wc -l)" -ge 2 ] && break; sleep 0.1; done
            echo "windows: $(\(windows) | wc -l)"
            child=$(\(windows) | grep -vx "$parent")
            xprop -id "$child" WM_TRANSIENT_FOR | grep -q "window id # $(printf 0x%x "$parent")" && echo "transient for the first"
            for id in $(\(windows)); do xdotool windowfocus --sync "$id"; sleep 0.3; xdotool key Escape; done
            wait
            cat \(sandbox.root)/one.out \(sandbox.root)/two.out
            """)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("windows: 2\n"), "\(run.stdout)")
        #expect(run.stdout.contains("transient for the first\n"), "\(run.stdout)")
        // The user's cancel is a response of its own (1), not a failure.
        let cancelled = "response 1 {'activity': <''>, 'completed': <false>, 'error': <''>, 'error_name': <'org.actshare.Share.Error.Cancelled'>"
        #expect(run.stdout.components(separatedBy: cancelled).count == 3, "each call answered as cancelled: \(run.stdout)")
    }

    /// A request is its caller's alone: another connection cannot close it, the caller's
    /// handle_token names one request at a time, and Close then ends it with no Response.
    @Test func aRequestIsItsCallersAlone() throws {
        let (sandbox, _) = try IsolationTests.sandbox("waits", IsolationTests.hostile("waits", perform: "hostile_wait_for_cancel", timeout: "60s"))
        let script = """
            \(Self.pythonClient)
            address = Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None)
            def connect():
                flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
                return Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
            caller, other = connect(), connect()
            items = GLib.Variant('(a{sv}a{sv})', ({'text': GLib.Variant('s', 'x')},
                {'activity': GLib.Variant('s', 'org.test.waits.go'), 'handle_token': GLib.Variant('s', 'mine')}))
            def call(connection, path, interface, method, parameters=None, reply=None):
                try:
                    result = connection.call_sync('org.actshare.Share', path, interface, method, parameters,
                                                  reply, Gio.DBusCallFlags.NONE, 10000, None)
                    return result.unpack() if result else ()
                except GLib.Error as error:
                    return Gio.DBusError.get_remote_error(error)
            path = call(caller, '/org/actshare/Share', 'org.actshare.Share1', 'Share', items, GLib.VariantType('(o)'))[0]
            print('path', path.endswith('/mine'))
            print('again', call(caller, '/org/actshare/Share', 'org.actshare.Share1', 'Share', items, GLib.VariantType('(o)')))
            print('other', call(other, path, 'org.actshare.Request1', 'Close'))
            print('own', call(caller, path, 'org.actshare.Request1', 'Close'))
            print('gone', call(caller, path, 'org.actshare.Request1', 'Close'))
            """
        try Sandbox.write(script, to: "\(sandbox.root)/client.py")
        let run = try Self.onSessionBus(sandbox, "/usr/bin/python3 \(sandbox.root)/client.py")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").map(String.init) == [
            "path True", "again org.freedesktop.DBus.Error.InvalidArgs", "other org.freedesktop.DBus.Error.AccessDenied", "own ()",
            "gone org.freedesktop.DBus.Error.UnknownMethod",
        ], "\(run.stdout)\(run.stderr)")
    }
}
