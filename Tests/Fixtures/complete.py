# Types LINE and Tab in an interactive SHELL (bash, zsh or fish) on a pseudo-terminal,
# with the completion SCRIPT loaded, in the folder DIR; prints the line as completed.
#   complete.py SHELL SCRIPT DIR LINE
# The line is shown by going to its start (Ctrl-A), putting `echo LINE:` before it and
# pressing Enter. Every wait is bounded: 20 s in all.
import os, pty, re, select, sys, time

shell, script, folder, line = sys.argv[1:5]
commands = {
    "bash": (["bash", "--norc", "--noprofile", "-i"], f"PS1='$ '; source '{script}'\n"),
    "zsh": (["zsh", "-f", "-i"], f"PS1='$ '; autoload -Uz compinit; compinit -u -D; source '{script}'\n"),
    "fish": (["fish", "--no-config", "-i"], f"function fish_prompt; echo '$ '; end; source '{script}'\n"),
}
argv, setup = commands[shell]
deadline = time.monotonic() + 20
pid, fd = pty.fork()
if pid == 0:
    os.chdir(folder)
    os.execvp(argv[0], argv)

output = b""
def read(seconds):
    global output
    end = min(time.monotonic() + seconds, deadline)
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], max(0, end - time.monotonic()))
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return
        if not chunk:
            return
        output += chunk

def settle():
    """Reads until the shell has been quiet for 0.3 s (a completion's answer can come late)."""
    while time.monotonic() < deadline:
        before = len(output)
        read(0.3)
        if len(output) == before:
            return

def answer():
    # Without the terminal's escapes: CSI, OSC (window titles), charset and keypad modes.
    text = re.sub(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-B]|\x1b[=>]|\r", b"", output)
    text = text.decode(errors="replace")
    for found in re.finditer(r"^LINE:(.*)$", text, re.M):
        return found.group(1)
    return None

settle()
os.write(fd, setup.encode())
settle()
os.write(fd, line.encode() + b"\t")
settle()
os.write(fd, b"\x01echo LINE:\r")
while answer() is None and time.monotonic() < deadline:
    read(0.5)
os.write(fd, b"exit\r")
read(0.5)
result = answer()
if result is None:
    sys.stderr.write(output.decode(errors="replace"))
    sys.exit(1)
print(result.rstrip())
