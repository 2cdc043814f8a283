"""Shared fixtures: the CLI binary to compare against and the community corpora.

``SUDOKU_BATCH_BIN`` names the binary (the Rust test ``tests/python.rs`` sets it to the one
cargo built); without it the repository's ``target/{release,debug}`` build is used. The corpora
are ``$SUDOKU_DATA`` or ``../shared/data`` beside the repository, as for the Rust tests, and
Sudoku Explainer's reference ratings ``$SE_REFERENCE`` or ``../shared/se-reference``. A test
that needs any of them is skipped, saying why, when it is missing.
"""

import csv
import io
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _binary():
    env = os.environ.get("SUDOKU_BATCH_BIN")
    if env:
        return Path(env)
    for profile in ("release", "debug"):
        p = REPO / "target" / profile / "sudoku-batch"
        if p.exists():
            return p
    return None


@pytest.fixture(scope="session")
def cli():
    """Runs ``sudoku-batch ARGS`` and returns its CSV rows as dicts."""
    binary = _binary()
    if binary is None or not binary.exists():
        pytest.skip("no sudoku-batch binary: set SUDOKU_BATCH_BIN or cargo build")

    def run(*args):
        out = subprocess.run(
            [str(binary), *map(str, args)], capture_output=True, check=False
        )
        assert out.returncode == 0, out.stderr.decode()
        return list(csv.DictReader(io.StringIO(out.stdout.decode())))

    run.binary = binary
    return run


@pytest.fixture(scope="session")
def data():
    d = Path(os.environ.get("SUDOKU_DATA", REPO.parent / "shared" / "data"))
    if not d.is_dir():
        pytest.skip(f"needs the corpora: {d} (or $SUDOKU_DATA)")
    return d


@pytest.fixture(scope="session")
def se_reference():
    """Sudoku Explainer's reference ratings: ``$SE_REFERENCE`` or ``../shared/se-reference``."""
    d = Path(os.environ.get("SE_REFERENCE", REPO.parent / "shared" / "se-reference"))
    if not (d / "ratings.tsv").is_file():
        pytest.skip(f"needs Sudoku Explainer's reference ratings: {d} (or $SE_REFERENCE)")
    return d


def lines_of(path, take=None):
    out = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                out.append(line)
            if take is not None and len(out) >= take:
                break
    return out


def assert_same_results(first, *others):
    """Every field of result objects (the module's dataclasses) equal: arrays element by
    element, the rest by value."""
    import numpy as np

    for name in first.__dataclass_fields__:
        x = getattr(first, name)
        for other in others:
            y = getattr(other, name)
            if isinstance(x, np.ndarray):
                assert np.array_equal(x, y), name
            else:
                assert x == y, name
