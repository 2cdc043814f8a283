//! What to do at a fixpoint of propagation (the **branch point**): the triad rules, then a
//! branch on a digit's two configurations, or else the cell to guess. More methods of
//! [`State`], in an `impl` block beside `state.rs`'s, and the small types they tally with and
//! return. Apart from propagation because they run once a fixpoint, not once an update, and
//! read the matrices and folds that the updates stored.
//!
//! Where each trick lives:
//! - `State::branch_point`: the triad rules (a mini-row or mini-column holds exactly three
//!   digits; `State::mr` stored by `update` from `Lc::kept`, `ROW_INFO` (a word's alone
//!   mini-rows and configuration count in one look-up), a `Tally` packing all bands, rows and
//!   columns), then a branch on a digit with two configurations in the band or stack with
//!   fewest (`PERMS`, `PERM_COUNT`, `SPREAD3`, `matrix_cells`); below `OPEN_FLOOR` open cells,
//!   none of it.
//! - `State::eager`: configurations on demand, from the first branch point.
//! - `State::pick_cell`: otherwise a bivalue cell of the densest band and row (`ROW_POP`);
//!   `State::second_cell`, the other cell of a paired guess.

use super::state::State;
use super::tables::{
    alone_minirows, matrix_cells, minirow_cells, minirow_peers, minirows, other_bands,
    other_bands_cols, spread_columns, BAND_PEERS, PERMS, PERM_COUNT, ROW_INFO, ROW_POP, SPREAD3,
};
use super::{ALL, EAGER_OPEN, EAGER_PAIRS, OPEN_FLOOR};

