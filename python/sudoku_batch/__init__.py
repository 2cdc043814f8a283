"""Solve, rate and canonicalise sudoku puzzles held in NumPy arrays, on every core.

The Python face of the ``sudoku-batch`` Rust crate: the same engine and the same definitions as
the ``sudoku-batch`` command (``solve``, ``rate``, ``canon``, ``generate``, ``explain``), working
on ``(N, 81)`` ``uint8`` arrays (row-major cells, ``0`` = blank, ``1``-``9`` = a digit;
``(N, 9, 9)`` arrays too) or sequences of 81-character strings.

- A C-contiguous ``uint8`` array is read in place, never copied; results are new arrays.
- The work runs on every core (or ``threads`` of them) with the GIL released. Each row's result
  depends on that row alone: results are in input order and identical whatever ``threads`` is.
- A row that is not a usable puzzle (a cell above 9, text that is not 81 cells, givens that
  break a rule) gets status ``INVALID`` and a reason; only a wrong shape, dtype or item type
  raises ``ValueError``.

Status codes (``int8``), as the CLI's ``status`` column words:
``SOLVED`` (0, exactly one solution; with ``first=True`` at least one), ``MULTIPLE`` (1),
``UNSOLVABLE`` (2), ``INVALID`` (3), ``GAVE_UP`` (4, ``max_guesses`` or ``se_budget`` ran
out), ``OK`` (5, a ``canon`` row that was processed). ``STATUS_NAMES[code]`` is the CLI's word.
"""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

__version__: str = _native.__version__

__all__ = [
    "__version__",
    "solve",
    "rate",
    "canon",
    "generate",
    "explain",
    "explain_many",
    "read",
    "solve_file",
    "rate_file",
    "canon_file",
    "explain_file",
    "export_hf",
    "export_hrm",
    "sample",
    "SolveResult",
    "RateResult",
    "CanonResult",
    "GenerateResult",
    "GenerateError",
    "ReadResult",
    "SampleResult",
    "SOLVED",
    "MULTIPLE",
    "UNSOLVABLE",
    "INVALID",
    "GAVE_UP",
    "OK",
    "STATUS_NAMES",
    "SIMPLE",
    "EASY",
    "INTERMEDIATE",
    "EXPERT",
    "CLASS_NAMES",
    "SYMMETRY_NAMES",
    "DEFAULT_SE_BUDGET",
]

#: The default work budget of a Sudoku Explainer rating (``se_budget``), as the CLI's
#: ``--se-budget``: more than any puzzle of the reference set needs.
DEFAULT_SE_BUDGET: int = _native.DEFAULT_SE_BUDGET

#: The CLI's status words, indexed by status code.
STATUS_NAMES: Tuple[str, ...] = tuple(_native.STATUS_NAMES)
SOLVED, MULTIPLE, UNSOLVABLE, INVALID, GAVE_UP, OK = range(6)
assert STATUS_NAMES == ("solved", "multiple", "unsolvable", "invalid", "gave-up", "ok")

#: QQWing's classes (``rate``), indexed by class code; ``-1`` is "not rated".
CLASS_NAMES: Tuple[str, ...] = tuple(_native.CLASS_NAMES)
SIMPLE, EASY, INTERMEDIATE, EXPERT = range(4)
assert CLASS_NAMES == ("simple", "easy", "intermediate", "expert")

#: ``generate``'s symmetries, indexed by the codes of :attr:`GenerateResult.symmetry`.
SYMMETRY_NAMES: Tuple[str, ...] = tuple(_native.SYMMETRY_NAMES)
assert SYMMETRY_NAMES == ("none", "rot180", "rot90", "mirror", "diagonal", "any")

Puzzles = Union[np.ndarray, Sequence[str], Sequence[bytes]]
PathLike = Union[str, "os.PathLike[str]"]


class _Rows:
    """What every per-row result shares: ``status``, the reasons of invalid (and gave-up) rows,
    names."""

    status: np.ndarray
    reasons: Dict[int, str]

    def __len__(self) -> int:
        return len(self.status)

    def reason(self, i: int) -> Optional[str]:
        """Why row ``i`` is ``INVALID`` (or, for ``rate(se=True)``, ``GAVE_UP``): the CLI's
        ``error`` text; ``None`` for any other row."""
        if i < 0:
            i += len(self)
        return self.reasons.get(i)

    def status_names(self) -> List[str]:
        """The CLI's status word of every row (a list: for display, not for big arrays)."""
        return [STATUS_NAMES[s] for s in self.status.tolist()]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({_tally(self.status)})"


