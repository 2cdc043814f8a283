//! Grids: the 81-cell value type, parsing from the text forms puzzles come in, formatting back
//! out, and the check that givens do not already break a rule.
//!
//! A [`Grid`] is 81 bytes, `0` for an empty cell and `1..=9` for a digit. It is `Copy`, so the
//! pipeline moves grids around without touching the heap. Parsing works on bytes, not `str`,
//! because corpora in the wild contain invalid UTF-8, NUL bytes and stray Unicode, and every such
//! line must come back as a precise, human-readable [`ParseError`] rather than a crash or a
//! silently dropped row. Errors are small enums; the text is produced only when a row is written.

use std::fmt;
use std::str::FromStr;

/// A sudoku grid: 81 cells in row-major order (r1c1 … r9c9), `0` for blank, `1..=9` for a digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; 81],
}

/// Why a line (or CSV field, or block) is not a usable puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The cells ran out, or went on, before a separator: `found` cells were read.
    WrongCellCount { found: usize },
    /// A character that is neither a cell nor a separator, at 1-based cell position `cell`.
    UnexpectedChar { ch: char, cell: usize },
    /// A byte that does not start valid UTF-8, at 1-based cell position `cell`.
    InvalidUtf8 { byte: u8, cell: usize },
    /// The line is longer than the reader keeps and no separator came before that point.
    LineTooLong { kept: usize },
    /// Anything a reader of a richer format (block, CSV) wants to say, already as text.
    Other(String),
}

/// Two equal givens in one row, column or box (all 1-based, as people count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub unit: Unit,
    pub index: u8,
    pub digit: u8,
}

/// The three kinds of house.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Row,
    Column,
    Box,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::WrongCellCount { found } => write!(f, "expected 81 cells, found {found}"),
            ParseError::UnexpectedChar { ch, cell } => {
                write!(
                    f,
                    "unexpected character '{}' at cell {cell}",
                    ch.escape_debug()
                )
            }
            ParseError::InvalidUtf8 { byte, cell } => {
                write!(f, "invalid UTF-8 (byte 0x{byte:02x}) at cell {cell}")
            }
            ParseError::LineTooLong { kept } => {
                write!(f, "line too long: no separator in its first {kept} bytes")
            }
            ParseError::Other(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for ParseError {}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = match self.unit {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
        };
        write!(f, "{unit} {} has two {}s", self.index, self.digit)
    }
}

/// The value of a cell character, or `None` when it is not a cell: `1`-`9` are digits,
/// `.`, `0`, `*` and `_` are blanks.
#[inline]
pub fn cell_value(b: u8) -> Option<u8> {
    match b {
        b'1'..=b'9' => Some(b - b'0'),
        b'.' | b'0' | b'*' | b'_' => Some(0),
        _ => None,
    }
}

/// [`cell_value`] as a table: the value, or [`NOT_A_CELL`] for a byte that is not a cell.
static CELL_OF_BYTE: [u8; 256] = {
    let mut t = [NOT_A_CELL; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            d @ b'1'..=b'9' => d - b'0',
            b'.' | b'0' | b'*' | b'_' => 0,
            _ => NOT_A_CELL,
        };
        b += 1;
    }
    t
};
const NOT_A_CELL: u8 = 0x80;

/// Whether `b` may end the cells of a line: whitespace, `,`, `;` or `:`.
#[inline]
pub fn is_separator(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c | b',' | b';' | b':'
    )
}

/// The error for a byte that is not a cell: the character it starts, or invalid UTF-8.
pub(crate) fn unexpected_at(rest: &[u8], cell: usize) -> ParseError {
    match rest.utf8_chunks().next() {
        Some(chunk) => match chunk.valid().chars().next() {
            Some(ch) => ParseError::UnexpectedChar { ch, cell },
            None => ParseError::InvalidUtf8 {
                byte: chunk.invalid().first().copied().unwrap_or(0),
                cell,
            },
        },
        None => ParseError::WrongCellCount { found: cell - 1 },
    }
}

impl Grid {
    /// The grid with every cell blank.
    pub const EMPTY: Grid = Grid { cells: [0; 81] };