impl State {
    /// What to do at a fixpoint of [`State::propagate`] (**triads at the branch point**, then
    /// **configuration branching**). First the triad rules, which propagation does not run:
    /// each mini-row (three cells of a row inside a box) and each mini-column holds exactly
    /// three digits, so fewer than three candidates there, or more than three digits forced
    /// into it, is a contradiction; exactly three candidates are all forced into it (they
    /// leave the rest of its row or column and box); exactly three digits forced into it
    /// leave no room for the others. Then, as tdoku does, the band or stack with the fewest
    /// configurations (a digit's ways to take one mini-row per row, or mini-column per column)
    /// and in it a digit with exactly two: the two configurations are the branch.
    #[inline(always)]
    pub(super) fn branch_point(&mut self) -> Branch {
        // Near the leaves (**open-cell floor**) a cell guess or two finishes the puzzle and
        // the rules below cost more than they save.
        if band_count(self.unsolved) < OPEN_FLOOR {
            return Branch::Cell;
        }
        // Per digit, over all three bands at once (**packed tallies**: band `b` at bits
        // `9·b..`): its mini-row matrices (bit `3·row + box`) and its column folds. Rows sit
        // in the low half of the tally, columns in the high half, so one bit-sliced pass of
        // nine digits checks all 54 mini-rows and mini-columns.
        // Per digit, its configuration counts, a byte per unit: bands 0..3 (from
        // [`ROW_INFO`]), then stacks 3..6 (below, once the rules have changed nothing).
        let mut counts = [0u64; 9];
        let mut t = Tally::default();
        for (d, count) in counts.iter_mut().enumerate() {
            let i = 3 * d;
            // At a fixpoint every word is as its last update left it, and so is its matrix.
            debug_assert_eq!(
                [0, 1, 2].map(|k| self.mr[i + k] as usize),
                [0, 1, 2].map(|k| minirows(self.cells[i + k]))
            );
            let (m0, m1, m2) = (
                self.mr[i] as usize,
                self.mr[i + 1] as usize,
                self.mr[i + 2] as usize,
            );
            let info = ROW_INFO[0][m0 & 0x1ff] | ROW_INFO[1][m1 & 0x1ff] | ROW_INFO[2][m2 & 0x1ff];
            let m = self.packed_minirows(d);
            let c = self.packed_cols(d);
            *count = info >> 32;
            // Forced: the only mini-row of its row (`ROW_INFO`'s low half, `alone_minirows`);
            // the only band holding the column.
            let forced = info & ALL as u64 | ((c & !other_bands_cols(c)) as u64) << 32;
            t.add(m as u64 | (c as u64) << 32, forced);
        }
        let Some((naked, hidden)) = t.rules() else {
            return Branch::Dead;
        };
        let (rows_naked, rows_hidden) = (naked as u32, hidden as u32);
        if rows_naked | rows_hidden != 0 {
            for d in 0..9 {
                // Packed again: the rules fire at about one branch point in ten, and the
                // state's matrices are as the tally read them (only words changed since).
                let all = self.packed_minirows(d);
                let m = all & !alone_minirows(all);
                let mut n = m & rows_naked;
                while n != 0 {
                    let k = n.trailing_zeros() as usize;
                    n &= n - 1;
                    self.cells[3 * d + k / 9] &= !minirow_peers(k % 9);
                }
                let mut h = m & rows_hidden;
                while h != 0 {
                    let k = h.trailing_zeros() as usize;
                    h &= h - 1;
                    self.cells[3 * d + k / 9] &= !minirow_cells(k % 9);
                }
            }
            let dirty = self.stale();
            if dirty != 0 {
                return Branch::Again(dirty);
            }
        }
        let (cols_naked, cols_hidden) = ((naked >> 32) as u32, (hidden >> 32) as u32);
        if cols_naked | cols_hidden != 0 {
            for d in 0..9 {
                let all = self.packed_cols(d);
                let m = all & other_bands_cols(all);
                let mut n = m & cols_naked;
                while n != 0 {
                    let k = n.trailing_zeros() as usize;
                    n &= n - 1;
                    // Forced into column c of band b: the column leaves the other bands,
                    // the box's other columns leave this band.
                    let (b, c) = (k / 9, k % 9);
                    let (b1, b2) = other_bands(b);
                    let col = spread_columns(1 << c);
                    let bx = spread_columns(7 << (3 * (c / 3)));
                    self.cells[3 * d + b] &= !(bx & !col);
                    self.cells[3 * d + b1] &= !col;
                    self.cells[3 * d + b2] &= !col;
                }
                let h = m & cols_hidden;
                for b in 0..3 {
                    self.cells[3 * d + b] &= !spread_columns((h >> (9 * b)) & 0x1ff);
                }
            }
            let dirty = self.stale();
            if dirty != 0 {
                return Branch::Again(dirty);
            }
        }
        // Configurations per digit: bands 0..3 by rows (already in `counts`), stacks 3..6 by
        // columns. A unit's total over nine digits is at most 54, so the six totals add up
        // bytewise in one word.
        let mut total = 0u64;
        for (d, k) in counts.iter_mut().enumerate() {
            // The digit's columns transposed (bit `3·column + band`): each stack's matrix is
            // then nine consecutive bits, transposed, which leaves the count unchanged.
            let t = SPREAD3[0][self.cols[3 * d] as usize & 0x1ff]
                | SPREAD3[1][self.cols[3 * d + 1] as usize & 0x1ff]
                | SPREAD3[2][self.cols[3 * d + 2] as usize & 0x1ff];
            let st = PERM_COUNT[t as usize & 0x1ff] as u64
                | (PERM_COUNT[(t >> 9) as usize & 0x1ff] as u64) << 8
                | (PERM_COUNT[(t >> 18) as usize & 0x1ff] as u64) << 16;
            *k |= st << 24;
            total += *k;
        }
        let mut best = usize::MAX;
        let mut least = u32::MAX;
        for k in 0..6 {
            let t = (total >> (8 * k)) as u32 & 0xff;
            if t > 9 && t < least {
                least = t;
                best = k;
            }
        }
        if best == usize::MAX {
            return Branch::Cell;
        }
        let Some(d) = (0..9).find(|&d| (counts[d] >> (8 * best)) & 0xff == 2) else {
            return Branch::Cell;
        };
        let mut a = [ALL; 3];
        let mut z = [ALL; 3];
        if best < 3 {
            let p = PERMS[self.mr[3 * d + best] as usize & 0x1ff];
            a[best] = matrix_cells(p.first as usize);
            z[best] = matrix_cells(p.second as usize);
        } else {
            let st = best - 3;
            let p = PERMS[self.stack_matrix(d, st)];
            let other = 0x1ff & !(7u32 << (3 * st));
            for i in 0..3 {
                a[i] = spread_columns(other | ((p.first as u32 >> (3 * i)) & 7) << (3 * st));
                z[i] = spread_columns(other | ((p.second as u32 >> (3 * i)) & 7) << (3 * st));
            }
        }
        Branch::Config(d, a, z)
    }

