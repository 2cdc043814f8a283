//! The equivalence transforms of sudoku: relabel the digits, optionally transpose, permute the
//! bands, the rows inside each band, the stacks and the columns inside each stack. Two puzzles
//! are *equivalent* when one of these maps one onto the other; every dataset command (`canon`,
//! `dedup`, `split`, `rate`'s sampling, `--augment`, `generate`) speaks of them, so they live
//! here once.
//!
//! A [`Transform`] is stored as where each output row and column comes from plus a digit map,
//! because that is what applying it needs (one gather per cell); composing, inverting and the
//! text form ([`Transform`]'s `Display` and `FromStr`) work on that form directly.
//!
//! Text form, for `canon --transform` and `--augment`: `T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD`, where
//! `T` is `t` (transpose first) or `n`, `R…` are nine digits 1–9 naming the input row each output
//! row is taken from (after the transposition), `C…` likewise for columns, and `D…` the new label
//! of digits 1..9. So output cell (r, c) = D[ input' (R[r], C[c]) ], input' being the input,
//! transposed when `T` is `t`. The identity is `n:123456789:123456789:123456789`.

use std::fmt;
use std::str::FromStr;

use crate::grid::Grid;
use crate::rng::Rng;

/// One equivalence transform. Always valid: rows and columns move within their bands and
/// stacks, bands and stacks as wholes, digits by a permutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    transpose: bool,
    /// Output row `r` is input row `rows[r]` (0-based, after the transposition).
    rows: [u8; 9],
    /// Output column `c` is input column `cols[c]`.
    cols: [u8; 9],
    /// `digits[d]` is the new label of digit `d`; `digits[0] == 0` (blank stays blank).
    digits: [u8; 10],
}

/// How many geometric transforms there are: 2 × 6⁸ (transposition, band, row, stack, column
/// permutations); with relabelings, × 9!.
pub const GEOMETRIC: u32 = 2 * 6u32.pow(8);

