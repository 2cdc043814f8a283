"""The module's rows equal the CLI's rows (``solve``, ``rate``, ``canon``, the ``*_file``
functions) on the community corpora, and every solution is checked by a plain reference."""

import gzip

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import lines_of

# (file, how many lines): a few thousand of each kind, every status among them.
SOLVE_CORPORA = [
    ("kaggle_sample.txt", 3000),
    ("17clue.txt", 2000),
    ("multi_solution.txt", 2000),
    ("invalid.txt", None),
    ("top1465.txt", 500),
]


def is_solution(puzzle, solution):
    """A plain check: givens kept, every row, column and box holds 1-9 once."""
    g = np.asarray(solution, dtype=np.int64).reshape(9, 9)
    p = np.asarray(puzzle, dtype=np.int64).reshape(9, 9)
    if np.any((p != 0) & (p != g)):
        return False
    digits = list(range(1, 10))
    for k in range(9):
        if sorted(g[k]) != digits or sorted(g[:, k]) != digits:
            return False
        b = g[k // 3 * 3 : k // 3 * 3 + 3, k % 3 * 3 : k % 3 * 3 + 3]
        if sorted(b.ravel()) != digits:
            return False
    return True


def cells(line):
    return "".join("0" if c == "." else c for c in line[:81])


def to_array(lines):
    a = np.array([[int(c) for c in cells(l)] for l in lines], dtype=np.uint8)
    return a.reshape(len(lines), 81)


def write(tmp_path, name, lines):
    p = tmp_path / name
    p.write_text("".join(l + "\n" for l in lines))
    return p


def mixed_corpus(data):
    lines = []
    for name, take in SOLVE_CORPORA:
        lines += lines_of(data / name, take)
    return lines


def check_solve_rows(result, rows):
    assert len(result) == len(rows)
    for i, row in enumerate(rows):
        assert sb.STATUS_NAMES[result.status[i]] == row["status"], (i, row)
        assert int(result.count[i]) == int(row["solutions"]), (i, row)
        assert int(result.guesses[i]) == int(row["guesses"]), (i, row)
        if row["solution"]:
            assert "".join(map(str, result.solutions[i])) == row["solution"], (i, row)
        else:
            assert not result.solutions[i].any(), (i, row)
        assert result.reason(i) == (row["error"] or None), (i, row)


def test_solve_equals_cli(cli, data, tmp_path):
    lines = mixed_corpus(data)
    path = write(tmp_path, "mixed.txt", lines)
    rows = cli("solve", "--quiet", "--no-timing", path)
    by_strings = sb.solve(lines)
    check_solve_rows(by_strings, rows)
    by_array = sb.solve(to_array(lines))
    check_solve_rows(by_array, rows)
    statuses = set(by_array.status.tolist())
    assert {sb.SOLVED, sb.MULTIPLE, sb.UNSOLVABLE, sb.INVALID} <= statuses
    # Every solution of a solved puzzle is right, by the plain reference.
    puzzles = to_array(lines)
    for i in np.flatnonzero(by_array.status == sb.SOLVED)[::7]:
        assert is_solution(puzzles[i], by_array.solutions[i])


@pytest.mark.parametrize(
    "opts,flags",
    [
        ({"first": True}, ["--first"]),
        ({"limit": 5}, ["--limit", "5"]),
        ({"max_guesses": 3}, ["--max-guesses", "3"]),
    ],
)
def test_solve_options_equal_cli(cli, data, tmp_path, opts, flags):
    lines = lines_of(data / "forum_hardest_sample.txt", 300) + lines_of(
        data / "multi_solution.txt", 300
    )
    path = write(tmp_path, "opts.txt", lines)
    rows = cli("solve", "--quiet", "--no-timing", *flags, path)
    result = sb.solve(to_array(lines), **opts)
    check_solve_rows(result, rows)
    if "max_guesses" in opts:
        assert (result.status == sb.GAVE_UP).sum() > 0


def test_rate_equals_cli(cli, data, tmp_path):
    lines = (
        lines_of(data / "top1465.txt", 300)
        + lines_of(data / "kaggle_sample.txt", 300)
        + lines_of(data / "multi_solution.txt", 100)
        + lines_of(data / "invalid.txt")
        + ["not a puzzle"]
    )
    path = write(tmp_path, "rate.txt", lines)
    rows = cli("rate", "--quiet", "--samples", "8", "--seed", "7", path)
    r = sb.rate(lines, samples=8, seed=7)
    a = sb.rate(to_array(lines[:-1]), samples=8, seed=7)
    assert len(r) == len(rows)
    names = r.class_names()
    for i, row in enumerate(rows):
        assert sb.STATUS_NAMES[r.status[i]] == row["status"], (i, row)
        assert r.reason(i) == (row["error"] or None)
        if row["status"] == "invalid":
            continue
        assert int(r.count[i]) == int(row["solutions"])
        assert int(r.clues[i]) == int(row["clues"])
        assert int(r.guesses[i]) == int(row["guesses"])
        if row["rating"]:
            assert float(r.rating[i]) == float(row["rating"]), (i, row)
            assert bool(r.singles[i]) == (row["singles"] == "true")
            assert names[i] == row["class"]
        else:
            assert np.isnan(r.rating[i]) and r.class_[i] == -1 and not r.singles[i]
    for field in ("status", "count", "clues", "guesses", "singles", "class_"):
        assert np.array_equal(getattr(a, field), getattr(r, field)[:-1]), field
    assert np.array_equal(a.rating, r.rating[:-1], equal_nan=True)


def test_canon_equals_cli(cli, data, tmp_path):
    lines = (
        lines_of(data / "17clue.txt", 1500)
        + lines_of(data / "multi_solution.txt", 500)
        + lines_of(data / "invalid.txt")
        + ["." * 81, "x" * 81]
    )
    path = write(tmp_path, "canon.txt", lines)
    rows = cli("canon", "--quiet", path)
    c = sb.canon(lines)
    assert len(c) == len(rows)
    for i, row in enumerate(rows):
        assert sb.STATUS_NAMES[c.status[i]] == row["status"], (i, row)
        assert c.reason(i) == (row["error"] or None)
        if row["status"] == "ok":
            assert "".join(map(str, c.canonical[i])) == row["canonical"]
            assert int(c.automorphisms[i]) == int(row["automorphisms"])
        else:
            assert not c.canonical[i].any() and c.automorphisms[i] == 0


def test_file_functions_write_the_clis_bytes(cli, data, tmp_path):
    lines = lines_of(data / "kaggle_sample.txt", 500) + lines_of(data / "invalid.txt") + ["bad"]
    path = write(tmp_path, "in.txt", lines)
    import subprocess

    def cli_bytes(*args):
        return subprocess.run(
            [str(cli.binary), *map(str, args)], capture_output=True, check=True
        ).stdout

    out = tmp_path / "solve.csv"
    summary = sb.solve_file(path, out)
    assert out.read_bytes() == cli_bytes("solve", "--quiet", "--no-timing", path)
    assert summary["puzzles"] == len(lines)
    assert summary["invalid"] == 4  # three conflicting givens in invalid.txt, and "bad"
    assert summary["solved"] == 500
    out = tmp_path / "solve.jsonl"
    sb.solve_file(path, out, output="jsonl", first=True, threads=1)
    assert out.read_bytes() == cli_bytes(
        "solve", "--quiet", "--no-timing", "--format", "jsonl", "--first", path
    )
    out = tmp_path / "rate.csv"
    sb.rate_file(path, out, samples=4, seed=3)
    assert out.read_bytes() == cli_bytes("rate", "--quiet", "--samples", "4", "--seed", "3", path)
    out = tmp_path / "canon.csv"
    sb.canon_file(path, out, transform=True)
    assert out.read_bytes() == cli_bytes("canon", "--quiet", "--transform", path)
    with pytest.raises(OSError):
        sb.solve_file(tmp_path / "missing.txt", tmp_path / "x.csv")
    with pytest.raises(OSError, match="also an input"):
        sb.solve_file(path, path)


def test_read_equals_the_clis_records(cli, data, tmp_path):
    lines = lines_of(data / "kaggle_sample.txt", 200)
    text = "# a comment\n\n" + "\n".join(lines[:100]) + "\nnot a puzzle\n" + "\n".join(lines[100:]) + "\n"
    plain = tmp_path / "p.txt"
    plain.write_text(text)
    gz = tmp_path / "p.txt.gz"
    gz.write_bytes(gzip.compress(text.encode()))
    rows = [r for r in cli("solve", "--quiet", "--no-timing", plain) if r["status"] != "invalid"]
    for p in (plain, gz):
        r = sb.read(p)
        assert r.puzzles.shape == (200, 81) and r.puzzles.dtype == np.uint8
        assert np.array_equal(r.puzzles, to_array(lines))
        assert r.lines.tolist() == [int(row["line"]) for row in rows]
        assert r.skipped == [(103, "unexpected character 'n' at cell 1")]
        puzzles, line_numbers, skipped = r
        assert puzzles is r.puzzles
    # CSV with a named column, and blocks.
    csvp = tmp_path / "p.csv"
    csvp.write_text("id,quizzes\n" + "".join(f"{i},{l}\n" for i, l in enumerate(lines[:5])))
    r = sb.read(csvp)
    assert np.array_equal(r.puzzles, to_array(lines[:5])) and r.lines.tolist() == [2, 3, 4, 5, 6]
    blocks = tmp_path / "b.txt"
    blocks.write_text(
        "\n".join("\n".join(l[k * 9 : k * 9 + 9] for k in range(9)) + "\n" for l in lines[:3])
    )
    r = sb.read(blocks, format="block")
    assert np.array_equal(r.puzzles, to_array(lines[:3])) and r.lines.tolist() == [1, 11, 21]
    with pytest.raises(OSError):
        sb.read(tmp_path / "missing.txt")
    with pytest.raises(ValueError):
        sb.read(plain, format="xml")
