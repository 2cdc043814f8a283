"""``export_hf`` and ``export_hrm`` (and the CLI's ``export``) read back by the libraries that
train on them: the Hugging Face folder through ``datasets.load_dataset`` (the real package,
offline), the HRM folder through ``numpy.load`` with every invariant HRM's and TRM's
``PuzzleDataset`` relies on, including a replay of its batch sampling."""

import csv
import json
import os

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import lines_of

# The dataset card is read from the folder: nothing may be fetched from the Hub (set before
# `datasets` is imported, which reads them once).
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"


def _solves(puzzles, solutions):
    """Per row, whether ``solutions`` (cells 1-9) is a solved grid keeping ``puzzles``' givens
    (cells 0-9), checked with NumPy alone."""
    p = np.asarray(puzzles, dtype=np.int64).reshape(-1, 9, 9)
    s = np.asarray(solutions, dtype=np.int64).reshape(-1, 9, 9)
    boxes = s.reshape(-1, 3, 3, 3, 3).transpose(0, 1, 3, 2, 4).reshape(-1, 9, 9)
    want = np.arange(1, 10)
    ok = np.ones(len(s), dtype=bool)
    for units in (s, s.transpose(0, 2, 1), boxes):
        ok &= (np.sort(units, axis=2) == want).all(axis=(1, 2))
    ok &= ((p == 0) | (p == s)).all(axis=(1, 2))
    return ok


def _cells(text):
    return [0 if ch in ".0" else int(ch) for ch in text]


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def splits(data, tmp_path_factory, cli):
    """Train: ``rate`` rows (ratings travel along) of 200 hard puzzles and some that are not
    unique; test: 60 easy puzzles; valid: 30 more."""
    d = tmp_path_factory.mktemp("export-inputs")
    hard = lines_of(data / "top1465.txt", 200)
    bad = lines_of(data / "multi_solution.txt", 2) + ["not a puzzle"]
    puzzles = _write(d / "hard.txt", hard + bad)
    rated = d / "rated.csv"
    cli("rate", "-q", "--seed", "1", puzzles, "-o", rated)
    easy = lines_of(data / "kaggle_sample.txt", 90)
    test = _write(d / "test.txt", easy[:60])
    valid = _write(d / "valid.txt", easy[60:])
    return {"rated": rated, "test": test, "valid": valid, "dir": d}


def test_hf_export_loads_in_datasets(splits, tmp_path):
    datasets = pytest.importorskip("datasets")
    out = tmp_path / "hf"
    report = sb.export_hf(
        splits["rated"], splits["test"], out, valid=splits["valid"], rows_per_file=70
    )
    assert report["splits"]["train"]["puzzles"] == 200
    assert report["splits"]["train"]["left_out"] == {
        "invalid": 1,
        "multiple": 2,
        "unsolvable": 0,
        "wrong-solution": 0,
    }
    assert sorted(os.listdir(out / "train")) == [
        f"train-0000{k}-of-00003.parquet" for k in range(3)
    ]

    ds = datasets.load_dataset(str(out), cache_dir=str(tmp_path / "cache"))
    assert sorted(ds.keys()) == ["test", "train", "validation"]
    assert [ds[s].num_rows for s in ("train", "test", "validation")] == [200, 60, 30]
    V = datasets.Value
    assert ds["train"].features == datasets.Features(
        {
            "puzzle": V("string"),
            "solution": V("string"),
            "source": V("string"),
            "line": V("int64"),
            "origin_line": V("int64"),
            "clues": V("int64"),
            "guesses": V("int64"),
            "rating": V("float64"),
            "singles": V("bool"),
            "class": V("string"),
        }
    )
    # Rows in input order, each with its unique solution and rate's fields as they were.
    with open(splits["rated"]) as f:
        rated = [r for r in csv.DictReader(f) if r["status"] == "solved"]
    train = ds["train"]
    assert train["puzzle"] == [r["puzzle"] for r in rated]
    assert train["origin_line"] == [int(r["line"]) for r in rated]
    assert train["rating"] == [float(r["rating"]) for r in rated]
    assert train["singles"] == [r["singles"] == "true" for r in rated]
    assert train["class"] == [r["class"] for r in rated]
    assert set(train["source"]) == {str(splits["rated"])}
    puzzles = [_cells(p) for p in train["puzzle"]]
    solutions = [_cells(s) for s in train["solution"]]
    assert _solves(puzzles, solutions).all()
    # Puzzle files carry no columns of their own: nulls there.
    test = ds["test"]
    assert test["puzzle"] == [
        p.replace("0", ".")[:81] for p in lines_of(splits["test"])
    ]
    assert test["line"] == list(range(1, 61))
    assert set(test["rating"]) == {None}
    assert _solves(
        [_cells(p) for p in test["puzzle"]], [_cells(s) for s in test["solution"]]
    ).all()

    card = (out / "README.md").read_text()
    assert "num_examples: 200" in card and "- split: validation" in card
    manifest = json.loads((out / "export.json").read_text())
    assert manifest["provenance"]["command_line"][0] == "sudoku_batch.export_hf"
    assert [c["name"] for c in manifest["columns"]][:2] == ["origin_line", "clues"]