@dataclass(frozen=True, repr=False, eq=False)
class SolveResult(_Rows):
    """What :func:`solve` found, one entry per input row, in input order.

    Attributes:
        status: ``(N,)`` int8 status codes (``SOLVED`` ... ``GAVE_UP``).
        solutions: ``(N, 81)`` uint8, the first solution found; all zeros when there is none.
        count: ``(N,)`` uint32 solutions found, at most ``limit`` (0 for invalid rows).
        guesses: ``(N,)`` uint64 guesses the engine made (0 for invalid rows).
        reasons: row index -> reason, for the ``INVALID`` rows only.
    """

    status: np.ndarray
    solutions: np.ndarray
    count: np.ndarray
    guesses: np.ndarray
    reasons: Dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True, repr=False, eq=False)
class RateResult(_Rows):
    """What :func:`rate` found, one entry per input row (the CLI's ``rate`` columns; with
    ``se=True``, ``rate --se``'s).

    Attributes:
        status: ``(N,)`` int8: ``SOLVED``, ``MULTIPLE``, ``UNSOLVABLE`` or ``INVALID``; with
            ``se=True`` also ``GAVE_UP`` (the SE rating ran out of ``se_budget``; the other
            fields are still filled).
        count: ``(N,)`` uint32 solutions, counted up to 2.
        clues: ``(N,)`` uint8 givens (0 for invalid rows).
        guesses: ``(N,)`` uint64 guesses of one solve with limit 2.
        rating: ``(N,)`` float64 mean guesses over ``samples`` random equivalence transforms;
            NaN unless the puzzle has exactly one solution.
        singles: ``(N,)`` bool, naked and hidden singles alone solve it (False when not rated).
        class_: ``(N,)`` int8 class code (``SIMPLE`` ... ``EXPERT``), -1 when not rated; also
            available as ``result.class_names()``.
        reasons: row index -> reason, for the ``INVALID`` rows (and ``GAVE_UP`` ones).
        er, ep, ed: with ``se=True``, ``(N,)`` float64 Sudoku Explainer ratings (ER: hardest
            step, EP: hardest before the first placement, ED: first step), one decimal as SE
            prints them; NaN unless the puzzle has exactly one solution and was rated within
            ``se_budget``. ``None`` without ``se``.
        er_technique: with ``se=True``, ``(N,)`` object array of SE's name of the technique
            that set ER (``None`` where not rated). ``None`` without ``se``.
    """

    status: np.ndarray
    count: np.ndarray
    clues: np.ndarray
    guesses: np.ndarray
    rating: np.ndarray
    singles: np.ndarray
    class_: np.ndarray
    reasons: Dict[int, str] = field(default_factory=dict)
    er: Optional[np.ndarray] = None
    ep: Optional[np.ndarray] = None
    ed: Optional[np.ndarray] = None
    er_technique: Optional[np.ndarray] = None

    def class_names(self) -> List[Optional[str]]:
        """The class word of every row (``None`` where not rated), as the CLI writes it."""
        return [CLASS_NAMES[c] if c >= 0 else None for c in self.class_.tolist()]


@dataclass(frozen=True, repr=False, eq=False)
class CanonResult(_Rows):
    """What :func:`canon` found, one entry per input row (the CLI's ``canon`` columns).

    Attributes:
        status: ``(N,)`` int8: ``OK`` or ``INVALID``.
        canonical: ``(N, 81)`` uint8 minlex canonical form; all zeros for invalid rows.
        automorphisms: ``(N,)`` uint32 transforms mapping the puzzle to its form (0 if invalid).
        reasons: row index -> reason, for the ``INVALID`` rows only.
    """

    status: np.ndarray
    canonical: np.ndarray
    automorphisms: np.ndarray
    reasons: Dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True, repr=False, eq=False)
