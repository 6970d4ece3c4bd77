"""The measuring half of Benchmarks/handoff-vs-scp (which makes the data, the shaped link
and the sshd): WORK RUNS."""
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from handoff_pair import add_device, peak_memory, reset_peak, start  # noqa: E402

work, runs = sys.argv[1], int(sys.argv[2])
actshare = os.environ["ACTSHARE"]
user = subprocess.run(["id", "-un"], capture_output=True, text=True, check=True).stdout.strip()
ssh_options = ["-i", f"{work}/ssh/client", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
               "-o", "LogLevel=ERROR", "-o", "BatchMode=yes"]
MiB = 1 << 20
outputs = 0
failed = []


def inside(namespace):
    return ["ip", "netns", "exec", namespace] if namespace else []


def fresh_folder():
    """A new folder for one run's files."""
    global outputs
    outputs += 1
    path = f"{work}/out/{outputs}"
    os.makedirs(path)
    return path


def timed(command, env=None):
    start_time = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, timeout=3600)
    return time.perf_counter() - start_time


def wait_for_sshd(host, namespace):
    for _ in range(100):
        probe = subprocess.run([*inside(namespace), "ssh", "-p", "27207", *ssh_options, f"{user}@{host}", "true"], capture_output=True)
        if probe.returncode == 0:
            return
        time.sleep(0.1)
    sys.exit(f"the benchmark's sshd does not answer at {host}:27207")


def emptied(folder):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)


def compare(link, label, source, total, sender_env, receiver_env, daemons, namespace, host):
    """Each tool in turn, RUNS rounds; prints the rates, the ratios and the daemons' peaks."""
    downloads = f"{receiver_env['HOME']}/Downloads"
    folder = os.path.isdir(source)
    times = {"actshare": [], "scp": [], "rsync": []}
    for daemon in daemons:
        reset_peak(daemon)
    for _ in range(runs):
        # A folder arrives under a new name each time ("small (1)"): nothing is removed
        # until the part is over. A large file is removed after its run.
        times["actshare"].append(timed([actshare, "handoff", "send", source], env=sender_env))
        if not folder:
            emptied(downloads)
        target = fresh_folder()
        times["scp"].append(timed([*inside(namespace), "scp", "-P", "27207", *ssh_options, *(["-r"] if folder else []), source,
                                   f"{user}@{host}:{target}/"]))
        if not folder:
            emptied(target)
        target = fresh_folder()
        times["rsync"].append(timed([*inside(namespace), "rsync", "-a", "-e", " ".join(["ssh", "-p", "27207", *ssh_options]), source,
                                     f"{user}@{host}:{target}/"]))
        if not folder:
            emptied(target)
    peaks = [peak_memory(daemon) for daemon in daemons]
    best = {tool: min(values) for tool, values in times.items()}
    rate = {tool: total / seconds / 1e6 for tool, seconds in best.items()}
    print(f"{link}, {label}: " + ", ".join(f"{tool} {rate[tool]:.0f} MB/s ({best[tool]:.2f} s)" for tool in times) + f"  (best of {runs})")
    for tool, target in (("scp", 3.0 if folder else 1.5), ("rsync", 1.0)):
        ratio = best[tool] / best["actshare"]
        met = ratio >= target
        if not met:
            failed.append(f"{link}, {label}: {ratio:.2f}x {tool}")
        print(f"    {ratio:.2f}x {tool}'s rate  (target >= {target:.1f}x: {'met' if met else 'NOT MET'})")
    memory(f"{link}, {label}", peaks)
    emptied(downloads)


def memory(label, peaks):
    for role, peak in zip(("sender", "receiver"), peaks):
        met = peak < 64
        if not met:
            failed.append(f"{label}: the {role}'s daemon {peak:.1f} MiB")
    print(f"    peak memory: the sender's daemon {peaks[0]:.1f} MiB, the receiver's {peaks[1]:.1f} MiB"
          f"  (target < 64 MiB: {'met' if all(peak < 64 for peak in peaks) else 'NOT MET'})")


data = f"{work}/data"
wait_for_sshd("127.0.0.1", None)
wait_for_sshd("10.77.0.2", "actshare-bench-a")

a, b, daemons = start(f"{work}/loopback", (27205, 27206))
compare("loopback", "one 2 GiB file", f"{data}/big.bin", 2 << 30, a, b, daemons, None, "127.0.0.1")
compare("loopback", "10,000 files of 4 KiB", f"{data}/small", 10000 * 4096, a, b, daemons, None, "127.0.0.1")

# The 2 GiB file to two devices at once: the sender's memory.
c, third = add_device(f"{work}/loopback", a, "gamma", 27210)
for daemon in (daemons[0], third):
    reset_peak(daemon)
seconds = timed([actshare, "handoff", "send", "--all", f"{data}/big.bin"], env=a)
print(f"loopback, one 2 GiB file to two devices at once (--all): {2 * (2 << 30) / seconds / 1e6:.0f} MB/s in all ({seconds:.2f} s)")
memory("loopback, --all", [peak_memory(daemons[0]), peak_memory(third)])
for env in (b, c):
    emptied(f"{env['HOME']}/Downloads")
for process in (*daemons, third):
    process.terminate()

a, b, daemons = start(f"{work}/shaped", (27208, 27209), host="10.77.0.2", namespaces=("actshare-bench-a", "actshare-bench-b"))
compare("shaped link", "one 256 MiB file", f"{data}/medium.bin", 256 * MiB, a, b, daemons, "actshare-bench-a", "10.77.0.2")
compare("shaped link", "1,000 files of 4 KiB", f"{data}/thousand", 1000 * 4096, a, b, daemons, "actshare-bench-a", "10.77.0.2")
for process in daemons:
    process.terminate()

print("targets: the large file >= 1.5x scp and >= 1.0x rsync; the small files >= 3x scp -r and >= 1.0x rsync; each daemon < 64 MiB")
print("not met: " + "; ".join(failed) if failed else "all targets met")