    /// Whether a search whose first branch point is this state should branch on
    /// configurations from the start (**configurations on demand**). Puzzles with many
    /// solutions, and easy ones, reach their first branch point with fewer open cells and many
    /// bivalue cells, and most end without a dead end: for them cell guesses are enough and
    /// cheaper. A search that does hit a dead end switches to configurations there.
    pub(super) fn eager(&self) -> bool {
        band_count(self.unsolved) >= EAGER_OPEN || band_count(self.pairs) < EAGER_PAIRS
    }

    /// Digit `d`'s mini-row matrices, packed (bit `9·band + 3·row + box`).
    #[inline(always)]
    fn packed_minirows(&self, d: usize) -> u32 {
        let i = 3 * d;
        self.mr[i] as u32 | (self.mr[i + 1] as u32) << 9 | (self.mr[i + 2] as u32) << 18
    }

    /// Digit `d`'s column folds, packed (bit `9·band + column`).
    #[inline(always)]
    fn packed_cols(&self, d: usize) -> u32 {
        let i = 3 * d;
        self.cols[i] as u32 | (self.cols[i + 1] as u32) << 9 | (self.cols[i + 2] as u32) << 18
    }

    /// Digit `d`'s mini-column matrix in stack `st` (bit `3·band + column`).
    #[inline(always)]
    pub(super) fn stack_matrix(&self, d: usize, st: usize) -> usize {
        (self.cols[3 * d] as usize >> (3 * st) & 7)
            | (self.cols[3 * d + 1] as usize >> (3 * st) & 7) << 3
            | (self.cols[3 * d + 2] as usize >> (3 * st) & 7) << 6
    }

    /// The cell to guess with `(b, bit)` in a paired guess, as (band, cell bit): a bivalue cell
    /// outside its row, column and box, the first of the band with the most of them.
    pub(super) fn second_cell(&self, b: usize, bit: u32) -> Option<(usize, u32)> {
        let at = bit.trailing_zeros() as usize;
        let mut seen = [spread_columns(1 << (at % 9)); 3];
        seen[b] |= BAND_PEERS[at] | bit;
        let open = [0, 1, 2].map(|i| self.pairs[i] & !seen[i]);
        // Counted with the row-count table, as in `pick_cell`.
        let bb = first_most(open.map(|p| band_count([p, 0, 0])));
        let p = open[bb];
        (p != 0).then(|| (bb, p & p.wrapping_neg()))
    }

