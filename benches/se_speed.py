#!/usr/bin/env python3
"""Sudoku Explainer ratings, side by side: this crate's explainer against serate, per ER band.

Rates the same puzzles with both, one puzzle after another on one core, and prints the median
time per puzzle in each ER band (bands by serate's ER), the ratio of the medians, and whether
every rating agreed.

    cargo build --release --example se_trace
    python3 benches/se_speed.py --serate-classes DIR [--puzzles FILE] [--hardest] [--cpu 0] [--paths]

- Ours: target/release/examples/se_trace (the library's `rate`, timed around each puzzle
  inside the process, so process start-up is not counted; serate is asked for the ratings
  only, `--format=%r/%p/%d`, so `rate` is the same job). The puzzles are rated one after
  another, as `rate --se` does (se_trace with SE_RATE_ONLY); --paths runs se_trace in full
  instead, where each timed `rate` follows the untimed `explain` that printed the previous
  puzzle's path (the protocol of the measurements up to merge `81389c7`, 2026-11-27, before
  commit `18b6345`: about 5 % slower on our side, the caches holding the explain's work).
- serate: Sudoku Explainer's command-line rater, from SukakuExplainer's public source compiled
  with javac into DIR (see docs/speed.md), run in SE 1.2.1 mode exactly as the reference set
  was made (../shared/se-reference/README.md): one JVM for all puzzles, ten warm-up puzzles,
  each puzzle timed around serate's own entry point by a small harness the script compiles
  (javac and java must be on PATH), likewise without start-up.
- Puzzles: FILE (one per line), or by default every puzzle of ../shared/se-reference/ratings.tsv
  below ER 9.5; --hardest adds those at 9.5 and above (serate needs about an hour for them).
- --cpu N pins both to one core with taskset (when taskset is there).

Nothing here is built: both programs must exist already.
"""

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

TECHS = "1111111111010111011011011011000010100010111111"
BANDS = [(0, 20, "< 2.0"), (20, 40, "2.0-4.0"), (40, 62, "4.0-6.2"), (62, 75, "6.2-7.5"),
         (75, 85, "7.5-8.5"), (85, 95, "8.5-9.5"), (95, 1000, ">= 9.5")]


def tenths(s):
    a, _, b = s.partition(".")
    return int(a) * 10 + int(b or 0)


def pinned(cmd, cpu):
    if cpu is not None and shutil.which("taskset"):
        return ["taskset", "-c", str(cpu)] + cmd
    return cmd


def ours(binary, puzzles, cpu, paths=False):
    """{puzzle: (ER/EP/ED, ms)}: se_trace's @R lines, one `rate` after another as `rate --se`
    runs them (SE_RATE_ONLY); with `paths`, its @F lines, where each timed `rate` follows the
    untimed `explain` of the puzzle before (the protocol before commit `18b6345`,
    2026-11-27)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(puzzles) + "\n")
    env = dict(os.environ)
    env.pop("SE_RATE_ONLY", None)
    if not paths:
        env["SE_RATE_ONLY"] = "1"
    out = subprocess.run(pinned([binary], cpu), stdin=open(f.name), capture_output=True,
                         text=True, check=True, env=env).stdout
    os.unlink(f.name)
    res = {}
    for line in out.splitlines():
        x = line.split("\t")
        if x[0] == "@F" and paths:
            res[x[2]] = ("/".join(x[3:6]), float(x[-1]))
        elif x[0] == "@R" and not paths:
            res[puzzles[int(x[1]) - 1]] = (x[2], float(x[-1]))
    return res


# A small timer around serate's entry point (this project's code, compiled against serate's
# classes at run time): one JVM, each puzzle timed with System.nanoTime around serate's own main,
# which parses the same options the reference set used. serate's %e has 10 ms resolution, too
# coarse for the easy bands.
TIMER = r"""
import java.io.*;
public class SerateTimer {
    public static void main(String[] a) throws Exception {
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
        PrintStream out = System.out;
        String line;
        while ((line = r.readLine()) != null) {
            String p = line.trim();
            if (p.length() < 81) continue;
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            System.setOut(new PrintStream(buf));
            long t0 = System.nanoTime();
            diuf.sudoku.test.serate.main(new String[] {"--techs=TECHS", "--islkSudokuBUG=0",
                "--islkSudokuURUL=0", "--threads=1", "--format=%r/%p/%d", p});
            long t1 = System.nanoTime();
            System.setOut(out);
            out.println(p + "\t" + buf.toString().trim() + "\t" + ((t1 - t0) / 1e6));
            out.flush();
        }
    }
}
"""


def serate(classes, puzzles, cpu):
    """{puzzle: (ER/EP/ED, ms)}, timed by the harness above after ten warm-up puzzles."""
    work = tempfile.mkdtemp()
    with open(os.path.join(work, "SerateTimer.java"), "w") as f:
        f.write(TIMER.replace("TECHS", TECHS))
    subprocess.run(["javac", "-nowarn", "-cp", classes, "-d", work,
                    os.path.join(work, "SerateTimer.java")], check=True)
    warm = puzzles[:10]
    cmd = ["java", "-Xrs", "-Xmx2g", "-cp", classes + os.pathsep + work, "SerateTimer"]
    out = subprocess.run(pinned(cmd, cpu), input="\n".join(warm + puzzles) + "\n",
                         capture_output=True, text=True, check=True).stdout
    shutil.rmtree(work)
    res = {}
    for line in out.splitlines()[len(warm):]:
        p, r, ms = line.split("\t")
        res[p] = (r, float(ms))
    return res


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--serate-classes", default=os.environ.get("SERATE_CLASSES"), required=False)
    ap.add_argument("--bin", default=os.path.join(root, "target/release/examples/se_trace"))
    ap.add_argument("--puzzles")
    ap.add_argument("--hardest", action="store_true")
    ap.add_argument("--cpu", type=int)
    ap.add_argument("--paths", action="store_true",
                    help="time each rating between the paths se_trace prints (the old protocol)")
    a = ap.parse_args()
    if not a.serate_classes:
        sys.exit("give --serate-classes DIR (or SERATE_CLASSES): serate's compiled classes")
    if a.puzzles:
        puzzles = [l.strip() for l in open(a.puzzles) if l.strip()]
    else:
        ref = os.path.join(root, "../shared/se-reference/ratings.tsv")
        rows = list(csv.DictReader(open(ref), delimiter="\t"))
        puzzles = [r["puzzle"] for r in rows
                   if r["status"] == "ok" and (a.hardest or tenths(r["er"]) < 95)]
    mine = ours(a.bin, puzzles, a.cpu, a.paths)
    theirs = serate(a.serate_classes, puzzles, a.cpu)
    agree = sum(1 for p in puzzles if p in mine and p in theirs and mine[p][0] == theirs[p][0])
    print(f"{len(puzzles)} puzzles; ER/EP/ED agree on {agree}")
    print("| ER band (serate) | puzzles | serate median | ours median | serate / ours |")
    print("|---|---:|---:|---:|---:|")
    for lo, hi, name in BANDS:
        ps = [p for p in puzzles if p in theirs and lo <= tenths(theirs[p][0].split("/")[0]) < hi]
        if not ps:
            continue
        s = statistics.median(theirs[p][1] for p in ps)
        o = statistics.median(mine[p][1] for p in ps)
        print(f"| {name} | {len(ps)} | {s:.3f} ms | {o:.4f} ms | {s / o:.0f}x |")


if __name__ == "__main__":
    main()
