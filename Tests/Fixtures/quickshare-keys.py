#!/usr/bin/python3
"""The keys of a Quick Share connection, computed by Python's `cryptography` (Debian's
python3-cryptography), as the oracle for ActShareQuickShare's own derivation.

Usage: quickshare-keys.py SHARED-SECRET CLIENT-INIT SERVER-INIT    (each hex)

Prints JSON: the server's keys (encrypt, decrypt, send_hmac, receive_hmac) and the
authentication string, each hex, following UKEY2 (github.com/google/ukey2) and Nearby's
D2D key derivation as NearDrop's PROTOCOL.md describes them.
"""
import hashlib
import json
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def hkdf(key: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(key)


shared, client_init, server_init = (bytes.fromhex(argument) for argument in sys.argv[1:4])
dhs = hashlib.sha256(shared).digest()
next_secret = hkdf(dhs, b"UKEY2 v1 next", client_init + server_init)
auth = hkdf(dhs, b"UKEY2 v1 auth", client_init + server_init)
d2d = hashlib.sha256(b"D2D").digest()
client, server = hkdf(next_secret, d2d, b"client"), hkdf(next_secret, d2d, b"server")
secure = hashlib.sha256(b"SecureMessage").digest()
print(json.dumps({
    "encrypt": hkdf(server, secure, b"ENC:2").hex(),
    "send_hmac": hkdf(server, secure, b"SIG:1").hex(),
    "decrypt": hkdf(client, secure, b"ENC:2").hex(),
    "receive_hmac": hkdf(client, secure, b"SIG:1").hex(),
    "auth": auth.hex(),
}))
