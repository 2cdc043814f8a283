//! The candidate board the explainer reasons on, and the fixed tables of the grid's geometry in
//! the order Sudoku Explainer walks them.
//!
//! Sudoku Explainer's choice of the next step depends on the order in which it visits regions,
//! cells and digits, so the tables here are not just geometry: a region's cells are listed in
//! SE's order (a block row by row, a row left to right, a column top to bottom), the regions of
//! a type are numbered as SE numbers them, and region *types* are numbered SE's way (0 block,
//! 1 row, 2 column). Everything else in the explainer indexes through these tables.
//!
//! The board keeps each cell's candidates as a nine-bit mask (bit `v` for digit `v`, bit 0
//! unused, as SE's `BitSet`s are) and, beside it, one 81-bit set per digit of the cells that
//! still hold that digit as a candidate, so "where can 5 go in this row" is an AND and a
//! population count rather than a loop.

use super::popcount::{self, Pop};
use crate::grid::{Grid, UNITS};

/// A set of cells, bit `i` for cell `i` (row-major, r1c1 = 0).
pub(crate) type Cells = u128;

/// Region types, in SE's numbering.
pub(crate) const BLOCK: usize = 0;
pub(crate) const ROW: usize = 1;
pub(crate) const COLUMN: usize = 2;

/// A region: `kind * 9 + index` (so blocks are 0..9, rows 9..18, columns 18..27).
pub(crate) type Region = usize;

/// The cells of each region in SE's order.
const REGION_CELLS_C: [[u8; 9]; 27] = {
    let mut out = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        out[i] = UNITS[18 + i];
        out[9 + i] = UNITS[i];
        out[18 + i] = UNITS[9 + i];
        i += 1;
    }
    out
};

/// Each region's cells as a set.
pub(crate) const REGION_MASK_C: [Cells; 27] = {
    let mut out = [0u128; 27];
    let mut r = 0;
    while r < 27 {
        let mut k = 0;
        while k < 9 {
            out[r] |= 1u128 << REGION_CELLS_C[r][k];
            k += 1;
        }
        r += 1;
    }
    out
};

/// For each cell, its region of each type (`CELL_REGION_C[cell][kind]`, a [`Region`]).
const CELL_REGION_C: [[usize; 3]; 81] = {
    let mut out = [[0usize; 3]; 81];
    let mut r = 0;
    while r < 27 {
        let mut k = 0;
        while k < 9 {
            out[REGION_CELLS_C[r][k] as usize][r / 9] = r;
            k += 1;
        }
        r += 1;
    }
    out
};

/// For each cell, its position within its region of each type.
const INDEX_IN_REGION_C: [[u8; 3]; 81] = {
    let mut out = [[0u8; 3]; 81];
    let mut r = 0;
    while r < 27 {
        let mut k = 0;
        while k < 9 {
            out[REGION_CELLS_C[r][k] as usize][r / 9] = k as u8;
            k += 1;
        }
        r += 1;
    }
    out
};

/// For each cell, the set of its 20 peers.
const PEER_MASK_C: [Cells; 81] = {
    let mut out = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let mut k = 0;
        while k < 20 {
            out[c] |= 1u128 << PEERS[c][k];
            k += 1;
        }
        c += 1;
    }
    out
};

/// For each cell, its block, row and column (`BLOCK`, `ROW`, `COLUMN`) without the cell itself.
const REGION_REST_C: [[Cells; 3]; 81] = {
    let mut out = [[0u128; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let [block, row, column] = CELL_REGION_C[c];
        let without = !(1u128 << c);
        out[c] = [
            REGION_MASK_C[block] & without,
            REGION_MASK_C[row] & without,
            REGION_MASK_C[column] & without,
        ];
        c += 1;
    }
    out
};

/// All 81 cells.
pub(crate) const ALL_CELLS: Cells = (1u128 << 81) - 1;

/// The peers of each cell in the order SE's chains visit them when a candidate goes on: its
/// block (block order), then the rest of its row, then the rest of its column. (The chains
/// produce this order from masks; the table states it for the tests.)
#[cfg(test)]
const PEERS_CHAIN_ORDER_C: [[u8; 20]; 81] = {
    let mut out = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut n = 0;
        let mut seen = 1u128 << c;
        let mut t = 0;
        while t < 3 {
            let r = CELL_REGION_C[c][t];
            let mut k = 0;
            while k < 9 {
                let o = REGION_CELLS_C[r][k];
                if seen & (1u128 << o) == 0 {
                    seen |= 1u128 << o;
                    out[c][n] = o;
                    n += 1;
                }
                k += 1;
            }
            t += 1;
        }
        c += 1;
    }
    out
};

