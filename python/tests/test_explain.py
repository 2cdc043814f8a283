"""Sudoku Explainer ratings and step paths from Python: ``rate(se=True)``, ``explain``,
``explain_many`` and ``explain_file``.

The ratings are checked against serate's (``../shared/se-reference/ratings.tsv``) on a sample
across the ER bands, the paths against serate's step descriptions (``traces.jsonl``) and by
replaying them to the solution; every row, status and reason equals the CLI's on the same file.
"""

import csv
import json
import subprocess

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import lines_of

# Valid givens, no solution: row 1 needs a 9 in r1c9, which r2c9's 9 forbids.
UNSOLVABLE = "12345678." + "........9" + "." * 63
# Two givens of 5 in row 1.
CONFLICT = "55" + "." * 79
# ER 10.6 (data/examples.txt): its chains spend far more than a tiny budget.
HARD = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.."
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
# One given: many solutions.
MULTIPLE = "1" + "." * 80

# Bands of serate's ER (its integer part) and how many puzzles of each the sample takes: those
# serate rated fastest, so the whole file runs in seconds.
BANDS = range(1, 10)
PER_BAND = 7


def reference_rows(se_reference):
    with open(se_reference / "ratings.tsv", newline="") as f:
        return [r for r in csv.DictReader(f, delimiter="\t") if r["status"] == "ok"]


@pytest.fixture(scope="module")
def sample(se_reference):
    """About 60 reference puzzles, ``PER_BAND`` from each ER band, with serate's ratings."""
    rows = reference_rows(se_reference)
    out = []
    for band in BANDS:
        inside = [r for r in rows if int(float(r["er"])) == band]
        inside.sort(key=lambda r: (int(r["ms"]), r["puzzle"]))
        out += inside[:PER_BAND]
    assert len(out) == PER_BAND * len(BANDS)
    return out


def solution_of(puzzle):
    r = sb.solve([puzzle])
    assert r.status[0] == sb.SOLVED
    return r.solutions[0]


def replay(puzzle, steps):
    """Every elimination removes a digit the solution does not use, every placement puts the
    solution's digit in an empty cell, and the steps end in the solution."""
    solution = solution_of(puzzle)
    values = np.array([0 if c == "." else int(c) for c in puzzle], dtype=np.uint8)
    for i, step in enumerate(steps):
        for c, d in step["eliminations"]:
            assert solution[c] != d, f"step {i + 1} removes the solution's {d} from cell {c}"
        for c, d in step["placements"]:
            assert solution[c] == d, f"step {i + 1} places a wrong digit in cell {c}"
            assert values[c] == 0, f"step {i + 1} fills cell {c} twice"
            values[c] = d
    assert np.array_equal(values, solution), f"the steps of {puzzle} end in the solution"


def check_step_layout(step):
    assert set(step) == {"technique", "rating", "text", "placements", "eliminations"}
    assert isinstance(step["technique"], str) and step["technique"]
    assert isinstance(step["rating"], float) and 1.0 <= step["rating"] <= 12.0
    assert isinstance(step["text"], str) and step["text"]
    assert step["placements"] or step["eliminations"]
    for c, d in step["placements"] + step["eliminations"]:
        assert type(c) is int and type(d) is int and 0 <= c < 81 and 1 <= d <= 9


def test_rate_se_gives_serates_ratings(sample):
    puzzles = [r["puzzle"] for r in sample]
    r = sb.rate(puzzles, se=True)
    assert (r.status == sb.SOLVED).all()
    for i, ref in enumerate(sample):
        got = (float(r.er[i]), float(r.ep[i]), float(r.ed[i]), r.er_technique[i])
        want = (float(ref["er"]), float(ref["ep"]), float(ref["ed"]), ref["er_technique"])
        assert got == want, ref["puzzle"]
    # The rest of the row is rate's, with or without se; the same as an array, on one thread.
    plain = sb.rate(puzzles)
    for name in ("status", "count", "clues", "guesses", "rating", "singles", "class_"):
        assert np.array_equal(getattr(plain, name), getattr(r, name)), name
    assert plain.er is None and plain.er_technique is None
    cells = np.array([[0 if c == "." else int(c) for c in p] for p in puzzles], dtype=np.uint8)
    one = sb.rate(cells.reshape(-1, 9, 9), se=True, threads=1)
    for name in ("er", "ep", "ed"):
        assert np.array_equal(getattr(one, name), getattr(r, name)), name
    assert one.er_technique.tolist() == r.er_technique.tolist()


