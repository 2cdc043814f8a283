#!/usr/bin/env python3
"""Our engine side by side with tdoku and fastdoku: puzzles/s per corpus and mode, with ratios.

    cargo build --release
    TDOKU=/path/to/run_benchmark FASTDOKU=/path/to/fastdoku-bench \\
        python3 benches/peers.py [--runs 2] [--warmup 1] [--time 3] [--cpu 0]

The protocol is that of `sudoku-batch bench` (src/bench), the one tdoku's `run_benchmark`
follows: every solver loads the corpus into memory first, warms up for --warmup seconds, then
runs whole passes over it until --time seconds have passed, and reports the mean rate
(puzzles x passes / elapsed), single thread. Modes: "first" stops at the first solution,
"unique" counts to two. For each corpus and mode the solvers run one after another, --runs
times, the order rotating every run so that a burst of load from elsewhere falls on each in
turn; each keeps its best run, and the ratio of the best runs is the table's verdict. Beside it,
the spread of the per-run ratios (ours ÷ the faster peer within the same run, where the solvers
ran minutes apart at most): a cell whose runs straddle a line has not been measured on the right
side of it. With --control our binary also runs a second time in each run's rotation, as if it
were a third peer, and a last column gives ours ÷ ours, best run against best run as the verdict
is taken, and run by run: what the machine itself does to a ratio that should be 1.00×, measured
in the same minutes as the verdict beside it. Everything is pinned to one core with
`taskset -c CPU` (where taskset exists; --cpu -1 turns pinning off).

- ours: `sudoku-batch bench -j 1 --mode M --warmup W --time T --export-json TMP FILE` (--bin,
  default target/release/sudoku-batch); also its guesses per puzzle.
- tdoku (--tdoku or $TDOKU): tdoku's own `run_benchmark`, built from its public source (see
  docs/speed.md), run as `run_benchmark -s tdoku -r 0 -n N -w W -t T -c 1 [-f] FILE`: the
  puzzles exactly as given (no permutation or resampling, N = the corpus size), tdoku's CSV
  row read for puzzles/s and guesses/puzzle. It takes whole seconds, so W and T are rounded up
  (at least 1).
- fastdoku (--fastdoku or $FASTDOKU): a small harness over fastdoku's library (docs/speed.md
  says how to write it) run as `HARNESS --mode M --warmup W --time T FILE`, printing one JSON
  line with `puzzles_per_sec` and, when it counts them, `guesses_per_puzzle` (else null).

A peer that is not given, not executable or fails is printed as skipped or failed, with the
reason, never left out. --limit N times only the first N puzzles of each corpus (a quick check
of the script itself, e.g. in tests). The table (Markdown) goes to stdout, progress to stderr;
--json-out FILE also writes every run, and --from-json FILE... prints the table of saved runs
again (with several files, each solver's best over all of them) without running anything.
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

CORPORA = ["kaggle_sample", "17clue", "top1465", "forum_hardest_sample", "hardest1106",
           "kaggle3m_rated_sample", "multi_solution"]
MODES = ["first", "unique"]
PEERS = ["tdoku", "fastdoku"]
# --control: our binary timed again, under this name, as an A/A check.
CONTROL = "control"


def pinned(cmd, cpu):
    if cpu is not None and cpu >= 0 and shutil.which("taskset"):
        return ["taskset", "-c", str(cpu)] + cmd
    return cmd


def call(cmd, cpu):
    """stdout of cmd, or raises RuntimeError with the end of its stderr."""
    p = subprocess.run(pinned(cmd, cpu), capture_output=True, text=True)
    if p.returncode != 0:
        tail = (p.stderr or p.stdout).strip().splitlines()[-3:]
        raise RuntimeError(f"exit {p.returncode}: {' / '.join(tail)}")
    return p.stdout


def run_ours(binary, path, n, mode, a):
    with tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        call([binary, "bench", "-j", "1", "--mode", mode, "--warmup", str(a.warmup), "--time",
              str(a.time), "--export-json", out.name, path], a.cpu)
        r = json.load(open(out.name))["results"][0]
    if r["puzzles"] != n:
        raise RuntimeError(f"timed {r['puzzles']} puzzles of {n}")
    return r["puzzles_per_sec"], r["guesses_per_puzzle"]


def whole_seconds(s):
    return str(max(1, math.ceil(s)))


def run_tdoku(binary, path, n, mode, a):
    cmd = [binary, "-s", "tdoku", "-r", "0", "-n", str(n), "-w", whole_seconds(a.warmup),
           "-t", whole_seconds(a.time), "-c", "1"]
    if mode == "first":
        cmd.append("-f")
    rows = [l.split(",") for l in call(cmd + [path], a.cpu).splitlines() if l.count(",") >= 8]
    if not rows:
        raise RuntimeError("no CSV row in run_benchmark's output")
    row = rows[-1]
    return float(row[-4]), float(row[-1])


def run_fastdoku(binary, path, n, mode, a):
    lines = [l for l in call([binary, "--mode", mode, "--warmup", str(a.warmup), "--time",
                              str(a.time), path], a.cpu).splitlines() if l.startswith("{")]
    if not lines:
        raise RuntimeError("no JSON line in the harness's output")
    r = json.loads(lines[-1])
    if r.get("puzzles") not in (None, n):
        raise RuntimeError(f"timed {r['puzzles']} puzzles of {n}")
    return r["puzzles_per_sec"], r.get("guesses_per_puzzle")


RUNNERS = {"ours": run_ours, "tdoku": run_tdoku, "fastdoku": run_fastdoku, CONTROL: run_ours}


def fmt_rate(x):
    return f"{x:,.0f}" if isinstance(x, (int, float)) else x


def fmt_guesses(x):
    return f"{x:.2f}" if isinstance(x, (int, float)) else "–"


def run_ratios(runs, against=PEERS):
    """Per run, ours ÷ the fastest of `against` in the same run (the peers; or [CONTROL], ours
    timed again), for the runs (dicts as in --json-out; `file` tells runs of different saved
    files apart) where ours and one of them both finished."""
    by_run = {}
    for r in runs:
        by_run.setdefault((r.get("file", 0), r["run"]), {})[r["solver"]] = r["puzzles_per_sec"]
    ratios = []
    for key in sorted(by_run):
        rates = by_run[key]
        peers = [rates[p] for p in against if p in rates]
        if "ours" in rates and peers and max(peers) > 0:
            ratios.append(rates["ours"] / max(peers))
    return ratios


def saved(files):
    """Table rows (best rate per solver) from the runs of one or more --json-out files."""
    rows, skipped, runs = {}, {}, {}
    for i, f in enumerate(files):
        data = json.load(open(f))
        skipped.update(data.get("skipped", {}))
        for r in data["runs"]:
            key = (r["corpus"], r["mode"])
            row = rows.setdefault(key, (r["corpus"], r["puzzles"], r["mode"], {}, {}, {}, [], []))
            best, guesses = row[3], row[4]
            best[r["solver"]] = max(best.get(r["solver"], 0.0), r["puzzles_per_sec"])
            guesses[r["solver"]] = r["guesses_per_puzzle"]
            runs.setdefault(key, []).append(dict(r, file=i))
    for key, row in rows.items():
        row[6].extend(run_ratios(runs[key]))
        row[7].extend(run_ratios(runs[key], [CONTROL]))
        for name in row[3]:
            skipped.pop(name, None)
    return list(rows.values()), skipped


def fmt_spread(ratios):
    """The per-run ratios as "lowest–highest×" (one run: its ratio; none: a dash)."""
    if not ratios:
        return "–"
    lo, hi = min(ratios), max(ratios)
    return f"{lo:.2f}×" if len(ratios) == 1 else f"{lo:.2f}–{hi:.2f}×"


def fmt_aa(best, ratios):
    """The A/A cell: ours ÷ the control, best run against best run, then run by run."""
    if not ratios or not best.get(CONTROL):
        return "–"
    return f"{best['ours'] / best[CONTROL]:.2f}× ({fmt_spread(ratios)})"


def print_table(rows, skipped):
    """The Markdown table (with the A/A column where --control ran), then why any peer is
    missing."""
    control = any(row[7] for row in rows)
    print("| corpus | puzzles | mode | ours/s | tdoku/s | fastdoku/s | ours ÷ best peer "
          "| run by run | guesses/puzzle: ours / tdoku / fastdoku |"
          + (" A/A: ours ÷ ours, best (run by run) |" if control else ""))
    print("|---|---:|---|---:|---:|---:|---:|---:|---|" + ("---:|" if control else ""))
    for corpus, n, mode, best, guesses, failed, ratios, aa in rows:
        cells = []
        for name in ["ours"] + PEERS:
            if name in best:
                cells.append(fmt_rate(best[name]))
            else:
                cells.append(failed.get(name) or ("skipped" if name in skipped else "–"))
        peers = [best[p] for p in PEERS if p in best]
        ratio = (f"{best['ours'] / max(peers):.2f}×" if "ours" in best and peers
                 and max(peers) > 0 else "–")
        g = " / ".join(fmt_guesses(guesses.get(name)) for name in ["ours"] + PEERS)
        print(f"| {corpus} | {n:,} | {mode} | {' | '.join(cells)} | {ratio} "
              f"| {fmt_spread(ratios)} | {g} |" + (f" {fmt_aa(best, aa)} |" if control else ""))
    for name, why in skipped.items():
        print(f"\n{name}: {why}")
    for corpus, n, mode, best, guesses, failed, _, _ in rows:
        for name, why in failed.items():
            print(f"\n{name} on {corpus} ({mode}): {why}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.split("\n")[5:]))
    ap.add_argument("--bin", default=os.path.join(root, "target/release/sudoku-batch"),
                    help="our binary (default: the release build)")
    ap.add_argument("--tdoku", default=os.environ.get("TDOKU"),
                    help="tdoku's run_benchmark (default: $TDOKU)")
    ap.add_argument("--fastdoku", default=os.environ.get("FASTDOKU"),
                    help="the fastdoku harness (default: $FASTDOKU)")
    ap.add_argument("--data", default=os.environ.get("SUDOKU_DATA",
                                                     os.path.join(root, "../shared/data")),
                    help="folder of the corpora (default: $SUDOKU_DATA or ../shared/data)")
    ap.add_argument("--corpora", default=",".join(CORPORA), help="comma-separated names")
    ap.add_argument("--modes", default=",".join(MODES), help="first, unique or both")
    ap.add_argument("--runs", type=int, default=2, help="runs per solver; best kept (2)")
    ap.add_argument("--control", action="store_true",
                    help="time our binary a second time in every run: the A/A column")
    ap.add_argument("--warmup", type=float, default=1.0, help="warm-up seconds (1)")
    ap.add_argument("--time", type=float, default=3.0, help="timed seconds, whole passes (3)")
    ap.add_argument("--cpu", type=int, default=0, help="core to pin to; -1: none (0)")
    ap.add_argument("--limit", type=int, help="only the first N puzzles of each corpus")
    ap.add_argument("--json-out", help="also write every run as JSON to this file")
    ap.add_argument("--from-json", nargs="+", metavar="FILE",
                    help="run nothing: print the table of runs saved by --json-out (several "
                         "files: each solver's best over all of them)")
    a = ap.parse_args()
    if a.from_json:
        print_table(*saved(a.from_json))
        return
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    modes = [m for m in a.modes.split(",") if m]
    if any(m not in MODES for m in modes):
        ap.error(f"--modes takes {', '.join(MODES)}")
    if not os.access(a.bin, os.X_OK):
        sys.exit(f"our binary {a.bin} is missing: cargo build --release (or give --bin)")

    # Which peers run, and why the others do not.
    solvers, skipped = {"ours": a.bin}, {}
    for name in PEERS:
        path = getattr(a, name)
        if not path:
            skipped[name] = f"skipped (give --{name} or ${name.upper()})"
        elif not os.access(path, os.X_OK):
            skipped[name] = f"skipped ({path} is not an executable file)"
        else:
            solvers[name] = path
    if a.control:
        solvers[CONTROL] = a.bin

    work = tempfile.mkdtemp(prefix="peers-")
    rows, log = [], []
    try:
        for corpus in [c for c in a.corpora.split(",") if c]:
            path = os.path.join(a.data, corpus + ".txt")
            if not os.path.exists(path):
                sys.exit(f"no corpus {path}")
            puzzles = [l.strip() for l in open(path) if len(l.strip()) >= 81]
            if a.limit:
                puzzles = puzzles[:a.limit]
                path = os.path.join(work, corpus + ".txt")
                with open(path, "w") as f:
                    f.write("\n".join(puzzles) + "\n")
            n = len(puzzles)
            for mode in modes:
                best, guesses, failed = {}, {}, {}
                first = len(log)
                order = list(solvers)
                for run in range(a.runs):
                    for name in order[run % len(order):] + order[:run % len(order)]:
                        if name in failed:
                            continue
                        print(f"{corpus} {mode} run {run + 1}: {name}", file=sys.stderr)
                        try:
                            rate, g = RUNNERS[name](solvers[name], path, n, mode, a)
                        except (RuntimeError, OSError, ValueError, KeyError, IndexError) as e:
                            failed[name] = f"failed ({e})"
                            continue
                        log.append({"corpus": corpus, "mode": mode, "run": run + 1,
                                    "solver": name, "puzzles": n, "puzzles_per_sec": rate,
                                    "guesses_per_puzzle": g})
                        best[name] = max(best.get(name, 0.0), rate)
                        guesses[name] = g
                rows.append((corpus, n, mode, best, guesses, failed, run_ratios(log[first:]),
                             run_ratios(log[first:], [CONTROL])))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print_table(rows, skipped)
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump({"runs": log, "skipped": skipped}, f, indent=1)


if __name__ == "__main__":
    main()
