#!/usr/bin/env python3
"""Pastes the clipboard as a GTK 4 application does (Gdk.Clipboard.read_text_async) and
prints the text, or with --image as an image (read_texture_async) and prints its size as
WIDTHxHEIGHT; or `error: …`. Used by the clipboard tests: what GTK reads is what a
desktop user gets. Bounded: gives up after 20 s."""
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

Gtk.init()
clipboard = Gdk.Display.get_default().get_clipboard()
loop = GLib.MainLoop()
result = {}
image = "--image" in sys.argv[1:]


def done(source, outcome):
    try:
        result["value"] = source.read_texture_finish(outcome) if image else source.read_text_finish(outcome)
    except GLib.Error as error:
        result["error"] = error.message
    loop.quit()


if image:
    clipboard.read_texture_async(None, done)
else:
    clipboard.read_text_async(None, done)
GLib.timeout_add_seconds(20, loop.quit)
loop.run()
value = result.get("value")
if value is None:
    print("error: " + result.get("error", "nothing within 20 s"))
    sys.exit(1)
sys.stdout.write(f"{value.get_width()}x{value.get_height()}\n" if image else value)