/// The tables above as statics: indexed at run time, a `const` array may be copied to the
/// stack at every use.
pub(crate) static REGION_CELLS: [[u8; 9]; 27] = REGION_CELLS_C;
pub(crate) static REGION_MASK: [Cells; 27] = REGION_MASK_C;
pub(crate) static CELL_REGION: [[usize; 3]; 81] = CELL_REGION_C;
pub(crate) static REGION_REST: [[Cells; 3]; 81] = REGION_REST_C;
pub(crate) static INDEX_IN_REGION: [[u8; 3]; 81] = INDEX_IN_REGION_C;
pub(crate) static PEER_MASK: [Cells; 81] = PEER_MASK_C;
/// For each cell, its block, row and column (`CELL_REGION`), each with the region's 9-bit place
/// mask less the cell's bit (`!(1 << INDEX_IN_REGION[cell][kind])`): the dynamic chains' loop
/// reads a region and the cell's place in it with one load.
pub(crate) static CELL_SLOTS: [[(u16, u16); 3]; 81] = {
    let mut out = [[(0u16, 0u16); 3]; 81];
    let mut c = 0;
    while c < 81 {
        let mut k = 0;
        while k < 3 {
            out[c][k] = (
                CELL_REGION_C[c][k] as u16,
                !(1u16 << INDEX_IN_REGION_C[c][k]) & 0x1FF,
            );
            k += 1;
        }
        c += 1;
    }
    out
};
/// For each cell, its block, row and column, each with the region's 9-bit place mask less the
/// places an on potential there reaches through an earlier region (the dynamic chains list a
/// digit's peers as SE does: the block but the cell, the row outside the block, the column
/// outside the block). A row's index is the column and a column's the row, so the block covers
/// three consecutive places of each.
pub(crate) static PEER_SLOTS: [[(u16, u16); 3]; 81] = {
    let mut out = [[(0u16, 0u16); 3]; 81];
    let mut c = 0;
    while c < 81 {
        let [ib, ir, ic] = INDEX_IN_REGION_C[c];
        let [block, row, column] = CELL_REGION_C[c];
        out[c] = [
            (block as u16, !(1u16 << ib) & 0x1FF),
            (row as u16, !(7u16 << (ir / 3 * 3)) & 0x1FF),
            (column as u16, !(7u16 << (ic / 3 * 3)) & 0x1FF),
        ];
        c += 1;
    }
    out
};
/// Each cell's three regions as one set of regions (bit `r` for region `r`).
pub(crate) static CELL_REGIONS: [u32; 81] = {
    let mut out = [0u32; 81];
    let mut c = 0;
    while c < 81 {
        let [x, y, z] = CELL_REGION_C[c];
        out[c] = 1 << x | 1 << y | 1 << z;
        c += 1;
    }
    out
};
/// Each cell's 20 peers, ascending (SE's `visibleCellIndex`).
pub(crate) static PEERS: [[u8; 20]; 81] = crate::grid::PEERS;

/// Iterates the cells of a set in ascending order.
#[inline]
pub(crate) fn cells_of(set: Cells) -> impl Iterator<Item = usize> {
    // Two 64-bit halves, one after the other: a 128-bit test, bit scan and clear of the lowest
    // bit each take two to three times the instructions of a 64-bit one.
    let (mut lo, mut hi) = (set as u64, (set >> 64) as u64);
    std::iter::from_fn(move || {
        if lo != 0 {
            let c = lo.trailing_zeros() as usize;
            lo &= lo - 1;
            Some(c)
        } else if hi != 0 {
            let c = 64 + hi.trailing_zeros() as usize;
            hi &= hi - 1;
            Some(c)
        } else {
            None
        }
    })
}

/// Iterates the digits of a candidate mask in ascending order.
#[inline]
pub(crate) fn digits_of(mut mask: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let v = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(v)
        }
    })
}

/// SE's name of a cell: `r1c1`.
pub(crate) fn cell_name(cell: usize) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

/// SE's short name of a region kind: `block`, `row`, `column`.
pub(crate) fn region_kind_name(region: Region) -> &'static str {
    match region / 9 {
        BLOCK => "block",
        ROW => "row",
        _ => "column",
    }
}