class GenerateResult:
    """What :func:`generate` made: one entry per puzzle, in index order (the CLI's
    ``generate --format csv`` columns).

    Attributes:
        index: ``(N,)`` uint64, the puzzle's index (``start`` ... ``start + n - 1``).
        puzzles: ``(N, 81)`` uint8, each proven to have exactly one solution (0 = blank).
        solutions: ``(N, 81)`` uint8, that solution.
        clues: ``(N,)`` uint8 givens.
        rating: ``(N,)`` float64, as :func:`rate` with ``samples`` and the run's ``seed``.
        singles: ``(N,)`` bool, naked and hidden singles alone solve it.
        class_: ``(N,)`` int8 class code (``SIMPLE`` ... ``EXPERT``); see :meth:`class_names`.
        symmetry: ``(N,)`` int8 code of the clue pattern's symmetry (the one drawn, for
            ``"any"``); ``SYMMETRY_NAMES[code]`` is the CLI's word, see :meth:`symmetry_names`.
        tries: ``(N,)`` uint64 tries the puzzle took (the accepted one included).
        seed: the run's seed (the one drawn when none was given): pass it again to repeat it.
    """

    index: np.ndarray
    puzzles: np.ndarray
    solutions: np.ndarray
    clues: np.ndarray
    rating: np.ndarray
    singles: np.ndarray
    class_: np.ndarray
    symmetry: np.ndarray
    tries: np.ndarray
    seed: int

    def __len__(self) -> int:
        return len(self.index)

    def class_names(self) -> List[str]:
        """The class word of every puzzle, as the CLI writes it."""
        return [CLASS_NAMES[c] for c in self.class_.tolist()]

    def symmetry_names(self) -> List[str]:
        """The symmetry word of every puzzle, as the CLI writes it."""
        return [SYMMETRY_NAMES[c] for c in self.symmetry.tolist()]

    def __repr__(self) -> str:
        return f"GenerateResult(n={len(self)}, seed={self.seed})"


class GenerateError(RuntimeError):
    """Raised by :func:`generate` when a puzzle found no try meeting the targets within
    ``max_tries`` tries (the CLI's exit 1).

    Attributes:
        index: the index that found none.
        result: the puzzles before it, as a :class:`GenerateResult`.
    """

    def __init__(self, message: str, index: int, result: GenerateResult) -> None:
        super().__init__(message)
        self.index = index
        self.result = result


@dataclass(frozen=True, eq=False)
class ReadResult:
    """The usable puzzles of a file (see :func:`read`).

    Attributes:
        puzzles: ``(N, 81)`` uint8, in file order.
        lines: ``(N,)`` uint64, the 1-based line where each puzzle starts.
        skipped: ``(line, reason)`` of every record that is not a usable puzzle.
    """

    puzzles: np.ndarray
    lines: np.ndarray
    skipped: List[Tuple[int, str]]

    def __len__(self) -> int:
        return len(self.puzzles)

    def __iter__(self):  # type: ignore[no-untyped-def]
        # So that ``puzzles, lines, skipped = read(path)`` works.
        return iter((self.puzzles, self.lines, self.skipped))


@dataclass(frozen=True, repr=False, eq=False)
class SampleResult:
    """What :func:`sample` kept: the rows the CLI's ``sample`` writes, in input order, and the
    per-band counts of its summary.

    Attributes:
        columns: the output's columns: the input's (for puzzles, ``rate``'s), then ``band``.
        rows: the kept rows, each a list of its fields as the CLI's CSV writes them (``None``
            for an empty field), its band's name last.
        lines: ``(K,)`` uint64, the 1-based line where each kept row starts in its input (row
            ``i`` of an array or list counts as line ``i + 1``: see :attr:`index`).
        band: ``(K,)`` int16, each kept row's band code; ``band_names[code]`` is its name.
        band_names: the bands, in order: ``<E1``, ``[E1,E2)``, ..., ``>=En``, or the classes.
        seen: ``(B,)`` uint64, per band the rows whose value falls in it.
        kept: ``(B,)`` uint64, per band the rows kept (``min(seen, per_band)``).
        skipped: rows without a value, by reason (``"status multiple"``, ``"no er"``, ...).
        read: rows read.
        per_band: the rows asked per band.
    """

    columns: List[str]
    rows: List[List[Optional[str]]]
    lines: np.ndarray
    band: np.ndarray
    band_names: Tuple[str, ...]
    seen: np.ndarray
    kept: np.ndarray
    skipped: Dict[str, int]
    read: int
    per_band: int

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def index(self) -> np.ndarray:
        """For puzzles given as an array or a list: the ``(K,)`` int64 row index of each kept
        puzzle (``puzzles[result.index]`` are the kept puzzles)."""
        return self.lines.astype(np.int64) - 1

    def column(self, name: str) -> List[Optional[str]]:
        """The kept rows' fields of column ``name`` (``"band"`` included)."""
        i = self.columns.index(name)
        return [r[i] for r in self.rows]

    def short(self) -> Dict[str, int]:
        """The bands with fewer rows than ``per_band``: name -> rows kept."""
        return {n: int(k) for n, k in zip(self.band_names, self.kept.tolist()) if k < self.per_band}

    def __repr__(self) -> str:
        return f"SampleResult(n={len(self)}, bands={len(self.band_names)}, short={len(self.short())})"