    /// The cell to branch on, as (band, cell bit): the first bivalue cell of the row with the
    /// most bivalue cells inside the band with the most bivalue cells; failing that, of the
    /// first open cell of each band, the one with the fewest candidates (sampling three cells
    /// beat a full fewest-candidates scan: fewer guesses on the hard corpora, and cheaper).
    pub(super) fn pick_cell(&self) -> (usize, u32) {
        // The band with the most bivalue cells: its cells constrain each other most, so a
        // guess there propagates furthest (about 15% fewer guesses than the first bivalue cell).
        // Bivalue cells per row (**row-count table**: three look-ups per band instead of
        // popcounts, which x86-64 without the `popcnt` extension computes in a dozen
        // instructions each; 1.5% fewer instructions in all).
        let rows = self.pairs.map(|p| {
            [
                ROW_POP[(p & 0x1ff) as usize] as u32,
                ROW_POP[((p >> 9) & 0x1ff) as usize] as u32,
                ROW_POP[(p >> 18) as usize & 0x1ff] as u32,
            ]
        });
        let b = first_most(rows.map(|r| r[0] + r[1] + r[2]));
        let p = self.pairs[b];
        if p != 0 {
            // Inside that band, the row with the most bivalue cells, for the same reason at a
            // finer grain (about 5% fewer guesses on the hard corpora, for three popcounts).
            let q = p & 0x1ff << (9 * first_most(rows[b]));
            return (b, q & q.wrapping_neg());
        }
        let mut best = (0, 0, u32::MAX);
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let bit = u & u.wrapping_neg();
            let mut n = 0;
            for d in 0..9 {
                n += (self.cells[3 * d + b] & bit != 0) as u32;
            }
            if n < best.2 {
                best = (b, bit, n);
            }
        }
        (best.0, best.1)
    }
}

/// The index of the largest of three counts, the first on a tie.
#[inline(always)]
fn first_most(n: [u32; 3]) -> usize {
    if n[0] >= n[1] && n[0] >= n[2] {
        0
    } else if n[1] >= n[2] {
        1
    } else {
        2
    }
}

/// The cells of three band words, counted with the row-count table (x86-64 without `popcnt`
/// computes a population count in a dozen instructions).
#[inline(always)]
fn band_count(words: [u32; 3]) -> u32 {
    words
        .iter()
        .map(|&u| {
            (ROW_POP[(u & 0x1ff) as usize]
                + ROW_POP[((u >> 9) & 0x1ff) as usize]
                + ROW_POP[(u >> 18) as usize & 0x1ff]) as u32
        })
        .sum()
}

/// Bit-sliced tallies over nine digits, per mini-row (low half, band `b` at bits `9·b..`) and
/// mini-column (high half, the same layout): where at least one to four digits can go
/// (`c[0..4]`) and where at least one to four are forced (`f[0..4]`).
#[derive(Clone, Copy, Default)]
struct Tally {
    c: [u64; 4],
    f: [u64; 4],
}

/// Every mini-row and mini-column bit of a [`Tally`] word.
const TALLY_ALL: u64 = ALL as u64 | (ALL as u64) << 32;

impl Tally {
    /// Adds one digit: the mini-rows and mini-columns it can take, and those it is forced into.
    #[inline(always)]
    fn add(&mut self, can: u64, forced: u64) {
        for (t, x) in [(&mut self.c, can), (&mut self.f, forced)] {
            t[3] |= t[2] & x;
            t[2] |= t[1] & x;
            t[1] |= t[0] & x;
            t[0] |= x;
        }
    }

    /// `None` when a mini-row or mini-column has fewer than three candidates or more than
    /// three forced digits; else the rules that can still change something: `naked`, three
    /// candidates not all forced yet (each is forced there); `hidden`, three forced among
    /// more candidates (the others leave).
    #[inline(always)]
    fn rules(&self) -> Option<(u64, u64)> {
        let [_, _, c3, c4] = self.c;
        let [_, _, f3, f4] = self.f;
        if c3 != TALLY_ALL || f4 != 0 {
            return None;
        }
        Some((c3 & !c4 & !f3, f3 & c4))
    }
}

/// What [`State::branch_point`] found.
pub(super) enum Branch {
    /// A contradiction.
    Dead,
    /// Triads changed these words: propagate again.
    Again(u32),
    /// Digit `d`'s two configurations, as masks of its three band words.
    Config(usize, [u32; 3], [u32; 3]),
    /// Branch on a cell ([`State::pick_cell`]).
    Cell,
}
