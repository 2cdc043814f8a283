//! Candidate sets: a puzzle given as the digits each cell may still hold (pencilmarks), the
//! engine's second input beside [`Grid`].
//!
//! It lives in the engine, not beside `Grid`, because it is the engine's input format: a grid
//! of givens is the special case "one digit or all nine" ([`Candidates::from_grid`]), and
//! [`crate::engine::solve_candidates`] is the one consumer that needs more. The text form is
//! tdoku's pencilmark benchmark line: 729 characters, nine per cell in row-major order, where
//! position `k` (0..9) of a cell holds the digit `k + 1` when that digit is allowed and `.` when
//! it is excluded. The value is 81 nine-bit masks (bit `d - 1` = digit `d` allowed), `Copy`
//! and allocation-free like `Grid`; every constructor keeps the bits above the ninth clear, so
//! the engine can trust them.

use crate::grid::{is_separator, Grid};
use std::fmt;
use std::str::FromStr;

/// The characters of one cell in the text form.
const PER_CELL: usize = 9;
/// The characters of a whole line in the text form.
pub const LINE_LEN: usize = 81 * PER_CELL;

/// The digits each of the 81 cells may hold, bit `d - 1` for digit `d`.
///
/// ```
/// use sudoku_batch::{engine::Candidates, Grid};
/// let g: Grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse().unwrap();
/// let c = Candidates::from_grid(&g);
/// assert_eq!(c.get(0), 1 << 4); // the given 5
/// assert_eq!(c.get(2), 0x1ff); // a blank: all nine
/// let line = c.to_line();
/// assert_eq!(line.len(), 729);
/// assert_eq!(&line[..27], "....5......3......123456789"); // 5, 3, blank
/// assert_eq!(Candidates::parse_line(line.as_bytes()), Ok(c));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Candidates([u16; 81]);

impl Candidates {
    /// All nine digits.
    pub const ALL_DIGITS: u16 = 0x1ff;

    /// Every digit allowed in every cell (the empty grid).
    pub const FULL: Candidates = Candidates([Self::ALL_DIGITS; 81]);

    /// The candidate sets from 81 masks (bit `d - 1` = digit `d`), or `None` when a mask has a
    /// bit above the ninth. A zero mask is allowed: that cell, and so the puzzle, has no
    /// solution.
    pub fn from_masks(masks: [u16; 81]) -> Option<Candidates> {
        masks
            .iter()
            .all(|&m| m & !Self::ALL_DIGITS == 0)
            .then_some(Candidates(masks))
    }

    /// The 81 masks, row by row.
    #[inline]
    pub fn masks(&self) -> &[u16; 81] {
        &self.0
    }

    /// The mask of cell `cell` (0..81, row-major).
    #[inline]
    pub fn get(&self, cell: usize) -> u16 {
        self.0[cell]
    }

    /// The grid of the cells that have exactly one candidate (the others blank).
    pub fn singles(&self) -> Grid {
        let mut cells = [0u8; 81];
        for (c, &m) in cells.iter_mut().zip(self.0.iter()) {
            if m.count_ones() == 1 {
                *c = m.trailing_zeros() as u8 + 1;
            }
        }
        Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
    }

    /// A given is that digit only, a blank is all nine.
    pub fn from_grid(grid: &Grid) -> Candidates {
        Candidates(grid.cells().map(|v| {
            if v == 0 {
                Self::ALL_DIGITS
            } else {
                1 << (v - 1)
            }
        }))
    }

    /// Whether every cell of `grid` holds a digit its set allows (blanks are not checked), so
    /// a solved grid that passes is a solution of these candidates exactly when it is valid.
    pub fn allows(&self, grid: &Grid) -> bool {
        grid.cells()
            .iter()
            .zip(&self.0)
            .all(|(&v, &m)| v == 0 || m & (1 << (v - 1)) != 0)
    }

