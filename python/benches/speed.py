"""`solve` on a (1_000_000, 81) array of kaggle_sample x 50 against `sudoku-batch bench` on
kaggle_sample, at the same thread count, interleaved so both see the same machine load.

    python python/benches/speed.py [--threads N] [--rounds R] [--bin target/release/sudoku-batch]
                                   [--data ../shared/data]

Prints puzzles/s of each round and the ratio of the medians (module / bench).
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--bin", default=str(REPO / "target/release/sudoku-batch"))
    ap.add_argument("--data", default=str(REPO.parent / "shared/data"))
    ap.add_argument("--bench-time", default="2")
    args = ap.parse_args()
    corpus = Path(args.data) / "kaggle_sample.txt"

    r = sb.read(corpus)
    puzzles = np.tile(r.puzzles, (50, 1))
    assert puzzles.shape == (1_000_000, 81) and puzzles.flags.c_contiguous
    sb.solve(puzzles[:10_000], threads=args.threads)  # warm up: pages, pool

    ours, theirs = [], []
    for k in range(args.rounds):
        out = subprocess.run(
            [args.bin, "bench", "-j", str(args.threads), "--time", args.bench_time,
             "--warmup", "0.5", "--json", str(corpus)],
            capture_output=True, text=True, check=True,
        )
        theirs.append(json.loads(out.stdout.splitlines()[0])["puzzles_per_sec"])
        # The previous round's result is freed first: unmapping its ~94 MB is not this call's
        # work, and `res = sb.solve(...)` would otherwise free it inside the timed span.
        res = None
        start = time.perf_counter()
        res = sb.solve(puzzles, threads=args.threads)
        ours.append(len(puzzles) / (time.perf_counter() - start))
        assert (res.status == sb.SOLVED).all()
        print(f"round {k + 1}: module {ours[-1]:,.0f}/s  bench {theirs[-1]:,.0f}/s  "
              f"ratio {ours[-1] / theirs[-1]:.3f}", flush=True)
    m, b = statistics.median(ours), statistics.median(theirs)
    print(f"median: module {m:,.0f} puzzles/s, bench {b:,.0f} puzzles/s, ratio {m / b:.3f} "
          f"(threads={args.threads})")


if __name__ == "__main__":
    main()
