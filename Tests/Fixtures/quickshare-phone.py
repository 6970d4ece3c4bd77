#!/usr/bin/env python3
"""A stand-in Android phone for actshare's Quick Share tests: it sends to, or receives
from, a Quick Share peer over TCP, following NearDrop's PROTOCOL.md, and prints one JSON
object per line for each event.

It uses pyquickshare (PyPI) for the protocol buffers and the UKEY2 key derivation only;
the session is this file's own (pyquickshare's session code loses data: see
docs/PROTOCOL.md). It is strict where Android is: the commitment, the HMAC, sequence
numbers from 1 without a gap, chunks in order and to their announced size.

Usage:
  quickshare-phone.py send --to HOST:PORT [--name NAME] (FILE... | --text TEXT [--as-url]) [--replay]
      events: pin, accepted | declined, sent (per item), done | failed
      exit: 0 done, 2 declined, 1 failed. --replay sends its first chunk frame twice
      (as someone replaying it on the path would): the receiver must drop the connection.
  quickshare-phone.py receive --dir DIR (--accept | --decline) [--name NAME] [--ip ADDRESS] [--advertise]
                        [--qr-url URL [--hidden]]
      listens on ADDRESS (127.0.0.1), port from the kernel, advertised over mDNS if asked: events listening (port), peer, pin,
      [qr_handshake], introduction, accepted | declined, received (per item, with sha256), done | failed
      --qr-url: as a phone whose camera read a sender's QR code, it advertises the code's token
      (or, --hidden, its name sealed with the code's key) and checks the sender's signature of
      the handshake (qr_handshake: valid | invalid | absent; all but valid fail the session)
      --cancel-after BYTES: once that much of the files has come, cancel as its user would
      (a CANCEL sharing frame, then a disconnection; event cancelled), keeping nothing
      --hold-after BYTES: once that much has come, read no more (event holding) until its
      standard input ends, then go on (a sender cancelled meanwhile: event failed, or
      sender_cancelled for its CANCEL frame); what came of an unfinished file is removed
"""
import argparse
import hashlib
import json
import os
import random
import socket
import struct
import sys
import time

from cryptography.hazmat.primitives import hashes, hmac
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric import ec, utils
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from pyquickshare import ukey2
from pyquickshare.common import Keychain, payloadify
from pyquickshare.protos import (device_to_device_messages_pb2 as D2D, offline_wire_formats_pb2 as OWF,
                                 securemessage_pb2 as SM, ukey_pb2 as UK, wire_format_pb2 as WF)
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

CHUNK = 512 * 1024
MAX_FRAME = 5 * 1024 * 1024


def emit(event, **fields):
    print(json.dumps({"event": event, **fields}), flush=True)


class Failure(Exception):
    pass


class SenderCancelled(Exception):
    """The sender's CANCEL sharing frame."""


