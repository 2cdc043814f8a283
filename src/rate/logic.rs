//! The technique solver behind [`super::grade`]: candidate bitmasks per cell, pushed to the
//! fixpoint of one technique set after another, with no allocation and no search.
//!
//! The board is 81 nine-bit candidate masks (a placed or given cell is a one-bit mask) plus a
//! bit set of the cells whose digit has been taken out of their peers. Every technique is an
//! *elimination*: it only ever clears candidate bits, through [`Board::remove`], which queues a
//! cell the moment its mask drops to one bit, so naked singles are propagated eagerly by a small
//! stack ([`Board::drain`]) rather than by rescanning. The levels then run in order:
//!
//! 1. naked singles (the eager propagation of the givens);
//! 2. hidden singles, unit by unit, draining naked singles after each placement, until a whole
//!    pass places nothing;
//! 3. locked candidates (pointing and claiming) from the 54 box–line segment masks, naked pairs
//!    and hidden pairs, each pass followed by level 2 again, until a pass changes nothing.
//!
//! Level 3 is reached only by puzzles singles cannot finish, so only levels 1 and 2 are written
//! for speed (one OR/AND-NOT sweep per unit finds all hidden singles of the unit at once).

use crate::grid::{PEERS, UNITS};

/// All nine candidate bits (bit `d - 1` is digit `d`).
pub(crate) const ALL: u16 = 0x1ff;

/// How far the technique fixpoints got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reached {
    /// Solved by naked singles alone.
    Naked,
    /// Solved once hidden singles were added.
    Hidden,
    /// Solved once locked candidates and naked/hidden pairs were added.
    Intermediate,
    /// Not solved by all of them (or a contradiction: the puzzle has no solution).
    Unsolved,
}

/// Candidate masks and the naked-single queue.
#[derive(Clone)]
pub(crate) struct Board {
    cand: [u16; 81],
    /// Cells already queued or placed (their digit is, or is about to be, out of their peers).
    placed: u128,
    /// Cells not yet placed.
    left: u32,
    /// Cells whose mask became a single bit, waiting to be propagated.
    stack: [u8; 81],
    top: usize,
    /// Some cell lost its last candidate, or a unit lost every place for a digit.
    broken: bool,
}

impl Board {
    /// The board of `cells` (0 blank, 1..=9 given) with the givens' naked singles propagated.
    pub(crate) fn new(cells: &[u8; 81]) -> Board {
        let mut b = Board {
            cand: [ALL; 81],
            placed: 0,
            left: 81,
            stack: [0; 81],
            top: 0,
            broken: false,
        };
        for (c, &v) in cells.iter().enumerate() {
            if v != 0 {
                b.remove(c, ALL & !(1 << (v - 1)));
            }
        }
        b.drain();
        b
    }

    /// Clears `mask` from cell `c`; queues the cell when one candidate is left.
    #[inline]
    fn remove(&mut self, c: usize, mask: u16) -> bool {
        let old = self.cand[c];
        let new = old & !mask;
        if new == old {
            return false;
        }
        self.cand[c] = new;
        if new & new.wrapping_sub(1) == 0 {
            if new == 0 {
                self.broken = true;
            } else if self.placed & (1u128 << c) == 0 {
                self.placed |= 1u128 << c;
                self.stack[self.top] = c as u8;
                self.top += 1;
            }
        }
        true
    }

    /// Naked singles to their fixpoint: takes each queued cell's digit out of its peers.
    #[inline]
    fn drain(&mut self) {
        while self.top > 0 {
            self.top -= 1;
            let c = self.stack[self.top] as usize;
            self.left -= 1;
            let bit = self.cand[c];
            for &p in &PEERS[c] {
                self.remove(p as usize, bit);
            }
        }
    }

    /// Whether every cell is placed without a contradiction (then the masks are the solution).
    #[inline]
    pub(crate) fn solved(&self) -> bool {
        self.left == 0 && !self.broken
    }

