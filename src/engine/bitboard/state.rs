//! [`State`], the 384-byte `Copy` state of the search, and what runs on it between two branch
//! points: the start states, placing a digit, the word updates and their sweeps, column
//! claiming, naked singles and propagation to a fixpoint. What happens at a fixpoint is
//! `branch.rs`'s, which adds its methods to [`State`] in an `impl` block of its own.
//!
//! Where each trick lives:
//! - `State::from_grid` (batch givens, by `simd.rs`), `State::from_subset` (subset start),
//!   `State::from_candidates` (pencilmark start).
//! - `State::update`, `State::update_all`, `State::stale`: stale-word sweeps with a SIMD mask;
//!   the first sweep of a round takes the words its caller reports changed, and a start
//!   state's first sweep is one vector pass (`State::first_sweep`).
//! - `State::claim_columns`, `State::cols`, `State::claim_due`: column claiming once per
//!   round, from stored folds, for due digits only.
//! - `State::naked_singles`: bit-sliced candidate counts; the bivalue cells are kept in
//!   `State::pairs` for guessing.

use super::simd::{candidate_counts, given_words, simd_or_portable, solved_digits, value_words};
// The twins `simd_or_portable!` calls: the SSE2 ones where there is SSE2, the portable ones
// elsewhere and in unit tests.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
use super::simd::{first_sweep_portable, stale_portable};
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use super::simd::{first_sweep_sse2, stale_sse2};
use super::tables::{
    columns, minirow_hash, other_bands, row_presence, spread_columns, BAND_PEERS, BOX_CELLS, CLAIM,
    COL_SINGLE, LC, PEER_WORDS, ROW_FILL,
};
use super::{Solution, ALL};
use crate::engine::candidates::Candidates;
use crate::grid::Grid;

#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct State {
    /// Candidate cells per digit and band, index `3·digit + band`.
    pub(super) cells: [u32; 27],
    /// Each word as last examined by [`State::update`]; a word differing from it is stale.
    pub(super) prev: [u32; 27],
    /// Cells not yet placed, per band.
    pub(super) unsolved: [u32; 3],
    /// Bivalue cells per band, as of the last naked-singles pass.
    pub(super) pairs: [u32; 3],
    /// Column presence of each word as last examined by [`State::update`].
    pub(super) cols: [u16; 27],
    /// Mini-row matrix (bit `3·row + box`) of each word as last examined by [`State::update`].
    pub(super) mr: [u16; 27],
    /// Digits with a column presence changed since their last claiming pass.
    pub(super) claim_due: u32,
}

impl State {
    /// The state with all givens placed (batch givens), or `None` when two givens conflict.
    ///
    /// **Branch-free setup.** No step depends on whether a cell is blank: the givens are
    /// sorted into words by value with compares ([`value_words`]), and each word's row and box
    /// peers are filled in from its rows and boxes that hold a given. A branch per cell on a
    /// puzzle's random pattern of givens mispredicted about 38 times a puzzle (cachegrind's
    /// branch simulation), a fifth of an easy puzzle's whole solve.
    pub(super) fn from_grid(grid: &Grid) -> Option<State> {
        let words = value_words(grid.cells());
        Some(State {
            cells: given_words(&words)?,
            prev: [0; 27],
            unsolved: [words[0], words[1], words[2]],
            pairs: [0; 3],
            cols: [0; 27],
            mr: [0; 27],
            claim_due: 0x1ff,
        })
    }

    /// The state of the puzzle with givens `givens` (bit `i` = cell `i`) of the complete grid
    /// `sol` (**subset start**): exactly [`State::from_grid`]'s for that puzzle, computed from
    /// the solution's words — no per-cell pass, and no conflict to look for.
    #[inline(always)]
    pub(super) fn from_subset(sol: &Solution, givens: u128) -> State {
        let m = [
            givens as u32 & ALL,
            (givens >> 27) as u32 & ALL,
            (givens >> 54) as u32 & ALL,
        ];
        let mut s = State {
            cells: [0; 27],
            prev: [0; 27],
            unsolved: [ALL & !m[0], ALL & !m[1], ALL & !m[2]],
            pairs: [0; 3],
            cols: [0; 27],
            mr: [0; 27],
            claim_due: 0x1ff,
        };
        for d in 0..9 {
            let i = 3 * d;
            let g = [
                sol.words[i] & m[0],
                sol.words[i + 1] & m[1],
                sol.words[i + 2] & m[2],
            ];
            let cols = g.map(|w| spread_columns(columns(w)));
            for b in 0..3 {
                let (o1, o2) = other_bands(b);
                // A digit's givens in a band: at most one per row and per box; their rows and
                // boxes are blocked (the givens themselves come back below).
                let w = g[b];
                let rows = ROW_FILL[row_presence(w) as usize];
                let blocked = rows | BOX_CELLS[columns(w) as usize] | cols[o1] | cols[o2];
                s.cells[i + b] = (ALL & !(m[b] | blocked)) | w;
            }
        }
        s
    }