    /// A grid from cell values; `None` if any value is above 9.
    pub fn from_cells(cells: [u8; 81]) -> Option<Grid> {
        // The largest value, without an early exit, so that it compiles to a few vector ops.
        (cells.iter().fold(0, |m, &v| m.max(v)) <= 9).then_some(Grid { cells })
    }

    /// The cell values, row-major, `0` for blank.
    #[inline]
    pub fn cells(&self) -> &[u8; 81] {
        &self.cells
    }

    /// The value at row `r`, column `c` (both 0-based); `0` for blank.
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.cells[r * 9 + c]
    }

    /// How many cells are filled.
    pub fn clues(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Parses one input line: optional leading whitespace, exactly 81 cells, then either the
    /// end of the line or a separator (whitespace, tab, `,`, `;`, `:`) after which anything is
    /// ignored. Only the shape is checked here; see [`Grid::check_givens`] for the rules.
    ///
    /// ```
    /// use sudoku_batch::Grid;
    /// let line = b"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 # LeetCode 37";
    /// let g = Grid::parse_line(line).unwrap();
    /// assert_eq!(g.get(0, 0), 5);
    /// assert_eq!(g.clues(), 30);
    /// assert_eq!(
    ///     Grid::parse_line(&line[..80]).unwrap_err().to_string(),
    ///     "expected 81 cells, found 80"
    /// );
    /// ```
    pub fn parse_line(line: &[u8]) -> Result<Grid, ParseError> {
        // Fast path (nearly every line of a corpus): 81 cell characters right at the start, then
        // the end of the line or a separator. One table look-up per byte, no branches; anything
        // else takes the general path below, which gives the same answer for these lines.
        if line.len() >= 81 && (line.len() == 81 || is_separator(line[81])) {
            // Digits and `.` by arithmetic the compiler turns into vector code; a line with any
            // other cell character (`*`, `_`) goes through the table.
            let mut cells = [0u8; 81];
            let mut other = false;
            for (c, &b) in cells.iter_mut().zip(&line[..81]) {
                let d = b.wrapping_sub(b'0');
                let digit = d <= 9;
                other |= !digit & (b != b'.');
                *c = if digit { d } else { 0 };
            }
            if !other {
                return Ok(Grid { cells });
            }
            let mut bad = 0u8;
            for (c, &b) in cells.iter_mut().zip(&line[..81]) {
                let v = CELL_OF_BYTE[b as usize];
                bad |= v;
                *c = v;
            }
            if bad & NOT_A_CELL == 0 {
                return Ok(Grid { cells });
            }
        }
        let start = line
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(line.len());
        let line = &line[start..];
        let mut cells = [0u8; 81];
        let mut n = 0usize;
        for (i, &b) in line.iter().enumerate() {
            if let Some(v) = cell_value(b) {
                if n < 81 {
                    cells[n] = v;
                }
                n += 1;
            } else if is_separator(b) {
                break;
            } else {
                return Err(unexpected_at(&line[i..], n + 1));
            }
        }
        if n == 81 {
            Ok(Grid { cells })
        } else {
            Err(ParseError::WrongCellCount { found: n })
        }
    }

    /// Parses exactly 81 cells with nothing around them but whitespace (a CSV field, say).
    ///
    /// ```
    /// use sudoku_batch::Grid;
    /// assert!(Grid::parse_cells(&[b'.'; 81]).is_ok());
    /// let mut bad = vec![b'0'; 81];
    /// bad.extend_from_slice(b",x");
    /// assert!(Grid::parse_cells(&bad).is_err());
    /// ```
    pub fn parse_cells(field: &[u8]) -> Result<Grid, ParseError> {
        let field = field.trim_ascii();
        let mut cells = [0u8; 81];
        let mut n = 0usize;
        for (i, &b) in field.iter().enumerate() {
            match cell_value(b) {
                Some(v) => {
                    if n < 81 {
                        cells[n] = v;
                    }
                    n += 1;
                }
                None => return Err(unexpected_at(&field[i..], n + 1)),
            }
        }
        if n == 81 {
            Ok(Grid { cells })
        } else {
            Err(ParseError::WrongCellCount { found: n })
        }
    }

    /// Checks that no row, column or box holds the same given twice. Rows are checked first,
    /// then columns, then boxes, each in order, so the reported conflict is deterministic.
    ///
    /// ```
    /// use sudoku_batch::Grid;
    /// let mut line = [b'.'; 81];
    /// line[2] = b'5';
    /// line[7] = b'5';
    /// let g = Grid::parse_line(&line).unwrap();
    /// assert_eq!(g.check_givens().unwrap_err().to_string(), "row 1 has two 5s");
    /// ```
    pub fn check_givens(&self) -> Result<(), Conflict> {
        // Fast path, one pass over the cells: is there any conflict at all? (This runs for
        // every puzzle of a batch; the ordered search below only for the rare bad one.) A digit
        // clashes when its bit is already in its row's, column's or box's mask. Rows of a fixed
        // size, so the compiler unrolls the cells and keeps the masks in registers; no division.
        let mut cols = [0u16; 9];
        let mut clash = 0u16;
        for band in self.cells.chunks_exact(27) {
            let mut boxes = [0u16; 3];
            for row in band.chunks_exact(9) {
                let mut row_mask = 0u16;
                for (c, &v) in row.iter().enumerate() {
                    let bit = (1u16 << v) & !1;
                    clash |= (row_mask | cols[c] | boxes[c / 3]) & bit;
                    row_mask |= bit;
                    cols[c] |= bit;
                    boxes[c / 3] |= bit;
                }
            }
        }
        if clash == 0 {
            return Ok(());
        }
        for (unit, cells_of) in [
            (Unit::Row, row_cell as fn(usize, usize) -> usize),
            (Unit::Column, col_cell),
            (Unit::Box, box_cell),
        ] {
            for u in 0..9 {
                let mut seen = 0u16;
                for k in 0..9 {
                    let v = self.cells[cells_of(u, k)];
                    if v == 0 {
                        continue;
                    }
                    let bit = 1u16 << v;
                    if seen & bit != 0 {
                        return Err(Conflict {
                            unit,
                            index: u as u8 + 1,
                            digit: v,
                        });
                    }
                    seen |= bit;
                }
            }
        }
        Ok(())
    }

    /// Whether this grid is complete, breaks no rule and keeps every given of `puzzle`.
    ///
    /// ```
    /// use sudoku_batch::{Grid, engine};
    /// let p: Grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse().unwrap();
    /// let s = engine::solve(&p, 2).first.unwrap();
    /// assert!(s.is_solution_of(&p));
    /// assert!(!p.is_solution_of(&p));
    /// ```
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.cells.iter().all(|&v| v != 0)
            && self.check_givens().is_ok()
            && puzzle
                .cells
                .iter()
                .zip(self.cells.iter())
                .all(|(&p, &s)| p == 0 || p == s)
    }

    /// Writes the grid as 81 ASCII bytes, `.` for blanks.
    #[inline]
    pub fn write_line(&self, out: &mut [u8; 81]) {
        for (o, &v) in out.iter_mut().zip(self.cells.iter()) {
            // Branch-free, so it compiles to vector code: `.` is `'0' - 2`.
            *o = b'0' + v - 2 * u8::from(v == 0);
        }
    }

    /// The grid as an 81-char line, `.` for blanks.
    pub fn to_line(&self) -> String {
        let mut buf = [0u8; 81];
        self.write_line(&mut buf);
        buf.iter().map(|&b| b as char).collect()
    }

    /// The grid as 9 lines of 9 cells separated by spaces, `.` for blanks, each line ending
    /// in `\n`: the layout textbooks print, and what `--input-format block` reads back.
    ///
    /// ```
    /// use sudoku_batch::Grid;
    /// let g = Grid::EMPTY;
    /// assert_eq!(g.to_block().lines().next(), Some(". . . . . . . . ."));
    /// ```
    pub fn to_block(&self) -> String {
        let mut s = String::with_capacity(9 * 18);
        for r in 0..9 {
            for c in 0..9 {
                if c > 0 {
                    s.push(' ');
                }
                let v = self.get(r, c);
                s.push(if v == 0 { '.' } else { (b'0' + v) as char });
            }
            s.push('\n');
        }
        s
    }
}