    /// One pass of hidden singles over the 27 units; whether it placed anything.
    fn hidden_pass(&mut self) -> bool {
        let mut changed = false;
        for unit in &UNITS {
            let (mut once, mut twice, mut fixed) = (0u16, 0u16, 0u16);
            for &c in unit {
                let m = self.cand[c as usize];
                twice |= once & m;
                once |= m;
                if m & m.wrapping_sub(1) == 0 {
                    fixed |= m;
                }
            }
            if once != ALL {
                self.broken = true;
                return false;
            }
            let mut hidden = once & !twice & !fixed;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden &= hidden - 1;
                // The digit's one place; gone only if an earlier digit of this unit took the
                // same cell, which is a contradiction.
                match unit.iter().find(|&&c| self.cand[c as usize] & bit != 0) {
                    Some(&c) => changed |= self.remove(c as usize, !bit & ALL),
                    None => self.broken = true,
                }
            }
            self.drain();
            if self.broken {
                return false;
            }
        }
        changed
    }

    /// Hidden (and naked) singles to their fixpoint.
    fn singles(&mut self) {
        while !self.broken && self.left > 0 && self.hidden_pass() {}
    }

    /// One pass of locked candidates, naked pairs and hidden pairs; whether anything changed.
    fn intermediate_pass(&mut self) -> bool {
        let mut changed = self.locked_candidates();
        changed |= self.naked_pairs();
        changed |= self.hidden_pairs();
        self.drain();
        changed
    }

    /// Pointing and claiming, on rows and on columns.
    fn locked_candidates(&mut self) -> bool {
        let mut changed = false;
        for transposed in [false, true] {
            // seg[l][s]: candidates of line l (row, or column when transposed) inside the
            // box it shares with stack (band) s.
            let cell = |l: usize, k: usize| if transposed { k * 9 + l } else { l * 9 + k };
            let mut seg = [[0u16; 3]; 9];
            for (l, segs) in seg.iter_mut().enumerate() {
                for (s, m) in segs.iter_mut().enumerate() {
                    *m = self.cand[cell(l, s * 3)]
                        | self.cand[cell(l, s * 3 + 1)]
                        | self.cand[cell(l, s * 3 + 2)];
                }
            }
            for l in 0..9 {
                for s in 0..3 {
                    let band = l / 3 * 3;
                    let here = seg[l][s];
                    // Pointing: digits the box holds only on line l leave the rest of line l.
                    let box_rest = seg[band + (l + 1) % 3][s] | seg[band + (l + 2) % 3][s];
                    let pointing = here & !box_rest;
                    // Claiming: digits line l holds only in this box leave the rest of the box.
                    let line_rest = seg[l][(s + 1) % 3] | seg[l][(s + 2) % 3];
                    let claiming = here & !line_rest;
                    if pointing != 0 {
                        for k in 0..9 {
                            if k / 3 != s {
                                changed |= self.remove(cell(l, k), pointing);
                            }
                        }
                    }
                    if claiming != 0 {
                        for other in band..band + 3 {
                            if other != l {
                                for k in s * 3..s * 3 + 3 {
                                    changed |= self.remove(cell(other, k), claiming);
                                }
                            }
                        }
                    }
                }
            }
        }
        changed
    }

    /// Two cells of a unit with the same two candidates take them from the unit's other cells.
    fn naked_pairs(&mut self) -> bool {
        let mut changed = false;
        for unit in &UNITS {
            for i in 0..9 {
                let m = self.cand[unit[i] as usize];
                if m.count_ones() != 2 {
                    continue;
                }
                for j in i + 1..9 {
                    if self.cand[unit[j] as usize] == m {
                        for (k, &c) in unit.iter().enumerate() {
                            if k != i && k != j {
                                changed |= self.remove(c as usize, m);
                            }
                        }
                    }
                }
            }
        }
        changed
    }

    /// Two digits confined to the same two cells of a unit clear those cells' other candidates.
    fn hidden_pairs(&mut self) -> bool {
        let mut changed = false;
        for unit in &UNITS {
            // places[d]: the unit positions (bits 0..9) where digit d + 1 is a candidate.
            let mut places = [0u16; 9];
            for (k, &c) in unit.iter().enumerate() {
                let mut m = self.cand[c as usize];
                while m != 0 {
                    places[m.trailing_zeros() as usize] |= 1 << k;
                    m &= m - 1;
                }
            }
            for a in 0..9 {
                if places[a].count_ones() != 2 {
                    continue;
                }
                for b in a + 1..9 {
                    if places[b] == places[a] {
                        let keep = (1u16 << a) | (1 << b);
                        let mut pos = places[a];
                        while pos != 0 {
                            let k = pos.trailing_zeros() as usize;
                            pos &= pos - 1;
                            changed |= self.remove(unit[k] as usize, ALL & !keep);
                        }
                    }
                }
            }
        }
        changed
    }

    /// Runs the levels in order and says which one finished the puzzle.
    pub(crate) fn reach(&mut self) -> Reached {
        if self.solved() {
            return Reached::Naked;
        }
        if self.broken {
            return Reached::Unsolved;
        }
        self.singles();
        if self.solved() {
            return Reached::Hidden;
        }
        while !self.broken && self.left > 0 && self.intermediate_pass() {
            self.singles();
        }
        if self.solved() {
            Reached::Intermediate
        } else {
            Reached::Unsolved
        }
    }

    /// The candidate masks (bit `d - 1` for digit `d`).
    #[cfg(test)]
    pub(crate) fn candidates(&self) -> &[u16; 81] {
        &self.cand
    }
}

#[cfg(test)]
mod tests {
    //! Each technique on a hand-made position where it, and no easier one, makes a known move.
    use super::*;

    /// A board from `(row, column, digit)` givens (all 0-based but the digit).
    fn board(givens: &[(usize, usize, u8)]) -> Board {
        let mut cells = [0u8; 81];
        for &(r, c, d) in givens {
            cells[r * 9 + c] = d;
        }
        Board::new(&cells)
    }

