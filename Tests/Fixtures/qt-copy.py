#!/usr/bin/env python3
"""Copies TEXT as a Qt 5 application does, and with --secret as KeePassXC does: with the
target x-kde-passwordManagerHint holding "secret". Keeps the clipboard until it is taken,
or SECONDS (default 30) have passed; with --clear-after N it empties the clipboard after N
seconds, as a password manager does, and goes on running; with --hint-delay N it stalls
N seconds before it answers for the hint (its whole event loop, as a busy password manager
does), then answers every request in order; with --busy N its whole event loop stalls N
seconds as soon as it has copied, as an owner serving another client's paste does (a
clipboard manager reads every copy as it is made). Prints "copied" once the clipboard is
its own."""
import argparse
import sys
import time

from PyQt5.QtCore import QMimeData, QTimer
from PyQt5.QtWidgets import QApplication

parser = argparse.ArgumentParser()
parser.add_argument("text")
parser.add_argument("--secret", action="store_true")
parser.add_argument("--seconds", type=float, default=30)
parser.add_argument("--clear-after", type=float)
parser.add_argument("--hint-delay", type=float, default=0)
parser.add_argument("--busy", type=float, default=0)
options = parser.parse_args()


class MimeData(QMimeData):
    def retrieveData(self, mime_type, preferred_type):
        if mime_type == "x-kde-passwordManagerHint" and options.hint_delay:
            time.sleep(options.hint_delay)
        return super().retrieveData(mime_type, preferred_type)


application = QApplication(sys.argv[:1] + ["-platform", "xcb"])
clipboard = application.clipboard()
data = MimeData()
data.setText(options.text)
if options.secret:
    data.setData("x-kde-passwordManagerHint", b"secret")
clipboard.setMimeData(data)
print("copied", flush=True)
if options.clear_after is not None:
    QTimer.singleShot(int(options.clear_after * 1000), clipboard.clear)
if options.busy:
    QTimer.singleShot(0, lambda: time.sleep(options.busy))
QTimer.singleShot(int(options.seconds * 1000), application.quit)
application.exec_()
