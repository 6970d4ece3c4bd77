#!/usr/bin/env python3
"""Writes golden.hex and golden.txt: frames between the daemon and the clipboard agent,
encoded from their specification (Sources/actshare-clipboard-agent/agent_protocol.h) by a
third hand, one frame a line in hex; and their canonical reading, which the agent's C
(actshare-agent-frame-dump) and the daemon's Swift (ActShareDaemonTests) must both give.

The agent's frames have their keys in the order json-c writes them, with its escaped
slashes; the daemon's have them sorted, as Swift's encoder writes them, and must be built
byte for byte.

A reading: the type, then every other key sorted, `key=value` (strings quoted with " and
\\ escaped, true/false, numbers, lists of objects as [{key=value ...} ...]), then
`data=` and the data in hex (`-` for none)."""
import json, os, struct

def frame(header_text, data=b""):
    header = header_text.encode()
    return struct.pack(">I", len(header)) + header + struct.pack(">I", len(data)) + data

def canonical(value):
    if isinstance(value, bool): return "true" if value else "false"
    if isinstance(value, int): return str(value)
    if isinstance(value, str): return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list): return "[" + " ".join(canonical(v) for v in value) + "]"
    if isinstance(value, dict): return "{" + " ".join(f"{k}={canonical(value[k])}" for k in sorted(value)) + "}"
    raise TypeError(value)

def reading(header_text, data=b""):
    header = json.loads(header_text)
    words = [header.pop("type")] + [f"{k}={canonical(header[k])}" for k in sorted(header)]
    return " ".join(words + ["data=" + (data.hex() if data else "-")])

png = bytes.fromhex("89504e470d0a1a0a")
text = "caf\u00e9 \"quoted\"\n".encode()
frames = [
    # From the agent (json-c: keys in the order frames.c adds them; "/" written as "\/").
    ('{"type":"ready","display":":7"}', b""),
    ('{"type":"changed","push":false,"secret":false,"too-large":false,"total":%d,"targets":['
     '{"name":"text\\/plain;charset=utf-8","size":%d,"hash":"%s"},{"name":"image\\/png","size":%d,"hash":"%s"}]}'
     % (len(text) + len(png), len(text), "a" * 64, len(png), "b" * 64), text + png),
    ('{"type":"changed","push":true,"unanswered":true}', b""),
    ('{"type":"changed","push":false,"secret":true,"hint-unread":true,"too-large":false,"total":0,"targets":[]}', b""),
    ('{"type":"changed","targets":[]}', b""),
    ('{"type":"owner-changed"}', b""),
    ('{"type":"fetch","offer":"7f3a","hash":"%s","target":"image\\/png"}' % ("c" * 64), b""),
    ('{"type":"owned","offer":"7f3a","ok":true}', b""),
    ('{"type":"released","offer":"7f3a"}', b""),
    # From the daemon (Swift: keys sorted, slashes as they are).
    ('{"type":"read"}', b""),
    ('{"offer":"7f3a","targets":[{"any-size":true,"hash":"%s","name":"text/uri-list","size":0},'
     '{"hash":"%s","name":"UTF8_STRING","size":5}],"type":"own"}' % ("d" * 64, "e" * 64), b""),
    ('{"offer":"7f3a","type":"release"}', b""),
    ('{"hash":"%s","more":true,"offer":"7f3a","type":"data"}' % ("e" * 64), b"hello"),
    ('{"hash":"%s","offer":"7f3a","ok":true,"type":"data"}' % ("e" * 64), b""),
    ('{"hash":"%s","offer":"7f3a","ok":false,"type":"data"}' % ("e" * 64), b""),
]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "golden.hex"), "w") as out:
    out.writelines(frame(h, d).hex() + "\n" for h, d in frames)
with open(os.path.join(here, "golden.txt"), "w") as out:
    out.writelines(reading(h, d) + "\n" for h, d in frames)