class Connection:
    def __init__(self, sock):
        self.sock = sock
        self.keys: Keychain | None = None
        self.sent = 0
        self.received = 0
        self.bytes = {}

    def read_frame(self) -> bytes:
        (length,) = struct.unpack(">I", self.read_exactly(4))
        if length > MAX_FRAME:
            raise Failure(f"a frame of {length} bytes")
        return self.read_exactly(length)

    def read_exactly(self, count) -> bytes:
        data = b""
        while len(data) < count:
            part = self.sock.recv(count - len(data))
            if not part:
                raise Failure("the peer closed the connection")
            data += part
        return data

    def write_frame(self, data: bytes):
        self.sock.sendall(struct.pack(">I", len(data)) + data)

    def sequence(self):
        self.sent += 1
        return self.sent

    def send_offline(self, frame: OWF.OfflineFrame):
        # payloadify seals a payload frame; other frames are sealed the same way here.
        d2d = D2D.DeviceToDeviceMessage(sequence_number=self.sequence(), message=frame.SerializeToString())
        self.write_frame(seal(d2d.SerializeToString(), self.keys))

    def send_bytes(self, data: bytes, payload_id=None):
        payload_id = payload_id if payload_id is not None else random.randint(1, 2**62)
        for flags, offset, body in ((0, 0, data), (1, len(data), b"")):
            self.write_frame(payloadify(body, self.keys, id=payload_id, flags=flags, type=OWF.PayloadTransferFrame.PayloadHeader.BYTES,
                                        offset=offset, total_size=len(data), sequence_number=self.sequence))

    def send_sharing(self, frame: WF.Frame):
        self.send_bytes(frame.SerializeToString())

    def receive_offline(self) -> OWF.OfflineFrame:
        message = SM.SecureMessage()
        message.ParseFromString(self.read_frame())
        check = hmac.HMAC(self.keys.receive_hmac_key, hashes.SHA256())
        check.update(message.header_and_body)
        check.verify(message.signature)
        whole = SM.HeaderAndBody()
        whole.ParseFromString(message.header_and_body)
        decryptor = Cipher(algorithms.AES(self.keys.decrypt_key), modes.CBC(whole.header.iv)).decryptor()
        unpadder = padding.PKCS7(128).unpadder()
        plain = unpadder.update(decryptor.update(whole.body) + decryptor.finalize()) + unpadder.finalize()
        d2d = D2D.DeviceToDeviceMessage()
        d2d.ParseFromString(plain)
        if d2d.sequence_number != self.received + 1:
            raise Failure(f"sequence number {d2d.sequence_number}, expected {self.received + 1}")
        self.received += 1
        frame = OWF.OfflineFrame()
        frame.ParseFromString(d2d.message)
        return frame

    def next_item(self, text_ids=()):
        """('frame', WF.Frame) | ('text', id, bytes) | ('chunk', header, chunk); keep-alives answered."""
        while True:
            frame = self.receive_offline()
            kind = frame.v1.type
            if kind == OWF.V1Frame.KEEP_ALIVE:
                if not frame.v1.keep_alive.ack:
                    self.send_offline(keep_alive(True))
                continue
            if kind == OWF.V1Frame.DISCONNECTION:
                raise Failure("the peer sent a disconnection")
            if kind != OWF.V1Frame.PAYLOAD_TRANSFER:
                continue
            transfer = frame.v1.payload_transfer
            header, chunk = transfer.payload_header, transfer.payload_chunk
            if header.type == OWF.PayloadTransferFrame.PayloadHeader.FILE:
                return ("chunk", header, chunk)
            buffer = self.bytes.setdefault(header.id, b"")
            if chunk.offset != len(buffer):
                raise Failure(f"a bytes chunk at {chunk.offset}, expected {len(buffer)}")
            buffer += chunk.body
            self.bytes[header.id] = buffer
            if chunk.flags & 1:
                del self.bytes[header.id]
                if len(buffer) != header.total_size:
                    raise Failure(f"a bytes payload of {len(buffer)} bytes, announced {header.total_size}")
                if header.id in text_ids:
                    return ("text", header.id, buffer)
                sharing = WF.Frame()
                sharing.ParseFromString(buffer)
                return ("frame", sharing)

    def expect_sharing(self, kind):
        item = self.next_item()
        if item[0] != "frame" or item[1].v1.type != kind:
            raise Failure(f"expected {WF.V1Frame.FrameType.Name(kind)}, got {item}")
        return item[1]


def seal(plain: bytes, keys: Keychain) -> bytes:
    iv = os.urandom(16)
    padder = padding.PKCS7(128).padder()
    encryptor = Cipher(algorithms.AES(keys.encrypt_key), modes.CBC(iv)).encryptor()
    body = encryptor.update(padder.update(plain) + padder.finalize()) + encryptor.finalize()
    whole = SM.HeaderAndBody()
    whole.header.signature_scheme = SM.HMAC_SHA256
    whole.header.encryption_scheme = SM.AES_256_CBC
    whole.header.iv = iv
    whole.header.public_metadata = bytes.fromhex("080d1001")  # GcmMetadata {type: D2D message, version: 1}
    whole.body = body
    serialized = whole.SerializeToString()
    signer = hmac.HMAC(keys.send_hmac_key, hashes.SHA256())
    signer.update(serialized)
    return SM.SecureMessage(header_and_body=serialized, signature=signer.finalize()).SerializeToString()


