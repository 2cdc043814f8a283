//! Minlex canonical forms: the one representative of a puzzle's equivalence class that `canon`,
//! `dedup` and `split` compare, with how many geometric transforms reach it and one that does.
//!
//! The form is the community's standard *minlex*: over all 3,359,232 geometric transforms
//! (optional transposition, band, row-in-band, stack and column-in-stack permutations), write the
//! transformed grid row by row with blank = 0, relabel digits in order of first appearance, and
//! keep the lexicographically smallest 81-digit string. It is purely syntactic, so it is defined
//! for every grid: the empty grid, complete grids, grids with conflicting givens.
//!
//! How it is found fast: a level-by-level search over the output rows. A *candidate* is a
//! transposition, the source rows chosen for the output rows so far, the digit labels handed
//! out so far and what is known of the columns. At each level every candidate is extended by
//! every source row the band structure allows, the new row is relabeled in its smallest ways
//! and packed into one integer, and only the candidates whose row equals the smallest row of the
//! level survive: since the earlier rows of all survivors are equal, this keeps exactly the
//! transforms whose prefix is minimal. For grids whose rows and columns repeat no digit (every
//! valid puzzle) the columns are kept as classes of still-interchangeable columns and stacks
//! (see [`classes`]), so a near-empty row does not split into up to 1,296 column orders. Grids
//! that repeat a digit take the older search, where a candidate carries one whole column
//! permutation (of 1,296) and the first level tries them all. Candidates whose futures are
//! identical (same transposition, rows used, columns and labels) are merged with a
//! multiplicity when the list grows, which keeps near-empty grids — where every transform ties —
//! bounded, and makes the automorphism count the sum of the survivors' multiplicities (times
//! the orders of their column classes).

mod classes;
pub mod command;
pub mod grids;

use std::sync::OnceLock;

use crate::grid::Grid;
use crate::transform::{Transform, PERMS3};

/// A grid's minlex form, with how it was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The minlex form (cells 0 = blank).
    pub form: Grid,
    /// How many geometric transforms (identity included) map the input to `form` together with
    /// their relabeling; at least 1. For a puzzle it is the size of its automorphism group.
    pub automorphisms: u32,
    /// One transform (geometry and digit map) with `transform.apply(input) == form`; digits
    /// absent from the input get the unused labels in increasing order.
    pub transform: Transform,
}

/// The minlex form of `grid` written as 81 ASCII digits, `0` for blank (the form's own text:
/// the relabeling makes it start with zeros, so `.` would hide nothing but is not the custom).
pub fn form_line(c: &Canonical) -> [u8; 81] {
    c.form.cells().map(|v| b'0' + v)
}

/// A source row under column order `perm`, relabeled with `map` (new digits get `next`, `next +
/// 1`, …), packed 4 bits a cell; `None` as soon as it is above `best` (the level's best row so
/// far), so a losing row stops at its first larger cell.
#[inline]
fn relabel_row(
    row: &[u8],
    perm: &[u8; 9],
    map: &mut [u8; 10],
    next: &mut u8,
    best: u64,
) -> Option<u64> {
    let mut val = 0u64;
    let mut tied = true;
    for (j, &src) in perm.iter().enumerate() {
        let v = row[src as usize] as usize;
        let label = if v == 0 {
            0
        } else {
            if map[v] == 0 {
                map[v] = *next;
                *next += 1;
            }
            map[v]
        };
        val = val << 4 | u64::from(label);
        if tied {
            let b = best >> (4 * (8 - j));
            if val > b {
                return None;
            }
            tied = val == b;
        }
    }
    (val <= best).then_some(val)
}

/// How many column permutations there are: stack order × the order inside each stack.
const COLPERMS: usize = 1296;

/// Lists longer than this are merged on identical futures before the next level.
pub(super) const MERGE_ABOVE: usize = 512;