def test_explain_many_gives_serates_ratings_and_paths_that_replay(sample):
    puzzles = [r["puzzle"] for r in sample]
    out = sb.explain_many(puzzles)
    assert isinstance(out, list) and len(out) == len(sample)
    for d, ref in zip(out, sample):
        assert d["puzzle"] == ref["puzzle"] and d["status"] == "solved" and d["error"] is None
        assert (d["er"], d["ep"], d["ed"]) == (float(ref["er"]), float(ref["ep"]), float(ref["ed"]))
        assert d["er_technique"] == ref["er_technique"]
        for step in d["steps"]:
            check_step_layout(step)
        # ER is the hardest step, ED the first.
        assert max(s["rating"] for s in d["steps"]) == d["er"]
        assert d["steps"][0]["rating"] == d["ed"]
        replay(d["puzzle"], d["steps"])
    # One puzzle at a time: the same dicts.
    assert sb.explain(puzzles[-1]) == out[-1]


def test_steps_are_serates_steps(se_reference):
    """The paths serate printed (every step's rating and SE's description; the traces' technique
    field is serate's own label, which differs from SE's name for a few), for a spread of the
    traced puzzles below ER 9."""
    with open(se_reference / "traces.jsonl") as f:
        traces = [json.loads(line) for line in f if line.strip()]
    traces = [t for t in traces if t["er"] < 9.0]
    traces.sort(key=lambda t: (len(t["steps"]), t["puzzle"]))
    traces = traces[:: max(1, len(traces) // 25)][:25]
    assert len(traces) >= 20
    out = sb.explain_many([t["puzzle"] for t in traces])
    for d, t in zip(out, traces):
        got = [(s["rating"], s["text"]) for s in d["steps"]]
        want = [(s["rating"], s["text"]) for s in t["steps"]]
        assert got == want, t["puzzle"]


def test_unrated_rows_are_nan_with_the_clis_statuses():
    lines = [EASY, CONFLICT, "not a puzzle", MULTIPLE, UNSOLVABLE]
    r = sb.rate(lines, se=True)
    assert r.status.tolist() == [sb.SOLVED, sb.INVALID, sb.INVALID, sb.MULTIPLE, sb.UNSOLVABLE]
    assert r.er[0] == 2.6 and r.er_technique[0] == "Pointing"
    for name in ("er", "ep", "ed"):
        assert np.isnan(getattr(r, name)[1:]).all(), name
    assert r.er_technique.tolist()[1:] == [None] * 4
    assert r.reason(1) == "row 1 has two 5s"
    assert r.reason(2).startswith("unexpected character")
    assert r.reason(3) is None and r.reason(4) is None
    # A cell above 9 in an array is invalid too, with the CLI's wording.
    cells = np.zeros((2, 81), dtype=np.uint8)
    cells[1, 4] = 12
    a = sb.rate(cells, se=True)
    assert a.status.tolist() == [sb.MULTIPLE, sb.INVALID] and np.isnan(a.er).all()
    assert a.reason(1) == "cell 5 holds 12, not 0-9"

    e = sb.explain_many(lines)
    assert [d["status"] for d in e] == ["solved", "invalid", "invalid", "multiple", "unsolvable"]
    assert [d["error"] for d in e[1:]] == [r.reason(1), r.reason(2), None, None]
    assert e[1]["puzzle"] == "55" + "." * 79 and e[2]["puzzle"] is None
    for d in e[1:]:
        assert all(d[k] is None for k in ("er", "ep", "ed", "er_technique", "steps")), d


def test_budget_gives_up_with_the_reason():
    r = sb.rate([EASY, HARD], se=True, se_budget=1000)
    assert r.status.tolist() == [sb.SOLVED, sb.GAVE_UP]
    assert r.er[0] == 2.6 and np.isnan(r.er[1]) and r.er_technique[1] is None
    assert r.reason(0) is None
    assert r.reason(1).startswith("SE work budget of 1000 potentials spent after ")
    # The rest of the row is still filled, as the CLI's.
    assert r.count[1] == 1 and r.clues[1] == 81 - HARD.count(".") and not np.isnan(r.rating[1])
    d = sb.explain(HARD, se_budget=1000)
    assert d["status"] == "gave-up" and d["error"] == r.reason(1) and d["steps"] is None
    assert sb.explain(EASY, se_budget=1000)["status"] == "solved"


def test_types_and_shapes():
    r = sb.rate([EASY] * 3, se=True)
    for name in ("er", "ep", "ed"):
        a = getattr(r, name)
        assert isinstance(a, np.ndarray) and a.dtype == np.float64 and a.shape == (3,)
    assert r.er_technique.dtype == object and r.er_technique.shape == (3,)
    assert r.er_technique[r.er > 2].tolist() == ["Pointing"] * 3
    empty = sb.rate(np.zeros((0, 81), dtype=np.uint8), se=True)
    assert empty.er.shape == (0,) and empty.er_technique.shape == (0,)
    assert sb.explain_many([]) == []
    d = sb.explain(EASY)
    assert list(d) == ["puzzle", "status", "er", "ep", "ed", "er_technique", "steps", "error"]
    assert isinstance(d["steps"], list) and isinstance(d["steps"][0]["placements"][0], tuple)
    # Every form of one puzzle gives the same dict.
    cells = np.array([0 if c == "." else int(c) for c in EASY], dtype=np.uint8)
    for form in (EASY.encode(), cells, cells.reshape(9, 9), cells.astype(np.int64), cells.tolist()):
        assert sb.explain(form) == d
    assert sb.explain_many(cells.reshape(1, 9, 9)) == [d]


def test_bad_input_is_a_status_or_a_helpful_error():
    assert sb.explain("x")["status"] == "invalid"
    assert sb.explain("x")["error"] == "unexpected character 'x' at cell 1"
    assert sb.explain(np.full(81, 10, dtype=np.uint8))["error"] == "cell 1 holds 10, not 0-9"
    with pytest.raises(ValueError, match="explain_many"):
        sb.explain([EASY, EASY])
    with pytest.raises(ValueError, match="shape"):
        sb.explain(np.zeros(80, dtype=np.uint8))
    with pytest.raises(ValueError, match="0-9"):
        sb.explain(np.full(81, -1))
    with pytest.raises(ValueError, match="0-9"):
        sb.explain(np.zeros(81, dtype=np.float64))
    with pytest.raises(ValueError, match="81-character"):
        sb.explain(None)
    with pytest.raises(ValueError, match="not one string"):
        sb.explain_many(EASY)
    with pytest.raises(ValueError, match="puzzles must"):
        sb.explain_many(42)
    with pytest.raises(ValueError, match="se_budget must be at least 1"):
        sb.explain(EASY, se_budget=0)
    with pytest.raises(ValueError, match="se_budget must be at least 1"):
        sb.rate([EASY], se=True, se_budget=-5)
    with pytest.raises(ValueError, match="threads"):
        sb.explain_many([EASY], threads=-1)


def json_lines(cli, *args):
    out = subprocess.run([str(cli.binary), *map(str, args)], capture_output=True, check=False)
    assert out.returncode == 0, out.stderr.decode()
    return [json.loads(line) for line in out.stdout.decode().splitlines()]


def cli_bytes(cli, *args):
    out = subprocess.run([str(cli.binary), *map(str, args)], capture_output=True, check=True)
    return out.stdout


def as_cli_json(d):
    """A dict of explain_many as the CLI writes it: steps without SE's text, pairs as lists."""
    d = dict(d)
    if d["steps"] is not None:
        d["steps"] = [
            {
                "technique": s["technique"],
                "rating": s["rating"],
                "placements": [list(p) for p in s["placements"]],
                "eliminations": [list(p) for p in s["eliminations"]],
            }
            for s in d["steps"]
        ]
    return d


@pytest.mark.parametrize("budget", [None, 1000])
def test_rate_se_and_explain_equal_cli(cli, data, sample, tmp_path, budget):
    lines = (
        [r["puzzle"] for r in sample[:: 3 if budget else 1]]
        + lines_of(data / "multi_solution.txt", 20)
        + lines_of(data / "invalid.txt")
        + [HARD, UNSOLVABLE, "not a puzzle"]
    )
    path = tmp_path / "se.txt"
    path.write_text("".join(l + "\n" for l in lines))
    flags = [] if budget is None else ["--se-budget", budget]

    rows = cli("rate", "--quiet", "--se", *flags, path)
    r = sb.rate(lines, se=True, se_budget=budget)
    assert len(r) == len(rows) == len(lines)
    for i, row in enumerate(rows):
        assert sb.STATUS_NAMES[r.status[i]] == row["status"], (i, row)
        assert r.reason(i) == (row["error"] or None), (i, row)
        for name in ("er", "ep", "ed"):
            v = getattr(r, name)[i]
            assert (np.isnan(v) and row[name] == "") or v == float(row[name]), (i, name, row)
        assert r.er_technique[i] == (row["er_technique"] or None), (i, row)
    statuses = set(r.status_names())
    assert {"solved", "multiple", "unsolvable", "invalid"} <= statuses
    assert ("gave-up" in statuses) == (budget is not None)

    want = json_lines(cli, "explain", "--quiet", *flags, path)
    got = sb.explain_many(lines, se_budget=budget)
    assert len(got) == len(want)
    for k, (d, w) in enumerate(zip(got, want)):
        assert w.pop("line") == k + 1
        assert as_cli_json(d) == w, k

    # The file functions write the CLI's bytes.
    out = tmp_path / "rate.csv"
    summary = sb.rate_file(path, out, se=True, se_budget=budget)
    assert out.read_bytes() == cli_bytes(cli, "rate", "--quiet", "--se", *flags, path)
    assert summary["puzzles"] == len(lines)
    for output in ("jsonl", "csv", "text"):
        out = tmp_path / f"explain.{output}"
        sb.explain_file(path, out, se_budget=budget, output=output, threads=1)
        want = cli_bytes(cli, "explain", "--quiet", "--format", output, *flags, path)
        assert out.read_bytes() == want, output
    with pytest.raises(ValueError, match="'text'"):
        sb.explain_file(path, tmp_path / "x", output="xml")
