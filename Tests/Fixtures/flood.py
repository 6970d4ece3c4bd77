#!/usr/bin/env python3
"""A network stranger's connection flood: from SOURCE, keep up to COUNT idle TCP
connections open to 127.0.0.1:PORT, refilling every 50 ms, for SECONDS.

  flood.py PORT SOURCE COUNT SECONDS [READY [STOP]]

Prints one JSON line: connections made, and how many the daemon closed within 0.5 s
of being opened (closed at once, over its budget) and later (timed out). READY, when
given, is a file made once the first COUNT connections are under way (what a test waits
for); STOP, a file whose appearing ends the flood before SECONDS ("stopped" in the line
says it did). Bounded in time and count; talks to loopback only.
"""
import json
import os
import select
import socket
import sys
import time

port, source, count, seconds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
ready = sys.argv[5] if len(sys.argv) > 5 else None
stop = sys.argv[6] if len(sys.argv) > 6 else None
stopped = False
assert source.startswith("127."), "loopback only"
opened = {}
made = closed_at_once = closed_later = 0
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    if stop and os.path.exists(stop):
        stopped = True
        break
    while len(opened) < count and time.monotonic() < deadline:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.bind((source, 0))
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            break
        opened[s] = time.monotonic()
        made += 1
    if ready and made >= count:
        open(ready, "w").close()
        ready = None
    readable, _, _ = select.select(list(opened), [], [], 0.05)
    now = time.monotonic()
    for s in readable:
        try:
            data = s.recv(1)
        except OSError:
            data = b""
        if data == b"":
            if now - opened[s] < 0.5:
                closed_at_once += 1
            else:
                closed_later += 1
            del opened[s]
            s.close()
for s in opened:
    s.close()
print(json.dumps({"made": made, "closed_at_once": closed_at_once, "closed_later": closed_later, "stopped": stopped}))