/// A position in SE's terms: digits placed, candidates left.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Board {
    /// `0` for an empty cell, else its digit.
    pub values: [u8; 81],
    /// Each empty cell's candidates, bit `v` for digit `v`; `0` for a filled cell.
    pub cands: [u16; 81],
    /// `digits[v]`: the cells holding `v` as a candidate (`digits[0]` unused).
    pub digits: [Cells; 10],
    /// The cells without a value.
    pub empty: Cells,
    /// How many cells without a value each region has (kept with `empty`).
    pub left: [u8; 27],
}

impl Board {
    /// The board of a puzzle as SE builds it: every digit a candidate of every empty cell, then
    /// each given's digit taken out of its peers.
    #[cfg(test)]
    pub(crate) fn new(grid: &Grid) -> Board {
        Board::new_checked(grid).0
    }

    /// [`Board::new`], and whether the givens are consistent (no digit twice in a region).
    ///
    /// Built from each region's given digits rather than peer by peer: an empty cell's
    /// candidates are the digits no given of its three regions holds, and a digit's cells the
    /// empty cells that see no given of it — the same board.
    pub(crate) fn new_checked(grid: &Grid) -> (Board, bool) {
        // Every count of the rater's sets may use `popcnt` from here on (if the CPU has it).
        popcount::detect();
        let mut b = Board {
            values: *grid.cells(),
            cands: [0; 81],
            digits: [0; 10],
            empty: 0,
            left: [0; 27],
        };
        let mut used = [0u16; 27];
        let mut consistent = true;
        let mut seen = [0 as Cells; 10];
        // The givens as two 64-bit halves (cheaper to build than one 128-bit set), and each
        // region's count of them.
        let mut given = [0u64; 2];
        let mut givens = [0u8; 27];
        for (c, &v) in grid.cells().iter().enumerate() {
            if v == 0 {
                continue;
            }
            given[c >> 6] |= 1 << (c & 63);
            let bit = 1u16 << v;
            for &r in &CELL_REGION[c] {
                consistent &= used[r] & bit == 0;
                used[r] |= bit;
                givens[r] += 1;
            }
            seen[v as usize] |= PEER_MASK[c];
        }
        b.empty = !(u128::from(given[1]) << 64 | u128::from(given[0])) & ALL_CELLS;
        for c in cells_of(b.empty) {
            let [x, y, z] = CELL_REGION[c];
            b.cands[c] = 0x3fe & !(used[x] | used[y] | used[z]);
        }
        let empty = b.empty;
        for (d, s) in b.digits.iter_mut().zip(&seen).skip(1) {
            *d = empty & !s;
        }
        for (left, n) in b.left.iter_mut().zip(givens) {
            *left = 9 - n;
        }
        (b, consistent)
    }

    /// Counts each region's empty cells from `empty`.
    #[cfg(test)]
    pub(crate) fn count_left(&mut self) {
        for (left, &mask) in self.left.iter_mut().zip(REGION_MASK.iter()) {
            *left = (self.empty & mask).pop() as u8;
        }
    }

    /// Recomputes the per-digit sets from the masks (and the regions' empty counts).
    #[cfg(test)]
    pub(crate) fn rebuild_digits(&mut self) {
        self.count_left();
        self.digits = [0; 10];
        for c in 0..81 {
            for v in digits_of(self.cands[c]) {
                self.digits[v as usize] |= 1u128 << c;
            }
        }
    }

    #[inline]
    pub(crate) fn has(&self, cell: usize, v: u8) -> bool {
        self.cands[cell] & (1 << v) != 0
    }

    #[inline]
    pub(crate) fn count(&self, cell: usize) -> u32 {
        self.cands[cell].pop()
    }

    /// Takes `v` out of `cell`'s candidates (nothing if it was not one).
    #[inline]
    pub(crate) fn remove(&mut self, cell: usize, v: u8) {
        self.cands[cell] &= !(1 << v);
        self.digits[v as usize] &= !(1u128 << cell);
    }

    /// Takes every digit of `mask` out of `cell`'s candidates.
    #[inline]
    pub(crate) fn remove_mask(&mut self, cell: usize, mask: u16) {
        for v in digits_of(mask & self.cands[cell]) {
            self.remove(cell, v);
        }
    }

    /// SE's `setValueAndCancel`: the cell takes `v`, loses all its candidates, and `v` leaves
    /// its 20 peers.
    pub(crate) fn place(&mut self, cell: usize, v: u8) {
        self.values[cell] = v;
        self.vacate(cell);
        for d in digits_of(self.cands[cell]) {
            self.digits[d as usize] &= !(1u128 << cell);
        }
        self.cands[cell] = 0;
        let peers = PEER_MASK[cell] & self.digits[v as usize];
        for p in cells_of(peers) {
            self.cands[p] &= !(1 << v);
        }
        self.digits[v as usize] &= !peers;
    }

