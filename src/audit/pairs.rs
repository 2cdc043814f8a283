//! Matching: sorted keys put every candidate pair side by side, and each candidate is checked on
//! the puzzles themselves before it is reported, with the transform that shows it.
//!
//! Equivalent puzzles share every key, so the work is done once per *class* (puzzles with one
//! canonical key, whose first puzzle stands for it): pairs inside a class are `exact` or
//! `equivalent`; the deletion keys — the dear part, one canonical form per clue — are computed
//! for class representatives only, and a neighbour found between two classes holds for every
//! puzzle of one with every puzzle of the other (a − c ≅ b − d carries over to anything
//! equivalent to a and b), so it is checked once on the representatives and then only mapped
//! onto each member pair. A pair gets the closest kind that holds among those asked for:
//! exact, then equivalent, then neighbour, then same-solution.

use std::fmt;

use rayon::prelude::*;

use super::keys::{deletions, partition, Deleted, Keyed, Store};
use crate::canon::grids::{complete_form, GridForm};
use crate::canon::{Canonical, Canonicalizer};
use crate::engine;
use crate::grid::Grid;
use crate::transform::Transform;

/// How two puzzles are related, closest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// The same givens.
    Exact,
    /// The same canonical form: one is a relabelled, transposed, permuted copy of the other.
    Equivalent,
    /// One clue added, removed or replaced, up to equivalence.
    Neighbour,
    /// Different puzzles whose unique solutions are equivalent grids.
    SameSolution,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::Exact,
        Kind::Equivalent,
        Kind::Neighbour,
        Kind::SameSolution,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Exact => "exact",
            Kind::Equivalent => "equivalent",
            Kind::Neighbour => "neighbour",
            Kind::SameSolution => "same-solution",
        }
    }

    /// The kind's bit in a set of kinds.
    pub fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// One clue: cell (0–80) and digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clue {
    pub cell: u8,
    pub digit: u8,
}

impl fmt::Display for Clue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "r{}c{}={}",
            self.cell / 9 + 1,
            self.cell % 9 + 1,
            self.digit
        )
    }
}

/// The clue edit that turns the transformed first puzzle of a neighbour pair into the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Add this clue: the second puzzle has one clue more.
    Add(Clue),
    /// Remove this clue: the second puzzle has one clue fewer.
    Remove(Clue),
    /// Replace the first clue by the second.
    Replace(Clue, Clue),
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Edit::Add(c) => write!(f, "+{c}"),
            Edit::Remove(c) => write!(f, "-{c}"),
            Edit::Replace(a, b) => write!(f, "{a}>{b}"),
        }
    }
}

/// A reported pair: puzzles `a < b` (store ids), their relation, and the transform `t` that
/// shows it: `t(a) == b` for exact and equivalent, `t(a)` is `b` after `edit` for neighbours,
/// and `t` maps `a`'s solution onto `b`'s for same-solution.
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    pub a: u32,
    pub b: u32,
    pub kind: Kind,
    pub transform: Transform,
    pub edit: Option<Edit>,
}

/// What to look for.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The kinds asked for, as a set of [`Kind::bit`]s.
    pub kinds: u8,
    /// Only pairs whose puzzles come from two different inputs.
    pub across: bool,
    /// Partitions of the deletion keys, one pass each (memory for those keys / passes).
    pub passes: u64,
}

impl Options {
    fn wants(&self, k: Kind) -> bool {
        self.kinds & k.bit() != 0
    }
}

/// No deleted cell (the whole puzzle's key).
const WHOLE: u8 = u8::MAX;

/// Sorts keyed entries by key, then id.
fn sorted(list: &[Keyed]) -> Vec<Keyed> {
    let mut v = list.to_vec();
    v.par_sort_unstable_by_key(|k| (k.key, k.id));
    v
}

/// Runs of equal keys in a sorted list, as index ranges (runs of one left out).
fn runs<T>(list: &[T], key: impl Fn(&T) -> u64) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let k = key(&list[i]);
        let mut j = i + 1;
        while j < list.len() && key(&list[j]) == k {
            j += 1;
        }
        if j - i > 1 {
            out.push(i..j);
        }
        i = j;
    }
    out
}

