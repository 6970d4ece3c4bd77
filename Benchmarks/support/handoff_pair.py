"""Two handoff daemons on loopback, each with its own XDG directories, paired: what the
handoff benchmarks share. `start(work, ports)` returns (a, b, run, daemons)."""
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


def start(work, ports):
    a, b = environment(work, "a"), environment(work, "b")
    daemons = [subprocess.Popen([actshare, "daemon", "--port", str(port), "--name", name, "--discovery", "static"], env=env, stderr=subprocess.DEVNULL)
               for name, port, env in (("alpha", ports[0], a), ("beta", ports[1], b))]
    for env in (a, b):
        while not os.path.exists(f"{env['XDG_RUNTIME_DIR']}/actshare/daemon.sock"):
            time.sleep(0.01)
    alpha = json.loads(run(a, "handoff", "status", "--json"))["id"]
    waiting = subprocess.Popen([actshare, "handoff", "pair", "--wait", "--yes", "--expect-device", alpha], env=b, stdout=subprocess.DEVNULL)
    time.sleep(0.3)
    run(a, "handoff", "pair", f"127.0.0.1:{ports[1]}", "--yes")
    waiting.wait()
    return a, b, daemons
