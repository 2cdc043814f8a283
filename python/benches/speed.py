"""`solve` on a (1_000_000, 81) array of kaggle_sample x 50 against `sudoku-batch bench` on
kaggle_sample, at the same thread count, interleaved so both see the same machine load.

    python python/benches/speed.py [--threads N] [--rounds R] [--calls C]
                                   [--bin target/release/sudoku-batch] [--data ../shared/data]

Each round runs `bench` (0.5 s of warm-up, then `--bench-time` seconds timed), then the module
the same way: a warm-up call on a tenth of the rows, then `--calls` timed million-row calls of
each kind, so about as many seconds are timed on each side and each side is timed warm:

- fresh: `sb.solve(puzzles)`, new output arrays every call (each result is freed after its
  clock stops, so the unmapping of its ~94 MB is not counted);
- out=: `sb.solve(puzzles, out=kept)`, writing into the arrays of one earlier result.

Prints puzzles/s of each round and the ratios of the medians (module / bench).
"""

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path

import numpy as np

import sudoku_batch as sb

REPO = Path(__file__).resolve().parents[2]
WARMUP_ROWS = 100_000


def timed(calls, solve):
    """Puzzles/s of `calls` calls of `solve() -> result`. Each result is dropped after its clock
    stops: a fresh result's ~94 MB is unmapped outside the timed span."""
    spent, rows = 0.0, 0
    for _ in range(calls):
        start = time.perf_counter()
        res = solve()
        spent += time.perf_counter() - start
        assert (res.status == sb.SOLVED).all()
        rows += len(res)
        del res
    return rows / spent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=3, help="timed module calls of each kind a round")
    ap.add_argument("--bin", default=str(REPO / "target/release/sudoku-batch"))
    ap.add_argument("--data", default=str(REPO.parent / "shared/data"))
    ap.add_argument("--bench-time", default="2")
    args = ap.parse_args()
    corpus = Path(args.data) / "kaggle_sample.txt"
    t = args.threads

    r = sb.read(corpus)
    puzzles = np.tile(r.puzzles, (50, 1))
    assert puzzles.shape == (1_000_000, 81) and puzzles.flags.c_contiguous

    kept = sb.solve(puzzles, threads=t)  # the arrays every out= call writes into
    fresh_rates, out_rates, bench_rates = [], [], []
    for k in range(args.rounds):
        out = subprocess.run(
            [args.bin, "bench", "-j", str(t), "--time", args.bench_time,
             "--warmup", "0.5", "--json", str(corpus)],
            capture_output=True, text=True, check=True,
        )
        bench_rates.append(json.loads(out.stdout.splitlines()[0])["puzzles_per_sec"])
        # Warm up right before the clock, as `bench` does: after another busy process the
        # first tens of milliseconds ran slow (80-88 ms against 67 for the first 125,000 rows).
        sb.solve(puzzles[:WARMUP_ROWS], threads=t)
        fresh_rates.append(timed(args.calls, lambda: sb.solve(puzzles, threads=t)))
        out_rates.append(timed(args.calls, lambda: sb.solve(puzzles, threads=t, out=kept)))
        b = bench_rates[-1]
        print(f"round {k + 1}: bench {b:,.0f}/s  fresh {fresh_rates[-1]:,.0f}/s "
              f"({fresh_rates[-1] / b:.3f})  out= {out_rates[-1]:,.0f}/s ({out_rates[-1] / b:.3f})",
              flush=True)
    b = statistics.median(bench_rates)
    f, o = statistics.median(fresh_rates), statistics.median(out_rates)
    print(f"median (threads={t}): bench {b:,.0f} puzzles/s; fresh {f:,.0f}, ratio {f / b:.3f}; "
          f"out= {o:,.0f}, ratio {o / b:.3f}")


if __name__ == "__main__":
    main()