/// Where cell `cell` holding `digit` goes under `t`.
fn image(t: &Transform, cell: u8, digit: u8) -> Clue {
    let src = t.source_cells();
    let to = src.iter().position(|&s| s == cell).unwrap_or(0) as u8;
    Clue {
        cell: to,
        digit: t.digits()[digit as usize],
    }
}

/// `g` without its clue in `cell`.
fn without(g: &Grid, cell: u8) -> Grid {
    let mut cells = *g.cells();
    cells[cell as usize] = 0;
    Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
}

/// Every pair of `store` of the kinds `opts` asks for, ordered by `(a, b)`, on the current
/// rayon pool.
pub fn find(store: &Store, opts: &Options) -> Vec<Pair> {
    let canon = sorted(&store.canon);
    let classes = runs(&canon, |k| k.key);
    let mut pairs: Vec<Pair> = Vec::new();
    let across_ok =
        |a: u32, b: u32| !opts.across || store.file[a as usize] != store.file[b as usize];

    // Exact and equivalent: inside each class.
    if opts.wants(Kind::Exact) || opts.wants(Kind::Equivalent) {
        let found: Vec<Vec<Pair>> = classes
            .par_iter()
            .map(|r| {
                let members: Vec<(u32, Grid, Canonical)> = canon[r.clone()]
                    .iter()
                    .map(|k| {
                        let g = store.grid(k.id);
                        let c = crate::canon::canonical(&g);
                        (k.id, g, c)
                    })
                    .collect();
                let mut out = Vec::new();
                for (i, (a, ga, ca)) in members.iter().enumerate() {
                    for (b, gb, cb) in &members[i + 1..] {
                        if !across_ok(*a, *b) || ca.form != cb.form {
                            continue;
                        }
                        let kind = if ga == gb {
                            Kind::Exact
                        } else {
                            Kind::Equivalent
                        };
                        let kind = match kind {
                            Kind::Exact if !opts.wants(Kind::Exact) => Kind::Equivalent,
                            k => k,
                        };
                        if !opts.wants(kind) {
                            continue;
                        }
                        let transform = if kind == Kind::Exact {
                            Transform::IDENTITY
                        } else {
                            ca.transform.then(&cb.transform.inverse())
                        };
                        out.push(Pair {
                            a: *a,
                            b: *b,
                            kind,
                            transform,
                            edit: None,
                        });
                    }
                }
                out
            })
            .collect();
        pairs.extend(found.into_iter().flatten());
    }

    if opts.wants(Kind::Neighbour) {
        pairs.extend(neighbours(store, &canon, &classes, opts));
    }

    if opts.wants(Kind::SameSolution) {
        let solution = sorted(&store.solution);
        let found: Vec<Vec<Pair>> = runs(&solution, |k| k.key)
            .par_iter()
            .map(|r| {
                let members: Vec<(u32, GridForm)> = solution[r.clone()]
                    .iter()
                    .filter_map(|k| {
                        let s = engine::solve(&store.grid(k.id), 2);
                        let s = s.first.filter(|_| s.solutions == 1)?;
                        Some((k.id, complete_form(s.cells())?))
                    })
                    .collect();
                let mut out = Vec::new();
                for (i, (a, ca)) in members.iter().enumerate() {
                    for (b, cb) in &members[i + 1..] {
                        if across_ok(*a, *b) && ca.form == cb.form {
                            out.push(Pair {
                                a: *a,
                                b: *b,
                                kind: Kind::SameSolution,
                                transform: ca.transform.then(&cb.transform.inverse()),
                                edit: None,
                            });
                        }
                    }
                }
                out
            })
            .collect();
        pairs.extend(found.into_iter().flatten());
    }

    // One row a pair, the closest kind; in input order.
    pairs.par_sort_unstable_by_key(|p| (p.a, p.b, p.kind));
    pairs.dedup_by_key(|p| (p.a, p.b));
    pairs
}

/// A proposed neighbour between two classes: representatives `ra < rb` and the cells whose
/// removal makes them equivalent ([`WHOLE`]: nothing removed from that side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Proposal {
    ra: u32,
    rb: u32,
    ca: u8,
    cb: u8,
}

