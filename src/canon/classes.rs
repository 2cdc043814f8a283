//! The minlex search for grids whose rows and columns hold each digit at most once (every valid
//! puzzle): candidates carry *classes of still-interchangeable columns* instead of a whole
//! column permutation, so near-empty rows do not multiply the candidates.
//!
//! A candidate's column state is an ordered partition of the output columns into classes. A
//! class is either a set of source columns of one stack that may fill its output columns in any
//! order (they were blank, or the same fixed column, in every row chosen so far), or a set of
//! whole source stacks whose columns were blank in every row so far, which may fill its output
//! stacks in any order and any order inside each. Relabeling a new row under such a state has
//! one smallest arrangement per class up to ties: blank columns first (they stay one class),
//! then digits already labeled in increasing label order (each becomes a fixed column), then
//! the digits still unlabeled, in every order (they give equal rows but different labels, so
//! each order is its own candidate); inside a class of stacks the all-blank stacks go first and
//! stay a class, and the other stacks are tried in every order. This is exact only when a row
//! never repeats a digit, which is why grids that do take the whole-permutation search.
//! When the search ends, every completion of a survivor's classes writes the same grid, so the
//! automorphism count is the sum over survivors of multiplicity × the ways to order its
//! classes (m! for m columns, k!·6^k for k stacks).

use super::{allowed, merge_by_key, MERGE_ABOVE};
use crate::transform::PERMS3;

/// One partial transform still tied for the smallest prefix, with its columns as classes.
#[derive(Clone, Copy)]
pub(super) struct Cand {
    /// Source row of each output row chosen so far.
    pub rows: [u8; 9],
    /// Label of each digit handed out so far (0 = none yet).
    pub map: [u8; 10],
    /// Source column of each output column in one completion: the classes' members in
    /// increasing order.
    pub cols: [u8; 9],
    /// Bit `p`: a class starts at output column `p`.
    bounds: u16,
    /// Bit `p`: output column `p` belongs to a class of whole stacks.
    stacked: u16,
    /// Source rows used, as a 9-bit set.
    used: u16,
    /// 1 when the grid is transposed first.
    pub t: u8,
    /// The next unused label.
    pub next: u8,
    /// How many candidates with this future were merged into this one.
    mult: u32,
}

impl Cand {
    /// Everything the rest of the search depends on, packed for merging.
    fn key(&self) -> u128 {
        let map = self.map[1..]
            .iter()
            .fold(0u128, |a, &l| a << 4 | u128::from(l));
        let cols = self.cols.iter().fold(0u128, |a, &c| a << 4 | u128::from(c));
        map << 64
            | cols << 28
            | u128::from(self.bounds) << 19
            | u128::from(self.stacked) << 10
            | u128::from(self.used) << 1
            | u128::from(self.t)
    }

    /// The classes in output order: (first output column, one past the last, whole stacks).
    fn classes(&self) -> ([Class; 9], usize) {
        let mut out = [Class::default(); 9];
        let mut n = 0;
        let mut p = 0usize;
        while p < 9 {
            // The next class starts at the next boundary after `p`.
            let later = self.bounds & !((2u16 << p) - 1);
            let end = if later == 0 {
                9
            } else {
                later.trailing_zeros() as usize
            };
            let mask = self.cols[p..end].iter().fold(0u16, |m, &c| m | 1 << c);
            out[n] = Class {
                mask,
                len: (end - p) as u8,
                stacked: self.stacked >> p & 1 == 1,
            };
            n += 1;
            p = end;
        }
        (out, n)
    }

    /// How many column permutations complete this candidate: the orders of its classes.
    fn completions(&self) -> u32 {
        let (classes, n) = self.classes();
        classes[..n]
            .iter()
            .map(|c| {
                if c.stacked {
                    let k = u32::from(c.len / 3);
                    (1..=k).product::<u32>() * 6u32.pow(k)
                } else {
                    (1..=u32::from(c.len)).product::<u32>()
                }
            })
            .product()
    }
}

