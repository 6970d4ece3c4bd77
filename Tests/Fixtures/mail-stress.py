#!/usr/bin/env python3
"""Stresses the Mail provider's spools with the real actshare binary.

  mail-stress.py concurrent ACTSHARE SPOOL PROCESSES MESSAGES
      PROCESSES writers, each performing MESSAGES mails into SPOOL (maildir:PATH or
      mbox:PATH) at once; then reads the spool back with Python's mailbox.
  mail-stress.py kill ACTSHARE SPOOL ATTACHMENT [group]
      Delivers two small messages, then a large one (ATTACHMENT) killed with SIGKILL in
      the middle of writing it (with `group`, its whole process group: the mbox
      guardian too), then one more small message; reads the spool back after the kill
      (not with `group`: a dead writer's lock stays until the next writer) and at the end.

Prints JSON: the messages found, how many are intact (parsed with policy.default
without defects, body and attachment as sent), and failures. An mbox is read under its
locks, as mail clients read it. The environment (HOME,
XDG_*) is the caller's sandbox.
"""
import email
import email.policy
import json
import mailbox
import os
import signal
import subprocess
import sys
import time


def spool_messages(spool):
    kind, path = spool.split(":", 1)
    if kind == "maildir":
        if not os.path.isdir(os.path.join(path, "new")):
            return []
        box = mailbox.Maildir(path, create=False)
        # Names start with the delivery time (seconds, then zero-padded microseconds).
        return [box.get_bytes(key) for key in sorted(box.keys())]
    if not os.path.exists(path):
        return []
    # As a mail client does: read under the mbox's locks (dot-lock and fcntl), waiting
    # for a writer, or a dead writer's guardian, to let go.
    box = mailbox.mbox(path, create=False)
    deadline = time.monotonic() + 10
    while True:
        try:
            box.lock()
            break
        except mailbox.ExternalClashError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.001)
    try:
        return [box.get_bytes(key) for key in box.keys()]
    finally:
        box.unlock()


def mail(actshare, spool, subject, *items):
    return subprocess.Popen([actshare, "perform", "org.actshare.mail", *items, "--subject", subject,
                             "-o", "to=reader@example.org", "-o", f"spool={spool}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def check(raw, expected_attachments):
    """The subject, whether it is intact, and why not."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    defects = list(message.defects)
    subject = str(message["subject"])
    body, attachment = None, None
    for part in message.walk():
        defects += part.defects
        if part.is_multipart():
            continue
        if part.get_content_disposition() == "attachment":
            attachment = part.get_payload(decode=True)
        else:
            body = part.get_content()
    problems = []
    if defects:
        problems.append(f"defects {defects}")
    if body != f"body of {subject}\n":
        problems.append(f"body {body!r}")
    if subject in expected_attachments and attachment != expected_attachments[subject]:
        problems.append("attachment differs")
    return subject, problems


def concurrent(actshare, spool, processes, messages):
    failures = []

    def writer(number):
        pid = os.fork()
        if pid:
            return pid
        code = 0
        for index in range(messages):
            subject = f"writer {number} message {index}"
            run = mail(actshare, spool, subject, "--text", f"body of {subject}")
            _, error = run.communicate()
            if run.returncode != 0:
                sys.stderr.write(error.decode())
                code = 1
        os._exit(code)

    pids = [writer(n) for n in range(processes)]
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        if status != 0:
            failures.append(f"a writer failed ({status})")
    found = [check(raw, {}) for raw in spool_messages(spool)]
    subjects = [subject for subject, _ in found]
    expected = {f"writer {n} message {i}" for n in range(processes) for i in range(messages)}
    return {"messages": len(found), "intact": sum(1 for _, problems in found if not problems),
            "distinct": len(set(subjects) & expected), "failures": failures + [p for _, ps in found for p in ps][:5]}


def killed(actshare, spool, attachment, group):
    big = open(attachment, "rb").read()
    failures = []
    for subject in ("first", "second"):
        if mail(actshare, spool, subject, "--text", f"body of {subject}").wait() != 0:
            failures.append(f"{subject} was not delivered")
    kind, path = spool.split(":", 1)
    watched = path if kind == "mbox" else os.path.join(path, "tmp")
    size = lambda: os.path.getsize(path) if kind == "mbox" else sum(
        os.path.getsize(os.path.join(watched, name)) for name in os.listdir(watched))
    before = size()
    caught = False
    for _ in range(10):
        writer = mail(actshare, spool, "large", "--text", "body of large", attachment)
        while writer.poll() is None and size() <= before:
            time.sleep(0.0002)
        if writer.poll() is None:
            if group:
                os.killpg(writer.pid, signal.SIGKILL)
            else:
                os.kill(writer.pid, signal.SIGKILL)
            writer.wait()
            caught = True
            break
    if not caught:
        failures.append("the large message was always written before it could be killed")
    after_kill = [] if group else [check(raw, {"large": big}) for raw in spool_messages(spool)]
    if mail(actshare, spool, "third", "--text", "body of third").wait() != 0:
        failures.append("third was not delivered")
    found = [check(raw, {"large": big}) for raw in spool_messages(spool)]
    return {"caught": caught, "after_kill": [s for s, _ in after_kill],
            "after_kill_intact": all(not p for _, p in after_kill),
            "messages": [s for s, _ in found], "intact": sum(1 for _, p in found if not p),
            "failures": failures + [f"{s}: {p}" for s, ps in found for p in ps]}


if sys.argv[1] == "concurrent":
    result = concurrent(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
else:
    result = killed(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:] == ["group"])
print(json.dumps(result))
