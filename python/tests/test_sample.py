"""``sb.sample`` keeps the rows the CLI's ``sample`` keeps, from puzzles in memory and from files,
whatever ``threads`` is, and reports its bands and skipped rows."""

import csv
import io
import subprocess

import numpy as np
import pytest

import sudoku_batch as sb


@pytest.fixture(scope="module")
def puzzles():
    """Generated puzzles (all unique), plus lines that are not usable puzzles."""
    g = sb.generate(300, seed=48)
    lines = ["".join("." if c == 0 else str(c) for c in row) for row in g.puzzles.tolist()]
    return lines + ["not a puzzle", "." * 81]


def cli_rows(cli, *args):
    out = subprocess.run([str(cli.binary), "sample", *map(str, args)], capture_output=True, check=False)
    assert out.returncode == 0, out.stderr.decode()
    rows = list(csv.reader(io.StringIO(out.stdout.decode())))
    return rows[0], rows[1:], out.stderr.decode()


def test_puzzles_in_memory_give_the_cli_rows(cli, tmp_path, puzzles):
    f = tmp_path / "p.txt"
    f.write_text("\n".join(puzzles) + "\n")
    header, want, _ = cli_rows(cli, "-q", "--by", "clues", "--bands", "24,26", "--per-band", 20, "--seed", 3, f)
    for threads in (1, 2):
        r = sb.sample(puzzles, by="clues", bands=[24, 26], per_band=20, seed=3, threads=threads)
        assert r.columns == header
        assert [[v or "" for v in row] for row in r.rows] == want
    # An array gives the same rows as the strings; index says which puzzles they are.
    array = np.array([[0 if c == "." else int(c) for c in p] for p in puzzles[:300]], dtype=np.uint8)
    a = sb.sample(array, by="clues", bands="24,26", per_band=20, seed=3)
    assert a.rows == [row for row in r.rows if int(row[0]) <= 300]
    kept = array[a.index]
    assert [int(c) for c in a.column("clues")] == np.count_nonzero(kept, axis=1).tolist()
    assert a.band_names == ("<24", "[24,26)", ">=26")
    assert a.kept.tolist() == [min(s, 20) for s in a.seen.tolist()]
    assert a.band.tolist() == [a.band_names.index(b) for b in a.column("band")]


def test_counts_and_short_bands(puzzles):
    r = sb.sample(puzzles, by="class", per_band=50, seed=1)
    assert r.band_names == tuple(sb.CLASS_NAMES)
    assert r.read == len(puzzles)
    assert r.skipped == {"status invalid": 1, "status multiple": 1}
    assert int(r.seen.sum()) == len(puzzles) - 2
    assert r.short() == {n: int(k) for n, k in zip(r.band_names, r.kept.tolist()) if k < 50}
    assert repr(r).startswith("SampleResult(n=")
    # Another seed, other rows; the same seed, the same rows.
    assert sb.sample(puzzles, by="class", per_band=50, seed=1).rows == r.rows
    assert sb.sample(puzzles, by="class", per_band=50, seed=2).rows != r.rows


def test_files_are_sampled_and_written_as_the_cli_does(cli, tmp_path, puzzles):
    f = tmp_path / "p.txt"
    f.write_text("\n".join(puzzles) + "\n")
    rated = tmp_path / "rated.csv"
    sb.rate_file(f, rated)
    header, want, _ = cli_rows(cli, "-q", "--by", "rating", "--bands", "0.5,2", "--per-band", 10, "--seed", 9, rated)
    out = tmp_path / "s.csv"
    r = sb.sample(rated, by="rating", bands=["0.5", "2"], per_band=10, seed=9, out=out)
    assert r.columns == header
    assert [[v or "" for v in row] for row in r.rows] == want
    assert list(csv.reader(io.StringIO(out.read_text())))[1:] == want
    # The puzzles themselves give the same rows as their rate output.
    p = sb.sample(f, by="rating", bands="0.5,2", per_band=10, seed=9)
    assert p.rows == r.rows


def test_bad_arguments_raise(tmp_path, puzzles):
    with pytest.raises(ValueError, match="by must be"):
        sb.sample(puzzles, by="speed", per_band=1)
    with pytest.raises(ValueError, match="needs bands"):
        sb.sample(puzzles, by="clues", per_band=1)
    with pytest.raises(ValueError, match="must increase"):
        sb.sample(puzzles, by="clues", bands=[30, 20], per_band=1)
    with pytest.raises(ValueError, match="per_band"):
        sb.sample(puzzles, by="class", per_band=0)
    with pytest.raises(ValueError, match="for a file"):
        sb.sample(puzzles, by="class", per_band=1, out=tmp_path / "x.csv")
    with pytest.raises(OSError):
        sb.sample(tmp_path / "missing.csv", by="class", per_band=1)
