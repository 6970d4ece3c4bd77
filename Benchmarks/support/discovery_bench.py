"""The body of Benchmarks/handoff-discovery: N daemons in namespaces, and Avahi beside them."""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

count = int(sys.argv[1])
actshare = os.environ["ACTSHARE"]
tag = f"adb{os.getpid()}"
hub = f"{tag}-hub"
hosts = [f"{tag}-h{i}" for i in range(count + 1)]  # the last one runs Avahi
work = tempfile.mkdtemp(prefix="actshare-discovery.")


def ip(*arguments):
    subprocess.run(["ip", *arguments], check=True)


processes = []


def cleanup():
    for process in processes:
        process.kill()
        process.wait()
    for namespace in hosts + [hub]:
        subprocess.run(["ip", "netns", "del", namespace], stderr=subprocess.DEVNULL)
    shutil.rmtree(work, ignore_errors=True)


try:
    ip("netns", "add", hub)
    ip("-n", hub, "link", "add", "br0", "type", "bridge")
    ip("-n", hub, "link", "set", "br0", "up")
    for index, host in enumerate(hosts):
        ip("netns", "add", host)
        ip("link", "add", "eth0", "netns", host, "type", "veth", "peer", "name", f"p{index}", "netns", hub)
        ip("-n", hub, "link", "set", f"p{index}", "master", "br0", "up")
        ip("-n", host, "addr", "add", f"10.78.{index // 200}.{index % 200 + 1}/16", "dev", "eth0")
        ip("-n", host, "link", "set", "eth0", "up")

    # Avahi's side, made ready first (its bus), started with the daemons.
    avahi = f"{work}/avahi"
    os.makedirs(f"{avahi}/run")
    with open(f"{avahi}/bus.conf", "w") as file:
        file.write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:path={avahi}/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy></busconfig>
""")
    with open(f"{avahi}/avahi-daemon.conf", "w") as file:
        file.write("[server]\nhost-name=avahi-bench\nuse-ipv6=no\n[wide-area]\nenable-wide-area=no\n[publish]\npublish-hinfo=no\npublish-workstation=no\n")
    processes.append(subprocess.Popen(["dbus-daemon", f"--config-file={avahi}/bus.conf", "--nofork"]))
    while not os.path.exists(f"{avahi}/bus"):
        time.sleep(0.01)
    avahi_env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={avahi}/bus")

    environments = []
    for index in range(count):
        root = f"{work}/d{index}"
        for sub in ("runtime", "state", "config", "home"):
            os.makedirs(f"{root}/{sub}", mode=0o700)
        environments.append(dict(os.environ, HOME=f"{root}/home", XDG_RUNTIME_DIR=f"{root}/runtime", XDG_STATE_HOME=f"{root}/state",
                                 XDG_CONFIG_HOME=f"{root}/config"))

    started = [0.0] * count
    found = [None] * count
    avahi_found = [None]

    def watch(index):
        deadline = started[index] + 30
        while time.monotonic() < deadline:
            run = subprocess.run([actshare, "handoff", "discover", "--json", "--timeout", "0"], env=environments[index],
                                 capture_output=True, text=True)
            if run.returncode == 0 and len(json.loads(run.stdout)) >= count - 1:
                found[index] = time.monotonic() - started[index]
                return
            time.sleep(0.05)

    def watch_avahi(start):
        deadline = start + 30
        while time.monotonic() < deadline:
            run = subprocess.run(["ip", "netns", "exec", hosts[count], "avahi-browse", "-tp", "_actshare._tcp"], env=avahi_env,
                                 capture_output=True, text=True)
            if sum(1 for line in run.stdout.splitlines() if line.startswith("+;eth0;")) >= count:
                avahi_found[0] = time.monotonic() - start
                return
            time.sleep(0.05)

    avahi_start = time.monotonic()
    processes.append(subprocess.Popen(
        ["ip", "netns", "exec", hosts[count], "sh", "-c", 'mkdir -p /run/avahi-daemon && mount --bind "$1" /run/avahi-daemon && shift && exec "$@"',
         "sh", f"{avahi}/run", "avahi-daemon", "-f", f"{avahi}/avahi-daemon.conf", "--no-drop-root", "--no-chroot", "--no-rlimits"],
        env=avahi_env, stderr=subprocess.DEVNULL))
    for index in range(count):
        started[index] = time.monotonic()
        processes.append(subprocess.Popen(["ip", "netns", "exec", hosts[index], actshare, "daemon", "--name", f"device-{index}"],
                                          env=environments[index], stderr=subprocess.DEVNULL))
    watchers = [threading.Thread(target=watch, args=(index,)) for index in range(count)]
    watchers.append(threading.Thread(target=watch_avahi, args=(avahi_start,)))
    for watcher in watchers:
        watcher.start()
    for watcher in watchers:
        watcher.join()

    times = [t for t in found if t is not None]
    print(f"discovery, {count} daemons in namespaces on one bridge, all started at once:")
    if len(times) < count:
        print(f"  {count - len(times)} daemons did not list all others within 30 s")
    if times:
        median = statistics.median(times)
        print(f"  time until a daemon lists all {count - 1} others: median {median:.2f} s, "
              f"fastest {min(times):.2f} s, slowest {max(times):.2f} s  (target: median < 2 s)")
    if avahi_found[0] is not None and times:
        print(f"  avahi-browse (Avahi 0.8, started with them) lists all {count}: {avahi_found[0]:.2f} s"
              f"  -> actshare's median is {avahi_found[0] / median:.2f}x as fast")
    else:
        print("  avahi-browse did not list them all within 30 s")
finally:
    cleanup()