def _rows(puzzles: Puzzles) -> Puzzles:
    """A ``(N, 9, 9)`` array as the ``(N, 81)`` rows it holds (a view when C-contiguous)."""
    if isinstance(puzzles, np.ndarray) and puzzles.ndim == 3 and puzzles.shape[1:] == (9, 9):
        return puzzles.reshape(puzzles.shape[0], 81)
    return puzzles


def _tally(status: np.ndarray) -> str:
    counts = np.bincount(status.astype(np.int64), minlength=len(STATUS_NAMES)) if len(status) else []
    parts = [f"{STATUS_NAMES[i]}={int(n)}" for i, n in enumerate(counts) if n]
    return f"n={len(status)}" + "".join(", " + p for p in parts)


def solve(
    puzzles: Puzzles,
    *,
    limit: int = 2,
    first: bool = False,
    max_guesses: Optional[int] = None,
    threads: Optional[int] = None,
    out: Optional[SolveResult] = None,
) -> SolveResult:
    """Solves every puzzle: counts its solutions up to ``limit`` and keeps the first one.

    Args:
        puzzles: a ``(N, 81)`` or ``(N, 9, 9)`` ``uint8`` array (``0`` = blank), read in place
            when C-contiguous (other layouts are copied once); or a sequence of ``str``/``bytes``, each read as one
            line of the CLI's line format (81 cells of ``1-9`` and ``.``/``0``, then optionally
            a separator and anything).
        limit: count solutions up to this many; 2 (the default) proves uniqueness.
        first: stop at the first solution (``limit=1``; ``SOLVED`` then means "at least one").
        max_guesses: give a puzzle up (``GAVE_UP``) after this many guesses.
        threads: worker threads, 1 to 1024; ``None`` (or 0) for one per core. Results do not
            depend on it.
        out: an earlier result with as many rows, to write this one into (NumPy's ``out=``):
            its four arrays are overwritten and its ``reasons`` replaced, and ``out`` itself is
            returned. Solving a file chunk by chunk this way reuses the same memory instead of
            asking the kernel for fresh pages on every call.

    Returns:
        A :class:`SolveResult` of arrays, as the CLI's ``solve`` rows.

    Raises:
        ValueError: ``puzzles`` is not a ``(N, 81)`` ``uint8`` array or a sequence of strings,
            an option is out of range, or ``out``'s arrays do not fit (shape, dtype, layout,
            read-only, memory shared with ``puzzles``). A bad *row* never raises: it is
            ``INVALID``.
        TypeError: ``out`` is not a :class:`SolveResult`.
    """
    arrays = None
    if out is not None:
        if not isinstance(out, SolveResult):
            what = type(out).__name__
            raise TypeError(f"out must be a SolveResult (what solve returns), not {what}")
        arrays = {k: getattr(out, k) for k in ("status", "solutions", "count", "guesses")}
    r = _native.solve(
        _rows(puzzles), limit=limit, first=first, max_guesses=max_guesses, threads=threads, out=arrays
    )
    if out is None:
        return SolveResult(**r)
    out.reasons.clear()
    out.reasons.update(r["reasons"])
    return out


def rate(
    puzzles: Puzzles,
    *,
    samples: int = _native.DEFAULT_SAMPLES,
    seed: int = 0,
    threads: Optional[int] = None,
    se: bool = False,
    se_budget: Optional[int] = None,
) -> RateResult:
    """Rates every puzzle as ``sudoku-batch rate`` does (``se=True``: ``rate --se``).

    ``rating`` is the mean of the engine's guesses over ``samples`` random equivalence
    transforms drawn from ``(seed, the puzzle's cells)``: a function of the puzzle, ``samples``
    and ``seed`` only. ``class_`` is QQWing's scale (which techniques are needed), ``singles``
    whether naked and hidden singles suffice. Rating and class are given only for puzzles with
    exactly one solution (NaN / -1 / False otherwise).

    Args:
        puzzles: as for :func:`solve`.
        samples: transforms the rating averages over (the CLI's ``--samples``).
        seed: the CLI's ``--seed``.
        threads: worker threads, 1 to 1024; ``None`` (or 0) for one per core.
        se: add Sudoku Explainer's rating (SE 1.2.1 as its ``serate`` gives it): ``er``,
            ``ep``, ``ed`` and ``er_technique``. Milliseconds to seconds a puzzle where the
            rest takes microseconds.
        se_budget: with ``se``, the most work a puzzle may take (potentials derived by SE's
            chains, the CLI's ``--se-budget``; ``None``: ``DEFAULT_SE_BUDGET``); a puzzle that
            needs more gets ``GAVE_UP`` and the reason.
    """
    r = _native.rate(
        _rows(puzzles), samples=samples, seed=seed, threads=threads, se=se, se_budget=se_budget
    )
    if se:
        r["er_technique"] = _objects(r["er_technique"])
    return RateResult(**r)


