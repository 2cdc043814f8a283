#!/usr/bin/env python3
"""Two builds (or two commands) timed against each other, in turn, as whole processes.

    python3 benches/ab.py [-n 9] [--cpu 1] [--warmup 1] \\
        --old 'OLD/sudoku-batch solve -q -j 1 --no-timing FILE -o /dev/null' \\
        --new 'NEW/sudoku-batch solve -q -j 1 --no-timing FILE -o /dev/null'

This is the protocol behind the "alternating pairs" figures of docs/engine.md, docs/speed.md
and docs/explain.md: a warm-up run of each, then N pairs, old then new, each pinned to one core
with `taskset -c CPU` (where taskset exists; --cpu -1 turns pinning off), each run's user and
system time read from the operating system's accounting of the finished child (`wait4`). A
ratio is taken pair by pair (new / old, CPU = user + system), so that drift in the machine's
speed over the minutes falls on both builds alike; the median of the pair ratios is the figure
to quote, and a wide min–max says the machine was noisy.

Commands are run with `sh -c`, their stdout and stderr thrown away. A command that exits
non-zero stops the script with its exit status named: a timing of a failing run means nothing.
Output: one line per figure (min, median, max), then the pair ratios (`n/a` and why, when
a baseline run was too short to measure).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time


def run(command, cpu):
    """One whole-process run of `command`: (user s, system s, wall s)."""
    argv = ["sh", "-c", command]
    if cpu >= 0 and shutil.which("taskset"):
        argv = ["taskset", "-c", str(cpu)] + argv
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"ab.py: `{command}` exited with status {code}")
    return usage.ru_utime, usage.ru_stime, wall


def spread(values):
    return f"{min(values):10.4f} {statistics.median(values):10.4f} {max(values):10.4f}"


def ratios(new, old):
    """Pair-by-pair ratios, or why there are none (a run too short to measure)."""
    if min(old) <= 0:
        return "n/a: an old run measured 0 s (give each run more work)"
    return spread([n / o for n, o in zip(new, old)])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", required=True, help="the baseline command (B)")
    ap.add_argument("--new", required=True, help="the command measured against it (A)")
    ap.add_argument("-n", type=int, default=9, help="pairs counted (default 9)")
    ap.add_argument("--warmup", type=int, default=1, help="uncounted runs of each first")
    ap.add_argument("--cpu", type=int, default=1, help="core to pin to; -1: no pinning")
    a = ap.parse_args()
    if a.n < 1:
        ap.error("-n must be at least 1")
    for _ in range(a.warmup):
        run(a.old, a.cpu)
        run(a.new, a.cpu)
    old, new = [], []
    for _ in range(a.n):
        old.append(run(a.old, a.cpu))
        new.append(run(a.new, a.cpu))
    cpu = lambda r: r[0] + r[1]
    print(f"pairs {a.n}, pinned to {'cpu ' + str(a.cpu) if a.cpu >= 0 else 'nothing'}")
    print(f"{'':16} {'min':>10} {'median':>10} {'max':>10}")
    print(f"{'old cpu s':16} {spread([cpu(r) for r in old])}")
    print(f"{'new cpu s':16} {spread([cpu(r) for r in new])}")
    print(f"{'new/old cpu':16} {ratios([cpu(r) for r in new], [cpu(r) for r in old])}")
    print(f"{'new/old wall':16} {ratios([r[2] for r in new], [r[2] for r in old])}")


if __name__ == "__main__":
    main()