    /// The state for candidate sets (**pencilmark start**): the single-candidate cells are
    /// placed as givens by [`State::from_grid`] (so two of them with one digit in a house are a
    /// conflict), then every word keeps only the cells whose set allows its digit. `None` when
    /// a cell has no candidate or two singles conflict. For the sets of a grid every word is
    /// kept whole, so the state, and the search, are exactly [`State::from_grid`]'s.
    pub(super) fn from_candidates(c: &Candidates) -> Option<State> {
        let mut givens = [0u8; 81];
        let mut allowed = [0u32; 27];
        for (cell, &m) in c.masks().iter().enumerate() {
            if m == 0 {
                return None;
            }
            if m & (m - 1) == 0 {
                givens[cell] = m.trailing_zeros() as u8 + 1;
            }
            let (b, bit) = (cell / 27, 1u32 << (cell % 27));
            let mut m = m as u32;
            while m != 0 {
                allowed[3 * m.trailing_zeros() as usize + b] |= bit;
                m &= m - 1;
            }
        }
        let mut s = State::from_grid(&Grid::from_cells(givens)?)?;
        for (w, a) in s.cells.iter_mut().zip(allowed) {
            *w &= a;
        }
        Some(s)
    }

    /// Places digit `d` at the single cell `bit` of band `b` by clearing its band peers; the
    /// rest (column, other digits of the cell) follows in [`State::update`].
    #[inline(always)]
    pub(super) fn assign(&mut self, d: usize, b: usize, bit: u32) {
        self.cells[3 * d + b] &= !BAND_PEERS[bit.trailing_zeros() as usize];
    }

    /// Re-examines word `sb`: permutation table, column pointing, solved cells.
    /// `false` on contradiction.
    #[inline(always)]
    fn update(&mut self, sb: usize) -> bool {
        let [o1, o2, b, d] = PEER_WORDS[sb];
        let b = b as usize;
        let lc = LC[minirow_hash(self.cells[sb])];
        let x = self.cells[sb] & lc.keep;
        if x == 0 {
            return false;
        }
        let cols = columns(x);
        let old = self.cols[sb] as u32;
        self.cols[sb] = cols as u16;
        self.claim_due |= ((old != cols) as u32) << d;
        let point = COL_SINGLE[cols as usize];
        self.cells[o1 as usize] &= !point;
        self.cells[o2 as usize] &= !point;
        // Solved cells leave the other digits' words; unconditionally, since a branch on
        // "anything newly solved" is unpredictable and measured no faster.
        let solved = x & lc.single_row & point;
        self.unsolved[b] &= !solved;
        for k in 0..9 {
            self.cells[3 * k + b] &= !solved;
        }
        // The table is idempotent, so `x` needs no second look until something else changes it.
        self.cells[sb] = x;
        self.prev[sb] = x;
        self.mr[sb] = lc.kept;
        true
    }

    /// The first sweep of a start state, where every word is examined: the vector pass
    /// [`first_sweep_sse2`] where there is SSE2, else nothing (the sweep does it). The words
    /// the next sweep must examine, or `None` on contradiction.
    #[inline(always)]
    pub(super) fn first_sweep(&mut self) -> Option<u32> {
        simd_or_portable!(first_sweep_sse2, first_sweep_portable, self)
    }

    /// The stale words as a 27-bit mask (bit `sb` set when word `sb` changed since examined).
    #[inline(always)]
    pub(super) fn stale(&self) -> u32 {
        simd_or_portable!(stale_sse2, stale_portable, &self.cells, &self.prev)
    }

