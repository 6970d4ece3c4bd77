# Writes a PNG of random pixels, stored uncompressed: make-png.py PATH WIDTH HEIGHT
import os, struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
def png(path, width, height):
    raw = b"".join(b"\x00" + os.urandom(width * 3) for _ in range(height))
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(raw, 0)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)
png(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
