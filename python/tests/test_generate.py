"""``generate``: the CLI's rows for the same seed and options, whatever the thread count; the
CLI's usage errors as ValueError; an exhausted try budget as GenerateError."""

import csv
import io
import subprocess

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import assert_same_results


def line(cells):
    return "".join("." if v == 0 else str(v) for v in cells)


def check_equal_to_cli(result, rows):
    assert len(result) == len(rows)
    classes, symmetries = result.class_names(), result.symmetry_names()
    for i, row in enumerate(rows):
        assert int(result.index[i]) == int(row["index"]), (i, row)
        assert line(result.puzzles[i]) == row["puzzle"], (i, row)
        assert "".join(map(str, result.solutions[i])) == row["solution"], (i, row)
        assert int(result.clues[i]) == int(row["clues"]), (i, row)
        assert float(result.rating[i]) == float(row["rating"]), (i, row)
        assert bool(result.singles[i]) == (row["singles"] == "true"), (i, row)
        assert classes[i] == row["class"], (i, row)
        assert symmetries[i] == row["symmetry"], (i, row)


@pytest.mark.parametrize(
    "n,opts,flags",
    [
        (40, {"seed": 7}, []),
        (30, {"seed": 3, "start": 100, "samples": 4}, ["--start", "100", "--samples", "4"]),
        (30, {"seed": 1, "symmetry": "any", "minimal": False}, ["--symmetry", "any", "--no-minimal"]),
        (20, {"seed": 2, "clues": (24, 27), "minimal": False}, ["--clues", "24..27", "--no-minimal"]),
        (6, {"seed": 5, "class_": "expert", "symmetry": "rot180"}, ["--class", "expert", "--symmetry", "rot180"]),
        (8, {"seed": 9, "class_": [sb.SIMPLE, "easy"]}, ["--class", "simple,easy"]),
        (8, {"seed": 4, "rating": (2.0, 5.0)}, ["--rating", "2..5"]),
    ],
)
def test_generate_equals_cli(cli, n, opts, flags):
    rows = cli("generate", n, "--seed", opts["seed"], "--format", "csv", "--quiet", *flags)
    r = sb.generate(n, **opts)
    check_equal_to_cli(r, rows)
    assert r.seed == opts["seed"]
    assert r.puzzles.shape == (n, 81) and r.puzzles.dtype == np.uint8
    assert r.solutions.shape == (n, 81) and r.solutions.dtype == np.uint8
    assert (r.tries >= 1).all()
    # Every puzzle has exactly the solution given, by the engine.
    s = sb.solve(r.puzzles)
    assert (s.status == sb.SOLVED).all() and np.array_equal(s.solutions, r.solutions)
    assert np.array_equal(r.clues, np.count_nonzero(r.puzzles, axis=1))


def test_targets_are_met():
    r = sb.generate(10, seed=11, class_=sb.EXPERT, symmetry="mirror")
    assert (r.class_ == sb.EXPERT).all()
    assert r.symmetry_names() == ["mirror"] * 10
    grid = r.puzzles.reshape(-1, 9, 9) != 0
    assert np.array_equal(grid, grid[:, :, ::-1])
    r = sb.generate(10, seed=11, clues=30, minimal=False)
    assert (r.clues == 30).all()


def test_one_thread_equals_every_core():
    opts = {"seed": 21, "symmetry": "any", "samples": 4}
    one, many, three = (sb.generate(60, threads=t, **opts) for t in (1, None, 3))
    assert_same_results(one, many, three)
    # A slice of the set is the same rows, whatever else is generated with it.
    part = sb.generate(10, start=25, **opts)
    assert np.array_equal(part.puzzles, one.puzzles[25:35])
    assert part.index.tolist() == list(range(25, 35))


def test_seed_is_drawn_and_repeatable():
    r = sb.generate(3)
    assert isinstance(r.seed, int) and 0 <= r.seed < 2**64
    again = sb.generate(3, seed=r.seed)
    assert np.array_equal(r.puzzles, again.puzzles)
    assert len(sb.generate(0, seed=1)) == 0


@pytest.mark.parametrize(
    "opts,message,flags",
    [
        ({"clues": (10, 16)}, "fewer than 17 givens", ["--clues", "10..16"]),
        ({"clues": (30, 20)}, "is empty", ["--clues", "30..20"]),
        ({"clues": (45, 50)}, "more than 40 givens", ["--clues", "45..50"]),
        ({"clues": 90, "minimal": False}, "81 cells", ["--clues", "90", "--no-minimal"]),
    ],
)
def test_impossible_targets_are_the_clis_usage_errors(cli, opts, message, flags):
    with pytest.raises(ValueError, match=message) as e:
        sb.generate(5, seed=1, **opts)
    out = subprocess.run(
        [str(cli.binary), "generate", "5", "--seed", "1", *flags], capture_output=True, text=True
    )
    assert out.returncode == 2 and out.stdout == ""
    assert str(e.value) in out.stderr


@pytest.mark.parametrize(
    "opts",
    [
        {"symmetry": "diag"},
        {"class_": "hard"},
        {"class_": 7},
        {"rating": (3.0, 1.0)},
        {"rating": (float("nan"), 1.0)},
        {"max_tries": 0},
        {"samples": 0},
        {"threads": 1025},
        {"seed": -1},
        {"start": 2**64},
        {"clues": (-1, 20)},
    ],
)
def test_bad_options_are_value_errors(opts):
    with pytest.raises(ValueError):
        sb.generate(2, **{"seed": 1, **opts})
    with pytest.raises(ValueError):
        sb.generate(-1, seed=1)


def test_exhausted_budget_raises_with_the_puzzles_before(cli):
    # One try per puzzle for a class most tries miss: some index runs out, after some that did
    # not. The CLI writes the rows before it and exits 1; the error holds the same rows.
    flags = ["--class", "intermediate,expert", "--max-tries", "1"]
    out = subprocess.run(
        [str(cli.binary), "generate", "40", "--seed", "2", "--format", "csv", "-q", *flags],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 1
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    with pytest.raises(sb.GenerateError, match="found no try") as e:
        sb.generate(40, seed=2, class_=["intermediate", "expert"], max_tries=1)
    assert e.value.index == len(rows) > 0
    check_equal_to_cli(e.value.result, rows)
    with pytest.raises(sb.GenerateError) as e:
        sb.generate(4, seed=7, clues=17, max_tries=2)  # no 17-clue minimal puzzle in 2 tries
    assert e.value.index == 0 and len(e.value.result) == 0