struct Tables {
    /// For each column permutation, the source column of each output column.
    perms: [[u8; 9]; COLPERMS],
    /// For each clue mask of a row (bit `c` = source column `c` holds a clue), the smallest
    /// arrangement of it, as a 9-bit number with output column 0 most significant.
    min_pattern: [u16; 512],
    /// `ties[start[m]..start[m + 1]]`: every column permutation giving mask `m` that arrangement.
    start: [u32; 513],
    ties: Vec<u16>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut perms = [[0u8; 9]; COLPERMS];
        for (p, perm) in perms.iter_mut().enumerate() {
            let (stack, inner) = (p / 216, [p / 36 % 6, p / 6 % 6, p % 6]);
            for s in 0..3 {
                for k in 0..3 {
                    perm[s * 3 + k] = PERMS3[stack][s] * 3 + PERMS3[inner[s]][k];
                }
            }
        }
        let pattern = |perm: &[u8; 9], m: usize| -> u16 {
            perm.iter()
                .fold(0u16, |acc, &src| acc << 1 | (m >> src & 1) as u16)
        };
        let mut min_pattern = [0u16; 512];
        let mut start = [0u32; 513];
        let mut ties = Vec::new();
        for m in 0..512 {
            let best = perms.iter().map(|perm| pattern(perm, m)).min().unwrap_or(0);
            min_pattern[m] = best;
            ties.extend(
                (0..COLPERMS)
                    .filter(|&p| pattern(&perms[p], m) == best)
                    .map(|p| p as u16),
            );
            start[m + 1] = ties.len() as u32;
        }
        Tables {
            perms,
            min_pattern,
            start,
            ties,
        }
    })
}

/// One partial transform still tied for the smallest prefix.
#[derive(Clone, Copy)]
struct Cand {
    /// Source row of each output row chosen so far.
    rows: [u8; 9],
    /// Label of each digit handed out so far (0 = none yet).
    map: [u8; 10],
    /// Source rows used, as a 9-bit set.
    used: u16,
    /// Column permutation index.
    perm: u16,
    /// 1 when the grid is transposed first.
    t: u8,
    /// The next unused label.
    next: u8,
    /// How many transforms this candidate stands for (merged identical futures).
    mult: u32,
}

impl Cand {
    /// A candidate whose first output row is source row `r` of view `t`, under column
    /// permutation `perm`, with the labels `map` handed out so far (`next` the next one).
    fn first_row(r: usize, t: usize, perm: u16, map: [u8; 10], next: u8) -> Cand {
        let mut rows = [0u8; 9];
        rows[0] = r as u8;
        Cand {
            rows,
            map,
            used: 1 << r,
            perm,
            t: t as u8,
            next,
            mult: 1,
        }
    }

    /// Everything the rest of the search depends on, packed for merging.
    fn key(&self) -> u64 {
        let map = self.map[1..]
            .iter()
            .fold(0u64, |acc, &l| acc << 4 | u64::from(l));
        map << 21 | u64::from(self.perm) << 10 | u64::from(self.used) << 1 | u64::from(self.t)
    }
}

/// The reusable working lists of the search, so a batch allocates once per thread.
#[derive(Default)]
pub struct Canonicalizer {
    cur: Vec<Cand>,
    next: Vec<Cand>,
    classes: classes::Search,
}

/// The minlex form of `grid` (see the module notes), its automorphism count and one transform
/// reaching it.
pub fn canonical(grid: &Grid) -> Canonical {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Canonicalizer> = std::cell::RefCell::default();
    }
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut c) => c.canonical(grid),
        Err(_) => Canonicalizer::default().canonical(grid),
    })
}

/// The rows (as a 9-bit set) that may become output row `level`, given the rows used so far
/// and the source row of the previous output row.
#[inline]
pub(super) fn allowed(level: usize, used: u16, prev: u8) -> u16 {
    if level % 3 == 0 {
        let mut free = 0u16;
        for b in 0..3 {
            if used >> (3 * b) & 7 == 0 {
                free |= 7 << (3 * b);
            }
        }
        free
    } else {
        (7u16 << (3 * (prev / 3))) & !used
    }
}