impl Proposal {
    fn new(a: u32, ca: u8, b: u32, cb: u8) -> Proposal {
        if a < b {
            Proposal {
                ra: a,
                rb: b,
                ca,
                cb,
            }
        } else {
            Proposal {
                ra: b,
                rb: a,
                ca: cb,
                cb: ca,
            }
        }
    }
}

/// The neighbour pairs: deletion keys of the class representatives against each other and
/// against the representatives' own keys, a partition of the keys per pass.
fn neighbours(
    store: &Store,
    canon: &[Keyed],
    classes: &[std::ops::Range<usize>],
    opts: &Options,
) -> Vec<Pair> {
    // Representatives: the first puzzle of each class, and every puzzle alone in its class.
    let mut reps: Vec<Keyed> = Vec::with_capacity(canon.len());
    let mut members: std::collections::HashMap<u32, std::ops::Range<usize>> =
        std::collections::HashMap::new();
    {
        let mut next = classes.iter().peekable();
        let mut i = 0;
        while i < canon.len() {
            match next.peek() {
                Some(r) if r.start == i => {
                    reps.push(canon[i]);
                    members.insert(canon[i].id, (*r).clone());
                    i = r.end;
                    next.next();
                }
                _ => {
                    reps.push(canon[i]);
                    i += 1;
                }
            }
        }
    }
    let passes = opts.passes.max(1);
    let mut proposals: Vec<Proposal> = Vec::new();
    for pass in 0..passes {
        let whole: Vec<Keyed> = reps
            .iter()
            .copied()
            .filter(|k| partition(k.key, passes) == pass)
            .collect();
        let mut dels: Vec<Deleted> = reps
            .par_chunks(256)
            .map(|chunk| {
                let mut c = Canonicalizer::default();
                let mut out = Vec::with_capacity(chunk.len() * 30);
                for k in chunk {
                    let g = store.grid(k.id);
                    deletions(g.cells(), k.id, pass, passes, &mut c, &mut out);
                }
                out
            })
            .flatten()
            .collect();
        dels.par_sort_unstable_by_key(|d| (d.key, d.id, d.cell));
        // Deletion against deletion: a clue replaced.
        for r in runs(&dels, |d| d.key) {
            let run = &dels[r];
            for (i, x) in run.iter().enumerate() {
                for y in &run[i + 1..] {
                    if x.id != y.id {
                        proposals.push(Proposal::new(x.id, x.cell, y.id, y.cell));
                    }
                }
            }
        }
        // Deletion against a whole puzzle: a clue added or removed.
        let (mut i, mut j) = (0, 0);
        while i < dels.len() && j < whole.len() {
            let (dk, wk) = (dels[i].key, whole[j].key);
            if dk < wk {
                i += 1;
            } else if wk < dk {
                j += 1;
            } else {
                let j_end = j + whole[j..].iter().take_while(|w| w.key == dk).count();
                while i < dels.len() && dels[i].key == dk {
                    for w in &whole[j..j_end] {
                        if w.id != dels[i].id {
                            proposals.push(Proposal::new(dels[i].id, dels[i].cell, w.id, WHOLE));
                        }
                    }
                    i += 1;
                }
                j = j_end;
            }
        }
    }
    proposals.par_sort_unstable();
    proposals.dedup();
    // One proposal per class pair that holds, checked on the representatives.
    let mut by_pair: Vec<&[Proposal]> = Vec::new();
    let mut i = 0;
    while i < proposals.len() {
        let n = proposals[i..]
            .iter()
            .take_while(|p| (p.ra, p.rb) == (proposals[i].ra, proposals[i].rb))
            .count();
        by_pair.push(&proposals[i..i + n]);
        i += n;
    }
    let found: Vec<Vec<Pair>> = by_pair
        .par_iter()
        .map(|props| {
            let Some(p) = props.iter().find(|p| holds(store, p)) else {
                return Vec::new();
            };
            let class = |r: u32| -> Vec<u32> {
                match members.get(&r) {
                    Some(range) => canon[range.clone()].iter().map(|k| k.id).collect(),
                    None => vec![r],
                }
            };
            let (xs, ys) = (class(p.ra), class(p.rb));
            let (gra, grb) = (store.grid(p.ra), store.grid(p.rb));
            let (cra, crb) = (crate::canon::canonical(&gra), crate::canon::canonical(&grb));
            let mut out = Vec::new();
            for &x in &xs {
                let gx = store.grid(x);
                let cx = crate::canon::canonical(&gx);
                if cx.form != cra.form {
                    continue;
                }
                // rep a -> x
                let to_x = cra.transform.then(&cx.transform.inverse());
                for &y in &ys {
                    if opts.across && store.file[x as usize] == store.file[y as usize] {
                        continue;
                    }
                    let gy = store.grid(y);
                    let cy = crate::canon::canonical(&gy);
                    if cy.form != crb.form {
                        continue;
                    }
                    let to_y = crb.transform.then(&cy.transform.inverse());
                    let (da, db) = (deleted_in(&gra, p.ca, &to_x), deleted_in(&grb, p.cb, &to_y));
                    if let Some(pair) = neighbour_pair(x, &gx, da, y, &gy, db) {
                        out.push(pair);
                    }
                }
            }
            out
        })
        .collect();
    found.into_iter().flatten().collect()
}