    /// Sweeps [`State::update`] over stale words until none is left. `false` on
    /// contradiction.
    #[inline(always)]
    fn update_all(&mut self, dirty: u32) -> bool {
        // The first sweep takes the words the caller changed (**known first sweep**); only the
        // later ones compare every word.
        debug_assert_eq!(self.stale() & !dirty, 0, "a changed word was not reported");
        let mut mask = dirty;
        loop {
            while mask != 0 {
                let sb = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                if !self.update(sb) {
                    return false;
                }
            }
            mask = self.stale();
            if mask == 0 {
                return true;
            }
        }
    }

    /// Column claiming, once per propagation round rather than in every update (same
    /// inferences, fewer instructions). `None` on contradiction, else whether anything changed.
    #[inline(always)]
    fn claim_columns(&mut self) -> Option<u32> {
        let mut changed = 0u32;
        let mut due = self.claim_due;
        self.claim_due = 0;
        while due != 0 {
            let d = due.trailing_zeros() as usize;
            due &= due - 1;
            let i = 3 * d;
            let (x, y, z) = (self.cells[i], self.cells[i + 1], self.cells[i + 2]);
            // Column folds as of each word's last update: at this fixpoint, the words as they are.
            let (cx, cy, cz) = (
                self.cols[i] as u32,
                self.cols[i + 1] as u32,
                self.cols[i + 2] as u32,
            );
            debug_assert_eq!((cx, cy, cz), (columns(x), columns(y), columns(z)));
            if cx | cy | cz != 0x1ff {
                return None;
            }
            // The columns only this band holds: with all nine held, the ones the other two
            // bands miss (written so the index is visibly below 512: no bounds check).
            debug_assert_eq!(!(cy | cz) & 0x1ff, cx & !(cy | cz));
            let x2 = x & CLAIM[(!(cy | cz) & 0x1ff) as usize];
            let y2 = y & CLAIM[(!(cx | cz) & 0x1ff) as usize];
            let z2 = z & CLAIM[(!(cx | cy) & 0x1ff) as usize];
            changed |= ((x != x2) as u32) << i
                | ((y != y2) as u32) << (i + 1)
                | ((z != z2) as u32) << (i + 2);
            self.cells[i] = x2;
            self.cells[i + 1] = y2;
            self.cells[i + 2] = z2;
        }
        Some(changed)
    }

    /// Bit-sliced counts per band: empty cells (contradiction), naked singles (placed),
    /// bivalue cells (kept for guessing). `None` on contradiction, else whether any single was
    /// placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Option<u32> {
        let mut found = 0;
        let [c1, c2, c3] = candidate_counts(&self.cells);
        if (c1[0] & c1[1] & c1[2]) != ALL {
            return None;
        }
        for b in 0..3 {
            self.pairs[b] = c2[b] & !c3[b];
            let mut singles = !c2[b] & self.unsolved[b];
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles &= singles - 1;
                let mut d = 0;
                while self.cells[3 * d + b] & bit == 0 {
                    d += 1;
                    if d == 9 {
                        // An earlier single of this pass took the cell's last candidate.
                        return None;
                    }
                }
                self.assign(d, b, bit);
                found |= 1 << (3 * d + b);
            }
        }
        Some(found)
    }

    /// Propagation to a fixpoint: updates, then claiming, then naked singles, until a round
    /// changes nothing. `false` on contradiction.
    #[inline(always)]
    pub(super) fn propagate(&mut self, mut dirty: u32) -> bool {
        loop {
            if !self.update_all(dirty) {
                return false;
            }
            if self.is_solved() {
                return true;
            }
            let Some(claimed) = self.claim_columns() else {
                return false;
            };
            let Some(placed) = self.naked_singles() else {
                return false;
            };
            dirty = claimed | placed;
            if dirty == 0 {
                return true;
            }
        }
    }

    #[inline(always)]
    pub(super) fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The grid of a solved state ([`solved_digits`]).
    pub(super) fn solution_grid(&self) -> Grid {
        debug_assert!(self
            .cells
            .iter()
            .all(|&w| { [0, 1, 2].map(|r| (w >> (9 * r) & 0x1ff).count_ones()) == [1; 3] }));
        Grid::from_cells(solved_digits(&self.cells)).expect("digits are 1..=9")
    }
}