def offline(kind) -> OWF.OfflineFrame:
    frame = OWF.OfflineFrame(version=OWF.OfflineFrame.V1)
    frame.v1.type = kind
    return frame


def keep_alive(ack) -> OWF.OfflineFrame:
    frame = offline(OWF.V1Frame.KEEP_ALIVE)
    frame.v1.keep_alive.ack = ack
    return frame


def connection_response() -> OWF.OfflineFrame:
    frame = offline(OWF.V1Frame.CONNECTION_RESPONSE)
    frame.v1.connection_response.response = OWF.ConnectionResponseFrame.ACCEPT
    frame.v1.connection_response.os_info.type = OWF.OsInfo.ANDROID
    return frame


def sharing(kind) -> WF.Frame:
    frame = WF.Frame(version=WF.Frame.V1)
    frame.v1.type = kind
    return frame


def paired_key_encryption() -> WF.Frame:
    frame = sharing(WF.V1Frame.PAIRED_KEY_ENCRYPTION)
    frame.v1.paired_key_encryption.secret_id_hash = os.urandom(6)
    frame.v1.paired_key_encryption.signed_data = os.urandom(72)
    return frame


def paired_key_result() -> WF.Frame:
    frame = sharing(WF.V1Frame.PAIRED_KEY_RESULT)
    frame.v1.paired_key_result.status = WF.PairedKeyResultFrame.UNABLE
    return frame


def endpoint_info(name: str, qr=None, hidden=False) -> bytes:
    """A phone's: version 1, type phone, visible with its name or hidden; with the QR code
    it scanned, record 1 (the token, or the name sealed with the code's key)."""
    raw = name.encode()[:255]
    out = bytes([(1 << 5) | (0x10 if hidden else 0) | (1 << 1)]) + os.urandom(16)
    if not hidden:
        out += bytes([len(raw)]) + raw
    if qr is not None:
        record = qr.token if not hidden else qr.sealed_name(raw)
        out += bytes([1, len(record)]) + record
    return out


class ScannedCode:
    """What the camera read: https://quickshare.google/qrcode#key=KEY (two zero bytes, then
    the sender's compressed P-256 key), and what a phone derives from it."""

    def __init__(self, url: str):
        import base64
        key = url.split("#key=", 1)[1]
        self.key = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
        derive = lambda info: HKDF(hashes.SHA256(), 16, None, info).derive(self.key)  # noqa: E731
        self.token, self.name_key = derive(b"advertisingContext"), derive(b"encryptionKey")

    def sealed_name(self, name: bytes) -> bytes:
        nonce = os.urandom(12)
        return nonce + AESGCM(self.name_key).encrypt(nonce, name, self.token)

    def verdict(self, auth: bytes, signature: bytes) -> str:
        if not signature:
            return "absent"
        if len(signature) != 64:
            return "invalid"
        der = utils.encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), self.key[2:]).verify(der, auth, ec.ECDSA(hashes.SHA256()))
            return "valid"
        except (InvalidSignature, ValueError):
            return "invalid"


def pin(auth: bytes) -> str:
    """Chromium's: the bytes as signed, weighted by powers of 31, modulo 9973 as C++ takes
    it (the sign of the dividend kept, unlike Python's %), shown without a sign."""
    value, multiplier = 0, 1
    for byte in auth:
        signed = byte - 256 if byte > 127 else byte
        total = value + signed * multiplier
        value = total - 9973 * int(total / 9973)
        multiplier = multiplier * 31 % 9973
    return f"{abs(value):04d}"


