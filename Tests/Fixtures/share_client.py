#!/usr/bin/python3
"""An application sharing through org.actshare.Share1 as docs/DBUS.md shows: it subscribes
to Response on the request path it will get, calls Share, and waits for the answer.

As a module: share(items, options, fds=None, ...) -> (response, results), results a
GLib.Variant (a{sv}), or None if it was closed or nothing came in time; raises GLib.Error. As a program: share_client.py ITEMS OPTIONS [--fd PATH]... [--close-after S]
[--leave-after S], ITEMS and OPTIONS in GVariant text as gdbus takes them; prints
`response N RESULTS`, `closed`, or `error NAME: MESSAGE`.
"""
import os
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib

# Every wait is bounded: a test must not hang on a share that never answers.
ANSWER_TIMEOUT_SECONDS = 60
_tokens = iter(range(1, 1 << 30))


def request_path(bus, token):
    sender = bus.get_unique_name()[1:].replace(".", "_")
    return f"/org/actshare/Share/request/{sender}/{token}"


def share(items, options, fds=None, bus=None, close_after=None, timeout=ANSWER_TIMEOUT_SECONDS):
    bus = bus or Gio.bus_get_sync(Gio.BusType.SESSION)
    options = dict(options)
    if "handle_token" not in options:
        options["handle_token"] = GLib.Variant("s", f"client{os.getpid()}_{next(_tokens)}")
    path = request_path(bus, options["handle_token"].unpack())
    answer = []
    loop = GLib.MainLoop()

    def on_response(connection, sender, object_path, interface, signal, parameters):
        answer.append(parameters)
        loop.quit()

    subscription = bus.signal_subscribe("org.actshare.Share", "org.actshare.Request1", "Response",
                                        path if GLib.Variant.is_object_path(path) else None, None,
                                        Gio.DBusSignalFlags.NO_MATCH_RULE, on_response)
    try:
        result, _ = bus.call_with_unix_fd_list_sync(
            "org.actshare.Share", "/org/actshare/Share", "org.actshare.Share1", "Share",
            GLib.Variant("(a{sv}a{sv})", (items, options)), GLib.VariantType("(o)"),
            Gio.DBusCallFlags.NONE, 10000, fds, None)
        if result.unpack()[0] != path:
            raise RuntimeError(f"request path {result.unpack()[0]}, not {path}")
        if close_after is not None:
            def close():
                bus.call_sync("org.actshare.Share", path, "org.actshare.Request1", "Close", None, None,
                              Gio.DBusCallFlags.NONE, 10000, None)
                loop.quit()
            GLib.timeout_add(int(close_after * 1000), close)
        GLib.timeout_add_seconds(timeout, loop.quit)
        loop.run()
    finally:
        bus.signal_unsubscribe(subscription)
    if not answer:
        return None
    return answer[0].get_child_value(0).get_uint32(), answer[0].get_child_value(1)


def main(arguments):
    fds, close_after, leave_after = [], None, None
    while len(arguments) > 2 and arguments[-2] in ("--fd", "--close-after", "--leave-after"):
        flag, value = arguments[-2:]
        arguments = arguments[:-2]
        if flag == "--fd":
            fds.insert(0, os.open(value, os.O_RDONLY))
        elif flag == "--close-after":
            close_after = float(value)
        else:
            leave_after = float(value)
    items = GLib.Variant.parse(GLib.VariantType("a{sv}"), arguments[0], None, None)
    options = GLib.Variant.parse(GLib.VariantType("a{sv}"), arguments[1], None, None)
    if leave_after is not None:
        # Leaves the bus (exits) while the share is under way.
        GLib.timeout_add(int(leave_after * 1000), lambda: os._exit(0))
    try:
        answer = share({k: items.lookup_value(k, None) for k in items.keys()},
                       {k: options.lookup_value(k, None) for k in options.keys()},
                       Gio.UnixFDList.new_from_array(fds) if fds else None, close_after=close_after)
    except GLib.Error as error:
        name = Gio.DBusError.get_remote_error(error)
        message = error.message
        if name and message.startswith(f"GDBus.Error:{name}: "):
            message = message[len(f"GDBus.Error:{name}: "):]
        print(f"error {name}: {message}")
        return
    if answer is None:
        print("closed" if close_after is not None else "no answer")
    else:
        response, results = answer
        print("response", response, results.print_(False))


if __name__ == "__main__":
    main(sys.argv[1:])