/// The clue of `rep` in cell `cell` as it lies in the member `rep` maps to by `to`
/// (`None` for [`WHOLE`]).
fn deleted_in(rep: &Grid, cell: u8, to: &Transform) -> Option<Clue> {
    (cell != WHOLE).then(|| image(to, cell, rep.cells()[cell as usize]))
}

/// Whether a proposal holds on its representatives.
fn holds(store: &Store, p: &Proposal) -> bool {
    let (a, b) = (store.grid(p.ra), store.grid(p.rb));
    if p.ca == WHOLE && p.cb == WHOLE {
        return false;
    }
    let qa = if p.ca == WHOLE { a } else { without(&a, p.ca) };
    let qb = if p.cb == WHOLE { b } else { without(&b, p.cb) };
    crate::canon::canonical(&qa).form == crate::canon::canonical(&qb).form
}

/// The neighbour pair of puzzles `x` and `y` with clues `da` of `x` and `db` of `y` removed
/// (`None`: nothing removed on that side), checked on the puzzles.
fn neighbour_pair(
    x: u32,
    gx: &Grid,
    da: Option<Clue>,
    y: u32,
    gy: &Grid,
    db: Option<Clue>,
) -> Option<Pair> {
    let qx = da.map_or(*gx, |c| without(gx, c.cell));
    let qy = db.map_or(*gy, |c| without(gy, c.cell));
    let (cx, cy) = (crate::canon::canonical(&qx), crate::canon::canonical(&qy));
    if cx.form != cy.form {
        return None;
    }
    // t(qx) == qy.
    let t = cx.transform.then(&cy.transform.inverse());
    let edit = match (da, db) {
        (Some(c), None) => Edit::Remove(image(&t, c.cell, c.digit)),
        (None, Some(d)) => Edit::Add(d),
        (Some(c), Some(d)) => {
            let moved = image(&t, c.cell, c.digit);
            if moved == d {
                // The same clue on both sides: equivalent, not a neighbour.
                return None;
            }
            Edit::Replace(moved, d)
        }
        (None, None) => return None,
    };
    // Pairs are reported with the earlier puzzle first.
    if x < y {
        Some(Pair {
            a: x,
            b: y,
            kind: Kind::Neighbour,
            transform: t,
            edit: Some(edit),
        })
    } else {
        // t maps qx onto qy; its inverse maps qy onto qx, and the edit turns around.
        let back = t.inverse();
        let edit = match edit {
            Edit::Remove(c) => Edit::Add(image(&back, c.cell, c.digit)),
            Edit::Add(d) => Edit::Remove(image(&back, d.cell, d.digit)),
            Edit::Replace(c, d) => {
                Edit::Replace(image(&back, d.cell, d.digit), image(&back, c.cell, c.digit))
            }
        };
        Some(Pair {
            a: y,
            b: x,
            kind: Kind::Neighbour,
            transform: back,
            edit: Some(edit),
        })
    }
}
