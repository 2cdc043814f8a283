//! The bitboard pre-test of the Nishio search: whether the propagation from one potential can
//! end in a contradiction, decided on one digit's 81-bit candidate set instead of by building
//! the propagation's nodes.
//!
//! A Nishio propagation (SE's `doChaining`, one digit, X links only, dynamic) derives an off
//! potential for each peer of an on one, and an on potential for a region's last place once the
//! other places are off; its only hints are contradictions (a potential derived both on and
//! off). The same derivations, taken all at once, are the closure of "hidden single" over the
//! digit's candidates: place the source (or remove it), then place every region's lone
//! remaining candidate, removing its peers, until nothing changes or a region that still needs
//! the digit has no place left. Every step SE takes is a step of this closure (see
//! `docs/explain.md`, "The Nishio pre-test, and why it is exact"), so a source whose closure empties no region
//! yields no contradiction, and the search can skip its propagation; the sources it flags run
//! the real propagation exactly as before. Allocation-free: a few 128-bit words a test.

use super::board::{cells_of, Board, Cells, CELL_REGIONS, PEER_MASK, REGION_MASK};

/// One digit's places on a grid, as the closure reads them.
#[derive(Clone, Copy, Default)]
pub(crate) struct DigitGrid {
    /// The cells holding the digit as a candidate.
    cands: Cells,
    /// The regions that still need the digit: those with a candidate (bit `r`: region `r`).
    open: u32,
}

impl DigitGrid {
    /// The digit `v` of `b`.
    pub(crate) fn of(b: &Board, v: u8) -> DigitGrid {
        let cands = b.digits[v as usize];
        let mut open = 0u32;
        for (r, &m) in REGION_MASK.iter().enumerate() {
            if cands & m != 0 {
                open |= 1 << r;
            }
        }
        DigitGrid { cands, open }
    }

    /// Whether the closure from "`cell` holds the digit" (`on`) or "`cell` does not hold it"
    /// (`!on`) empties a region that needs the digit. `false` guarantees that SE's Nishio
    /// propagation from that potential finds no contradiction.
    ///
    /// Only regions that lost a place are looked at (a worklist of regions), as SE only derives
    /// a region's last place when another place goes off there: each region is tested after
    /// its last loss, so the fixpoint is the same as testing every region until nothing
    /// changes, less any single the grid already had.
    pub(crate) fn contradicts(self, cell: usize, on: bool) -> bool {
        let DigitGrid {
            mut cands,
            mut open,
        } = self;
        let mut dirty;
        if on {
            let lost = cands & PEER_MASK[cell];
            cands &= !(lost | 1u128 << cell);
            open &= !CELL_REGIONS[cell];
            dirty = regions_of(lost);
        } else {
            cands &= !(1u128 << cell);
            dirty = CELL_REGIONS[cell];
        }
        dirty &= open;
        while dirty != 0 {
            let r = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let m = cands & REGION_MASK[r];
            if m == 0 {
                return true;
            }
            if m & (m - 1) == 0 {
                // The region's lone place takes the digit: its peers lose it, its three
                // regions need it no more.
                let x = m.trailing_zeros() as usize;
                let lost = cands & PEER_MASK[x];
                cands &= !(lost | m);
                open &= !CELL_REGIONS[x];
                dirty = (dirty | regions_of(lost)) & open;
            }
        }
        false
    }
}

/// The regions of a set of cells.
#[inline]
fn regions_of(cells: Cells) -> u32 {
    let mut out = 0;
    for c in cells_of(cells) {
        out |= CELL_REGIONS[c];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    fn board(s: &str) -> Board {
        let g: Grid = s.parse().unwrap();
        Board::new(&g)
    }

    #[test]
    fn a_placement_that_blocks_a_region_contradicts() {
        // Digit 1 of an empty grid but for two rows: in row 1 only r1c1 and r1c2 may hold it,
        // and in row 2 only r2c1 and r2c2 (the givens 1 in columns 3..9 are not possible
        // here, so build the sets by hand).
        let mut b = board(&".".repeat(81));
        for c in 0..81 {
            let row = c / 9;
            let col = c % 9;
            if (row == 0 || row == 1) && col >= 2 {
                b.remove(c, 1);
            }
        }
        let g = DigitGrid::of(&b, 1);
        // r1c1 on: r2c1 and r2c2 are in its block, so row 2 has no place.
        assert!(g.contradicts(0, true));
        // r1c1 off: r1c2 is row 1's lone place, which empties row 2 the same way.
        assert!(g.contradicts(0, false));
        // r5c5 on: nothing in rows 1 and 2 is forced.
        assert!(!g.contradicts(40, true));
    }

    #[test]
    fn a_free_digit_does_not_contradict() {
        let b = board(&".".repeat(81));
        let g = DigitGrid::of(&b, 5);
        for c in 0..81 {
            assert!(!g.contradicts(c, true));
            assert!(!g.contradicts(c, false));
        }
    }
}