const IDENTITY_LINE: [u8; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/// The six permutations of three things, in lexicographic order.
pub const PERMS3: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

impl Default for Transform {
    fn default() -> Self {
        Transform::IDENTITY
    }
}

impl Transform {
    /// The transform that changes nothing.
    pub const IDENTITY: Transform = Transform {
        transpose: false,
        rows: IDENTITY_LINE,
        cols: IDENTITY_LINE,
        digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    };

    /// A transform from its parts; `None` unless `rows` and `cols` keep bands and stacks whole
    /// and `digits` (labels of 1..9) is a permutation of 1..9.
    pub fn new(transpose: bool, rows: [u8; 9], cols: [u8; 9], digits: [u8; 9]) -> Option<Self> {
        let mut d = [0u8; 10];
        d[1..].copy_from_slice(&digits);
        let t = Transform {
            transpose,
            rows,
            cols,
            digits: d,
        };
        (keeps_blocks(&rows) && keeps_blocks(&cols) && is_digit_perm(&digits)).then_some(t)
    }

    /// A geometric transform built from its choices: band and stack permutations (indices into
    /// [`PERMS3`]), and for each output band/stack the permutation of its rows/columns.
    pub fn from_choices(
        transpose: bool,
        band: usize,
        rows: [usize; 3],
        stack: usize,
        cols: [usize; 3],
    ) -> Self {
        let line = |outer: usize, inner: [usize; 3]| {
            let mut l = [0u8; 9];
            for b in 0..3 {
                for k in 0..3 {
                    l[b * 3 + k] = PERMS3[outer][b] * 3 + PERMS3[inner[b]][k];
                }
            }
            l
        };
        Transform {
            transpose,
            rows: line(band, rows),
            cols: line(stack, cols),
            digits: Transform::IDENTITY.digits,
        }
    }

    /// A uniformly random transform (geometry and relabeling) drawn from `rng`.
    pub fn random(rng: &mut Rng) -> Self {
        let mut pick = || rng.below(6) as usize;
        let (band, stack) = (pick(), pick());
        let rows = [pick(), pick(), pick()];
        let cols = [pick(), pick(), pick()];
        let transpose = rng.below(2) == 1;
        let mut t = Transform::from_choices(transpose, band, rows, stack, cols);
        let mut labels = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut labels);
        t.digits[1..].copy_from_slice(&labels);
        t
    }

    /// This transform with its digit map replaced (`digits[d-1]` is the new label of `d`).
    pub fn with_digits(mut self, digits: [u8; 9]) -> Option<Self> {
        if !is_digit_perm(&digits) {
            return None;
        }
        self.digits[1..].copy_from_slice(&digits);
        Some(self)
    }

    /// Whether the input is transposed first.
    pub fn transposes(&self) -> bool {
        self.transpose
    }

    /// Output row `r` comes from this input row (after the transposition).
    pub fn rows(&self) -> &[u8; 9] {
        &self.rows
    }

    /// Output column `c` comes from this input column (after the transposition).
    pub fn cols(&self) -> &[u8; 9] {
        &self.cols
    }

    /// The new label of each digit: index 0 is blank (always 0), then digits 1..9.
    pub fn digits(&self) -> &[u8; 10] {
        &self.digits
    }

    /// For each output cell, the input cell it is read from.
    pub fn source_cells(&self) -> [u8; 81] {
        let mut src = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                let (ir, ic) = (self.rows[r] as usize, self.cols[c] as usize);
                src[r * 9 + c] = if self.transpose {
                    ic * 9 + ir
                } else {
                    ir * 9 + ic
                } as u8;
            }
        }
        src
    }

    /// Applies the transform to raw cells (`0` blank, `1..=9` digits).
    pub fn apply_cells(&self, cells: &[u8; 81]) -> [u8; 81] {
        let src = self.source_cells();
        let mut out = [0u8; 81];
        for (o, &s) in out.iter_mut().zip(src.iter()) {
            *o = self.digits[cells[s as usize] as usize];
        }
        out
    }

    /// Applies the transform to a grid.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let out = self.apply_cells(grid.cells());
        // Digits stay in 0..=9, so this cannot fail; fall back to the input rather than panic.
        Grid::from_cells(out).unwrap_or(*grid)
    }

    /// The transform that undoes this one: `t.inverse().apply(&t.apply(g)) == g`.
    pub fn inverse(&self) -> Transform {
        let mut inv_rows = [0u8; 9];
        let mut inv_cols = [0u8; 9];
        for i in 0..9 {
            inv_rows[self.rows[i] as usize] = i as u8;
            inv_cols[self.cols[i] as usize] = i as u8;
        }
        let mut digits = [0u8; 10];
        for d in 1..10 {
            digits[self.digits[d] as usize] = d as u8;
        }
        // Forward: out(r,c) = in'(R[r], C[c]), with in' = in or inᵀ. Backward, without a
        // transposition: in(i,j) = out(R⁻¹[i], C⁻¹[j]). With one: in(i,j) = in'(j,i) =
        // out(R⁻¹[j], C⁻¹[i]), which is "transpose out, then rows from C⁻¹, columns from R⁻¹".
        if self.transpose {
            Transform {
                transpose: true,
                rows: inv_cols,
                cols: inv_rows,
                digits,
            }
        } else {
            Transform {
                transpose: false,
                rows: inv_rows,
                cols: inv_cols,
                digits,
            }
        }
    }

    /// The transform that applies `self`, then `then`.
    pub fn then(&self, then: &Transform) -> Transform {
        // Compose through the cell maps: out2(k) = D2[D1[in(src1[src2[k]])]]. Rebuild the
        // structured form from where the cells of row 0 and column 0 come from.
        let s1 = self.source_cells();
        let s2 = then.source_cells();
        let src: Vec<usize> = (0..81).map(|k| s1[s2[k] as usize] as usize).collect();
        // Output (0,0) and (0,1) come from input cells in the same row unless transposed.
        let transpose = src[0] / 9 != src[1] / 9;
        let mut rows = [0u8; 9];
        let mut cols = [0u8; 9];
        for i in 0..9 {
            let (a, b) = (src[i * 9], src[i]);
            if transpose {
                rows[i] = (a % 9) as u8;
                cols[i] = (b / 9) as u8;
            } else {
                rows[i] = (a / 9) as u8;
                cols[i] = (b % 9) as u8;
            }
        }
        let digits = self.digits.map(|d| then.digits[d as usize]);
        Transform {
            transpose,
            rows,
            cols,
            digits,
        }
    }
}