    /// Parses one line of the text form: optional leading whitespace, exactly 729 characters
    /// (position `k` of each cell either the digit `k + 1` or `.`), then the end of the line or
    /// a separator as for [`Grid::parse_line`], after which anything is ignored. Errors name
    /// the cell (1-based, with its row and column) and the position.
    ///
    /// ```
    /// use sudoku_batch::engine::Candidates;
    /// let full = "123456789".repeat(81);
    /// assert_eq!(Candidates::parse_line(format!("{full} # note").as_bytes()), Ok(Candidates::FULL));
    /// let mut bad = full.clone().into_bytes();
    /// bad[9 + 2] = b'4';
    /// assert_eq!(Candidates::parse_line(&bad).unwrap_err(),
    ///     "cell 2 (r1c2), position 3: expected '3' or '.', found '4'");
    /// assert_eq!(Candidates::parse_line(&full.as_bytes()[..728]).unwrap_err(),
    ///     "expected 729 characters, found 728");
    /// ```
    pub fn parse_line(line: &[u8]) -> Result<Candidates, String> {
        let start = line
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(line.len());
        let line = &line[start..];
        let end = line
            .iter()
            .position(|&b| is_separator(b))
            .unwrap_or(line.len());
        let field = &line[..end];
        let mut masks = [0u16; 81];
        for (i, &b) in field.iter().enumerate().take(LINE_LEN) {
            let (cell, k) = (i / PER_CELL, i % PER_CELL);
            let digit = b'1' + k as u8;
            if b == digit {
                masks[cell] |= 1 << k;
            } else if b != b'.' {
                let found = match field[i..].utf8_chunks().next() {
                    Some(chunk) if !chunk.valid().is_empty() => {
                        format!("{:?}", chunk.valid().chars().next().unwrap_or('?'))
                    }
                    _ => format!("the byte 0x{b:02x} (not UTF-8)"),
                };
                return Err(format!(
                    "cell {} (r{}c{}), position {}: expected '{}' or '.', found {found}",
                    cell + 1,
                    cell / 9 + 1,
                    cell % 9 + 1,
                    k + 1,
                    digit as char,
                ));
            }
        }
        if field.len() != LINE_LEN {
            let n = String::from_utf8_lossy(field).chars().count();
            return Err(format!("expected {LINE_LEN} characters, found {n}"));
        }
        Ok(Candidates(masks))
    }

    /// The 729-character text form.
    pub fn to_line(&self) -> String {
        let mut s = String::with_capacity(LINE_LEN);
        for &m in &self.0 {
            for k in 0..PER_CELL {
                s.push(if m & (1 << k) != 0 {
                    (b'1' + k as u8) as char
                } else {
                    '.'
                });
            }
        }
        s
    }
}

impl FromStr for Candidates {
    type Err = String;
    fn from_str(s: &str) -> Result<Candidates, String> {
        Candidates::parse_line(s.as_bytes())
    }
}

impl fmt::Display for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Candidates({})", self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip_and_errors() {
        let mut masks = [0u16; 81];
        for (i, m) in masks.iter_mut().enumerate() {
            *m = ((i * 37 + 11) % 512) as u16;
        }
        let c = Candidates::from_masks(masks).unwrap();
        let line = c.to_line();
        assert_eq!(line.len(), LINE_LEN);
        assert_eq!(line.parse::<Candidates>(), Ok(c));
        assert_eq!(
            Candidates::parse_line(format!("  {line}\r\n").as_bytes()),
            Ok(c)
        );
        assert_eq!(
            Candidates::parse_line(format!("{line},x").as_bytes()),
            Ok(c)
        );
        // Cell 0 is mask 11 = digits 1, 2, 4: "12.4.....".
        assert_eq!(&line[..9], "12.4.....");
        assert!(Candidates::from_masks([0x200; 81]).is_none());
        let too_long = format!("{line}.");
        assert_eq!(
            Candidates::parse_line(too_long.as_bytes()).unwrap_err(),
            "expected 729 characters, found 730"
        );
        assert_eq!(
            Candidates::parse_line(b"").unwrap_err(),
            "expected 729 characters, found 0"
        );
        let mut bad = line.clone().into_bytes();
        bad[80 * 9 + 8] = b'x';
        assert_eq!(
            Candidates::parse_line(&bad).unwrap_err(),
            "cell 81 (r9c9), position 9: expected '9' or '.', found 'x'"
        );
        bad[80 * 9 + 8] = 0xff;
        assert_eq!(
            Candidates::parse_line(&bad).unwrap_err(),
            "cell 81 (r9c9), position 9: expected '9' or '.', found the byte 0xff (not UTF-8)"
        );
        // A grid line is not a pencilmark line.
        let grid = ".".repeat(81);
        assert!(Candidates::parse_line(grid.as_bytes()).is_err());
    }

    #[test]
    fn from_grid_and_allows() {
        let g: Grid = crate::testing::LEET.parse().unwrap();
        let c = Candidates::from_grid(&g);
        for (cell, &v) in g.cells().iter().enumerate() {
            let want = if v == 0 { 0x1ff } else { 1 << (v - 1) };
            assert_eq!(c.get(cell), want);
        }
        assert!(c.allows(&g));
        let mut other = *g.cells();
        other[0] = other[0] % 9 + 1;
        assert!(!c.allows(&Grid::from_cells(other).unwrap()));
        assert_eq!(Candidates::from_grid(&Grid::EMPTY), Candidates::FULL);
    }
}