def test_the_cli_and_python_write_the_same_rows(splits, tmp_path, cli):
    pq = pytest.importorskip("pyarrow.parquet")
    a, b = tmp_path / "cli", tmp_path / "py"
    cli("export", "--to", "hf", "-q", "--train", splits["rated"], "--test", splits["test"], "-o", a)
    sb.export_hf(splits["rated"], splits["test"], b, threads=1)
    for split in ("train", "test"):
        name = f"{split}/{split}-00000-of-00001.parquet"
        assert pq.read_table(a / name).equals(pq.read_table(b / name)), split


def _apply(t, cells):
    """Applies ``canon --transform``'s text form ``T:R:C:D`` to a grid of cells (0 blank)."""
    flip, rows, cols, digits = t.split(":")
    g = np.asarray(cells).reshape(9, 9)
    if flip == "t":
        g = g.T
    g = g[[int(r) - 1 for r in rows]][:, [int(c) - 1 for c in cols]]
    return np.array([0] + [int(d) for d in digits])[g].reshape(81)


def _undo(t, cells):
    """Maps a copy's grid back to its original: the inverse of :func:`_apply`."""
    flip, rows, cols, digits = t.split(":")
    back = np.zeros(10, dtype=np.int64)
    back[[int(d) for d in digits]] = np.arange(1, 10)
    g = back[np.asarray(cells).reshape(9, 9)]
    out = np.zeros((9, 9), dtype=np.int64)
    out[np.ix_([int(r) - 1 for r in rows], [int(c) - 1 for c in cols])] = g
    return (out.T if flip == "t" else out).reshape(81)


def _load_split(d):
    """A split as HRM's ``PuzzleDataset`` loads it (inputs and labels memory-mapped)."""
    meta = json.loads((d / "dataset.json").read_text())
    arrays = {
        k: np.load(d / f"all__{k}.npy", mmap_mode="r" if k in ("inputs", "labels") else None)
        for k in ("inputs", "labels", "puzzle_identifiers", "puzzle_indices", "group_indices")
    }
    return meta, arrays


