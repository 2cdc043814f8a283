//! The first engine, kept as a test oracle (compiled only for the unit tests): one 9-bit
//! candidate mask per cell, peer elimination with a naked-single cascade, hidden singles by
//! counting, fewest-candidates guessing. It is several times slower than the bitboard engine but
//! simple enough to trust, and fast enough to check the production engine on whole corpora
//! where the naive backtracker in `tests/common` would take minutes.

use super::solved::Solved;
use crate::grid::{Grid, PEERS, UNITS};

/// Counts the solutions of `grid` up to `limit`; the same contract as [`crate::engine::solve`].
pub fn solve(grid: &Grid, limit: u32) -> Solved {
    let mut ctx = Search {
        limit: limit.max(1),
        solutions: 0,
        first: None,
        guesses: 0,
    };
    if let Some(board) = Board::from_grid(grid) {
        search(board, &mut ctx);
    }
    Solved {
        solutions: ctx.solutions,
        first: ctx.first,
        guesses: ctx.guesses,
        gave_up: false,
    }
}

const ALL: u16 = 0x1ff;

#[derive(Clone, Copy)]
struct Board {
    /// Candidate digits per cell, bit `d-1` for digit `d`; a placed cell holds only its digit.
    cand: [u16; 81],
    /// Placed digit per cell, 0 while open.
    value: [u8; 81],
    /// Open cells left.
    open: u8,
}

impl Board {
    fn from_grid(grid: &Grid) -> Option<Board> {
        let mut b = Board {
            cand: [ALL; 81],
            value: [0; 81],
            open: 81,
        };
        for (cell, &v) in grid.cells().iter().enumerate() {
            if v != 0 && !b.assign(cell, v) {
                return None;
            }
        }
        Some(b)
    }

    /// Places `digit` in `cell`, then every naked single that follows. `false` on contradiction.
    fn assign(&mut self, cell: usize, digit: u8) -> bool {
        // Each cell enters the stack at most once on top of the first: only when its mask
        // drops to a single bit, which happens once. 82 slots are enough.
        let mut stack = [0u8; 82];
        let mut digits = [0u8; 82];
        stack[0] = cell as u8;
        digits[0] = digit;
        let mut sp = 1;
        while sp > 0 {
            sp -= 1;
            let c = stack[sp] as usize;
            let d = digits[sp];
            if self.value[c] != 0 {
                if self.value[c] == d {
                    continue;
                }
                return false;
            }
            let bit = 1u16 << (d - 1);
            if self.cand[c] & bit == 0 {
                return false;
            }
            self.value[c] = d;
            self.cand[c] = bit;
            self.open -= 1;
            for &p in &PEERS[c] {
                let p = p as usize;
                let m = self.cand[p];
                if m & bit == 0 {
                    continue;
                }
                if self.value[p] != 0 {
                    return false;
                }
                let m = m & !bit;
                self.cand[p] = m;
                if m == 0 {
                    return false;
                }
                if m & (m - 1) == 0 {
                    stack[sp] = p as u8;
                    digits[sp] = m.trailing_zeros() as u8 + 1;
                    sp += 1;
                }
            }
        }
        true
    }

    /// One pass of hidden singles over all houses. `None` on contradiction, else whether
    /// anything was placed.
    fn hidden_singles(&mut self) -> Option<bool> {
        let mut changed = false;
        for unit in &UNITS {
            let mut once = 0u16;
            let mut twice = 0u16;
            for &c in unit {
                let m = self.cand[c as usize];
                twice |= once & m;
                once |= m;
            }
            if once != ALL {
                return None;
            }
            let mut single = once & !twice;
            while single != 0 {
                let bit = single & single.wrapping_neg();
                single &= single - 1;
                for &c in unit {
                    let c = c as usize;
                    if self.cand[c] & bit != 0 {
                        if self.value[c] == 0 {
                            if !self.assign(c, bit.trailing_zeros() as u8 + 1) {
                                return None;
                            }
                            changed = true;
                        }
                        break;
                    }
                }
            }
        }
        Some(changed)
    }

    /// Singles to a fixpoint. `false` on contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            match self.hidden_singles() {
                None => return false,
                Some(false) => return true,
                Some(true) if self.open == 0 => return true,
                Some(true) => {}
            }
        }
    }

    /// The open cell with the fewest candidates (the first bivalue cell ends the scan).
    fn pick_cell(&self) -> usize {
        let mut best = 0;
        let mut best_n = u32::MAX;
        for c in 0..81 {
            if self.value[c] == 0 {
                let n = self.cand[c].count_ones();
                if n < best_n {
                    best = c;
                    best_n = n;
                    if n == 2 {
                        break;
                    }
                }
            }
        }
        best
    }
}

struct Search {
    limit: u32,
    solutions: u32,
    first: Option<Grid>,
    guesses: u64,
}

fn search(mut board: Board, ctx: &mut Search) {
    loop {
        if !board.propagate() {
            return;
        }
        if board.open == 0 {
            ctx.solutions += 1;
            if ctx.first.is_none() {
                ctx.first = Grid::from_cells(board.value);
            }
            return;
        }
        let cell = board.pick_cell();
        let mut cands = board.cand[cell];
        loop {
            let d = cands.trailing_zeros() as u8 + 1;
            cands &= cands - 1;
            if cands == 0 {
                // Last candidate: the others were refuted, so apply it in place and go on.
                if !board.assign(cell, d) {
                    return;
                }
                break;
            }
            ctx.guesses += 1;
            let mut next = board;
            if next.assign(cell, d) {
                search(next, ctx);
                if ctx.solutions >= ctx.limit {
                    return;
                }
            }
        }
    }
}
