#!/usr/bin/env python3
"""Pastes the clipboard as a Qt 5 application does (QClipboard.text, on X11) and prints the
text, or with --image as an image (QClipboard.image) and prints its size as
WIDTHxHEIGHT; or `error: …`. Used by the clipboard tests: what Qt reads is what a KDE user gets.
Bounded: Qt gives up on a selection owner after its own 5 s; the test's run limit covers
the rest."""
import sys

from PyQt5.QtWidgets import QApplication

application = QApplication(sys.argv[:1] + ["-platform", "xcb"])
if "--image" in sys.argv[1:]:
    image = application.clipboard().image()
    if image.isNull():
        print("error: no image")
        sys.exit(1)
    print(f"{image.width()}x{image.height()}")
    sys.exit(0)
text = application.clipboard().text()
if text:
    sys.stdout.write(text)
else:
    print("error: no text")
    sys.exit(1)
