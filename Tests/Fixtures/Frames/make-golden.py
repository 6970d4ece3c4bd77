#!/usr/bin/env python3
"""Writes golden.hex: frames of the provider pipe protocol, encoded from its specification
(Sources/CActShareProtocol/include/actshare/provider_protocol.h) by a third hand, one frame
per line in hex. golden.txt holds their canonical reading, which the C codec
(actshare-frame-dump) and the Swift codec (ActShareHostTests) must both give."""
import struct, sys, os

def u8(v): return struct.pack("<B", v)
def u32(v): return struct.pack("<I", v)
def u64(v): return struct.pack("<Q", v)
def b(s): s = s if isinstance(s, bytes) else s.encode(); return u32(len(s)) + s
def ob(s): return u8(0) if s is None else u8(1) + b(s)
def frame(t, payload=b""): return u32(1 + len(payload)) + t.encode() + payload

frames = [
    frame("L", b("/opt/lib/libhello.so") + u32(3) + b("hello_can_perform") + b("hello_greet") + b("hello_prepare")),
    frame("R", b("org.example.hello.greet") + ob("Re: caf\u00e9") + u32(3)
          + u8(0) + ob(b"/tmp/caf\xe9.txt") + ob("file:///tmp/caf%E9.txt") + b("text/plain") + u64(11) + ob(None)
          + u8(2) + ob(None) + ob(None) + b("text/plain") + u64(2) + u8(1) + b("hi")
          + u8(3) + ob(None) + ob(None) + b("application/octet-stream") + u64(3) + u8(1) + b(b"\x00\x01\xff")
          + u32(1) + b("greeting") + b("Hey") + ob("device-7")),
    frame("C", b("wc_count") + u8(2) + u8(3) + u8(5) + u8(8) + b("greeting") + u8(9) + u64(1)),
    frame("C", b("hello_greet") + u8(0) + u8(2) + u8(9) + u8(10) + u64(0xFFFFFFFFFFFFFFFF)),
    frame("A", u8(1)),
    frame("O"),
    frame("O", u32(2) + u32(0) + u32(2)),
    frame("E", u8(2) + b("cannot open shared object file: No such file or directory")),
    frame("E", u8(7) + b("20971520")),
    frame("P", u64(struct.unpack("<Q", struct.pack("<d", 0.5))[0])),
    frame("G", u8(2) + b(b"caf\xe9 \x1b[31mred")),
    frame("I", u8(0) + b("/tmp/out.pdf") + ob("application/pdf")),
    frame("I", u8(1) + b("https://example.org/") + ob(None)),
    frame("X", b("no recipient")),
    frame("W", b("No device is paired: pair one with actshare handoff pair")),
    frame("T", u8(2) + b("org.gimp.GIMP.desktop") + b("GNU Image Manipulation Program") + ob(None) + ob("org.gimp.GIMP")),
    frame("T", u8(0) + b("beta") + b("beta") + ob("not reachable now") + ob(None)),
    frame("D", u64(42) + ob(None)),
    frame("D", u64(0x7F0000001000) + ob("2 words")),
    frame("S", u8(1) + u32(2) + u8(1) + b("/usr") + u8(3) + b(b"/tmp/caf\xe9") + u64(4 << 30) + u64(16 << 30) + u32(1024) + u32(0) + u64(512 << 20) + u32(0)),
    frame("S", u8(8) + u32(0) + u64(4 << 30) + u64(16 << 30) + u32(1024) + u32(0) + u64(0)
          + u32(2) + u8(0) + b("/tmp/.X11-unix/X0") + u8(1) + b("/tmp/.X11-unix/X0")),
    frame("Z", u8(1) + b("/home/u/.ssh/id_ed25519")),
    frame("Q", b"junk"),
    frame("L", b("/x") + u32(5)),  # five symbols promised, none sent: malformed
]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "golden.hex"), "w") as out:
    for f in frames:
        out.write(f.hex() + "\n")
