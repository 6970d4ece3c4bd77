#!/usr/bin/env python3
"""Times commands against each other in interleaved rounds.

Usage: interleaved.py ROUNDS RUNS NAME=COMMAND...   (COMMAND split on spaces, no shell)

hyperfine times one command after the other; on a machine whose speed drifts by 10 %
over minutes, two builds a few percent apart can come out in either order. Here every
round runs each command RUNS times, in a new random order, and the figure for a command
is the median over the rounds of its mean time per run. Prints one line per command and
the ratio of each to the last.
"""
import os
import random
import statistics
import sys
import time

rounds, runs = int(sys.argv[1]), int(sys.argv[2])
commands = [(spec.split("=", 1)[0], spec.split("=", 1)[1].split()) for spec in sys.argv[3:]]
devnull = os.open(os.devnull, os.O_WRONLY)
quiet = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
means = {name: [] for name, _ in commands}
for _ in range(rounds):
    for name, argv in random.sample(commands, len(commands)):
        start = time.perf_counter_ns()
        for _ in range(runs):
            pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=quiet)
            _, status = os.waitpid(pid, 0)
            if status != 0:
                sys.exit(f"interleaved: {name} failed (wait status {status})")
        means[name].append((time.perf_counter_ns() - start) / runs / 1e6)
last = statistics.median(means[commands[-1][0]])
for name, _ in commands:
    median = statistics.median(means[name])
    print(f"{name}: {median:.3f} ms (median of {rounds} rounds of {runs}), {median / last:.3f}x {commands[-1][0]}")
