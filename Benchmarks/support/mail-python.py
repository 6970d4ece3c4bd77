#!/usr/bin/env python3
"""The Python peer for Benchmarks/mail-vs-python: COUNT messages, each a text body and
one attachment, composed with the email package and added to a Maildir with mailbox.

Usage: mail-python.py MAILDIR ATTACHMENT COUNT
"""
import mailbox
import os
import sys
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

directory, attachment, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
box = mailbox.Maildir(directory, create=True)
data = open(attachment, "rb").read()
for _ in range(count):
    message = EmailMessage()
    message["From"] = "bench@example.org"
    message["To"] = "reader@example.org"
    message["Subject"] = "benchmark"
    message["Date"] = formatdate(localtime=True)
    message["Message-ID"] = make_msgid()
    message.set_content("A message with a 100 KiB attachment.\n")
    message.add_attachment(data, maintype="application", subtype="octet-stream", filename=os.path.basename(attachment))
    box.add(message)