def _objects(items: List[Any]) -> np.ndarray:
    """A list as a 1-D object array (NumPy would make a list of str a fixed-width str array)."""
    a = np.empty(len(items), dtype=object)
    a[:] = items
    return a


Step = Dict[str, Any]
Explanation = Dict[str, Any]


def explain_many(
    puzzles: Puzzles, *, se_budget: Optional[int] = None, threads: Optional[int] = None
) -> List[Explanation]:
    """Sudoku Explainer's step path of every puzzle, as ``sudoku-batch explain`` gives it: one
    dict per puzzle, in input order.

    Each dict holds the CLI's JSON fields but ``line``: ``puzzle`` (the 81-character line, ``.``
    for blanks; ``None`` when the row is not a grid), ``status`` (the CLI's word: ``"solved"``,
    ``"multiple"``, ``"unsolvable"``, ``"invalid"`` or ``"gave-up"``), ``er``, ``ep``, ``ed``
    (floats, one decimal as SE prints them), ``er_technique``, ``steps`` and ``error`` (the
    reason of an invalid or gave-up row). Where there is no rating, ``er`` ... ``steps`` are
    ``None`` (the CLI's ``null``).

    Each step is ``{"technique", "rating", "text", "placements", "eliminations"}``: SE's
    technique name, the step's rating, SE's one-line description, the cells it fills and the
    candidates it removes as ``(cell, digit)`` tuples, cells 0 (r1c1) to 80 (r9c9) row by row,
    digits 1-9. A placement also removes its digit from the cell's 20 peers. Replaying the steps
    from the givens reaches the solution.

    Args:
        puzzles: as for :func:`solve`.
        se_budget: the most work a puzzle may take (``--se-budget``; ``None``:
            ``DEFAULT_SE_BUDGET``); one that needs more gets ``"gave-up"`` and the reason.
        threads: worker threads, 1 to 1024; ``None`` (or 0) for one per core. The result does
            not depend on it.

    Raises:
        ValueError: ``puzzles`` is not a puzzle container, or an option is out of range. A bad
            *row* never raises: it is ``"invalid"``.
    """
    return _native.explain_many(_rows(puzzles), se_budget=se_budget, threads=threads)


def explain(
    puzzle: Union[str, bytes, np.ndarray, Sequence[int]], *, se_budget: Optional[int] = None
) -> Explanation:
    """Sudoku Explainer's rating and step path of one puzzle: a dict as :func:`explain_many`
    gives for each.

    Args:
        puzzle: an 81-character line (``str`` or ``bytes``), or 81 cells (an array of shape
            ``(81,)`` or ``(9, 9)``, or a sequence of ints; 0 = blank).
        se_budget: as for :func:`explain_many`.

    Raises:
        ValueError: ``puzzle`` is not one puzzle (a list of strings, a wrong shape, cells
            outside 0-255). A puzzle that breaks a rule is ``"invalid"``, not an exception.
    """
    if isinstance(puzzle, (str, bytes)):
        rows: Puzzles = [puzzle]
    else:
        try:
            a = np.asarray(puzzle)
        except (TypeError, ValueError) as e:
            what = type(puzzle).__name__
            raise ValueError(f"puzzle must be an 81-character string or 81 cells; got {what}") from e
        if a.size != 81 or a.ndim not in (1, 2) or (a.ndim == 2 and a.shape != (9, 9)):
            raise ValueError(
                "puzzle must be an 81-character string or 81 cells (shape (81,) or (9, 9)); "
                f"got shape {a.shape}: for many puzzles use explain_many"
            )
        if a.dtype != np.uint8:
            if a.dtype.kind not in "iu" or a.min() < 0 or a.max() > 255:
                raise ValueError(
                    f"puzzle's cells must be integers 0-9 (0 = blank); got dtype {a.dtype}"
                    + (f" with values {a.min()}..{a.max()}" if a.dtype.kind in "iu" else "")
                )
            a = a.astype(np.uint8)
        rows = np.ascontiguousarray(a.reshape(1, 81))
    return explain_many(rows, se_budget=se_budget)[0]


def canon(puzzles: Puzzles, *, threads: Optional[int] = None) -> CanonResult:
    """The minlex canonical form of every puzzle, as ``sudoku-batch canon`` writes it.

    Two puzzles are equivalent (relabeling, transposition, band/row/stack/column permutations)
    exactly when their canonical rows are equal, so ``np.unique(result.canonical, axis=0,
    return_index=True)`` deduplicates a corpus up to equivalence.

    Args:
        puzzles: as for :func:`solve`.
        threads: worker threads, 1 to 1024; ``None`` (or 0) for one per core.
    """
    r = _native.canon(_rows(puzzles), threads=threads)
    return CanonResult(**r)