impl Canonicalizer {
    /// As [`canonical`], reusing this value's working lists.
    pub fn canonical(&mut self, grid: &Grid) -> Canonical {
        let views = views(grid);
        if !views.iter().all(rows_distinct) {
            return self.by_permutations(grid, &views, false);
        }
        let (survivors, automorphisms) = self.classes.run(&views);
        let transform = match survivors.first() {
            Some(c) => transform_of(c.t, c.rows, c.cols, &c.map, c.next),
            None => Transform::IDENTITY,
        };
        Canonical {
            form: transform.apply(grid),
            automorphisms: automorphisms.max(1),
            transform,
        }
    }

    /// As [`Canonicalizer::canonical`] by the older search that carries whole column
    /// permutations: kept to compare the two searches in tests and benchmarks.
    #[doc(hidden)]
    pub fn canonical_by_permutations(&mut self, grid: &Grid) -> Canonical {
        let views = views(grid);
        let distinct = views.iter().all(rows_distinct);
        self.by_permutations(grid, &views, distinct)
    }

    fn by_permutations(&mut self, grid: &Grid, views: &[[u8; 81]; 2], distinct: bool) -> Canonical {
        let tables = tables();
        self.cur.clear();
        if distinct {
            self.first_level_by_pattern(views, tables);
        } else {
            self.first_level_exhaustive(views, tables);
        }
        for level in 1..9 {
            self.next.clear();
            let mut best = u64::MAX;
            for c in &self.cur {
                let g = &views[c.t as usize];
                let perm = &tables.perms[c.perm as usize];
                let mut choices = allowed(level, c.used, c.rows[level - 1]);
                while choices != 0 {
                    let r = choices.trailing_zeros() as usize;
                    choices &= choices - 1;
                    let row = &g[r * 9..r * 9 + 9];
                    let mut map = c.map;
                    let mut next = c.next;
                    let Some(val) = relabel_row(row, perm, &mut map, &mut next, best) else {
                        continue;
                    };
                    if val < best {
                        best = val;
                        self.next.clear();
                    }
                    let mut rows = c.rows;
                    rows[level] = r as u8;
                    self.next.push(Cand {
                        rows,
                        map,
                        used: c.used | 1 << r,
                        next,
                        ..*c
                    });
                }
            }
            std::mem::swap(&mut self.cur, &mut self.next);
            if self.cur.len() > MERGE_ABOVE {
                merge(&mut self.cur);
            }
        }
        self.finish(grid, tables)
    }

    /// The first output row when no row or column repeats a digit: its relabeling is then its
    /// clue pattern with labels 1, 2, … in order, so the table's smallest arrangements decide.
    fn first_level_by_pattern(&mut self, views: &[[u8; 81]; 2], tables: &Tables) {
        let mut best = u16::MAX;
        for (t, g) in views.iter().enumerate() {
            for r in 0..9 {
                let row = &g[r * 9..r * 9 + 9];
                let mask = row
                    .iter()
                    .enumerate()
                    .fold(0usize, |m, (c, &v)| m | usize::from(v != 0) << c);
                let pat = tables.min_pattern[mask];
                if pat > best {
                    continue;
                }
                if pat < best {
                    best = pat;
                    self.cur.clear();
                }
                let ties =
                    &tables.ties[tables.start[mask] as usize..tables.start[mask + 1] as usize];
                for &p in ties {
                    let mut map = [0u8; 10];
                    let mut next = 1u8;
                    for &src in &tables.perms[p as usize] {
                        let v = row[src as usize] as usize;
                        if v != 0 {
                            map[v] = next;
                            next += 1;
                        }
                    }
                    self.cur.push(Cand::first_row(r, t, p, map, next));
                }
            }
        }
        if self.cur.len() > MERGE_ABOVE {
            merge(&mut self.cur);
        }
    }

