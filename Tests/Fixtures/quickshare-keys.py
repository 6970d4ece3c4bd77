#!/usr/bin/python3
"""Quick Share's key derivations, computed by Python's `cryptography` (Debian's
python3-cryptography), as the oracle for ActShareQuickShare's own.

Usage (every value hex; prints one JSON object):
  quickshare-keys.py keys SHARED-SECRET CLIENT-INIT SERVER-INIT
      the server's keys (encrypt, decrypt, send_hmac, receive_hmac) and the
      authentication string, following UKEY2 (github.com/google/ukey2) and Nearby's D2D
      key derivation as NearDrop's PROTOCOL.md describes them
  quickshare-keys.py ecdh X Y
      a new P-256 key's x and y, and its ECDH secret with the public key (X, Y)
  quickshare-keys.py qr KEY
      the advertising token and name encryption key of a QR code's key
  quickshare-keys.py hidden KEY NAME
      the record 1 a hidden phone that scanned the code of KEY advertises: a random
      nonce, then NAME sealed with AES-128-GCM under the name key, the token authenticated
  quickshare-keys.py verify KEY AUTH SIGNATURE
      whether SIGNATURE (r and s) is an ECDSA P-256 SHA-256 signature of AUTH by the
      code's key (its 02 or 03 byte as written)
  quickshare-keys.py cbc KEY IV PLAINTEXT
      AES-256-CBC with PKCS #7 padding of PLAINTEXT, and its HMAC-SHA256 under KEY
"""
import hashlib
import json
import sys

from cryptography.hazmat.primitives import hashes, hmac, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric import ec, utils
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def hkdf(key: bytes, salt: bytes | None, info: bytes, length: int = 32) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(key)


command, values = sys.argv[1], [bytes.fromhex(argument) for argument in sys.argv[2:]]
if command == "keys":
    shared, client_init, server_init = values
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
elif command == "ecdh":
    x, y = (int.from_bytes(value, "big") for value in values)
    peer = ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
    own = ec.generate_private_key(ec.SECP256R1())
    numbers = own.public_key().public_numbers()
    print(json.dumps({
        "x": numbers.x.to_bytes(32, "big").hex(),
        "y": numbers.y.to_bytes(32, "big").hex(),
        "shared": own.exchange(ec.ECDH(), peer).hex(),
    }))
elif command == "qr":
    (key,) = values
    print(json.dumps({
        "advertising_token": hkdf(key, None, b"advertisingContext", 16).hex(),
        "name_encryption_key": hkdf(key, None, b"encryptionKey", 16).hex(),
    }))
elif command == "hidden":
    key, name = values
    nonce = b"\x07" * 12
    sealed = AESGCM(hkdf(key, None, b"encryptionKey", 16)).encrypt(nonce, name, hkdf(key, None, b"advertisingContext", 16))
    print(json.dumps({"record": (nonce + sealed).hex()}))
elif command == "verify":
    key, auth, signature = values
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key[2:])
    der = utils.encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public.verify(der, auth, ec.ECDSA(hashes.SHA256()))
        print(json.dumps({"valid": "yes"}))
    except InvalidSignature:
        print(json.dumps({"valid": "no"}))
elif command == "cbc":
    key, iv, plaintext = values
    padder = padding.PKCS7(128).padder()
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    ciphertext = encryptor.update(padder.update(plaintext) + padder.finalize()) + encryptor.finalize()
    signer = hmac.HMAC(key, hashes.SHA256())
    signer.update(ciphertext)
    print(json.dumps({"ciphertext": ciphertext.hex(), "hmac": signer.finalize().hex()}))
else:
    sys.exit(f"quickshare-keys.py: unknown command {command}")