ClassTarget = Union[str, int, Sequence[Union[str, int]]]


def generate(
    n: int,
    *,
    seed: Optional[int] = None,
    minimal: bool = True,
    symmetry: str = "none",
    clues: Union[None, int, Tuple[int, int]] = None,
    class_: Optional[ClassTarget] = None,
    rating: Union[None, float, Tuple[float, float]] = None,
    samples: int = _native.DEFAULT_SAMPLES,
    max_tries: int = 10_000,
    start: int = 0,
    threads: Optional[int] = None,
) -> GenerateResult:
    """Generates ``n`` puzzles as ``sudoku-batch generate n --format csv`` does, with the same
    options, fields and output for the same seed.

    Every puzzle is proven to have exactly one solution. Puzzle ``i`` (``start`` ... ``start +
    n - 1``) is a function of ``seed`` and ``i`` alone, so the result is the same for any
    ``threads``, and ``start`` makes disjoint slices of one reproducible set.

    Args:
        n: how many puzzles.
        seed: the run's seed (``--seed``); ``None`` draws one, kept in ``result.seed``.
        minimal: remove givens until none can go (``False``: ``--no-minimal``).
        symmetry: the clue pattern's symmetry: ``"none"``, ``"rot180"``, ``"rot90"``,
            ``"mirror"``, ``"diagonal"`` or ``"any"`` (one of the four drawn per puzzle).
        clues: keep only puzzles with this many givens: ``k`` or ``(lo, hi)`` (``--clues``).
        class_: keep only puzzles of these classes: a name (``"expert"``), a code
            (``sb.EXPERT``) or a sequence of them (``--class``).
        rating: keep only puzzles whose rating lies in ``(lo, hi)`` (``--rating``; a number
            ``x`` means ``(x, x)``).
        samples: transforms a rating averages over (``--samples``).
        max_tries: tries per puzzle before giving up on it (``--max-tries``).
        start: the first index (``--start``).
        threads: worker threads, 1 to 1024; ``None`` (or 0) for one per core. The result does
            not depend on it.

    Returns:
        A :class:`GenerateResult` of arrays.

    Raises:
        ValueError: a target no puzzle can meet (fewer than 17 clues, an empty range, more
            than 40 clues for minimal puzzles, ...), an unknown symmetry or class, or an option
            out of range: the CLI's usage errors.
        GenerateError: a puzzle found no try meeting the targets within ``max_tries``; it
            holds the puzzles before it.
    """
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    for name, v in (("seed", seed), ("start", start)):
        if not 0 <= operator.index(v) < 2**64:
            raise ValueError(f"{name} must be in 0 .. 2**64 - 1; got {v}")
    if isinstance(clues, int):
        clues = (clues, clues)
    if isinstance(rating, (int, float)):
        rating = (float(rating), float(rating))
    classes: Optional[List[str]] = None
    if class_ is not None:
        items = [class_] if isinstance(class_, str) or not hasattr(class_, "__iter__") else list(class_)
        classes = [_class_name(c) for c in items]
    r = _native.generate(
        n,
        seed=seed,
        minimal=minimal,
        symmetry=symmetry,
        clues=clues,
        class_=classes,
        rating=rating,
        samples=samples,
        max_tries=max_tries,
        start=start,
        threads=threads,
    )
    exhausted = r.pop("exhausted")
    result = GenerateResult(**r)
    if exhausted is not None:
        index, tries = exhausted
        raise GenerateError(
            f"puzzle {index} found no try meeting the targets in {tries} tries "
            f"(max_tries); {len(result)} puzzles were made before it",
            index,
            result,
        )
    return result


def _class_name(c: Union[str, int]) -> str:
    if isinstance(c, str):
        return c.strip().lower()
    c = operator.index(c)
    if 0 <= c < len(CLASS_NAMES):
        return CLASS_NAMES[c]
    raise ValueError(f"class code {c} is not one of 0-{len(CLASS_NAMES) - 1} (sb.SIMPLE ... sb.EXPERT)")


def read(path: PathLike, *, format: Optional[str] = None, column: Optional[str] = None) -> ReadResult:
    """Reads the usable puzzles of a file with the CLI's reader.

    Any format the CLI reads, told from the file as the CLI tells it when ``format`` is
    ``None``: one puzzle per line, 9x9 blocks (``format="block"``), JSON boards (``"json"``),
    CSV with the puzzle in a named column (``format="csv"``, or a ``.csv`` name; ``column``
    defaults to the first of ``quizzes``, ``puzzle``, ``puzzles``); gzip and zstd are
    decompressed on the fly. Blank lines and ``#`` comments are skipped; records that are not
    usable puzzles are listed in ``skipped`` with their line and reason.

    Raises:
        OSError: the file cannot be opened or read.
    """
    r = _native.read(os.fspath(path), format=format, column=column)
    return ReadResult(**r)


