#!/usr/bin/env python3
"""A plain TCP relay, as an attacker on the LAN would run one.

    tcp-relay.py TARGET-HOST TARGET-PORT
        Listens on a port the kernel picks, prints it, and relays every connection to
        TARGET-HOST:TARGET-PORT byte for byte. Prints "relayed N" to stderr for each
        connection carried. Ends when standard input closes (at most 16 connections).
"""
import socket
import sys
import threading


def pump(source, sink):
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def main(host, port):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("0.0.0.0", 0))
    server.listen(16)
    print(server.getsockname()[1], flush=True)
    # A listening socket closed in another thread does not wake accept(); shut down, it does.
    threading.Thread(target=lambda: (sys.stdin.read(), server.shutdown(socket.SHUT_RDWR)), daemon=True).start()
    for count in range(1, 17):
        try:
            client, _ = server.accept()
        except OSError:
            return
        upstream = socket.create_connection((host, int(port)), timeout=10)
        upstream.settimeout(None)
        print(f"relayed {count}", file=sys.stderr, flush=True)
        threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
        threading.Thread(target=pump, args=(upstream, client), daemon=True).start()


if __name__ == "__main__":
    main(*sys.argv[1:3])
