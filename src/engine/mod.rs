//! The engine's interface: one call, [`solve`], that counts a grid's solutions up to a limit,
//! returns the first one and says how many guesses it took.
//! A second entry, [`solve_candidates`], starts from candidate sets ([`Candidates`], tdoku's
//! pencilmark line) instead of givens, with the same [`Solved`] contract.
//!
//! The interface is deliberately tiny — a `&Grid`, a limit, and a [`Solved`] value back — so the
//! pipeline, `bench` and `verify` never see the engine's representation, and an engine can be
//! replaced without touching them. Behind it today is the band-bitboard engine of the private
//! `bitboard` module (its docs explain the representation and where each trick lives); the
//! design — every trick with what it was worth — is in `docs/engine.md`, and what was tried and
//! dropped in `docs/experiments/engine.md`. Nothing in a solve call allocates: the whole search state is a fixed-size
//! `Copy` struct on the stack. The first engine, a per-cell mask solver, stays as `oracle`, a
//! test-only reference that the bitboard engine is checked against on whole corpora.

mod bitboard;
mod candidates;
#[cfg(test)]
pub(crate) mod oracle;
mod solved;

use crate::grid::Grid;
pub use candidates::Candidates;
pub use solved::Solved;

/// The SIMD code path the engine was built with: `sse2` on x86-64 (its stale-word mask is
/// computed with SSE2 compares, part of every x86-64 CPU), `portable` elsewhere.
pub fn simd_path() -> &'static str {
    bitboard::SIMD_PATH
}

/// Counts the solutions of `grid` up to `limit` (a limit of 0 counts as 1), returning the first
/// one found and the number of guesses made. A grid whose givens break a rule has 0 solutions.
///
/// ```
/// use sudoku_batch::{engine, Grid};
/// let p: Grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse().unwrap();
/// let r = engine::solve(&p, 2);
/// assert_eq!(r.solutions, 1);
/// assert_eq!(r.first.unwrap().to_line(),
///     "534678912672195348198342567859761423426853791713924856961537284287419635345286179");
/// assert_eq!(engine::solve(&Grid::EMPTY, 5).solutions, 5);
/// ```
#[inline]
pub fn solve(grid: &Grid, limit: u32) -> Solved {
    bitboard::solve(grid, limit, u64::MAX)
}

/// Like [`solve`], but gives up once `max_guesses` guesses have been made (`gave_up` is then
/// set), so that no puzzle can hold a batch up for long.
///
/// ```
/// use sudoku_batch::{engine, Grid};
/// let r = engine::solve_with_budget(&Grid::EMPTY, 1_000_000, 10);
/// assert!(r.gave_up);
/// assert_eq!(r.guesses, 10);
/// assert!(!engine::solve_with_budget(&Grid::EMPTY, 1, 1_000).gave_up);
/// ```
#[inline]
pub fn solve_with_budget(grid: &Grid, limit: u32, max_guesses: u64) -> Solved {
    bitboard::solve(grid, limit, max_guesses)
}

/// Counts the solutions of the candidate sets `candidates` (pencilmarks: the digits each cell
/// may hold) up to `limit`, giving up after `max_guesses` guesses; the [`Solved`] contract is
/// [`solve_with_budget`]'s, guesses counted the same way. Every solution respects every set. A
/// cell with no candidate, or two single-candidate cells holding one digit in a house, mean 0
/// solutions. For [`Candidates::from_grid`] the result is exactly [`solve_with_budget`]'s.
///
/// ```
/// use sudoku_batch::{engine::{self, Candidates}, Grid};
/// let p: Grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse().unwrap();
/// let c = Candidates::from_grid(&p);
/// assert_eq!(engine::solve_candidates(&c, 2, u64::MAX), engine::solve(&p, 2));
/// // Forbid the solution's 4 at r1c3: no solution is left.
/// let mut masks = *c.masks();
/// masks[2] &= !(1 << 3);
/// let none = Candidates::from_masks(masks).unwrap();
/// assert_eq!(engine::solve_candidates(&none, 2, u64::MAX).solutions, 0);
/// ```
#[inline]
pub fn solve_candidates(candidates: &Candidates, limit: u32, max_guesses: u64) -> Solved {
    bitboard::solve_candidates(candidates, limit, max_guesses)
}

/// A complete grid `S` prepared for many checks of its sub-puzzles — puzzles whose givens are
/// some of `S`'s cells — named by a cell mask (bit `i` for cell `i`, row-major) instead of a
/// [`Grid`]. The start state is built from `S`'s digit masks rather than cell by cell, which is
/// what `generate`'s removal walk needs: it checks dozens of sub-puzzles of one solution.
///
/// ```
/// use sudoku_batch::{engine::{self, Subpuzzles}, Grid};
/// let p: Grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse().unwrap();
/// let s = engine::solve(&p, 1).first.unwrap();
/// let sub = Subpuzzles::new(&s).unwrap();
/// let givens = (0..81).filter(|&i| p.cells()[i] != 0).fold(0u128, |m, i| m | 1 << i);
/// assert_eq!(sub.solve(givens, 2), engine::solve(&p, 2));
/// // Without r1c1's 5 the puzzle is still unique: no solution puts another digit there.
/// assert_eq!(sub.solve_without(givens & !1, 0, 1).solutions, 0);
/// // Without every given, other solutions abound.
/// assert_eq!(sub.solve_without(0, 0, 1).solutions, 1);
/// assert!(Subpuzzles::new(&p).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subpuzzles(bitboard::Solution);

impl Subpuzzles {
    /// Prepares `solution`; `None` unless it is a complete valid grid.
    pub fn new(solution: &Grid) -> Option<Subpuzzles> {
        bitboard::Solution::new(solution).map(Subpuzzles)
    }

    /// Counts the solutions of the sub-puzzle with givens `givens` up to `limit`, exactly as
    /// [`solve`] on that puzzle would (same count, first solution and guesses). Bits above 80
    /// are ignored.
    #[inline]
    pub fn solve(&self, givens: u128, limit: u32) -> Solved {
        self.0.solve(givens, None, limit)
    }

    /// Counts the solutions of the sub-puzzle with givens `givens` in which cell `cell` does not
    /// hold `S`'s digit, up to `limit`. With `cell` blank, `solve_without(givens, cell, 1)`
    /// finds a solution other than `S` or proves there is none: the uniqueness check after
    /// removing one given, cheaper than counting to 2 since the search never enters `S`'s
    /// branch. A `cell` above 80 excludes nothing.
    #[inline]
    pub fn solve_without(&self, givens: u128, cell: usize, limit: u32) -> Solved {
        self.0.solve(givens, Some(cell), limit)
    }
}
