#!/usr/bin/env python3
"""Pastes the clipboard as a GTK 4 application does (Gdk.Clipboard.read_text_async) and
prints the text, or `error: …`. Used by the clipboard tests: what GTK reads is what a
desktop user gets. Bounded: gives up after 10 s."""
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

Gtk.init()
clipboard = Gdk.Display.get_default().get_clipboard()
loop = GLib.MainLoop()
result = {}


def done(source, outcome):
    try:
        result["text"] = source.read_text_finish(outcome)
    except GLib.Error as error:
        result["error"] = error.message
    loop.quit()


clipboard.read_text_async(None, done)
GLib.timeout_add_seconds(10, loop.quit)
loop.run()
if "text" in result and result["text"] is not None:
    sys.stdout.write(result["text"])
else:
    print("error: " + result.get("error", "no text within 10 s"))
    sys.exit(1)
