#!/usr/bin/env python3
"""A LocalSend client that does what the tests tell it, hostile or not.

    localsend-client.py prepare HOST PORT JSON-FILE [PIN]
        POST prepare-upload with that body; prints the status, then the answer's body.
    localsend-client.py upload HOST PORT SESSION FILE-ID TOKEN DATA-FILE [SECONDS-PER-PIECE [PIECE-BYTES]]
        POST upload with DATA-FILE's bytes in pieces (64 KiB unless told), slowly when
        told; prints the status, or "closed" and the seconds until the server closed.
    localsend-client.py guess HOST PORT JSON-FILE PIN TRIES SOURCE...
        From each SOURCE address in turn, TRIES prepare-uploads with PIN; prints each
        status on a line of its own ("closed" when the connection was).
    localsend-client.py hold HOST PORT COUNT
        Opens COUNT TLS connections and sends nothing; prints "held N" for the N the
        server kept open, then waits until standard input closes.
    localsend-client.py trickle HOST PORT SECONDS
        Opens TLS, sends half a request head, and waits: prints how many seconds passed
        before the server closed the connection (or "open" after SECONDS).
"""
import http.client
import json
import socket
import ssl
import sys
import time

CONTEXT = ssl._create_unverified_context()


def connection(host, port, timeout=90, source=None):
    return http.client.HTTPSConnection(host, int(port), timeout=timeout, context=CONTEXT,
                                       source_address=(source, 0) if source else None)


def prepare(host, port, body_file, pin=None):
    body = open(body_file, "rb").read()
    path = "/api/localsend/v2/prepare-upload" + (f"?pin={pin}" if pin else "")
    conn = connection(host, port)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        print(response.status)
        print(response.read().decode("utf-8", "replace"))
    except (ConnectionError, ssl.SSLError, OSError) as error:
        print(f"closed {type(error).__name__}")


def upload(host, port, session, file_id, token, data_file, slow=None, piece=65536):
    data = open(data_file, "rb").read()
    piece = int(piece)
    started = time.monotonic()

    def pieces():
        for start in range(0, len(data), piece):
            if slow:
                time.sleep(float(slow))
            yield data[start:start + piece]

    conn = connection(host, port)
    try:
        conn.request("POST", f"/api/localsend/v2/upload?sessionId={session}&fileId={file_id}&token={token}",
                     body=pieces(), headers={"Content-Length": str(len(data))})
        print(conn.getresponse().status)
    except (ConnectionError, ssl.SSLError, OSError):
        print("closed")
        print(f"{time.monotonic() - started:.1f}")


def guess(host, port, body_file, pin, tries, *sources):
    body = open(body_file, "rb").read()
    for source in sources:
        for _ in range(int(tries)):
            conn = connection(host, port, timeout=30, source=source)
            try:
                conn.request("POST", f"/api/localsend/v2/prepare-upload?pin={pin}", body=body,
                             headers={"Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                print(response.status, flush=True)
            except (ConnectionError, ssl.SSLError, OSError):
                print("closed", flush=True)
            finally:
                conn.close()


def hold(host, port, count):
    held = []
    for _ in range(int(count)):
        try:
            raw = socket.create_connection((host, int(port)), timeout=5)
            held.append(CONTEXT.wrap_socket(raw))
        except (ConnectionError, ssl.SSLError, OSError):
            pass
    print(f"held {len(held)}", flush=True)
    sys.stdin.read()


def trickle(host, port, seconds):
    raw = socket.create_connection((host, int(port)), timeout=5)
    tls = CONTEXT.wrap_socket(raw)
    tls.sendall(b"POST /api/localsend/v2/prepare-upload HTTP/1.1\r\nHost: x\r\n")
    started = time.monotonic()
    tls.settimeout(float(seconds))
    try:
        while tls.recv(1024):
            pass
        print(f"{time.monotonic() - started:.1f}")
    except socket.timeout:
        print("open")
    except (ConnectionError, ssl.SSLError, OSError):
        print(f"{time.monotonic() - started:.1f}")


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    {"prepare": prepare, "upload": upload, "trickle": trickle, "guess": guess, "hold": hold}[command](*arguments)
