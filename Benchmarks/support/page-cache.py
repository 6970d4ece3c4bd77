#!/usr/bin/env python3
"""Drops files from the page cache, so that every program a benchmark compares is read
back the same way before it is timed.

Usage: page-cache.py PATH...   (a directory: every file under it; a program, given or
                                under a directory: also the shared libraries ldd names)

How a file came into the page cache changes how fast a program starts from it, by more
than the differences the benchmarks measure: two copies of one build layout, made with
`cp` minutes apart, listed in 4.47 and 4.81 ms (interleaved, 200 runs each), and the
same after both were dropped and read back (4.79 and 4.81 ms). A file written by a
linker, by `cp` or by dpkg, and one read back from disk, sit in pages of other sizes
(docs/PACKAGING.md, "How it is measured"). The system's programs (gio, xclip) were
read from disk or written by dpkg; each side is dropped here, and the benchmark's
warm-up reads it back as the kernel reads any program. Pages that a running process
maps stay (POSIX_FADV_DONTNEED leaves them), so libc, in use by all, is not re-read.
"""
import os
import subprocess
import sys


def libraries(program):
    """The libraries the dynamic loader maps for `program` (none for a script)."""
    try:
        listing = subprocess.run(["ldd", program], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    found = []
    for line in listing.splitlines():
        # "libffi.so.8 => /lib/x86_64-linux-gnu/libffi.so.8 (0x…)" or "/lib64/ld-linux-x86-64.so.2 (0x…)"
        words = line.split()
        path = words[2] if len(words) >= 3 and words[1] == "=>" else words[0] if words else ""
        if path.startswith("/"):
            found.append(os.path.realpath(path))
    return found


def files(path):
    """`path`, and the libraries of a program; under a directory, every file so."""
    if os.path.isdir(path):
        for directory, _, names in os.walk(path):
            for name in names:
                yield from files(os.path.join(directory, name))
        return
    yield path
    # A program's libraries too, on either side: actshare's libyaml as much as gio's libglib.
    if os.path.isfile(path) and not os.path.islink(path) and os.access(path, os.X_OK):
        yield from libraries(path)


def drop(path):
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return  # a link, a socket, a file gone: nothing of its own to drop
    try:
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(descriptor)


# Dirty pages are not dropped: everything just written goes to disk first.
os.sync()
for argument in sys.argv[1:]:
    for path in files(argument):
        drop(path)
