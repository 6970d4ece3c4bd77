#!/usr/bin/env python3
"""Pastes the clipboard as an image, as a GTK 4 application does
(Gdk.Clipboard.read_texture_async), and prints its size as WIDTHxHEIGHT, or `error: …`.
Bounded: gives up after 20 s."""
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
        result["texture"] = source.read_texture_finish(outcome)
    except GLib.Error as error:
        result["error"] = error.message
    loop.quit()


clipboard.read_texture_async(None, done)
GLib.timeout_add_seconds(20, loop.quit)
loop.run()
texture = result.get("texture")
if texture is not None:
    print(f"{texture.get_width()}x{texture.get_height()}")
else:
    print("error: " + result.get("error", "no image within 20 s"))
    sys.exit(1)
