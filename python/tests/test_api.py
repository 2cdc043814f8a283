"""The array contract: shapes and dtypes, invalid rows, thread independence, no input copy."""

import dataclasses
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import assert_same_results, lines_of

LEET = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
LEET_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def row(line):
    return np.array([0 if c == "." else int(c) for c in line], dtype=np.uint8)


def test_one_puzzle_both_ways():
    for puzzles in ([LEET], [LEET.encode()], row(LEET).reshape(1, 81)):
        r = sb.solve(puzzles)
        assert r.status.tolist() == [sb.SOLVED]
        assert "".join(map(str, r.solutions[0])) == LEET_SOLUTION
        assert r.count.tolist() == [1] and r.guesses.tolist() == [0]
        assert r.status.dtype == np.int8 and r.solutions.dtype == np.uint8
        assert r.solutions.shape == (1, 81) and r.solutions.flags.c_contiguous


def test_the_version_and_nine_by_nine_arrays():
    assert isinstance(sb.__version__, str) and sb.__version__[0].isdigit()
    grids = np.stack([row(LEET), row(LEET_SOLUTION)]).reshape(2, 9, 9)
    r = sb.solve(grids)
    assert r.status.tolist() == [sb.SOLVED, sb.SOLVED]
    assert "".join(map(str, r.solutions[0])) == LEET_SOLUTION
    assert sb.rate(grids).clues.tolist() == sb.rate(grids.reshape(2, 81)).clues.tolist()
    assert (sb.canon(grids).canonical == sb.canon(grids.reshape(2, 81)).canonical).all()
    with pytest.raises(ValueError, match="threads must be 1 to 1024"):
        sb.solve(grids, threads=1025)
    assert sb.solve(grids, threads=0).status.tolist() == [sb.SOLVED, sb.SOLVED]


@pytest.mark.parametrize(
    "bad,message",
    [
        (np.zeros(81, np.uint8), r"shape \(N, 81\)"),
        (np.zeros((3, 80), np.uint8), r"shape \(N, 81\).*\(3, 80\)"),
        (np.zeros((3, 81, 1), np.uint8), r"shape \(N, 81\)"),
        (np.zeros((3, 9, 8), np.uint8), r"shape \(N, 81\)"),
        (np.zeros((3, 81), np.int64), r"dtype uint8.*int64"),
        (np.zeros((3, 81), np.float32), r"dtype uint8.*float32"),
        (np.zeros((3, 81), np.int8), r"dtype uint8.*int8"),
        (LEET, "not one string"),
        (LEET.encode(), "not one string"),
        ([LEET, 5], r"puzzles\[1\] is a int"),
        ([list(range(81))], r"puzzles\[0\] is a list"),
        (42, "got int"),
    ],
)
def test_bad_containers_are_value_errors(bad, message):
    for f in (sb.solve, sb.rate, sb.canon):
        with pytest.raises(ValueError, match=message):
            f(bad)


@pytest.mark.parametrize(
    "kwargs",
    [{"limit": 0}, {"limit": -1}, {"max_guesses": 0}, {"threads": 1025}, {"threads": -2}],
)
def test_bad_options_are_value_errors(kwargs):
    with pytest.raises(ValueError):
        sb.solve([LEET], **kwargs)


def test_invalid_rows_are_statuses_with_reasons():
    a = np.tile(row(LEET), (6, 1))
    a[1, 3] = 10  # not a cell value
    a[2, 1] = 5  # 5 twice in row 1
    a[4, 80] = 255
    r = sb.solve(a)
    assert r.status.tolist() == [sb.SOLVED, sb.INVALID, sb.INVALID, sb.SOLVED, sb.INVALID, sb.SOLVED]
    assert r.reasons == {
        1: "cell 4 holds 10, not 0-9",
        2: "row 1 has two 5s",
        4: "cell 81 holds 255, not 0-9",
    }
    assert r.reason(0) is None and r.reason(-2) == "cell 81 holds 255, not 0-9"
    assert not r.solutions[[1, 2, 4]].any()
    assert r.count[[1, 2, 4]].tolist() == [0, 0, 0]
    assert r.status_names()[:3] == ["solved", "invalid", "invalid"]
    s = sb.solve([LEET, LEET[:80], LEET + " trailing note", "", "1" * 81])
    assert s.status.tolist() == [sb.SOLVED, sb.INVALID, sb.SOLVED, sb.INVALID, sb.INVALID]
    assert s.reasons[1] == "expected 81 cells, found 80"
    assert s.reasons[4] == "row 1 has two 1s"
    for f in (sb.rate, sb.canon):
        x = f(a)
        assert x.status[1] == sb.INVALID and x.reasons == r.reasons