def message(kind, data: bytes) -> bytes:
    return UK.Ukey2Message(message_type=kind, message_data=data).SerializeToString()


def client_handshake(conn: Connection, name: str):
    request = offline(OWF.V1Frame.CONNECTION_REQUEST)
    request.v1.connection_request.endpoint_id = "".join(random.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(4))
    request.v1.connection_request.endpoint_info = endpoint_info(name)
    request.v1.connection_request.mediums.append(OWF.ConnectionRequestFrame.WIFI_LAN)
    conn.write_frame(request.SerializeToString())
    key = ec.generate_private_key(ec.SECP256R1())
    finished = message(UK.Ukey2Message.CLIENT_FINISH,
                       UK.Ukey2ClientFinished(public_key=ukey2.encode_public_key(key.public_key()).SerializeToString()).SerializeToString())
    init = UK.Ukey2ClientInit(version=1, random=os.urandom(32), next_protocol="AES_256_CBC-HMAC_SHA256")
    init.cipher_commitments.add(handshake_cipher=UK.P256_SHA512, commitment=hashlib.sha512(finished).digest())
    client_init = message(UK.Ukey2Message.CLIENT_INIT, init.SerializeToString())
    conn.write_frame(client_init)
    server_init = conn.read_frame()
    envelope = UK.Ukey2Message()
    envelope.ParseFromString(server_init)
    if envelope.message_type != UK.Ukey2Message.SERVER_INIT:
        raise Failure(f"no ServerInit: message type {envelope.message_type}")
    server = UK.Ukey2ServerInit()
    server.ParseFromString(envelope.message_data)
    if server.version != 1 or len(server.random) != 32 or server.handshake_cipher != UK.P256_SHA512:
        raise Failure("a ServerInit out of the rules")
    generic = SM.GenericPublicKey()
    generic.ParseFromString(server.public_key)
    conn.keys = ukey2.swap_keychain(ukey2.derive_keys(client_init, server_init, key, ukey2.decode_public_key(generic)))
    conn.write_frame(finished)
    conn.write_frame(connection_response().SerializeToString())
    response = OWF.OfflineFrame()
    response.ParseFromString(conn.read_frame())
    if response.v1.type != OWF.V1Frame.CONNECTION_RESPONSE or response.v1.connection_response.response != OWF.ConnectionResponseFrame.ACCEPT:
        raise Failure("the receiver did not accept the connection")
    emit("pin", pin=pin(conn.keys.auth_string))


def server_handshake(conn: Connection):
    request = OWF.OfflineFrame()
    request.ParseFromString(conn.read_frame())
    if request.v1.type != OWF.V1Frame.CONNECTION_REQUEST:
        raise Failure("no connection request")
    info = request.v1.connection_request.endpoint_info
    name = info[18:18 + info[17]].decode("utf-8", "replace") if len(info) > 17 and not info[0] & 0x10 else None
    emit("peer", endpoint_id=request.v1.connection_request.endpoint_id, name=name, device_type=(info[0] >> 1) & 7 if info else None)
    client_init = conn.read_frame()
    envelope = UK.Ukey2Message()
    envelope.ParseFromString(client_init)
    init = UK.Ukey2ClientInit()
    init.ParseFromString(envelope.message_data)
    commitments = [c for c in init.cipher_commitments if c.handshake_cipher == UK.P256_SHA512]
    if envelope.message_type != UK.Ukey2Message.CLIENT_INIT or init.version != 1 or len(init.random) != 32 or not commitments \
            or init.next_protocol != "AES_256_CBC-HMAC_SHA256":
        raise Failure("a ClientInit out of the rules")
    key = ec.generate_private_key(ec.SECP256R1())
    server_init = message(UK.Ukey2Message.SERVER_INIT, UK.Ukey2ServerInit(
        version=1, random=os.urandom(32), handshake_cipher=UK.P256_SHA512,
        public_key=ukey2.encode_public_key(key.public_key()).SerializeToString()).SerializeToString())
    conn.write_frame(server_init)
    finished = conn.read_frame()
    if hashlib.sha512(finished).digest() != commitments[0].commitment:
        raise Failure("the ClientFinished is not what the ClientInit committed to")
    envelope.ParseFromString(finished)
    done = UK.Ukey2ClientFinished()
    done.ParseFromString(envelope.message_data)
    generic = SM.GenericPublicKey()
    generic.ParseFromString(done.public_key)
    conn.keys = ukey2.derive_keys(client_init, server_init, key, ukey2.decode_public_key(generic))
    response = OWF.OfflineFrame()
    response.ParseFromString(conn.read_frame())
    if response.v1.type != OWF.V1Frame.CONNECTION_RESPONSE:
        raise Failure("no connection response")
    conn.write_frame(connection_response().SerializeToString())
    emit("pin", pin=pin(conn.keys.auth_string))