fn keeps_blocks(line: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    for b in 0..3 {
        let block = line[b * 3] / 3;
        for k in 0..3 {
            let v = line[b * 3 + k];
            if v > 8 || v / 3 != block {
                return false;
            }
            seen |= 1 << v;
        }
    }
    seen == 0x1ff
}

fn is_digit_perm(d: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    for &v in d {
        if !(1..=9).contains(&v) {
            return false;
        }
        seen |= 1 << v;
    }
    seen == 0x3fe
}

impl fmt::Display for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(31);
        s.push(if self.transpose { 't' } else { 'n' });
        for part in [&self.rows[..], &self.cols[..]] {
            s.push(':');
            s.extend(part.iter().map(|&v| char::from(b'1' + v)));
        }
        s.push(':');
        s.extend(self.digits[1..].iter().map(|&v| char::from(b'0' + v)));
        f.write_str(&s)
    }
}

impl FromStr for Transform {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad =
            || format!("'{s}' is not a transform of the form T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD");
        let parts: Vec<&str> = s.trim().split(':').collect();
        let [t, r, c, d] = parts[..] else {
            return Err(bad());
        };
        let nine = |p: &str| -> Option<[u8; 9]> {
            let b = p.as_bytes();
            if b.len() != 9 || !b.iter().all(|x| (b'1'..=b'9').contains(x)) {
                return None;
            }
            let mut out = [0u8; 9];
            for (o, x) in out.iter_mut().zip(b) {
                *o = x - b'0';
            }
            Some(out)
        };
        let transpose = match t {
            "t" => true,
            "n" => false,
            _ => return Err(bad()),
        };
        let (Some(r), Some(c), Some(d)) = (nine(r), nine(c), nine(d)) else {
            return Err(bad());
        };
        Transform::new(transpose, r.map(|v| v - 1), c.map(|v| v - 1), d)
            .ok_or_else(|| format!("'{s}' moves a row or column out of its band or stack, or does not relabel 1-9 one to one"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{LEET, LEET_SOLUTION};

    fn leet() -> Grid {
        LEET.parse().unwrap()
    }

    #[test]
    fn identity_changes_nothing_and_prints_as_documented() {
        assert_eq!(Transform::IDENTITY.apply(&leet()), leet());
        assert_eq!(
            Transform::IDENTITY.to_string(),
            "n:123456789:123456789:123456789"
        );
    }

    #[test]
    fn transposition_swaps_rows_and_columns() {
        let t: Transform = "t:123456789:123456789:123456789".parse().unwrap();
        let g = leet();
        let out = t.apply(&g);
        for r in 0..9 {
            for c in 0..9 {
                assert_eq!(out.get(r, c), g.get(c, r));
            }
        }
    }

    #[test]
    fn random_transforms_keep_solutions_valid_and_invert() {
        let puzzle = leet();
        let solution: Grid = LEET_SOLUTION.parse().unwrap();
        let mut rng = Rng::new(11);
        for _ in 0..500 {
            let t = Transform::random(&mut rng);
            let (p, s) = (t.apply(&puzzle), t.apply(&solution));
            assert!(s.is_solution_of(&p), "{t}");
            assert_eq!(p.clues(), puzzle.clues());
            assert_eq!(t.inverse().apply(&p), puzzle, "{t}");
            assert_eq!(t.to_string().parse::<Transform>(), Ok(t));
            let u = Transform::random(&mut rng);
            assert_eq!(
                t.then(&u).apply(&puzzle),
                u.apply(&t.apply(&puzzle)),
                "{t} then {u}"
            );
        }
    }

    #[test]
    fn bad_text_is_refused_with_a_reason() {
        for s in [
            "",
            "x:123456789:123456789:123456789",
            "n:213456789:123456789:12345678",
            "n:412356789:123456789:123456789",
            "n:123456789:123456789:123456788",
            "n:123456789:123456789:123456789:1",
        ] {
            assert!(s.parse::<Transform>().is_err(), "{s}");
        }
        assert!("n:213456789:123789456:912345678"
            .parse::<Transform>()
            .is_ok());
    }

    #[test]
    fn geometric_count() {
        assert_eq!(GEOMETRIC, 3_359_232);
    }
}
