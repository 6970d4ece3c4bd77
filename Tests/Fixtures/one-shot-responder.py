#!/usr/bin/env python3
"""A Quick Share receiver's mDNS responder that answers only one-shot queries (RFC 6762
§5.1: a query from a port other than 5353, answered at once, unicast, to that port, its id
echoed), never a multicast one: a daemon finds it only through its one-shot query.

usage: one-shot-responder.py ADDRESS NAME

Each one-shot question for _FC9F5ED42C8A._tcp.local is answered twice: first by an
"Impostor" under a wrong id (which the asker must drop), then by NAME, a phone at
ADDRESS, port 9, under the query's id. It exits when its standard input ends, or after
120 s.
"""
import base64
import os
import select
import socket
import struct
import sys
import time

address, phone_name = sys.argv[1], sys.argv[2]
SERVICE = ("_FC9F5ED42C8A", "_tcp", "local")


def name(*labels):
    return b"".join(bytes([len(l)]) + l for l in (x.encode() if isinstance(x, str) else x for x in labels)) + b"\0"


def record(owner, rtype, data, ttl=10):
    return owner + struct.pack(">HHIH", rtype, 1, ttl, len(data)) + data


def url64(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def answer(query_id, shown):
    endpoint = os.urandom(2).hex()[:4].upper().encode()
    instance = url64(b"\x23" + endpoint + b"\xfc\x9f\x5e\x00\x00")
    raw = shown.encode()
    info = bytes([(1 << 5) | (1 << 1)]) + os.urandom(16) + bytes([len(raw)]) + raw  # version 1, a phone, visible
    text = "n=" + url64(info)
    host = name("phone-" + endpoint.decode().lower(), "local")
    records = [
        record(name(*SERVICE), 12, name(instance, *SERVICE)),
        record(name(instance, *SERVICE), 33, struct.pack(">HHH", 0, 0, 9) + host),
        record(name(instance, *SERVICE), 16, bytes([len(text)]) + text.encode()),
        record(host, 1, socket.inet_aton(address)),
    ]
    return struct.pack(">HHHHHH", query_id, 0x8400, 0, len(records), 0, 0) + b"".join(records)


listener = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
listener.bind(("", 5353))
listener.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, socket.inet_aton("224.0.0.251") + socket.inet_aton(address))
print("listening", flush=True)
deadline = time.monotonic() + 120
while time.monotonic() < deadline:
    ready, _, _ = select.select([listener, sys.stdin], [], [], max(0.1, deadline - time.monotonic()))
    if sys.stdin in ready and not sys.stdin.buffer.read1(4096):
        break
    if listener not in ready:
        continue
    data, (sender, port) = listener.recvfrom(9000)
    if port == 5353 or len(data) < 12 or data[2] & 0x80 or b"\x0d_FC9F5ED42C8A" not in data:
        continue  # multicast queries, responses, other questions: not answered
    query_id = struct.unpack(">H", data[:2])[0]
    listener.sendto(answer(query_id ^ 0x5A5A, "Impostor"), (sender, port))
    listener.sendto(answer(query_id, phone_name), (sender, port))