    /// The first output row by relabeling every row under every column permutation: for grids
    /// whose rows or columns repeat a digit, where the clue pattern alone does not decide.
    fn first_level_exhaustive(&mut self, views: &[[u8; 81]; 2], tables: &Tables) {
        let mut best = u64::MAX;
        for (t, g) in views.iter().enumerate() {
            for r in 0..9 {
                let row = &g[r * 9..r * 9 + 9];
                for (p, perm) in tables.perms.iter().enumerate() {
                    let mut map = [0u8; 10];
                    let mut next = 1u8;
                    let Some(val) = relabel_row(row, perm, &mut map, &mut next, best) else {
                        continue;
                    };
                    if val < best {
                        best = val;
                        self.cur.clear();
                    }
                    self.cur.push(Cand::first_row(r, t, p as u16, map, next));
                }
            }
        }
        if self.cur.len() > MERGE_ABOVE {
            merge(&mut self.cur);
        }
    }

    /// The result from the surviving candidates: any of them gives the form, all of them
    /// together the automorphism count.
    fn finish(&self, grid: &Grid, tables: &Tables) -> Canonical {
        let automorphisms = self.cur.iter().map(|c| c.mult).sum::<u32>().max(1);
        let transform = match self.cur.first() {
            Some(c) => transform_of(c.t, c.rows, tables.perms[c.perm as usize], &c.map, c.next),
            None => Transform::IDENTITY,
        };
        Canonical {
            form: transform.apply(grid),
            automorphisms,
            transform,
        }
    }
}

/// The grid's cells and its transpose.
fn views(grid: &Grid) -> [[u8; 81]; 2] {
    let plain = *grid.cells();
    let mut transposed = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            transposed[c * 9 + r] = plain[r * 9 + c];
        }
    }
    [plain, transposed]
}

/// The transform of a finished candidate; digits absent from the grid take the labels left
/// over, in increasing order.
fn transform_of(t: u8, rows: [u8; 9], cols: [u8; 9], map: &[u8; 10], next: u8) -> Transform {
    let mut digits = [0u8; 9];
    let mut next = next;
    for d in 1..10 {
        digits[d - 1] = if map[d] != 0 {
            map[d]
        } else {
            next += 1;
            next - 1
        };
    }
    Transform::new(t == 1, rows, cols, digits)
        .expect("the search only builds rows and columns that keep bands and stacks")
}

/// Whether every row of `cells` holds each digit at most once.
fn rows_distinct(cells: &[u8; 81]) -> bool {
    cells.chunks_exact(9).all(|row| {
        let mut seen = 0u16;
        row.iter().all(|&v| {
            let bit = 1u16 << v;
            let fresh = v == 0 || seen & bit == 0;
            seen |= bit;
            fresh
        })
    })
}

/// Merges candidates with identical futures, adding up their multiplicities.
fn merge(list: &mut Vec<Cand>) {
    merge_by_key(list, Cand::key, |into, c| into.mult += c.mult);
}

/// Sorts `list` by `key` and merges each run of equal keys into its first entry with `add`:
/// the candidate lists of both searches ([`merge`], [`classes`]) are merged this way.
pub(super) fn merge_by_key<T: Copy, K: Ord>(
    list: &mut Vec<T>,
    key: impl Fn(&T) -> K,
    add: impl Fn(&mut T, &T),
) {
    list.sort_unstable_by_key(&key);
    let mut out = 0;
    for i in 0..list.len() {
        if out > 0 && key(&list[out - 1]) == key(&list[i]) {
            let c = list[i];
            add(&mut list[out - 1], &c);
        } else {
            list[out] = list[i];
            out += 1;
        }
    }
    list.truncate(out);
}

#[cfg(test)]
mod tests;
