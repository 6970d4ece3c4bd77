#!/usr/bin/env python3
"""A hostile responder on the link, for the discovery tests: sends multicast DNS
responses that lie or are malformed, from port 5353 to the group, then exits.

usage: hostile-mdns.py SPOOF_ID SPOOF_PORT OWN_ADDRESS

- a device claiming the paired id SPOOF_ID at this host's address, port SPOOF_PORT;
- a compression pointer loop, a pointer forward, a count beyond the datagram;
- 400 devices (more than a daemon keeps), a name with an escape sequence and a newline,
  an id that is not hex, a TTL of years.
"""
import socket
import struct
import sys

GROUP = ("224.0.0.251", 5353)


def name(*labels):
    return b"".join(bytes([len(l)]) + l for l in (x.encode() if isinstance(x, str) else x for x in labels)) + b"\0"


def record(owner, rtype, data, ttl=120, flush=False):
    return owner + struct.pack(">HHIH", rtype, 0x8001 if flush else 1, ttl, len(data)) + data


def service(instance, host, port, txt, address, ttl=120):
    service_type = name("_actshare", "_tcp", "local")
    instance_name = name(instance, "_actshare", "_tcp", "local")
    host_name = name(host, "local")
    text = b"".join(bytes([len(t)]) + t for t in txt)
    records = [
        record(service_type, 12, instance_name, ttl),
        record(instance_name, 33, struct.pack(">HHH", 0, 0, port) + host_name, ttl, True),
        record(instance_name, 16, text, ttl, True),
        record(host_name, 1, socket.inet_aton(address), ttl, True),
    ]
    return struct.pack(">HHHHHH", 0, 0x8400, 0, len(records), 0, 0) + b"".join(records)


def main():
    spoof_id, spoof_port = sys.argv[1], int(sys.argv[2])
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
    s.bind(("0.0.0.0", 5353))
    me = sys.argv[3]
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(me))
    packets = [
        service("beta [spoofed]", "spoofer", spoof_port, [b"id=" + spoof_id.encode(), b"name=beta"], me),
        # Pointer loops and lies about counts.
        struct.pack(">HHHHHH", 0, 0x8400, 0, 1, 0, 0) + b"\xc0\x0c" + struct.pack(">HHIH", 12, 1, 120, 2) + b"\xc0\x0c",
        struct.pack(">HHHHHH", 0, 0x8400, 0, 1, 0, 0) + b"\xc0\x20" + struct.pack(">HHIH", 12, 1, 120, 0),
        struct.pack(">HHHHHH", 0, 0x8400, 0, 0xFFFF, 0xFFFF, 0xFFFF),
        service("evil [esc]", "evil1", 53840, [b"id=0123456789abcdef", b"name=\x1b[31mred\nline"], me),
        service("nothex [x]", "evil2", 53840, [b"id=zzzzzzzzzzzzzzzz", b"name=nothex"], me),
        service("forever [ttl]", "evil3", 53840, [b"id=fedcba9876543210", b"name=forever"], me, ttl=0x7FFFFFFF),
    ]
    packets += [service(f"flood{i} [f]", f"flood{i}", 53840, [b"id=%016x" % (0xF000 + i), b"name=flood%d" % i], me) for i in range(400)]
    for packet in packets:
        s.sendto(packet, GROUP)


main()
