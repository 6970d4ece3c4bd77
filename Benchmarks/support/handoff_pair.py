"""Handoff daemons for the benchmarks, each with its own XDG directories, paired: what
the handoff benchmarks share.

`start(work, ports)` starts two daemons on loopback and pairs them: (a, b, daemons).
`start(work, ports, host=ADDRESS, namespaces=(NS_A, NS_B))` runs each in a network
namespace the caller made, the second reached at ADDRESS. `add_device(work, ...)` starts
one more and pairs it with the first."""
import json
import os
import subprocess
import time

actshare = os.environ["ACTSHARE"]


def environment(work, name):
    root = f"{work}/{name}"
    os.makedirs(root, exist_ok=True)
    return dict(os.environ, HOME=root, XDG_RUNTIME_DIR=f"{root}/run", XDG_STATE_HOME=f"{root}/state", XDG_CONFIG_HOME=f"{root}/config",
                XDG_DATA_HOME=f"{root}/data", XDG_CACHE_HOME=f"{root}/cache", ACTSHARE_NO_BUILTINS="1")


def run(env, *args):
    return subprocess.run([actshare, *args], env=env, capture_output=True, text=True, check=True).stdout


def daemon(env, name, port, namespace=None):
    """Starts a daemon (in `namespace`: `ip netns exec` execs it, so its pid is the
    daemon's) and waits for its control socket."""
    inside = ["ip", "netns", "exec", namespace] if namespace else []
    process = subprocess.Popen([*inside, actshare, "daemon", "--port", str(port), "--name", name, "--discovery", "static"],
                               env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not os.path.exists(f"{env['XDG_RUNTIME_DIR']}/actshare/daemon.sock"):
        assert time.monotonic() < deadline and process.poll() is None, f"the daemon {name} did not start"
        time.sleep(0.01)
    return process


def pair(initiator, responder, address):
    """Pairs `initiator` with `responder` (reached at `address`, HOST:PORT)."""
    expected = json.loads(run(initiator, "handoff", "status", "--json"))["id"]
    waiting = subprocess.Popen([actshare, "handoff", "pair", "--wait", "--yes", "--expect-device", expected], env=responder,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.3)
    run(initiator, "handoff", "pair", address, "--yes")
    waiting.wait(timeout=30)


def start(work, ports, host="127.0.0.1", namespaces=(None, None)):
    a, b = environment(work, "a"), environment(work, "b")
    daemons = [daemon(a, "alpha", ports[0], namespaces[0]), daemon(b, "beta", ports[1], namespaces[1])]
    pair(a, b, f"{host}:{ports[1]}")
    return a, b, daemons


def add_device(work, first, name, port, host="127.0.0.1"):
    """One more daemon on loopback, paired with `first`: (its environment, its process)."""
    env = environment(work, name)
    process = daemon(env, name, port)
    pair(first, env, f"{host}:{port}")
    return env, process


def peak_memory(process):
    """The peak resident memory (VmHWM) of `process` in MiB since the last reset_peak."""
    status = open(f"/proc/{process.pid}/status").read()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")) / 1024


def reset_peak(process):
    """Starts `process`'s VmHWM again from its memory now (proc(5), clear_refs)."""
    with open(f"/proc/{process.pid}/clear_refs", "w") as control:
        control.write("5")