    /// The positions (0..9, in the region's order) where `v` is still a candidate.
    #[inline]
    pub(crate) fn positions(&self, region: Region, v: u8) -> u16 {
        let d = self.digits[v as usize];
        let i = region % 9;
        match region / 9 {
            ROW => ((d >> (9 * i)) & 0x1ff) as u16,
            BLOCK => {
                let base = 27 * (i / 3) + 3 * (i % 3);
                (((d >> base) & 7)
                    | (((d >> (base + 9)) & 7) << 3)
                    | (((d >> (base + 18)) & 7) << 6)) as u16
            }
            _ => {
                let x = d >> i;
                let mut out = 0u16;
                for k in 0..9 {
                    out |= (((x >> (9 * k)) & 1) as u16) << k;
                }
                out
            }
        }
    }

    /// The number of cells of `v`'s candidates in a region.
    #[inline]
    pub(crate) fn position_count(&self, region: Region, v: u8) -> u32 {
        (self.digits[v as usize] & REGION_MASK[region]).pop()
    }

    /// The empty cells of a region.
    #[inline]
    pub(crate) fn empty_count(&self, region: Region) -> usize {
        usize::from(self.left[region])
    }

    /// Takes `cell` out of the empty cells (and its regions' counts), if it is one.
    #[inline]
    pub(crate) fn vacate(&mut self, cell: usize) {
        let bit = 1u128 << cell;
        if self.empty & bit != 0 {
            self.empty &= !bit;
            for &r in &CELL_REGION[cell] {
                self.left[r] -= 1;
            }
        }
    }

    /// Every cell has its value.
    pub(crate) fn is_solved(&self) -> bool {
        self.empty == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_follow_se_order() {
        // Block 1 (SE's block 2) is r1c4..r3c6 row by row.
        assert_eq!(REGION_CELLS[1], [3, 4, 5, 12, 13, 14, 21, 22, 23]);
        assert_eq!(REGION_CELLS[9 + 2], [18, 19, 20, 21, 22, 23, 24, 25, 26]);
        assert_eq!(REGION_CELLS[18 + 2], [2, 11, 20, 29, 38, 47, 56, 65, 74]);
        assert_eq!(CELL_REGION[40], [4, 13, 22]);
        assert_eq!(INDEX_IN_REGION[40], [4, 4, 4]);
        // r2c2's chain order: its block, then row 2 beyond the block, then column 2 beyond it.
        assert_eq!(
            PEERS_CHAIN_ORDER_C[10],
            [0, 1, 2, 9, 11, 18, 19, 20, 12, 13, 14, 15, 16, 17, 28, 37, 46, 55, 64, 73]
        );
        for c in 0..81 {
            assert_eq!(PEER_MASK[c].count_ones(), 20);
            let mut m = 0u128;
            for &p in &PEERS_CHAIN_ORDER_C[c] {
                m |= 1u128 << p;
            }
            assert_eq!(m, PEER_MASK[c]);
        }
    }

    /// Every region lists its cells in ascending order, so a walk over a region's cells in
    /// SE's order is a walk over a mask's bits (the unique-loop search and the hidden
    /// parents of `off_to_on` rely on it).
    #[test]
    fn region_cells_ascend() {
        for (r, cells) in REGION_CELLS.iter().enumerate() {
            assert!(cells.windows(2).all(|w| w[0] < w[1]), "region {r}");
            let listed: Vec<usize> = cells.iter().map(|&c| c as usize).collect();
            assert_eq!(cells_of(REGION_MASK[r]).collect::<Vec<_>>(), listed);
        }
    }

    #[test]
    fn placing_takes_the_digit_out_of_the_peers() {
        let g: Grid =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        let mut b = Board::new(&g);
        assert!(!b.has(2, 5) && !b.has(2, 3) && b.has(2, 4));
        b.place(2, 4);
        assert_eq!(b.values[2], 4);
        assert_eq!(b.cands[2], 0);
        for &p in &PEERS[2] {
            assert!(!b.has(p as usize, 4));
        }
        let mut fresh = b.clone();
        fresh.rebuild_digits();
        assert!(fresh == b);
        assert_eq!(b.positions(9, 4), 0);
    }
}
