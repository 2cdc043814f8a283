//! Random solution grids: a randomized fill of the empty grid followed by a random equivalence
//! transform. See the parent module's notes for how far the result is from uniform.
//!
//! The filler is a small dedicated backtracker rather than the engine, because the engine is
//! deterministic (ascending digits at every branch) and has no hook for a random digit order.
//! Boxes 1, 5 and 9 share no row or column, so each gets an independent random permutation
//! first; the other 54 cells are filled cell by cell, always the cell with the fewest
//! candidates (ties: the first in row-major order), trying its candidates in random order.
//! With three boxes seeded the fill almost never backtracks far, and it costs a few microseconds.

use crate::grid::Grid;
use crate::rng::Rng;
use crate::transform::Transform;

/// Row, column and box digit masks (bit `d` for digit `d`) plus the cells.
#[derive(Clone, Copy)]
struct Fill {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    /// The empty cells, bit `i` for cell `i`: the low word cells 0..64, the high word 64..81.
    empty: [u64; 2],
}

const ALL: u16 = 0x3fe;

/// Each cell's row, column and box.
const HOUSES: [[u8; 3]; 81] = {
    let mut t = [[0u8; 3]; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = [(i / 9) as u8, (i % 9) as u8, (i / 27 * 3 + i % 9 / 3) as u8];
        i += 1;
    }
    t
};

/// The number of digits in a candidate mask, by the mask's bits 1..=9 (no `popcnt` in the
/// x86-64 baseline).
const POP: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        t[v] = (v as u32).count_ones() as u8;
        v += 1;
    }
    t
};

impl Fill {
    fn place(&mut self, i: usize, d: u8) {
        let bit = 1u16 << d;
        let [r, c, b] = HOUSES[i];
        self.cells[i] = d;
        self.rows[r as usize] |= bit;
        self.cols[c as usize] |= bit;
        self.boxes[b as usize] |= bit;
        self.empty[i / 64] &= !(1 << (i % 64));
    }

    fn unplace(&mut self, i: usize) {
        let bit = !(1u16 << self.cells[i]);
        let [r, c, b] = HOUSES[i];
        self.cells[i] = 0;
        self.rows[r as usize] &= bit;
        self.cols[c as usize] &= bit;
        self.boxes[b as usize] &= bit;
        self.empty[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    fn candidates(&self, i: usize) -> u16 {
        let [r, c, b] = HOUSES[i];
        ALL & !(self.rows[r as usize] | self.cols[c as usize] | self.boxes[b as usize])
    }

    /// The empty cell with the fewest candidates, the first in row-major order among equals
    /// (or the first with at most one), and its count; `None` when the grid is full.
    #[inline]
    fn pick(&self) -> Option<(usize, u32)> {
        let mut best = None;
        let mut best_count = 10;
        for (w, &word) in self.empty.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let i = w * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                let n = POP[(self.candidates(i) >> 1) as usize] as u32;
                if n < best_count {
                    best = Some(i);
                    best_count = n;
                    if n <= 1 {
                        return best.map(|i| (i, n));
                    }
                }
            }
        }
        best.map(|i| (i, best_count))
    }

    /// Fills every empty cell, or returns `false` (state unchanged) when it cannot.
    fn complete(&mut self, rng: &mut Rng) -> bool {
        let Some((best, _)) = self.pick() else {
            return true;
        };
        let mut digits = [0u8; 9];
        let mut n = 0;
        let mut mask = self.candidates(best);
        while mask != 0 {
            digits[n] = mask.trailing_zeros() as u8;
            n += 1;
            mask &= mask - 1;
        }
        rng.shuffle(&mut digits[..n]);
        for &d in &digits[..n] {
            self.place(best, d);
            if self.complete(rng) {
                return true;
            }
            self.unplace(best);
        }
        false
    }
}

/// A random complete grid drawn from `rng`: the randomized fill, then a random transform.
pub fn random_solution(rng: &mut Rng) -> Grid {
    let mut f = Fill {
        cells: [0; 81],
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
        empty: [u64::MAX, (1 << 17) - 1],
    };
    for b in [0usize, 4, 8] {
        let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits);
        for (k, &d) in digits.iter().enumerate() {
            f.place((b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3, d);
        }
    }
    // Three independent boxes on the diagonal always complete (any band can be finished), so
    // this cannot fail; were it ever to, the all-blank check below would catch it in tests.
    let done = f.complete(rng);
    debug_assert!(
        done,
        "a grid seeded with its diagonal boxes always completes"
    );
    let grid = Grid::from_cells(f.cells).unwrap_or(Grid::EMPTY);
    Transform::random(rng).apply(&grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_are_valid_and_vary() {
        let mut rng = Rng::new(5);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let g = random_solution(&mut rng);
            assert!(g.is_solution_of(&Grid::EMPTY), "{g}");
            seen.insert(g);
        }
        assert_eq!(seen.len(), 200);
    }
}
