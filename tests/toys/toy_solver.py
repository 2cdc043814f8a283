#!/usr/bin/env python3
"""A deliberately simple, optionally wrong sudoku solver for testing `bench --external`.

Reads puzzles (81 cells, '.' or '0' for blanks) one per line on stdin and writes one answer per
line on stdout: the first solution found by plain backtracking, or "no solution".

Options make it misbehave on purpose:
  --wrong 2,5      corrupt the answers to puzzles 2 and 5 (1-based): one non-given cell is
                   changed, so the grid breaks a rule
  --stop-after K   answer only the first K puzzles, then exit
  --exit CODE      the exit code after --stop-after (default 0)
  --hang-after K   answer the first K puzzles, then hang (for --timeout)
"""
import sys
import time


def peers(i):
    r, c = divmod(i, 9)
    br, bc = r // 3 * 3, c // 3 * 3
    s = {r * 9 + k for k in range(9)} | {k * 9 + c for k in range(9)}
    s |= {(br + a) * 9 + bc + b for a in range(3) for b in range(3)}
    s.discard(i)
    return s


PEERS = [peers(i) for i in range(81)]


def solve(cells):
    """First solution by backtracking on the open cell with the fewest candidates, or None."""
    best, best_cands = None, None
    for i in range(81):
        if cells[i] == 0:
            cands = set(range(1, 10)) - {cells[p] for p in PEERS[i]}
            if best is None or len(cands) < len(best_cands):
                best, best_cands = i, cands
                if not cands:
                    return None
    if best is None:
        return cells
    for d in sorted(best_cands):
        cells[best] = d
        found = solve(cells)
        if found is not None:
            return found
    cells[best] = 0
    return None


def main(argv):
    wrong, stop_after, hang_after, code = set(), None, None, 0
    args = iter(argv)
    for a in args:
        if a == "--wrong":
            wrong = {int(x) for x in next(args).split(",")}
        elif a == "--stop-after":
            stop_after = int(next(args))
        elif a == "--hang-after":
            hang_after = int(next(args))
        elif a == "--exit":
            code = int(next(args))
        else:
            sys.exit("toy_solver: unknown argument " + a)
    n = 0
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if stop_after is not None and n >= stop_after:
            break
        if hang_after is not None and n >= hang_after:
            sys.stdout.flush()
            time.sleep(3600)
        n += 1
        givens = [0 if ch in ".0" else int(ch) for ch in line[:81]]
        sol = solve(list(givens))
        if sol is None:
            print("no solution")
            continue
        if n in wrong:
            i = givens.index(0)
            sol[i] = sol[i] % 9 + 1
        print("".join(map(str, sol)))
    sys.stdout.flush()
    sys.exit(code)


if __name__ == "__main__":
    main(sys.argv[1:])