/// One class of a candidate's columns.
#[derive(Clone, Copy, Default)]
struct Class {
    /// Its source columns.
    mask: u16,
    /// How many output columns it fills.
    len: u8,
    /// Whole stacks rather than columns of one stack.
    stacked: bool,
}

/// A row being written under one candidate's classes.
#[derive(Clone, Copy)]
struct Partial {
    /// The labels written so far, 4 bits each, first output column most significant.
    val: u64,
    /// How many output columns are written.
    pos: u8,
    map: [u8; 10],
    next: u8,
    cols: [u8; 9],
    bounds: u16,
    stacked: u16,
}

/// The orders of the first `n` of three things.
fn orders(n: usize) -> &'static [[u8; 3]] {
    match n {
        0 | 1 => &PERMS3[..1],
        2 => &[[0, 1, 2], [1, 0, 2]],
        _ => &PERMS3,
    }
}

/// Extending one candidate by one source row: the row, the level's best so far and its list.
struct Step<'a> {
    row: &'a [u8],
    base: &'a Cand,
    r: u8,
    level: usize,
    best: u64,
    out: &'a mut Vec<Cand>,
}

impl Step<'_> {
    /// Whether `p`'s written prefix is not above the level's best row.
    #[inline]
    fn open(&self, p: &Partial) -> bool {
        p.val <= self.best >> (4 * (9 - u32::from(p.pos)))
    }

    /// Writes the columns of `pending`, then classes `i..`, in every smallest way.
    fn go(&mut self, classes: &[Class], i: usize, pending: &[u16], p: Partial) {
        if let Some((&mask, rest)) = pending.split_first() {
            self.place(mask, p, classes, i, rest);
            return;
        }
        let Some(class) = classes.get(i) else {
            self.leaf(p);
            return;
        };
        if !class.stacked {
            self.place(class.mask, p, classes, i + 1, &[]);
            return;
        }
        let mut q = p;
        let mut busy = [0u16; 3];
        let mut nb = 0;
        let mut blank = 0u16;
        for s in 0..3 {
            let m = 7u16 << (3 * s);
            if class.mask & m == 0 {
                continue;
            }
            if (0..3).all(|k| self.row[3 * s + k] == 0) {
                blank |= m;
            } else {
                busy[nb] = m;
                nb += 1;
            }
        }
        if blank != 0 {
            q.bounds |= 1 << q.pos;
            let mut b = blank;
            while b != 0 {
                let c = b.trailing_zeros() as u8;
                b &= b - 1;
                q.cols[q.pos as usize] = c;
                q.stacked |= 1 << q.pos;
                q.val <<= 4;
                q.pos += 1;
            }
            if !self.open(&q) {
                return;
            }
        }
        for order in orders(nb) {
            let mut pend = [0u16; 3];
            for (k, &o) in order[..nb].iter().enumerate() {
                pend[k] = busy[o as usize];
            }
            self.go(classes, i + 1, &pend[..nb], q);
        }
    }

    /// Writes the source columns `mask` (one stack's) at the next output columns in every
    /// smallest way, then goes on with `go(classes, i, rest)`.
    fn place(&mut self, mask: u16, p: Partial, classes: &[Class], i: usize, rest: &[u16]) {
        let mut q = p;
        let mut blank = [0u8; 3];
        let mut nz = 0;
        let mut labeled = [(0u8, 0u8); 3];
        let mut nl = 0;
        let mut fresh = [0u8; 3];
        let mut nf = 0;
        let mut m = mask;
        while m != 0 {
            let c = m.trailing_zeros() as u8;
            m &= m - 1;
            let v = self.row[c as usize];
            if v == 0 {
                blank[nz] = c;
                nz += 1;
            } else if q.map[v as usize] != 0 {
                labeled[nl] = (q.map[v as usize], c);
                nl += 1;
            } else {
                fresh[nf] = c;
                nf += 1;
            }
        }
        if nz > 0 {
            q.bounds |= 1 << q.pos;
            for &c in &blank[..nz] {
                q.cols[q.pos as usize] = c;
                q.val <<= 4;
                q.pos += 1;
            }
        }
        labeled[..nl].sort_unstable();
        for &(label, c) in &labeled[..nl] {
            q.bounds |= 1 << q.pos;
            q.cols[q.pos as usize] = c;
            q.val = q.val << 4 | u64::from(label);
            q.pos += 1;
        }
        if !self.open(&q) {
            return;
        }
        if nf == 0 {
            self.go(classes, i, rest, q);
            return;
        }
        for order in orders(nf) {
            let mut s = q;
            for &o in &order[..nf] {
                let c = fresh[o as usize];
                let v = self.row[c as usize] as usize;
                s.map[v] = s.next;
                s.bounds |= 1 << s.pos;
                s.cols[s.pos as usize] = c;
                s.val = s.val << 4 | u64::from(s.next);
                s.next += 1;
                s.pos += 1;
            }
            if self.open(&s) {
                self.go(classes, i, rest, s);
            }
        }
    }

    /// A whole row written: keep it if it ties or beats the level's best.
    fn leaf(&mut self, p: Partial) {
        if p.val > self.best {
            return;
        }
        if p.val < self.best {
            self.best = p.val;
            self.out.clear();
        }
        let mut rows = self.base.rows;
        rows[self.level] = self.r;
        self.out.push(Cand {
            rows,
            map: p.map,
            cols: p.cols,
            bounds: p.bounds,
            stacked: p.stacked,
            used: self.base.used | 1 << self.r,
            next: p.next,
            ..*self.base
        });
    }
}

