//! A canonical form for complete grids (solutions), found in microseconds: what `audit` compares
//! to tell whether two puzzles have equivalent solutions.
//!
//! The minlex search of [`super::Canonicalizer`] is built for puzzles, whose blanks split the
//! candidates early; on a complete grid every first row relabels to `123456789` under every
//! column order, and the search carries thousands of ties (milliseconds a grid). A complete grid
//! allows a shortcut: once the top-left box is fixed — an orientation, a band and the order of
//! its rows, a stack and the order of its columns, 648 choices — its nine cells name the nine
//! labels (1 to 9 in reading order), and everything else is forced by sorting: the other two
//! stacks' columns by their labels in the first row (distinct, so the order is unique), the
//! stacks by the smallest such label, the other bands' rows by their labels in the first column,
//! the bands by the smallest. The form is the smallest of the 648 grids that result, read row by
//! row. It is canonical — equivalent grids have the same set of 648 results, because a transform
//! maps box choices onto box choices and the forced steps depend on labels only — but it is not
//! the community's minlex form, so it stays inside the crate's keys.

use crate::transform::{Transform, PERMS3};

/// The canonical form of a complete grid and a transform that maps the grid onto it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridForm {
    pub form: [u8; 81],
    pub transform: Transform,
}

/// The canonical form of `cells`, a complete valid grid (every row, column and box holds 1–9
/// once); `None` for anything else.
pub fn complete_form(cells: &[u8; 81]) -> Option<GridForm> {
    if !is_complete(cells) {
        return None;
    }
    let mut views = [*cells; 2];
    for r in 0..9 {
        for c in 0..9 {
            views[1][r * 9 + c] = cells[c * 9 + r];
        }
    }
    let mut best = [u8::MAX; 81];
    let mut best_choice = None;
    let mut out = [0u8; 81];
    for (t, g) in views.iter().enumerate() {
        for band in 0..3 {
            for ro in PERMS3 {
                let top = ro.map(|k| band * 3 + k as usize);
                for stack in 0..3 {
                    for co in PERMS3 {
                        let first = co.map(|k| stack * 3 + k as usize);
                        let mut label = [0u8; 10];
                        for (i, &r) in top.iter().enumerate() {
                            for (k, &c) in first.iter().enumerate() {
                                label[g[r * 9 + c] as usize] = (3 * i + k + 1) as u8;
                            }
                        }
                        // The columns follow from the first row; compare it before going on
                        // (most choices lose there).
                        let rest = others(stack, |c| label[g[top[0] * 9 + c] as usize]);
                        let cols = [
                            first[0], first[1], first[2], rest[0], rest[1], rest[2], rest[3],
                            rest[4], rest[5],
                        ];
                        let mut order = std::cmp::Ordering::Equal;
                        if !write_row(g, &label, top[0], &cols, 0, &mut out, &best, &mut order) {
                            continue;
                        }
                        let rest = others(band, |r| label[g[r * 9 + cols[0]] as usize]);
                        let rows = [
                            top[0], top[1], top[2], rest[0], rest[1], rest[2], rest[3], rest[4],
                            rest[5],
                        ];
                        if (1..9).all(|r| {
                            write_row(g, &label, rows[r], &cols, r, &mut out, &best, &mut order)
                        }) && (order.is_lt() || best_choice.is_none())
                        {
                            best = out;
                            best_choice = Some((t == 1, rows, cols, label));
                        }
                    }
                }
            }
        }
    }
    let (transpose, rows, cols, label) = best_choice?;
    let digits: [u8; 9] = std::array::from_fn(|d| label[d + 1]);
    let transform = Transform::new(
        transpose,
        rows.map(|r| r as u8),
        cols.map(|c| c as u8),
        digits,
    )?;
    Some(GridForm {
        form: best,
        transform,
    })
}

/// Writes output row `r` (source row `src` under `cols` and `label`) into `out`, comparing it
/// with `best` as long as the rows so far tie (`order`); `false` as soon as the grid is larger.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn write_row(
    g: &[u8; 81],
    label: &[u8; 10],
    src: usize,
    cols: &[usize; 9],
    r: usize,
    out: &mut [u8; 81],
    best: &[u8; 81],
    order: &mut std::cmp::Ordering,
) -> bool {
    for c in 0..9 {
        let v = label[g[src * 9 + cols[c]] as usize];
        let k = r * 9 + c;
        out[k] = v;
        if order.is_eq() {
            *order = v.cmp(&best[k]);
            if order.is_gt() {
                return false;
            }
        }
    }
    true
}