def test_empty_input():
    for puzzles in (np.zeros((0, 81), np.uint8), []):
        r = sb.solve(puzzles)
        assert r.status.shape == (0,) and r.solutions.shape == (0, 81) and len(r) == 0
        assert sb.rate(puzzles).rating.shape == (0,)
        assert sb.canon(puzzles).canonical.shape == (0, 81)


def test_other_layouts_give_the_same_results(data):
    lines = lines_of(data / "kaggle_sample.txt", 400)
    a = np.array([row(l) for l in lines], dtype=np.uint8)
    want = sb.solve(a)
    fortran = np.asfortranarray(a)
    assert not fortran.flags.c_contiguous
    strided = np.repeat(a, 2, axis=0)[::2]
    assert not strided.flags.c_contiguous
    readonly = a.copy()
    readonly.flags.writeable = False
    for other in (fortran, strided, readonly):
        got = sb.solve(other)
        assert np.array_equal(got.solutions, want.solutions)
        assert np.array_equal(got.status, want.status)
    assert np.array_equal(sb.canon(fortran).canonical, sb.canon(a).canonical)


def mixed_rows(data, hard, multiple):
    """`hard` forum puzzles, `multiple` multi-solution ones and every invalid line, as rows."""
    lines = (
        lines_of(data / "forum_hardest_sample.txt", hard)
        + lines_of(data / "multi_solution.txt", multiple)
        + lines_of(data / "invalid.txt")
    )
    return np.array([row(l) for l in lines], dtype=np.uint8)


def test_one_thread_equals_every_core(data):
    a = mixed_rows(data, 1500, 1000)
    for f, kwargs in ((sb.solve, {}), (sb.solve, {"max_guesses": 4}), (sb.canon, {})):
        one, many, three = f(a, threads=1, **kwargs), f(a, **kwargs), f(a, threads=3, **kwargs)
        assert_same_results(one, many, three)
    small = a[::10]
    one, many = sb.rate(small, threads=1, seed=5), sb.rate(small, seed=5)
    assert np.array_equal(one.rating, many.rating, equal_nan=True)
    assert np.array_equal(one.class_, many.class_)


def test_out_writes_every_field_of_every_row(data):
    # Solved rows, multi-solution rows, rows without a solution, invalid rows and given-up rows,
    # written over the arrays of a result that held other puzzles (every field non-zero where
    # these rows need a zero): each must come out as a fresh call gives it.
    a = mixed_rows(data, 300, 300)
    a[5, 7] = 200  # not a cell value
    n = len(a)
    other = np.array([row(l) for l in lines_of(data / "forum_hardest_sample.txt", n)], np.uint8)
    assert len(other) == n
    for kwargs in ({}, {"threads": 1}, {"max_guesses": 3}, {"limit": 5}):
        want = sb.solve(a, **kwargs)
        out = sb.solve(other, limit=3)
        out.count[:], out.guesses[:] = 7, 9
        old_reasons = out.reasons
        got = sb.solve(a, out=out, **kwargs)
        assert got is out and got.reasons is old_reasons
        assert_same_results(want, got)
    statuses = set(sb.solve(a).status.tolist()) | set(sb.solve(a, max_guesses=3).status.tolist())
    assert statuses == {sb.SOLVED, sb.MULTIPLE, sb.UNSOLVABLE, sb.INVALID, sb.GAVE_UP}


