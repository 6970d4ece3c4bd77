#!/usr/bin/env python3
"""Reads messages the way a mail client would and prints what it found as JSON.

Usage: mail-read.py message FILE | maildir DIR | mbox FILE

Each message is parsed by Python's email package with policy.default; the output is
one object per message: defects, headers, the text parts and the attachments (name,
type, bytes as hex), and the longest raw line.
"""
import email
import email.policy
import json
import mailbox
import sys


def describe(raw: bytes) -> dict:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    defects = [type(d).__name__ for d in message.defects]
    texts, attachments = [], []
    for part in message.walk():
        defects += [type(d).__name__ for d in part.defects]
        if part.is_multipart():
            continue
        if part.get_content_disposition() == "attachment":
            attachments.append({"name": part.get_filename(), "type": part.get_content_type(),
                                "hex": part.get_payload(decode=True).hex()})
        else:
            texts.append({"type": part.get_content_type(), "text": part.get_content()})
    return {
        "defects": defects,
        "content_type": message.get_content_type(),
        "subject": str(message["subject"]) if message["subject"] is not None else None,
        "from": [[a.display_name, a.addr_spec] for a in message["from"].addresses] if message["from"] else [],
        "to": [[a.display_name, a.addr_spec] for a in message["to"].addresses] if message["to"] else [],
        "cc": [[a.display_name, a.addr_spec] for a in message["cc"].addresses] if message["cc"] else [],
        "bcc": str(message["bcc"]) if message["bcc"] is not None else None,
        "message_id": str(message["message-id"]),
        "date": str(message["date"]),
        "mime_version": str(message["mime-version"]),
        "texts": texts,
        "attachments": attachments,
        "longest_line": max((len(line) for line in raw.split(b"\n")), default=0),
    }


kind, path = sys.argv[1], sys.argv[2]
if kind == "message":
    messages = [open(path, "rb").read()]
elif kind == "maildir":
    box = mailbox.Maildir(path, create=False)
    messages = [box.get_bytes(key) for key in sorted(box.keys())]
else:
    box = mailbox.mbox(path, create=False)
    messages = [box.get_bytes(key) for key in box.keys()]
print(json.dumps([describe(raw) for raw in messages], ensure_ascii=False))