def solve_file(
    path: PathLike,
    out: PathLike,
    *,
    limit: int = 2,
    first: bool = False,
    max_guesses: Optional[int] = None,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    output: str = "csv",
    timing: bool = False,
) -> Dict[str, float]:
    """``sudoku-batch solve PATH -o OUT``: streams a file of any size through the CLI's pipeline.

    Memory stays bounded whatever the file size; rows are written in input order to ``OUT``
    (through ``OUT.partial``, renamed when complete), byte for byte as the CLI writes them with
    ``--no-timing`` (``timing=True`` fills ``solve_ns``). ``output`` is ``"csv"`` or
    ``"jsonl"``.

    Returns:
        The summary: rows per status word, ``puzzles`` (total) and ``seconds`` (wall time).
    """
    return _native.solve_file(
        os.fspath(path),
        os.fspath(out),
        limit=limit,
        first=first,
        max_guesses=max_guesses,
        threads=threads,
        format=format,
        column=column,
        output=output,
        timing=timing,
    )


def rate_file(
    path: PathLike,
    out: PathLike,
    *,
    samples: int = _native.DEFAULT_SAMPLES,
    seed: int = 0,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    output: str = "csv",
    se: bool = False,
    se_budget: Optional[int] = None,
) -> Dict[str, float]:
    """``sudoku-batch rate PATH -o OUT`` (``se=True``: ``--se``, ``se_budget``:
    ``--se-budget``), streamed like :func:`solve_file`."""
    return _native.rate_file(
        os.fspath(path),
        os.fspath(out),
        samples=samples,
        seed=seed,
        threads=threads,
        format=format,
        column=column,
        output=output,
        se=se,
        se_budget=se_budget,
    )


def explain_file(
    path: PathLike,
    out: PathLike,
    *,
    se_budget: Optional[int] = None,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    output: str = "jsonl",
) -> Dict[str, float]:
    """``sudoku-batch explain PATH -o OUT`` (``se_budget``: ``--se-budget``), streamed like
    :func:`solve_file`; ``output`` is ``"jsonl"`` (the default), ``"csv"`` or ``"text"`` (SE's
    own descriptions)."""
    return _native.explain_file(
        os.fspath(path),
        os.fspath(out),
        se_budget=se_budget,
        threads=threads,
        format=format,
        column=column,
        output=output,
    )


def canon_file(
    path: PathLike,
    out: PathLike,
    *,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    output: str = "csv",
    transform: bool = False,
) -> Dict[str, float]:
    """``sudoku-batch canon PATH -o OUT`` (``transform=True``: ``--transform``), streamed like
    :func:`solve_file`."""
    return _native.canon_file(
        os.fspath(path),
        os.fspath(out),
        threads=threads,
        format=format,
        column=column,
        output=output,
        transform=transform,
    )


def _opt_path(p: Optional[PathLike]) -> Optional[str]:
    return None if p is None else os.fspath(p)


def export_hf(
    train: PathLike,
    test: PathLike,
    out: PathLike,
    *,
    valid: Optional[PathLike] = None,
    force: bool = False,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    solution_column: Optional[str] = None,
    compression: str = "zstd",
    rows_per_file: int = 1_000_000,
    quiet: bool = True,
) -> Dict[str, Any]:
    """``sudoku-batch export --to hf``: the splits as a Hugging Face dataset folder ``out``
    (Parquet files per split and a ``README.md`` card), loadable with
    ``datasets.load_dataset(out)``.

    ``train``, ``test`` (and ``valid``) are puzzle files, CSV rows or Parquet files (``solve`` or
    ``rate`` output, or any table with a puzzle column: its other columns travel along, typed).
    Only puzzles with exactly one solution are exported, with it; the others are counted by
    reason and listed in ``out/left_out.csv``. ``out`` must not exist (``force=True`` replaces an
    earlier export). Returns the report: ``{"dir", "layout", "seconds", "splits": {"train":
    {"input", "read", "puzzles", "examples", "left_out": {reason: count}}, ...}}``. Raises
    ``OSError`` when an input cannot be read or ``out`` cannot be written."""
    return _native.export_hf(
        os.fspath(train),
        os.fspath(test),
        os.fspath(out),
        valid=_opt_path(valid),
        force=force,
        threads=threads,
        format=format,
        column=column,
        solution_column=solution_column,
        compression=compression,
        rows_per_file=rows_per_file,
        quiet=quiet,
    )