def send(args) -> int:
    host, port = args.to.rsplit(":", 1)
    conn = Connection(socket.create_connection((host, int(port)), timeout=60))
    try:
        client_handshake(conn, args.name)
        conn.send_sharing(paired_key_encryption())
        conn.expect_sharing(WF.V1Frame.PAIRED_KEY_ENCRYPTION)
        conn.send_sharing(paired_key_result())
        conn.expect_sharing(WF.V1Frame.PAIRED_KEY_RESULT)
        introduction = sharing(WF.V1Frame.INTRODUCTION)
        plan = []
        if args.text is not None:
            data = args.text.encode()
            text_id = random.randint(1, 2**62)
            introduction.v1.introduction.text_metadata.add(
                text_title=args.text[:40], size=len(data), payload_id=text_id, id=text_id,
                type=WF.TextMetadata.URL if args.as_url or args.text.startswith(("http://", "https://")) else WF.TextMetadata.TEXT)
            plan.append(("text", text_id, data))
        for path in args.files:
            file_id = random.randint(1, 2**62)
            size = os.path.getsize(path)
            introduction.v1.introduction.file_metadata.add(name=args.file_name or os.path.basename(path), size=size, payload_id=file_id,
                                                           id=file_id, mime_type="application/octet-stream")
            plan.append(("file", file_id, path, size))
        conn.send_sharing(introduction)
        answer = conn.expect_sharing(WF.V1Frame.RESPONSE)
        if answer.v1.connection_response.status != WF.ConnectionResponseFrame.ACCEPT:
            emit("declined", status=WF.ConnectionResponseFrame.Status.Name(answer.v1.connection_response.status))
            return 2
        emit("accepted")
        for item in plan:
            if item[0] == "text":
                conn.send_bytes(item[2], item[1])
                emit("sent", kind="text", size=len(item[2]))
                continue
            _, file_id, path, size = item
            # As Android sends a file: its bytes in chunks not flagged last, then an empty
            # chunk flagged last.
            digest, offset = hashlib.sha256(), 0
            with open(path, "rb") as handle:
                while offset < size:
                    body = handle.read(CHUNK)
                    if not body:
                        raise Failure(f"{path} shrank while it was sent")
                    digest.update(body)
                    frame = payloadify(body, conn.keys, id=file_id, flags=0, type=OWF.PayloadTransferFrame.PayloadHeader.FILE,
                                       offset=offset, total_size=size, sequence_number=conn.sequence)
                    conn.write_frame(frame)
                    if args.replay:
                        conn.write_frame(frame)  # the same frame again, as a replay on the path
                        args.replay = False
                    offset += len(body)
            conn.write_frame(payloadify(b"", conn.keys, id=file_id, flags=1, type=OWF.PayloadTransferFrame.PayloadHeader.FILE,
                                        offset=offset, total_size=size, sequence_number=conn.sequence))
            emit("sent", kind="file", size=size, sha256=digest.hexdigest())
        conn.send_offline(offline(OWF.V1Frame.DISCONNECTION))
        # The receiver hangs up once it has read everything, with a disconnection of its
        # own: a receiver that closes without one did not take it all.
        while True:
            frame = conn.receive_offline()
            if frame.v1.type == OWF.V1Frame.DISCONNECTION:
                break
        emit("done")
        return 0
    except (Failure, OSError, ValueError) as error:
        emit("failed", error=str(error))
        return 1
    finally:
        conn.sock.close()