def test_hrm_export_holds_every_invariant_numpy_sees(splits, tmp_path, data):
    out = tmp_path / "hrm"
    k = 4
    train = _write(tmp_path / "train.txt", lines_of(data / "top1465.txt", 150) + ["junk"])
    report = sb.export_hrm(
        train, splits["test"], out, valid=splits["valid"], augment=k, seed=9, threads=2
    )
    assert report["splits"]["train"]["examples"] == 150 * (k + 1)
    assert report["splits"]["train"]["left_out"]["invalid"] == 1
    assert json.loads((out / "identifiers.json").read_text()) == ["<blank>"]
    for split, groups, size in (("train", 150, k + 1), ("test", 60, 1), ("valid", 30, 1)):
        meta, a = _load_split(out / split)
        n = groups * size
        assert meta == {
            "pad_id": 0,
            "ignore_label_id": 0,
            "blank_identifier_id": 0,
            "vocab_size": 11,
            "seq_len": 81,
            "num_puzzle_identifiers": 1,
            "total_groups": groups,
            "mean_puzzle_examples": 1.0,
            "total_puzzles": n,
            "sets": ["all"],
        }
        inputs, labels = a["inputs"], a["labels"]
        assert inputs.dtype == np.uint8 and labels.dtype == np.uint8
        assert inputs.shape == labels.shape == (n, meta["seq_len"])
        assert inputs.min() >= 1 and inputs.max() < meta["vocab_size"]
        assert labels.min() >= 2 and labels.max() < meta["vocab_size"]
        for name in ("puzzle_identifiers", "puzzle_indices", "group_indices"):
            assert a[name].dtype == np.int32, name
        assert (a["puzzle_identifiers"] == 0).all() and a["puzzle_identifiers"].shape == (n,)
        assert (a["puzzle_indices"] == np.arange(n + 1)).all()
        gi = a["group_indices"]
        assert gi.shape == (groups + 1,) and gi[0] == 0 and gi[-1] == n
        assert (np.diff(gi) == size).all()
        # Labels solve inputs: tokens back to cells (blank 1, digit d d+1).
        assert _solves(inputs.astype(np.int64) - 1, labels.astype(np.int64) - 1).all()
        # HRM's batch sampling: a random puzzle of each group, its examples' range.
        rng = np.random.Generator(np.random.Philox(seed=0))
        for g in rng.permutation(groups)[:50]:
            pid = rng.integers(gi[g], gi[g + 1])
            start, end = a["puzzle_indices"][pid], a["puzzle_indices"][pid + 1]
            assert end - start == 1 and 0 <= start < n
        # examples.csv: each copy is its original under the recorded transform, and a
        # prediction for the copy maps back to the original's solution.
        with open(out / split / "examples.csv") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == n
        for i, r in enumerate(rows[: 12 * size]):
            orig = gi[int(r["group"])]
            t = r["transform"]
            cells = inputs[orig].astype(np.int64) - 1
            sol = labels[orig].astype(np.int64) - 1
            assert (_apply(t, cells) == inputs[i] - 1).all()
            assert (_apply(t, sol) == labels[i] - 1).all()
            assert (_undo(t, labels[i].astype(np.int64) - 1) == sol).all()
            assert (int(r["copy"]) == 0) == (i == orig)


def test_exports_refuse_an_existing_folder_and_report_bad_rows(splits, tmp_path):
    out = tmp_path / "again"
    unsolvable = "12345678" + "." * 9 + "9" + "." * 63
    bad = _write(tmp_path / "bad.txt", [unsolvable, "x" * 81])
    report = sb.export_hrm(splits["test"], bad, out)
    assert report["splits"]["test"]["puzzles"] == 0
    assert report["splits"]["test"]["left_out"]["invalid"] == 1
    assert report["splits"]["test"]["left_out"]["unsolvable"] == 1
    meta, a = _load_split(out / "test")
    assert a["inputs"].shape == (0, 81) and list(a["group_indices"]) == [0]
    with open(out / "left_out.csv") as f:
        left = list(csv.DictReader(f))
    assert [(r["split"], r["line"], r["reason"]) for r in left] == [
        ("test", "1", "unsolvable"),
        ("test", "2", "invalid"),
    ]
    with pytest.raises(OSError, match="exists"):
        sb.export_hrm(splits["test"], bad, out)
    assert sb.export_hf(splits["test"], bad, out, force=True)["layout"] == "hf"
    with pytest.raises(OSError, match="cannot read"):
        sb.export_hf(tmp_path / "missing.txt", bad, tmp_path / "x")
    with pytest.raises(ValueError):
        sb.export_hf(splits["test"], bad, tmp_path / "y", compression="gzip")
    with pytest.raises(ValueError):
        sb.export_hrm(splits["test"], bad, tmp_path / "z", augment=-1)