    fn has(b: &Board, r: usize, c: usize, d: u8) -> bool {
        b.candidates()[r * 9 + c] & (1 << (d - 1)) != 0
    }

    #[test]
    fn naked_singles_propagate_from_givens() {
        // Row 0 holds 1..8: r0c8 can only be 9, and 9 then leaves column 8 and box 2.
        let b = board(&(0..8).map(|c| (0, c, c as u8 + 1)).collect::<Vec<_>>());
        assert_eq!(b.candidates()[8], 1 << 8);
        assert!(!has(&b, 5, 8, 9) && !has(&b, 1, 6, 9) && has(&b, 1, 0, 9));
        assert_eq!(b.left, 81 - 9);
    }

    #[test]
    fn hidden_single_in_a_box() {
        // 1s in rows 1 and 2 and columns 0 and 1 leave r0c2 as box 0's only place for 1, while
        // r0c2 itself keeps many candidates.
        let mut b = board(&[(1, 4, 1), (2, 7, 1), (3, 0, 1), (7, 1, 1)]);
        assert!(b.candidates()[2].count_ones() > 1);
        assert!(b.hidden_pass());
        assert_eq!(b.candidates()[2], 1);
        assert!(!has(&b, 0, 5, 1), "placed 1 left its row");
    }

    #[test]
    fn pointing() {
        // Box 0's rows 1 and 2 hold 2..7, so 1, 8 and 9 lie on row 0 in box 0: they leave the
        // rest of row 0.
        let givens: Vec<_> = (0..6).map(|k| (1 + k / 3, k % 3, k as u8 + 2)).collect();
        let mut b = board(&givens);
        b.singles();
        assert!(has(&b, 0, 3, 1) && has(&b, 0, 8, 9));
        assert!(b.locked_candidates());
        for c in 3..9 {
            assert!(!has(&b, 0, c, 1) && !has(&b, 0, c, 8) && !has(&b, 0, c, 9));
        }
        assert!(has(&b, 0, 0, 1) && has(&b, 1, 3, 1), "nothing else moves");
    }

    #[test]
    fn claiming() {
        // Row 0 holds 2..7 outside box 0: 1, 8 and 9 on row 0 lie in box 0, so they leave the
        // box's other rows.
        let mut b = board(&(3..9).map(|c| (0, c, c as u8 - 1)).collect::<Vec<_>>());
        b.singles();
        assert!(has(&b, 1, 0, 1) && has(&b, 2, 2, 9));
        assert!(b.locked_candidates());
        for (r, c) in [(1, 0), (1, 2), (2, 1)] {
            assert!(!has(&b, r, c, 1) && !has(&b, r, c, 8) && !has(&b, r, c, 9));
        }
        assert!(has(&b, 3, 0, 1), "outside the box nothing moves");
    }

    #[test]
    fn naked_pair() {
        // Row 0 holds 3..9 in c2..c8, so r0c0 and r0c1 are {1,2}: the pair leaves box 0.
        let mut b = board(&(2..9).map(|c| (0, c, c as u8 + 1)).collect::<Vec<_>>());
        assert_eq!(b.candidates()[0], 0b11);
        assert!(has(&b, 1, 1, 1) && has(&b, 2, 2, 2));
        assert!(b.naked_pairs());
        assert!(!has(&b, 1, 1, 1) && !has(&b, 2, 2, 2) && !has(&b, 1, 1, 2));
        assert!(has(&b, 1, 1, 4));
    }

    #[test]
    fn hidden_pair() {
        // On row 0, 1 and 2 can only go to c0 and c1 (1s and 2s in boxes 1 and 2 and column 2):
        // those two cells drop every other candidate.
        let mut b = board(&[
            (1, 4, 1),
            (2, 7, 1),
            (5, 2, 1),
            (2, 4, 2),
            (1, 7, 2),
            (6, 2, 2),
        ]);
        b.singles();
        assert_eq!(b.candidates()[0], ALL);
        assert!(b.hidden_pairs());
        assert_eq!(b.candidates()[0], 0b11);
        assert_eq!(b.candidates()[1], 0b11);
        assert_eq!(b.candidates()[2], ALL & !0b11);
    }

    #[test]
    fn contradictions_are_unsolved() {
        // Two 5s in row 0.
        let mut b = board(&[(0, 0, 5), (0, 7, 5)]);
        assert_eq!(b.reach(), Reached::Unsolved);
        // No place left for 1 in box 0 although no two givens clash: its row 0 holds 2, 3, 4
        // and 1s on rows 1 and 2 rule out the rest.
        let mut b = board(&[(0, 0, 2), (0, 1, 3), (0, 2, 4), (1, 4, 1), (2, 7, 1)]);
        assert_eq!(b.reach(), Reached::Unsolved);
    }
}
