//! The production engine behind [`crate::engine::solve`] and
//! [`crate::engine::solve_candidates`]: band bitboards. The design — every trick with what it was
//! worth — is in `docs/engine.md`; what was tried and not kept, with its numbers, in
//! `docs/experiments/engine.md`.
//!
//! Representation: for every digit and band (three rows) one `u32` holds the cells where the
//! digit can still go, bit `9·row + col`; 27 words (`3·digit + band`) plus bookkeeping make a
//! 384-byte `Copy` [`State`] cloned on a guess. Rules about one digit inside a band are table
//! look-ups on its word; columns are the only thing passed between a digit's three words.
//!
//! The files, one concern each (each file's note says which tricks live there):
//! - `mod.rs`: the entry points [`solve`], [`solve_candidates`] and [`Solution`] (the subset
//!   start), [`run`] from a start state, the SIMD path's name and the search's tuning
//!   constants.
//! - `tables.rs`: the const lookup tables (`LC` under `minirow_hash`, `COL_SINGLE`, `CLAIM`,
//!   `PEER_WORDS`, `PERMS`, `ROW_INFO`, `SPREAD3`, `ROW_POP` …) and the bit helpers their
//!   builders share.
//! - `simd.rs`: each SSE2 helper beside its portable twin (value and given words, candidate
//!   counts, solved digits, the stale mask, the vector first sweep), and the macro that picks
//!   one; all of the engine's `unsafe`.
//! - `state.rs`: [`State`] from a start to a fixpoint: set-up, word updates and their sweeps,
//!   column claiming, naked singles, propagation.
//! - `branch.rs`: at a fixpoint (the branch point), the triad rules, a branch on a digit's two
//!   configurations or the cell to guess.
//! - `search.rs`: the depth-first search and its counting ([`Ctx`]).
//! - `tests.rs`: the unit tests, which among other things hold each SIMD helper equal to its
//!   portable twin.

mod branch;
mod search;
mod simd;
mod state;
mod tables;
#[cfg(test)]
mod tests;

use super::candidates::Candidates;
use super::solved::Solved;
use crate::grid::Grid;
use search::{search, Ctx};
use state::State;

/// The engine's SIMD path, as [`crate::engine::simd_path`] reports it.
pub(crate) const SIMD_PATH: &str = if cfg!(all(target_arch = "x86_64", target_feature = "sse2")) {
    "sse2"
} else {
    "portable"
};

/// All 27 words, as a word mask.
const ALL_WORDS: u32 = (1 << 27) - 1;

/// Below this many open cells a branch point guesses a cell without the triad rules or
/// configurations (docs/engine.md: 35 against 30, 40, 45 and none).
const OPEN_FLOOR: u32 = 35;

/// A puzzle whose first branch point has at least this many open cells, or fewer than
/// [`EAGER_PAIRS`] bivalue cells, branches on configurations from the start; any other guesses
/// cells until its first dead end (**configurations on demand**, docs/engine.md).
const EAGER_OPEN: u32 = 50;

/// See [`EAGER_OPEN`].
const EAGER_PAIRS: u32 = 8;

/// All 27 cells of a band.
const ALL: u32 = (1 << 27) - 1;

/// Counts the solutions of `grid` up to `limit`, giving up after `max_guesses` guesses. The
/// contract is [`crate::engine::solve_with_budget`]'s.
pub(crate) fn solve(grid: &Grid, limit: u32, max_guesses: u64) -> Solved {
    run(State::from_grid(grid), limit, max_guesses)
}

/// Counts the solutions of the candidate sets `c` up to `limit`, giving up after `max_guesses`
/// guesses. The contract is [`crate::engine::solve_candidates`]'s.
pub(crate) fn solve_candidates(c: &Candidates, limit: u32, max_guesses: u64) -> Solved {
    run(State::from_candidates(c), limit, max_guesses)
}

/// A complete valid grid `S` as band words, for [`State::from_subset`]: the engine side of
/// [`crate::engine::Subpuzzles`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Solution {
    /// The cells of each digit per band, index `3·digit + band`.
    words: [u32; 27],
    /// The grid's digits.
    digits: [u8; 81],
}

impl Solution {
    /// `None` unless `grid` is complete and valid.
    pub(crate) fn new(grid: &Grid) -> Option<Solution> {
        if !grid.is_solution_of(&Grid::EMPTY) {
            return None;
        }
        let mut words = [0u32; 27];
        for (cell, &v) in grid.cells().iter().enumerate() {
            words[3 * (v as usize - 1) + cell / 27] |= 1 << (cell % 27);
        }
        Some(Solution {
            words,
            digits: *grid.cells(),
        })
    }

    /// Counts the solutions of the puzzle with givens `givens` (bit `i`: cell `i` holds `S`'s
    /// digit, the rest blank) up to `limit`; with `exclude`, only those whose cell `exclude`
    /// does not hold `S`'s digit.
    #[inline]
    pub(crate) fn solve(&self, givens: u128, exclude: Option<usize>, limit: u32) -> Solved {
        let mut s = State::from_subset(self, givens);
        if let Some(c) = exclude.filter(|&c| c < 81) {
            let d = self.digits[c] as usize - 1;
            s.cells[3 * d + c / 27] &= !(1 << (c % 27));
        }
        run(Some(s), limit, u64::MAX)
    }
}

/// Searches from a start state (`None`: contradictory from the start, 0 solutions).
#[inline(always)]
fn run(start: Option<State>, limit: u32, max_guesses: u64) -> Solved {
    let mut ctx = Ctx {
        limit: limit.max(1),
        solutions: 0,
        first: None,
        guesses: 0,
        max_guesses,
        gave_up: false,
        configs: None,
    };
    if let Some(mut state) = start {
        if let Some(dirty) = state.first_sweep() {
            search(&mut state, dirty, &mut ctx);
        }
    }
    Solved {
        solutions: ctx.solutions,
        first: ctx.first,
        guesses: ctx.guesses,
        gave_up: ctx.gave_up,
    }
}
