"""Typing stub of the compiled module. Use the ``sudoku_batch`` package, which wraps these
functions' dicts into result objects; see its docstrings for the contracts."""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

_Puzzles = Union[npt.NDArray[np.uint8], Sequence[str], Sequence[bytes]]

__version__: str
STATUS_NAMES: List[str]
CLASS_NAMES: List[str]
SYMMETRY_NAMES: List[str]
DEFAULT_SAMPLES: int
DEFAULT_SE_BUDGET: int
SIMD_PATH: str

def solve(
    puzzles: _Puzzles,
    *,
    limit: int = 2,
    first: bool = False,
    max_guesses: Optional[int] = None,
    threads: Optional[int] = None,
    out: Optional[Dict[str, np.ndarray]] = None,
) -> Dict[str, object]: ...
def rate(
    puzzles: _Puzzles,
    *,
    samples: int = 16,
    seed: int = 0,
    threads: Optional[int] = None,
    se: bool = False,
    se_budget: Optional[int] = None,
) -> Dict[str, object]: ...
def explain_many(
    puzzles: _Puzzles, *, se_budget: Optional[int] = None, threads: Optional[int] = None
) -> List[Dict[str, object]]: ...
def canon(puzzles: _Puzzles, *, threads: Optional[int] = None) -> Dict[str, object]: ...
def generate(
    n: int,
    *,
    seed: int,
    minimal: bool = True,
    symmetry: str = "none",
    clues: Optional[Tuple[int, int]] = None,
    class_: Optional[List[str]] = None,
    rating: Optional[Tuple[float, float]] = None,
    samples: int = 16,
    max_tries: int = 10000,
    start: int = 0,
    threads: Optional[int] = None,
) -> Dict[str, object]: ...
def read(
    path: str, *, format: Optional[str] = None, column: Optional[str] = None
) -> Dict[str, object]: ...
def solve_file(
    path: str,
    out: str,
    *,
    limit: int = 2,
    first: bool = False,
    max_guesses: Optional[int] = None,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    output: str = "csv",
    timing: bool = False,
) -> Dict[str, float]: ...
def rate_file(
    path: str,
    out: str,
    *,
    samples: int = 16,
    seed: int = 0,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    output: str = "csv",
    se: bool = False,
    se_budget: Optional[int] = None,
) -> Dict[str, float]: ...
def explain_file(
    path: str,
    out: str,
    *,
    se_budget: Optional[int] = None,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    output: str = "jsonl",
) -> Dict[str, float]: ...
def canon_file(
    path: str,
    out: str,
    *,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    output: str = "csv",
    transform: bool = False,
) -> Dict[str, float]: ...
def export_hf(
    train: str,
    test: str,
    out: str,
    *,
    valid: Optional[str] = None,
    force: bool = False,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    solution_column: Optional[str] = None,
    compression: str = "zstd",
    rows_per_file: int = 1000000,
    quiet: bool = True,
) -> Dict[str, Any]: ...
def export_hrm(
    train: str,
    test: str,
    out: str,
    *,
    valid: Optional[str] = None,
    augment: int = 0,
    seed: int = 0,
    force: bool = False,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    solution_column: Optional[str] = None,
    quiet: bool = True,
) -> Dict[str, Any]: ...
def sample_puzzles(
    puzzles: _Puzzles,
    *,
    by: str,
    per_band: int,
    bands: Optional[List[str]] = None,
    seed: int = 0,
    threads: Optional[int] = None,
) -> Dict[str, Any]: ...
def sample_file(
    path: str,
    *,
    by: str,
    per_band: int,
    bands: Optional[List[str]] = None,
    seed: int = 0,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    out: Optional[str] = None,
    output: str = "csv",
) -> Dict[str, Any]: ...