fn row_cell(u: usize, k: usize) -> usize {
    u * 9 + k
}
fn col_cell(u: usize, k: usize) -> usize {
    k * 9 + u
}
fn box_cell(u: usize, k: usize) -> usize {
    (u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3
}

impl fmt::Display for Grid {
    /// The 81-char line form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

impl FromStr for Grid {
    type Err = ParseError;
    /// Parses the line format (see [`Grid::parse_line`]).
    fn from_str(s: &str) -> Result<Grid, ParseError> {
        Grid::parse_line(s.as_bytes())
    }
}

/// The 27 houses (units): rows 0–8, columns 9–17, boxes 18–26, each as its nine cells. Shared
/// by the solvers that work cell by cell (the rating solver, the test oracle).
pub(crate) const UNITS: [[u8; 9]; 27] = {
    let mut u = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            u[i][k] = (i * 9 + k) as u8;
            u[9 + i][k] = (k * 9 + i) as u8;
            u[18 + i][k] = ((i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3) as u8;
            k += 1;
        }
        i += 1;
    }
    u
};

/// For each cell, the 20 other cells that share its row, column or box.
pub(crate) const PEERS: [[u8; 20]; 81] = {
    let mut p = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let (r, col, b) = (c / 9, c % 9, (c / 27) * 3 + (c % 9) / 3);
        let mut n = 0;
        let mut o = 0;
        while o < 81 {
            let (ro, co, bo) = (o / 9, o % 9, (o / 27) * 3 + (o % 9) / 3);
            if o != c && (ro == r || co == col || bo == b) {
                p[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        c += 1;
    }
    p
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Each cell has 20 distinct peers, every other cell of its three houses; every cell lies
    /// in exactly three houses.
    #[test]
    fn houses_and_peers_tables() {
        for (c, peers) in PEERS.iter().enumerate() {
            let mut seen = [false; 81];
            for &p in peers {
                assert_ne!(p as usize, c);
                assert!(!seen[p as usize]);
                seen[p as usize] = true;
            }
            let in_units = UNITS
                .iter()
                .filter(|u| u.contains(&(c as u8)))
                .flat_map(|u| u.iter())
                .filter(|&&o| o as usize != c)
                .all(|&o| seen[o as usize]);
            assert!(in_units);
        }
        let mut count = [0; 81];
        for u in &UNITS {
            for &c in u {
                count[c as usize] += 1;
            }
        }
        assert!(count.iter().all(|&n| n == 3));
        assert_eq!(UNITS[18 + 4], [30, 31, 32, 39, 40, 41, 48, 49, 50]);
    }

    use crate::testing::LEET;

    fn err(line: &[u8]) -> String {
        Grid::parse_line(line).unwrap_err().to_string()
    }

    /// The general path of `parse_line` alone (the fast path skipped): the reference.
    fn parse_slow(line: &[u8]) -> Result<Grid, ParseError> {
        // A leading space sends every line down the general path, which trims it.
        let mut padded = vec![b' '];
        padded.extend_from_slice(line);
        Grid::parse_line(&padded)
    }

    /// The simplest check there is: every pair of cells that share a unit.
    fn clashes_by_pairs(g: &Grid) -> bool {
        let c = g.cells;
        (0..81).any(|i| {
            (0..i).any(|j| {
                let (ri, ci, rj, cj) = (i / 9, i % 9, j / 9, j % 9);
                let same = ri == rj || ci == cj || (ri / 3 == rj / 3 && ci / 3 == cj / 3);
                same && c[i] != 0 && c[i] == c[j]
            })
        })
    }

    #[test]
    fn fast_paths_agree_with_the_general_ones() {
        let mut rng = crate::rng::Rng::new(7);
        let alphabet = b"123456789.0*_ ,;:\tx#\xc3";
        let base: Grid = LEET.parse().unwrap();
        let mut seen_clash = 0;
        for _ in 0..20_000 {
            // A valid line with a few random edits and a random tail length.
            let mut line = base.to_line().into_bytes();
            for _ in 0..(rng.next_u64() % 4) {
                let at = (rng.next_u64() % 81) as usize;
                line[at] = alphabet[(rng.next_u64() % alphabet.len() as u64) as usize];
            }
            let len = 78 + (rng.next_u64() % 6) as usize;
            line.resize(
                len,
                alphabet[(rng.next_u64() % alphabet.len() as u64) as usize],
            );
            let fast = Grid::parse_line(&line);
            assert_eq!(
                fast,
                parse_slow(&line),
                "{:?}",
                String::from_utf8_lossy(&line)
            );
            if let Ok(g) = fast {
                let clash = clashes_by_pairs(&g);
                seen_clash += usize::from(clash);
                assert_eq!(g.check_givens().is_err(), clash, "{}", g.to_line());
            }
        }
        assert!(
            seen_clash > 100,
            "the edits made too few clashes: {seen_clash}"
        );
    }

    #[test]
    fn blanks_and_separators() {
        let g: Grid = LEET.parse().unwrap();
        for blank in [b'0', b'*', b'_'] {
            let alt: Vec<u8> = LEET
                .bytes()
                .map(|b| if b == b'.' { blank } else { b })
                .collect();
            assert_eq!(Grid::parse_line(&alt).unwrap(), g);
        }
        for sep in [" ", "\t", ",", ";", ":", "\r"] {
            let line = format!("{LEET}{sep}trailing text 123");
            assert_eq!(Grid::parse_line(line.as_bytes()).unwrap(), g, "sep {sep:?}");
        }
        assert_eq!(Grid::parse_line(format!("  {LEET}").as_bytes()).unwrap(), g);
        assert_eq!(g.to_line(), LEET);
    }

    #[test]
    fn wrong_lengths() {
        assert_eq!(err(&LEET.as_bytes()[..80]), "expected 81 cells, found 80");
        assert_eq!(
            err(format!("{LEET}1").as_bytes()),
            "expected 81 cells, found 82"
        );
        assert_eq!(err(&[b'.'; 5000]), "expected 81 cells, found 5000");
        assert_eq!(err(b""), "expected 81 cells, found 0");
    }

    #[test]
    fn bad_characters() {
        let mut line = LEET.as_bytes().to_vec();
        line[0] = b'x';
        assert_eq!(err(&line), "unexpected character 'x' at cell 1");
        line[0] = 0;
        assert_eq!(err(&line), "unexpected character '\\0' at cell 1");
        line[0] = 0xff;
        assert_eq!(err(&line), "invalid UTF-8 (byte 0xff) at cell 1");
        let full = format!("{}１{}", &LEET[..10], &LEET[11..]);
        assert_eq!(err(full.as_bytes()), "unexpected character '１' at cell 11");
        let mut tail = LEET.as_bytes().to_vec();
        tail.push(b'|');
        assert_eq!(err(&tail), "unexpected character '|' at cell 82");
    }

    #[test]
    fn conflicts_name_the_house() {
        let mut row = [b'.'; 81];
        row[9] = b'5';
        row[17] = b'5';
        let g = Grid::parse_line(&row).unwrap();
        assert_eq!(
            g.check_givens().unwrap_err().to_string(),
            "row 2 has two 5s"
        );
        let mut col = [b'.'; 81];
        col[6] = b'1';
        col[6 + 72] = b'1';
        let g = Grid::parse_line(&col).unwrap();
        assert_eq!(
            g.check_givens().unwrap_err().to_string(),
            "column 7 has two 1s"
        );
        let mut bx = [b'.'; 81];
        bx[30] = b'9';
        bx[40] = b'9';
        let g = Grid::parse_line(&bx).unwrap();
        assert_eq!(
            g.check_givens().unwrap_err().to_string(),
            "box 5 has two 9s"
        );
        assert!(LEET.parse::<Grid>().unwrap().check_givens().is_ok());
    }

    #[test]
    fn cells_field_is_strict() {
        assert!(Grid::parse_cells(format!(" {LEET} ").as_bytes()).is_ok());
        assert_eq!(
            Grid::parse_cells(format!("{LEET} x").as_bytes())
                .unwrap_err()
                .to_string(),
            "unexpected character ' ' at cell 82"
        );
    }

    #[test]
    fn block_round_trip_shape() {
        let g: Grid = LEET.parse().unwrap();
        let block = g.to_block();
        assert_eq!(block.lines().count(), 9);
        assert_eq!(block.lines().next(), Some("5 3 . . 7 . . . ."));
        let flat: Vec<u8> = block.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        assert_eq!(Grid::parse_line(&flat).unwrap(), g);
    }
}