def test_out_must_fit():
    a = np.tile(row(LEET), (4, 1))
    r = sb.solve(a)
    with pytest.raises(ValueError, match=r"out.status .* shape \(3,\).*shape \(4,\)"):
        sb.solve(a[:3], out=r)
    for field, bad, message in (
        ("status", r.status.astype(np.int16), r"int8 .*dtype int16"),
        ("solutions", np.asfortranarray(r.solutions), r"uint8 .*not C-contiguous"),
        ("count", [0, 0, 0, 0], r"uint32 .*got a list"),
    ):
        with pytest.raises(ValueError, match=f"out.{field} must be a C-contiguous {message}"):
            sb.solve(a, out=dataclasses.replace(r, **{field: bad}))
    r.guesses.flags.writeable = False
    with pytest.raises(ValueError, match="out.guesses cannot be written"):
        sb.solve(a, out=r)
    s = sb.solve(a)
    with pytest.raises(ValueError, match="out.solutions cannot be written"):
        sb.solve(s.solutions, out=s)  # the puzzles are the array it would write
    with pytest.raises(TypeError, match="out must be a SolveResult"):
        sb.solve(a, out={"status": s.status})
    assert np.array_equal(s.solutions, sb.solve(a).solutions)  # nothing was written


def test_canonical_rows_deduplicate_equivalent_puzzles():
    # LEET relabeled (digit d -> 10 - d) and transposed is the same puzzle up to equivalence.
    a = row(LEET).reshape(9, 9)
    relabeled = np.where(a > 0, 10 - a, 0).astype(np.uint8)
    copies = np.stack([a.ravel(), relabeled.T.ravel(), a[::-1].ravel()])
    c = sb.canon(copies)
    assert c.status.tolist() == [sb.OK] * 3
    assert len(np.unique(c.canonical, axis=0)) == 1
    other = sb.canon(np.zeros((1, 81), np.uint8))
    assert not np.array_equal(other.canonical[0], c.canonical[0])


def test_large_outputs_hold_every_row(data):
    # 40 copies of 1,000 puzzles, solved and canonicalised in parallel chunks into 3.2 MB
    # arrays: every row must equal the small call's.
    base = np.array([row(l[:81]) for l in lines_of(data / "17clue.txt", 1000)])
    big = np.tile(base, (40, 1))
    small, large = sb.solve(base), sb.solve(big)
    assert (small.status == sb.SOLVED).all()
    assert np.array_equal(large.solutions, np.tile(small.solutions, (40, 1)))
    assert np.array_equal(sb.canon(big).canonical, np.tile(sb.canon(base).canonical, (40, 1)))


# A fresh interpreter, so that the peak resident size it reports is this call's and nothing
# earlier's: build a 1,000,000-row input (81 MB, every page touched), note the peak, solve, and
# report the peak's growth with the bytes of the outputs. The outputs are ~94 MB of new arrays;
# a copy of the input would add another 81 MB on top of them.
MEMORY_SCRIPT = textwrap.dedent(
    """
    import resource, sys
    import numpy as np
    import sudoku_batch as sb

    def peak():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux

    base = np.array([[int(c) if c != "." else 0 for c in l] for l in sys.argv[1:]], np.uint8)
    puzzles = np.tile(base, (1_000_000 // len(base), 1))
    assert puzzles.shape == (1_000_000, 81) and puzzles.flags.c_contiguous
    sb.solve(puzzles[:1000])  # the module, the thread pool, the first allocations
    before = peak()
    r = sb.solve(puzzles)
    grown = peak() - before
    outputs = sum(getattr(r, f).nbytes for f in ("status", "solutions", "count", "guesses"))
    assert (r.status == sb.SOLVED).all()
    print(grown, outputs, puzzles.nbytes)
    """
)


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux only")
def test_a_million_rows_are_not_copied(data, tmp_path):
    base = lines_of(data / "kaggle_sample.txt", 1000)
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_SCRIPT, *base],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not beside the package's source, which would shadow the installed one
    )
    assert out.returncode == 0, out.stderr
    grown, outputs, input_bytes = map(int, out.stdout.split())
    assert input_bytes == 81_000_000
    print(f"peak grew {grown / 1e6:.1f} MB for {outputs / 1e6:.1f} MB of outputs")
    # The outputs, plus well under half an input's worth of slack (a copy would be 81 MB).
    assert grown < outputs + 30_000_000, (grown, outputs)
