"""The README's Python examples run as printed and do what they say: a rated, deduplicated,
leak-free split of a gzipped file, and Sudoku Explainer ratings whose printed outputs are real."""

import gzip
import re

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import REPO, lines_of

HEADING = "A rated, deduplicated, leak-free split from a file"


def readme_example(heading=HEADING):
    """The first python block after ``heading`` in the README."""
    readme = REPO / "README.md"
    if not readme.exists():
        pytest.skip(f"no README beside the tests: {readme}")
    text = readme.read_text()
    at = text.find(heading)
    assert at >= 0, f"the README lost its example ({heading!r})"
    block = re.search(r"```python\n(.*?)```", text[at:], re.S)
    assert block, "no python block after the example's heading"
    return block.group(1)


def cells(line):
    return np.array([0 if c == "." else int(c) for c in line[:81]], np.uint8)


def equivalent(row):
    """The puzzle relabeled (d -> 10 - d) and transposed: a different row, the same class."""
    g = row.reshape(9, 9)
    return np.where(g > 0, 10 - g, 0).astype(np.uint8).T.ravel()


def test_readme_split_example(data, tmp_path, monkeypatch):
    code = readme_example()
    originals = np.array([cells(l) for l in lines_of(data / "17clue.txt", 2000)])
    copies = np.array([equivalent(p) for p in originals[:1000:5]])  # after their originals
    text = lambda a: [("".join(map(str, row))).replace("0", ".") for row in a]
    lines = (
        text(originals[:1000])
        + lines_of(data / "multi_solution.txt", 50)
        + text(copies)
        + lines_of(data / "invalid.txt")
        + ["not a puzzle"]
        + text(originals[1000:])
    )
    (tmp_path / "puzzles.txt.gz").write_bytes(gzip.compress("\n".join(lines).encode() + b"\n"))
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})

    z = np.load(tmp_path / "split.npz")
    train, test = z["train"], z["test"]
    # Deduplicated: the originals (the first of each class in the file), every one once.
    got = np.concatenate([train, test])
    assert len(got) == len(originals)
    assert {r.tobytes() for r in got} == {r.tobytes() for r in originals}
    # Leak-free: no class on both sides.
    ctrain = {r.tobytes() for r in sb.canon(train).canonical}
    ctest = {r.tobytes() for r in sb.canon(test).canonical}
    assert not ctrain & ctest
    assert 0.05 < len(test) / len(got) < 0.15
    # Rated: each side's ratings are its puzzles' ratings.
    for side in ("train", "test"):
        want = sb.rate(z[side], samples=16, seed=0).rating
        assert np.array_equal(z[side + "_rating"], want)
        assert not np.isnan(want).any()
    # In file order within each side.
    order = {r.tobytes(): i for i, r in enumerate(originals)}
    for side in (train, test):
        idx = [order[r.tobytes()] for r in side]
        assert idx == sorted(idx)


SE_HEADING = "Sudoku Explainer ratings and step paths (NaN and `None` where a puzzle is not rated)"


def test_readme_se_example_prints_what_it_shows():
    """The README's Sudoku Explainer block is a doctest: every output in it is real."""
    import doctest

    parser = doctest.DocTestParser()
    test = parser.get_doctest(readme_example(SE_HEADING), {}, "README.md", "README.md", 0)
    assert len(test.examples) >= 5
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0, "the README's SE example (above)"