def advertise(ip: str, port: int, name: str, qr=None, hidden=False):
    """The phone's mDNS service as Android's receiver advertises it (zeroconf, pyquickshare's
    dependency): the 10-byte endpoint name and the TXT record n; for as long as it runs."""
    import base64
    from zeroconf import ServiceInfo, Zeroconf
    endpoint = "".join(random.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(4)).encode()
    url64 = lambda data: base64.urlsafe_b64encode(data).decode().rstrip("=")
    service = "_FC9F5ED42C8A._tcp.local."
    instance = url64(b"\x23" + endpoint + b"\xfc\x9f\x5e\x00\x00")
    info = ServiceInfo(service, f"{instance}.{service}", addresses=[socket.inet_aton(ip)], port=port,
                       properties={"n": url64(endpoint_info(name, qr, hidden))}, server=f"phone-{endpoint.decode().lower()}.local.")
    zeroconf = Zeroconf(interfaces=[ip])
    zeroconf.register_service(info)
    return zeroconf


def receive(args) -> int:
    listener = socket.create_server((args.ip, 0))
    qr = ScannedCode(args.qr_url) if args.qr_url else None
    if args.advertise:
        zeroconf = advertise(args.ip, listener.getsockname()[1], args.name, qr, args.hidden)
    emit("listening", port=listener.getsockname()[1])
    listener.settimeout(120)
    sock, _ = listener.accept()
    sock.settimeout(60)
    conn = Connection(sock)
    try:
        server_handshake(conn)
        conn.send_sharing(paired_key_encryption())
        theirs = conn.expect_sharing(WF.V1Frame.PAIRED_KEY_ENCRYPTION).v1.paired_key_encryption
        if qr is not None:
            verdict = qr.verdict(conn.keys.auth_string, theirs.qr_code_handshake_data)
            emit("qr_handshake", result=verdict)
            if verdict != "valid":
                raise Failure(f"the sender did not prove it showed the QR code ({verdict})")
        conn.send_sharing(paired_key_result())
        conn.expect_sharing(WF.V1Frame.PAIRED_KEY_RESULT)
        intro = conn.expect_sharing(WF.V1Frame.INTRODUCTION).v1.introduction
        emit("introduction", files=[{"name": f.name, "size": f.size, "mime_type": f.mime_type} for f in intro.file_metadata],
             texts=[{"title": t.text_title, "type": WF.TextMetadata.Type.Name(t.type), "size": t.size} for t in intro.text_metadata])
        answer = sharing(WF.V1Frame.RESPONSE)
        answer.v1.connection_response.status = WF.ConnectionResponseFrame.ACCEPT if args.accept else WF.ConnectionResponseFrame.REJECT
        conn.send_sharing(answer)
        if not args.accept:
            emit("declined")
            conn.send_offline(offline(OWF.V1Frame.DISCONNECTION))
            return 0
        emit("accepted")
        # Each file written as it comes (a 512 MiB file is not held in memory).
        files = {f.payload_id: {"name": os.path.basename(f.name) or "file", "size": f.size, "got": 0, "sha": hashlib.sha256(),
                                "handle": open(os.path.join(args.dir, os.path.basename(f.name) or "file"), "wb")}
                 for f in intro.file_metadata}
        unfinished = dict(files)
        arrived, held = 0, False
        texts = {t.payload_id for t in intro.text_metadata}
        while files or texts:
            item = conn.next_item(texts)
            if item[0] == "frame" and item[1].v1.type == WF.V1Frame.CANCEL:
                raise SenderCancelled()
            if item[0] == "text":
                texts.discard(item[1])
                emit("received", kind="text", text=item[2].decode("utf-8", "replace"))
            elif item[0] == "chunk":
                _, header, chunk = item
                file = files.get(header.id)
                if file is None or chunk.offset != file["got"] or file["got"] + len(chunk.body) > file["size"] \
                        or header.total_size != file["size"]:
                    raise Failure(f"a chunk of payload {header.id} out of place")
                file["handle"].write(chunk.body)
                file["sha"].update(chunk.body)
                file["got"] += len(chunk.body)
                arrived += len(chunk.body)
                if args.cancel_after is not None and arrived >= args.cancel_after:
                    conn.send_sharing(sharing(WF.V1Frame.CANCEL))
                    conn.send_offline(offline(OWF.V1Frame.DISCONNECTION))
                    # What the sender had already sent is read to its end (the sender
                    # stops, and ends its stream): closing with it unread would reset the
                    # connection, and the CANCEL could be lost on the way.
                    while sock.recv(1 << 16):
                        pass
                    emit("cancelled", bytes=arrived)
                    return 0
                if args.hold_after is not None and arrived >= args.hold_after and not held:
                    held = True
                    emit("holding", bytes=arrived)
                    sys.stdin.buffer.read()
                if chunk.flags & 1:
                    if file["got"] != file["size"]:
                        raise Failure(f"{file['name']} ended short")
                    file["handle"].close()
                    del unfinished[header.id]
                    emit("received", kind="file", name=file["name"], size=file["size"], sha256=file["sha"].hexdigest())
                    del files[header.id]
        conn.send_offline(offline(OWF.V1Frame.DISCONNECTION))
        emit("done")
        unfinished = {}
        return 0
    except SenderCancelled:
        emit("sender_cancelled")
        return 1
    except (Failure, OSError, ValueError) as error:
        emit("failed", error=str(error))
        return 1
    finally:
        sock.close()
        for file in (unfinished.values() if "unfinished" in locals() else []):
            file["handle"].close()
            os.remove(os.path.join(args.dir, file["name"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    sending = commands.add_parser("send")
    sending.add_argument("--to", required=True)
    sending.add_argument("--name", default="Pixel")
    sending.add_argument("--text")
    sending.add_argument("--as-url", action="store_true", help="offer the text as a URL, whatever it is (a hostile one)")
    sending.add_argument("--file-name", help="the name to offer every file under (a hostile one)")
    sending.add_argument("--replay", action="store_true")
    sending.add_argument("files", nargs="*")
    receiving = commands.add_parser("receive")
    receiving.add_argument("--dir", required=True)
    receiving.add_argument("--name", default="Pixel")
    receiving.add_argument("--ip", default="127.0.0.1", help="the address to listen on (its port is the kernel's)")
    receiving.add_argument("--advertise", action="store_true", help="advertise over mDNS, as a phone showing its Quick Share does")
    receiving.add_argument("--qr-url", help="the URL of the sender's QR code, as the camera read it")
    receiving.add_argument("--hidden", action="store_true", help="with --qr-url: hidden, the name sealed with the code's key")
    receiving.add_argument("--cancel-after", type=int, help="cancel once this many bytes of the files have come")
    receiving.add_argument("--hold-after", type=int, help="read no more, once this many bytes have come, until standard input ends")
    answer = receiving.add_mutually_exclusive_group(required=True)
    answer.add_argument("--accept", action="store_true")
    answer.add_argument("--decline", action="store_true")
    args = parser.parse_args()
    return send(args) if args.command == "send" else receive(args)


if __name__ == "__main__":
    sys.exit(main())
