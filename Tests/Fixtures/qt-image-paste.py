#!/usr/bin/env python3
"""Pastes the clipboard as an image, as a Qt 5 application does (QClipboard.image, on
X11), and prints its size as WIDTHxHEIGHT, or `error: …`."""
import sys

from PyQt5.QtWidgets import QApplication

application = QApplication(sys.argv[:1] + ["-platform", "xcb"])
image = application.clipboard().image()
if image.isNull():
    print("error: no image")
    sys.exit(1)
print(f"{image.width()}x{image.height()}")
