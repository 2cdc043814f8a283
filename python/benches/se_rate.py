"""`sb.rate(puzzles, se=True)` against `sudoku-batch rate --se` on the same file, at the same
thread count, alternating so both see the same machine load.

    python python/benches/se_rate.py FILE [--threads N] [--rounds R]
                                     [--bin target/release/sudoku-batch]

Each round runs the CLI (`rate --se -j N -q -o /dev/null FILE`, timed as a whole process by the
kernel's accounting of the finished child) and then the module on the file's lines (timed around
the call alone, its CPU time from `getrusage`, all threads included). On a shared machine the
CPU times are the figures to compare; pin with `taskset -c 0` and `--threads 1` for one core.
Prints each round's wall and CPU seconds, puzzles per CPU second, and the ratio of the medians
(module / CLI).
"""

import argparse
import os
import resource
import statistics
import subprocess
import time

import sudoku_batch as sb


def report(k: int, side: str, wall: float, cpu: float, n: int) -> None:
    print(f"round {k + 1}: {side} wall {wall:.2f} s  cpu {cpu:.2f} s  {n / cpu:.0f} puzzles/cpu-s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--bin", default="target/release/sudoku-batch")
    a = ap.parse_args()
    with open(a.file) as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    cli, mod = [], []
    for k in range(a.rounds):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        cmd = [a.bin, "rate", "--se", "-j", str(a.threads), "-q", "-o", os.devnull, a.file]
        subprocess.run(cmd, check=True)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        cli.append(cpu)
        report(k, "cli   ", wall, cpu, len(lines))
        before = resource.getrusage(resource.RUSAGE_SELF)
        t = time.perf_counter()
        r = sb.rate(lines, se=True, threads=a.threads)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_SELF)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        mod.append(cpu)
        report(k, "module", wall, cpu, len(lines))
        del r
    c, m = statistics.median(cli), statistics.median(mod)
    print(
        f"{len(lines)} puzzles, threads {a.threads}: median cpu cli {c:.2f} s "
        f"({len(lines) / c:.0f}/s), module {m:.2f} s ({len(lines) / m:.0f}/s), "
        f"module / cli {m / c:.3f}"
    )


if __name__ == "__main__":
    main()