def export_hrm(
    train: PathLike,
    test: PathLike,
    out: PathLike,
    *,
    valid: Optional[PathLike] = None,
    augment: int = 0,
    seed: int = 0,
    force: bool = False,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    solution_column: Optional[str] = None,
    quiet: bool = True,
) -> Dict[str, Any]:
    """``sudoku-batch export --to hrm``: the splits in the layout of HRM's
    ``build_sudoku_dataset.py`` (TRM reads it too): per split ``all__inputs.npy`` and
    ``all__labels.npy`` (``uint8 [N, 81]``, blank 1, digit d d+1), ``all__puzzle_identifiers.npy``,
    ``all__puzzle_indices.npy``, ``all__group_indices.npy`` (``int32``), ``dataset.json`` and
    ``examples.csv``; ``identifiers.json`` at the top.

    ``augment=K`` puts K random equivalent copies of each training puzzle in its group, drawn
    from ``seed`` and the puzzle (the same arrays whatever ``threads``); ``examples.csv`` records
    each copy's transform. Inputs, left-out records, ``force`` and the report as
    :func:`export_hf`."""
    return _native.export_hrm(
        os.fspath(train),
        os.fspath(test),
        os.fspath(out),
        valid=_opt_path(valid),
        augment=augment,
        seed=seed,
        force=force,
        threads=threads,
        format=format,
        column=column,
        solution_column=solution_column,
        quiet=quiet,
    )


def sample(
    source: Union[PathLike, Puzzles],
    *,
    by: str,
    per_band: int,
    bands: Optional[Union[str, Sequence[Union[float, int, str]]]] = None,
    seed: int = 0,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    column: Optional[str] = None,
    out: Optional[PathLike] = None,
    output: str = "csv",
) -> SampleResult:
    """``sudoku-batch sample``: a reproducible stratified sample, up to ``per_band`` rows per band
    of a value, the same rows on any machine and with any ``threads``.

    ``source`` is a file (a path: rows as ``rate`` writes them, CSV, JSON lines or Parquet, or
    plain puzzles, read as the CLI reads them; ``format`` and ``column`` as its
    ``--input-format`` and ``--column``) or puzzles (a ``(N, 81)`` uint8 array or a sequence of
    strings, as :func:`rate` takes them), whose values are computed as :func:`rate` computes them
    (``se=True`` for er, ep, ed) and whose kept rows are ``rate``'s CSV rows.

    ``by`` is ``"er"``, ``"ep"``, ``"ed"``, ``"rating"``, ``"clues"`` or ``"class"``. ``bands``
    gives the edges (``"1.2,2.0"`` or ``[1.2, 2.0]``; written as given in the band names): bands
    ``<E1``, ``[E1,E2)``, ..., ``>=En``. It defaults to ``1.2,2.0,4.0,6.2,7.5,8.5,9.5`` for
    er/ep/ed, is required for rating and clues, and not taken for class (one band per class).
    Each band keeps the rows with the smallest seeded hash of their puzzle (a uniform sample
    without replacement that does not depend on order or shards). Rows without a value (not
    ``solved``, an empty value, an unreadable puzzle) are counted in ``skipped``.

    With ``out`` (files only), the sample is also written there as the CLI's ``-o OUT``
    (``output``: ``"csv"``, ``"jsonl"`` or ``"parquet"``; no provenance record).

    Raises:
        ValueError: a bad argument (``by``, ``bands``, ``per_band``, ``format``, the puzzles'
            container).
        OSError: the file cannot be read, is not of one kind, or ``out`` cannot be written.
    """
    if isinstance(bands, str):
        edges: Optional[List[str]] = [b.strip() for b in bands.split(",")]
    elif bands is not None:
        edges = [str(b) for b in bands]
    else:
        edges = None
    if isinstance(source, (str, os.PathLike)):
        r = _native.sample_file(
            os.fspath(source),
            by=by,
            per_band=per_band,
            bands=edges,
            seed=seed,
            threads=threads,
            format=format,
            column=column,
            out=None if out is None else os.fspath(out),
            output=output,
        )
    else:
        if out is not None or format is not None or column is not None:
            raise ValueError("out, format and column are for a file; puzzles were given")
        r = _native.sample_puzzles(
            _rows(source), by=by, per_band=per_band, bands=edges, seed=seed, threads=threads
        )
    r["band_names"] = tuple(r["band_names"])
    return SampleResult(**r)
