#!/usr/bin/env python3
"""A paired device that lies: it speaks the handoff wire protocol (TLS 1.3, frames of a
4-byte big-endian length and JSON) with the identity of a real, paired daemon, and sends
what that daemon would never send. Used by the end-to-end tests of the receiving side.

  lying-peer.py serve STATE-DIR [HOST:]PORT SECONDS [CLIPBOARD-BYTES]
      answer `list` and `fetch` with lies, and a `clipboard-fetch` with CLIPBOARD-BYTES
      bytes of "x" (the size of what it offered, not its bytes)
  lying-peer.py send STATE-DIR HOST:PORT JSON    send one request frame, print the reply
  lying-peer.py transfer STATE-DIR HOST:PORT JSON|@FILE
      offer files ({"entries": [...], "files": [{"index", "data", "sha256"?, "cut"?}], "hangup"?, "transfer"?, "pause"?}):
      send the offer and, if accepted, each file's begin, data (cut short after "cut"
      bytes, then hang up) and end; print every reply, one JSON line each ("hangup": true
      hangs up after the answer to the offer; "pause": N waits N seconds, at most 10,
      after it, printing {"type": "paused"} first)

Every loop is bounded: `serve` stops after SECONDS, each socket times out after 5 s.
"""
import json
import os
import socket
import ssl
import struct
import sys
import time

# What the lying device lists: one good activity among activities no daemon may accept.
GOOD_ID = "2222222222222222"
LISTED = [
    {"id": "x;cd;touch pwned;", "type": "org.example.notes.editing", "title": "Injected id", "version": 1, "created": 1},
    {"id": "0123456789abcdef", "type": "org.example.notes.editing", "title": "Clear \u001b[2J screen", "version": 1, "created": 2},
    {"id": "1111111111111111", "type": "org.example.notes.editing", "title": "Script URL", "version": 1, "created": 3,
     "webpage_url": "javascript:alert(1)"},
    {"id": "3333333333333333", "type": "not reverse dns;rm -rf ~", "title": "Bad type", "version": 1, "created": 4},
    {"id": "4444444444444444", "type": "org.example.notes.editing", "title": "Reversed \u202etxt.exe", "version": 1, "created": 5},
    {"id": GOOD_ID, "type": "org.example.notes.editing", "title": "Fine", "version": 1, "created": 6,
     "needs_save_command": "touch /tmp/never", "on_continued": "touch /tmp/never"},
]


def identity(state):
    return os.path.join(state, "identity-certificate.pem"), os.path.join(state, "identity-key.pem")


def read_frame(conn):
    header = b""
    while len(header) < 4:
        chunk = conn.recv(4 - len(header))
        if not chunk:
            return None
        header += chunk
    (length,) = struct.unpack(">I", header)
    if length > 1 << 20:
        return None
    body = b""
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            return None
        body += chunk
    return json.loads(body)


def write_frame(conn, message):
    body = json.dumps(message).encode()
    conn.sendall(struct.pack(">I", len(body)) + body)


def answer(request):
    if request.get("type") == "list":
        return {"type": "activities", "activities": LISTED}
    if request.get("type") == "fetch":
        wanted = request.get("id")
        activity = dict(next((a for a in LISTED if a["id"] == wanted), LISTED[-1]))
        activity["user_info"] = {"n": 1}
        return {"type": "activity", "activity": activity}
    return {"type": "ok"}


def serve(state, address, seconds, clipboard_bytes=0):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.load_cert_chain(*identity(state))
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    host, _, port = address.rpartition(":")
    listener.bind((host or "127.0.0.1", int(port)))
    listener.listen(16)
    listener.settimeout(0.2)
    print("ready", flush=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            raw, _ = listener.accept()
        except socket.timeout:
            continue
        raw.settimeout(5)
        try:
            with context.wrap_socket(raw, server_side=True) as conn:
                for _ in range(16):
                    request = read_frame(conn)
                    if request is None:
                        break
                    if request.get("type") == "clipboard-fetch":
                        write_frame(conn, {"type": "clipboard-data", "size": clipboard_bytes})
                        piece = (1 << 20) - 1  # a frame holds 1 MiB: the tag and this
                        for offset in range(0, clipboard_bytes, piece):
                            write_data(conn, b"x" * min(piece, clipboard_bytes - offset))
                        continue
                    write_frame(conn, answer(request))
        except (OSError, ssl.SSLError, ValueError):
            pass


def client_context(state):
    """TLS 1.3 with the paired device's identity; the daemon's certificate is not checked."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.load_cert_chain(*identity(state))
    return context


def send(state, address, message):
    host, port = address.rsplit(":", 1)
    context = client_context(state)
    with socket.create_connection((host, int(port)), timeout=5) as raw:
        with context.wrap_socket(raw) as conn:
            write_frame(conn, json.loads(message))
            print(json.dumps(read_frame(conn)))


def write_data(conn, data):
    """A data frame: a zero byte, then the file's bytes."""
    conn.sendall(struct.pack(">I", len(data) + 1) + b"\x00" + data)


def transfer(state, address, plan):
    import hashlib
    # A plan too long for one argument comes from a file: @PATH.
    plan = json.loads(open(plan[1:]).read() if plan.startswith("@") else plan)
    host, port = address.rsplit(":", 1)
    context = client_context(state)
    try:
        with socket.create_connection((host, int(port)), timeout=5) as raw:
            with context.wrap_socket(raw) as conn:
                write_frame(conn, {"type": "transfer-offer", "transfer": plan.get("transfer", "abcdefabcdef0123"), "entries": plan["entries"]})
                reply = read_frame(conn)
                print(json.dumps(reply), flush=True)
                if not reply or reply.get("type") != "transfer-accept" or plan.get("hangup"):
                    return
                if plan.get("pause"):
                    print(json.dumps({"type": "paused"}), flush=True)
                    time.sleep(min(float(plan["pause"]), 10))
                for file in plan.get("files", []):
                    data = file["data"].encode()
                    write_frame(conn, {"type": "file-begin", "index": file["index"]})
                    if "cut" in file:
                        write_data(conn, data[: file["cut"]])
                        return
                    for start in range(0, len(data), 1 << 16):
                        write_data(conn, data[start : start + (1 << 16)])
                    digest = file.get("sha256", hashlib.sha256(data).hexdigest())
                    write_frame(conn, {"type": "file-end", "index": file["index"], "sha256": digest})
                print(json.dumps(read_frame(conn)), flush=True)
    except (OSError, ssl.SSLError, ValueError) as error:
        print(json.dumps({"type": "closed", "message": str(error)}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5]) if len(sys.argv) > 5 else 0)
    elif sys.argv[1] == "transfer":
        transfer(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        send(sys.argv[2], sys.argv[3], sys.argv[4])