/// The lines (rows or columns) of the two bands (stacks) other than `skip`, each band's lines
/// sorted by `key`, the band with the smaller first key first. Keys are distinct labels.
fn others(skip: usize, key: impl Fn(usize) -> u8) -> [usize; 6] {
    let mut groups = [[0usize; 3]; 2];
    for (n, b) in (0..3).filter(|&b| b != skip).enumerate() {
        let mut lines = [b * 3, b * 3 + 1, b * 3 + 2];
        let mut keys = lines.map(&key);
        // Three elements: a sorting network.
        for (i, j) in [(0, 1), (1, 2), (0, 1)] {
            if keys[j] < keys[i] {
                keys.swap(i, j);
                lines.swap(i, j);
            }
        }
        groups[n] = lines;
    }
    if key(groups[1][0]) < key(groups[0][0]) {
        groups.swap(0, 1);
    }
    let [a, b] = groups;
    [a[0], a[1], a[2], b[0], b[1], b[2]]
}

/// Every row, column and box holds each digit 1–9 once.
fn is_complete(cells: &[u8; 81]) -> bool {
    let mut seen = [0u16; 27];
    for (i, &v) in cells.iter().enumerate() {
        if !(1..=9).contains(&v) {
            return false;
        }
        let (r, c) = (i / 9, i % 9);
        let bit = 1u16 << v;
        for u in [r, 9 + c, 18 + (r / 3) * 3 + c / 3] {
            if seen[u] & bit != 0 {
                return false;
            }
            seen[u] |= bit;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::rng::Rng;
    use crate::testing::LEET_SOLUTION;

    #[test]
    fn equivalent_grids_share_the_form_and_the_transform_reaches_it() {
        let s: Grid = LEET_SOLUTION.parse().unwrap();
        let f = complete_form(s.cells()).unwrap();
        assert_eq!(f.transform.apply_cells(s.cells()), f.form);
        assert!(is_complete(&f.form));
        let mut rng = Rng::new(11);
        for _ in 0..300 {
            let t = Transform::random(&mut rng);
            let copy = t.apply_cells(s.cells());
            let g = complete_form(&copy).unwrap();
            assert_eq!(g.form, f.form, "{t}");
            assert_eq!(g.transform.apply_cells(&copy), g.form);
        }
    }

    #[test]
    fn the_form_tells_grids_apart_as_minlex_does() {
        // Random grids and equivalent copies of some of them: equal forms exactly when equal
        // minlex forms.
        let mut rng = Rng::new(3);
        let mut sols: Vec<[u8; 81]> = Vec::new();
        for i in 0..60 {
            let s = *crate::generate::fill::random_solution(&mut rng).cells();
            sols.push(s);
            if i % 3 == 0 {
                sols.push(Transform::random(&mut rng).apply_cells(&s));
            }
        }
        let forms: Vec<[u8; 81]> = sols
            .iter()
            .map(|s| complete_form(s).unwrap().form)
            .collect();
        let minlex: Vec<Grid> = sols
            .iter()
            .map(|s| crate::canon::canonical(&Grid::from_cells(*s).unwrap()).form)
            .collect();
        let mut equal = 0;
        for i in 0..sols.len() {
            for j in i + 1..sols.len() {
                assert_eq!(forms[i] == forms[j], minlex[i] == minlex[j], "{i} {j}");
                equal += usize::from(forms[i] == forms[j]);
            }
        }
        assert!(equal >= 20, "{equal}");
    }

    #[test]
    fn only_complete_valid_grids_have_a_form() {
        let s: Grid = LEET_SOLUTION.parse().unwrap();
        let mut cells = *s.cells();
        assert!(complete_form(&cells).is_some());
        cells[0] = 0;
        assert!(complete_form(&cells).is_none());
        cells[0] = cells[1];
        assert!(complete_form(&cells).is_none());
    }
}