/// The working lists of the search.
#[derive(Default)]
pub(super) struct Search {
    cur: Vec<Cand>,
    next: Vec<Cand>,
}

impl Search {
    /// Runs the search on the grid and its transpose (rows and columns repeating no digit);
    /// returns the survivors and the automorphism count.
    pub fn run(&mut self, views: &[[u8; 81]; 2]) -> (&[Cand], u32) {
        self.cur.clear();
        for t in 0..2u8 {
            self.cur.push(Cand {
                rows: [0; 9],
                map: [0; 10],
                cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
                bounds: 1,
                stacked: 0x1ff,
                used: 0,
                t,
                next: 1,
                mult: 1,
            });
        }
        for level in 0..9 {
            self.next.clear();
            let mut best = u64::MAX;
            for c in &self.cur {
                let g = &views[c.t as usize];
                let (classes, n) = c.classes();
                let mut choices = allowed(level, c.used, c.rows[level.saturating_sub(1)]);
                while choices != 0 {
                    let r = choices.trailing_zeros() as usize;
                    choices &= choices - 1;
                    let mut step = Step {
                        row: &g[r * 9..r * 9 + 9],
                        base: c,
                        r: r as u8,
                        level,
                        best,
                        out: &mut self.next,
                    };
                    let start = Partial {
                        val: 0,
                        pos: 0,
                        map: c.map,
                        next: c.next,
                        cols: [0; 9],
                        bounds: 0,
                        stacked: 0,
                    };
                    step.go(&classes[..n], 0, &[], start);
                    best = step.best;
                }
            }
            std::mem::swap(&mut self.cur, &mut self.next);
            if self.cur.len() > MERGE_ABOVE {
                merge(&mut self.cur);
            }
        }
        let autos = self.cur.iter().map(|c| c.mult * c.completions()).sum();
        (&self.cur, autos)
    }
}

/// Merges candidates with identical futures, adding up their multiplicities.
fn merge(list: &mut Vec<Cand>) {
    merge_by_key(list, Cand::key, |into, c| into.mult += c.mult);
}
