//! The techniques below the chains: singles, intersections, naked and hidden sets, fish and the
//! XY/XYZ-wings, each visiting regions, digits and cells in the order Sudoku Explainer 1.2.1
//! does, because SE applies the *first* hint its first successful producer finds.
//!
//! Each producer hands what it finds to a [`Sink`] and stops when the sink says so. The four
//! that the dynamic chains (+) also use inside a chain (generalised intersections, hidden pairs,
//! generalised naked pairs, X-wings) expose their findings as plain values in
//! [`super::chains`]' terms through the `*_findings` functions, so the chains can ask which
//! candidates each finding needed gone (SE's `getRuleParents`) without building text.

use std::ops::ControlFlow;

use super::board::{
    cells_of, digits_of, Board, Cells, Region, BLOCK, CELL_REGION, COLUMN, INDEX_IN_REGION,
    PEER_MASK, REGION_CELLS, REGION_MASK, REGION_MASK_C, ROW,
};
use super::hint::{elims_from, in_region_order, Detail, Flow, Hint, Sink};
use super::popcount::Pop;

/// The bit masks of `k` of `n` bits in increasing numeric order, as SE's `Permutations`
/// enumerates them.
pub(crate) fn combinations(k: u32, n: u32) -> impl Iterator<Item = u32> {
    (0u32..(1u32 << n)).filter(move |m| m.pop() == k)
}

/// `combinations(k, 9)` for k = 0..=9, computed once.
pub(crate) fn combos(k: u32) -> &'static [u32] {
    static TABLE: std::sync::OnceLock<Vec<Vec<u32>>> = std::sync::OnceLock::new();
    &TABLE.get_or_init(|| (0..=9).map(|k| combinations(k, 9).collect()).collect())[k as usize]
}

/// `combinations(k, n)` for `n <= 9`, in the same (ascending) order: the masks of
/// `combos(k)` below `1 << n`, which come first.
pub(crate) fn combos_of(k: u32, n: u32) -> &'static [u32] {
    let all = combos(k);
    &all[..all.partition_point(|&m| m < 1 << n)]
}

/// The masks of `combos(k)` that lie within `mask` (bits below 9), in the same order, without
/// visiting the others: a slice of [`COMBOS_WITHIN`].
pub(crate) fn combos_within(mask: u32, k: u32) -> impl Iterator<Item = u32> {
    let t = &COMBOS_WITHIN;
    let (k, m) = (k as usize, mask as usize);
    t.list[t.start[k][m] as usize..t.start[k][m + 1] as usize]
        .iter()
        .map(|&c| u32::from(c))
}

/// For every mask of nine bits and every size `k`, the masks of `k` of its bits in increasing
/// numeric order (SE's `Permutations` order restricted to the mask), one after another: the
/// masks `list[start[k][m]..start[k][m + 1]]`. Built at compile time; 3^9 entries in all (each
/// bit of a submask is in or out of the mask and the submask).
struct ComboTable {
    list: [u16; 19683],
    start: [[u16; 513]; 10],
}

static COMBOS_WITHIN: ComboTable = {
    let mut t = ComboTable {
        list: [0; 19683],
        start: [[0; 513]; 10],
    };
    // Where each (size, mask) run starts: C(|mask|, size) masks each.
    let mut binom = [[0usize; 10]; 10];
    let mut n = 0;
    while n <= 9 {
        binom[n][0] = 1;
        let mut k = 1;
        while k <= n {
            binom[n][k] = binom[n - 1][k - 1] + if k < n { binom[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    let mut at = 0;
    let mut k = 0;
    while k <= 9 {
        let mut m = 0;
        while m < 512 {
            t.start[k][m] = at as u16;
            at += binom[(m as u32).count_ones() as usize][k];
            m += 1;
        }
        t.start[k][512] = at as u16;
        k += 1;
    }
    // Each mask's submasks in increasing order (`(sub - m) & m` is the next one), each into
    // its size's run.
    let mut m = 0u32;
    while m < 512 {
        let mut next = [0usize; 10];
        let mut sub = 0u32;
        loop {
            let k = sub.count_ones() as usize;
            t.list[t.start[k][m as usize] as usize + next[k]] = sub as u16;
            next[k] += 1;
            if sub == m {
                break;
            }
            sub = sub.wrapping_sub(m) & m;
        }
        m += 1;
    }
    t
};

/// The set bits of a mask, ascending.
pub(crate) fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

/// SE's `CommonTuples.searchCommonTuple`: every set has at least two members and together they
/// have exactly `degree`; the union then.
fn common_tuple(sets: &[u16], degree: u32) -> Option<u16> {
    let mut union = 0u16;
    for &s in sets {
        if s.count_ones() <= 1 {
            return None;
        }
        union |= s;
    }
    (union.pop() == degree).then_some(union)
}

/// The regions of one kind.
fn regions_of(kind: usize) -> std::ops::Range<Region> {
    kind * 9..kind * 9 + 9
}

/// Where a producer looks: the digits (bit `v`) for those whose findings for a digit read only
/// that digit's candidate cells (intersections, fish), the regions (bit `r`) for those whose
/// findings in a region read only its cells' candidates (hidden and naked sets). The path
/// narrows it to what changed since the producer last found nothing (`path::Quiet`); the order
/// of what is visited stays SE's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scope {
    pub digits: u16,
    pub regions: u32,
}

impl Scope {
    /// Everywhere.
    pub(crate) const ALL: Scope = Scope {
        digits: 0x3fe,
        regions: (1 << 27) - 1,
    };

    #[inline]
    fn digit(self, v: u8) -> bool {
        self.digits & (1 << v) != 0
    }

    #[inline]
    fn region(self, r: Region) -> bool {
        self.regions & (1 << r) != 0
    }
}

// ---------------------------------------------------------------------------------------------
// Singles

/// SE's `HiddenSingle`: first the last empty cell of a region (rated 1.0), then hidden singles
/// proper (1.2 in a block, 1.5 in a row or column); regions in the order blocks, columns, rows,
/// digits in order within a region. Only the regions of `scope` are looked at: what a region
/// yields depends on its cells' candidates alone (its empty count too, which changes only with
/// a placement, and a placed cell loses all its candidates).
pub(crate) fn hidden_single(b: &Board, scope: Scope, sink: &mut dyn Sink) -> Flow {
    for alone_only in [true, false] {
        for kind in [BLOCK, COLUMN, ROW] {
            let mut regions = scope.regions & (0x1ff << (9 * kind));
            while regions != 0 {
                let region = regions.trailing_zeros() as Region;
                regions &= regions - 1;
                let empty = b.empty_count(region);
                if (empty == 1) != alone_only || empty == 0 {
                    continue;
                }
                let mut once = single_places(b, region);
                while once != 0 {
                    let v = once.trailing_zeros() as u8;
                    once &= once - 1;
                    let cell = (b.digits[v as usize] & REGION_MASK[region]).trailing_zeros();
                    let rating = if alone_only {
                        1.0
                    } else if kind == BLOCK {
                        1.2
                    } else {
                        1.5
                    };
                    sink.add(Hint {
                        rating,
                        elims: Vec::new(),
                        place: Some((cell as u8, v)),
                        detail: Detail::HiddenSingle {
                            region: region as u8,
                        },
                    })?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The digits (bit `v`) with exactly one place in a region.
#[inline]
pub(crate) fn single_places(b: &Board, region: Region) -> u16 {
    let mut once = 0u16;
    let mut twice = 0u16;
    for &c in &REGION_CELLS[region] {
        let m = b.cands[c as usize];
        twice |= once & m;
        once |= m;
    }
    once & !twice
}

/// SE's `NakedSingle`: a cell with one candidate, cells in order; rated 2.3.
pub(crate) fn naked_single(b: &Board, sink: &mut dyn Sink) -> Flow {
    for cell in cells_of(b.empty) {
        if b.count(cell) == 1 {
            let v = b.cands[cell].trailing_zeros() as u8;
            sink.add(Hint {
                rating: 2.3,
                elims: Vec::new(),
                place: Some((cell as u8, v)),
                detail: Detail::NakedSingle,
            })?;
        }
    }
    ControlFlow::Continue(())
}

// ---------------------------------------------------------------------------------------------
// Intersections

/// A set of the cells at the given rows and columns (bit `r` of `rows`, bit `c` of `cols`).
const fn grid_cells(rows: u16, cols: u16) -> Cells {
    let mut out = 0u128;
    let mut cell = 0;
    while cell < 81 {
        if rows & (1 << (cell / 9)) != 0 && cols & (1 << (cell % 9)) != 0 {
            out |= 1u128 << cell;
        }
        cell += 1;
    }
    out
}

/// Each block's first cell (rows and columns 0, 3, 6).
const BLOCK_FIRSTS: Cells = grid_cells(0b001_001_001, 0b001_001_001);
/// Each row's first cell.
const ROW_FIRSTS: Cells = grid_cells(0x1ff, 1);
/// Each column's first cell.
const COLUMN_FIRSTS: Cells = grid_cells(1, 0x1ff);
/// Columns 0, 3, 6 of every row: where a row meets a stack of blocks starts.
const STACK_STARTS: Cells = grid_cells(0x1ff, 0b001_001_001);
/// Rows 0, 3, 6 of every column: where a column meets a band of blocks starts.
const BAND_STARTS: Cells = grid_cells(0b001_001_001, 0x1ff);

/// The regions of kind `t1` where a digit's places (`dv`) are two or more and all lie in one
/// region of kind `t2`, each as its first cell, so ascending cells are ascending regions: the
/// `r1` of every intersection `(r1, r2)` of `locking`, and only those. Three segments per
/// region, each with two flags: `h` says a row meets a stack at one place or more (three cells
/// ORed), `h2` at two or more; `v`, `v2` the same for a column and a band. A region qualifies
/// when exactly one of its three segments holds a place and one holds two (then the same one).
#[cfg(test)]
fn confined(dv: Cells, t1: usize, t2: usize) -> Cells {
    let s = segments(dv);
    match (t1, t2) {
        (BLOCK, COLUMN) => confined_in::<BLOCK, COLUMN>(&s),
        (BLOCK, _) => confined_in::<BLOCK, ROW>(&s),
        (COLUMN, _) => confined_in::<COLUMN, BLOCK>(&s),
        _ => confined_in::<ROW, BLOCK>(&s),
    }
}

/// The segment flags of a digit's places (`dv`), for every pair of kinds at once:
/// `[h, v, h2, v2]` (see [`confined`]).
#[inline]
fn segments(dv: Cells) -> [Cells; 4] {
    let (r1, r2) = (dv >> 1, dv >> 2);
    let (c1, c2) = (dv >> 9, dv >> 18);
    [
        (dv | r1 | r2) & STACK_STARTS,
        (dv | c1 | c2) & BAND_STARTS,
        (dv & (r1 | r2) | r1 & r2) & STACK_STARTS,
        (dv & (c1 | c2) | c1 & c2) & BAND_STARTS,
    ]
}

/// The regions of kind `T1` where a digit's places, two or more, lie in one region of kind
/// `T2` (see [`confined`]), from its [`segments`]; one function per pair of kinds, so the
/// shifts are constants.
#[inline(always)]
fn confined_in<const T1: usize, const T2: usize>(s: &[Cells; 4]) -> Cells {
    // Rows meet stacks in `h`; columns meet bands in `v`.
    let vertical = (T1 == BLOCK && T2 == COLUMN) || T1 == COLUMN;
    let (x, x2) = if vertical { (s[1], s[3]) } else { (s[0], s[2]) };
    // From a region's first cell to its second and third segment flags.
    let step = if T1 == BLOCK {
        if T2 == COLUMN {
            1
        } else {
            9
        }
    } else if T1 == COLUMN {
        27
    } else {
        3
    };
    let firsts = match T1 {
        BLOCK => BLOCK_FIRSTS,
        COLUMN => COLUMN_FIRSTS,
        _ => ROW_FIRSTS,
    };
    let (a, b, c) = (x, x >> step, x >> (2 * step));
    let twice = x2 | x2 >> step | x2 >> (2 * step);
    (a | b | c) & !(a & b | a & c | b & c) & twice & firsts
}

/// `CROSSING[r2][t1]`: the three regions of kind `t1` that meet region `r2`, ascending, where
/// one of the two kinds is the block and the other a line (the pairs `locking` reads).
pub(crate) static CROSSING: [[[u8; 3]; 3]; 27] = {
    let mut out = [[[0u8; 3]; 3]; 27];
    let mut r2 = 0;
    while r2 < 27 {
        let mut t1 = 0;
        while t1 < 3 {
            let mut n = 0;
            let mut r3 = t1 * 9;
            while r3 < t1 * 9 + 9 {
                if n < 3 && REGION_MASK_C[r3] & REGION_MASK_C[r2] != 0 {
                    out[r2][t1][n] = r3 as u8;
                    n += 1;
                }
                r3 += 1;
            }
            t1 += 1;
        }
        r2 += 1;
    }
    out
};

/// The intersections `locking` looks for, found region by region as SE does: for the tests.
#[cfg(test)]
pub(crate) fn confined_regions(dv: Cells, t1: usize, t2: usize) -> (Vec<Region>, Vec<Region>) {
    let slow = regions_of(t1)
        .filter(|&r1| {
            let pos = dv & REGION_MASK[r1];
            pos.count_ones() >= 2
                && pos & !REGION_MASK[CELL_REGION[pos.trailing_zeros() as usize][t2]] == 0
        })
        .collect();
    let fast = cells_of(confined(dv, t1, t2))
        .map(|c| CELL_REGION[c][t1])
        .collect();
    (slow, fast)
}

/// SE's `Locking`: pointing (a block's candidates for a digit on one line) and claiming (a
/// line's candidates in one block). In direct mode it only reports one that leaves a hidden
/// single in another region of the first region's kind, and places it.
pub(crate) fn locking(b: &Board, direct: bool, scope: Scope, sink: &mut dyn Sink) -> Flow {
    // Each digit's segment flags, once for the four pairs of kinds.
    let mut segs = [[0; 4]; 10];
    let digits = scope.digits & 0x3fe;
    for v in digits_of(digits) {
        segs[v as usize] = segments(b.digits[v as usize]);
    }
    locking_of::<BLOCK, COLUMN>(b, direct, digits, &segs, sink)?;
    locking_of::<BLOCK, ROW>(b, direct, digits, &segs, sink)?;
    locking_of::<COLUMN, BLOCK>(b, direct, digits, &segs, sink)?;
    locking_of::<ROW, BLOCK>(b, direct, digits, &segs, sink)
}

/// [`locking`] for one pair of kinds, `digits` ascending.
#[inline(always)]
fn locking_of<const T1: usize, const T2: usize>(
    b: &Board,
    direct: bool,
    digits: u16,
    segs: &[[Cells; 4]; 10],
    sink: &mut dyn Sink,
) -> Flow {
    for v in digits_of(digits) {
        let dv = b.digits[v as usize];
        let mut firsts = confined_in::<T1, T2>(&segs[v as usize]);
        while firsts != 0 {
            let r1 = CELL_REGION[firsts.trailing_zeros() as usize][T1];
            firsts &= firsts - 1;
            // Two places or more, all in the first place's region of the other kind.
            let pos = dv & REGION_MASK[r1];
            let r2 = CELL_REGION[pos.trailing_zeros() as usize][T2];
            if direct {
                // The regions of kind `T1` that meet `r2`, ascending.
                for &r3 in &CROSSING[r2][T1] {
                    let r3 = r3 as usize;
                    if r3 == r1 {
                        continue;
                    }
                    let pos3 = dv & REGION_MASK[r3];
                    if pos3.count_ones() > 1 {
                        let rest = pos3 & !REGION_MASK[r2];
                        if rest.count_ones() == 1 {
                            let hcell = rest.trailing_zeros() as usize;
                            sink.add(locking_hint(b, r1, r2, v, Some(hcell)))?;
                        }
                    }
                }
            } else if dv & REGION_MASK[r2] & !REGION_MASK[r1] != 0 {
                sink.add(locking_hint(b, r1, r2, v, None))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The pointing and claiming intersections in SE's order (before the worth test): `(r1, r2, v)`
/// where `v`'s candidates in `r1` all lie in `r2`.
pub(crate) fn locking_findings(
    b: &Board,
    found: &mut dyn FnMut(Region, Region, u8) -> Flow,
) -> Flow {
    for (t1, t2) in [(BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK)] {
        for v in 1..=9u8 {
            let dv = b.digits[v as usize];
            for r1 in regions_of(t1) {
                let pos = dv & REGION_MASK[r1];
                if pos.count_ones() < 2 {
                    continue;
                }
                let r2 = CELL_REGION[pos.trailing_zeros() as usize][t2];
                if pos & !REGION_MASK[r2] == 0 {
                    found(r1, r2, v)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

fn locking_hint(b: &Board, r1: Region, r2: Region, v: u8, hcell: Option<usize>) -> Hint {
    let dv = b.digits[v as usize];
    let cells = in_region_order(r2, dv & REGION_MASK[r2] & REGION_MASK[r1]);
    let pointing = r1 / 9 == BLOCK;
    let detail = Detail::Locking {
        direct: hcell.is_some(),
        r1: r1 as u8,
        r2: r2 as u8,
        value: v,
        cells,
    };
    match hcell {
        Some(h) => Hint {
            rating: if pointing { 1.7 } else { 1.9 },
            elims: Vec::new(),
            place: Some((h as u8, v)),
            detail,
        },
        None => Hint {
            rating: if pointing { 2.6 } else { 2.8 },
            elims: cells_of(dv & REGION_MASK[r2] & !REGION_MASK[r1])
                .map(|c| (c as u8, 1u16 << v))
                .collect(),
            place: None,
            detail,
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Hidden and naked sets

/// A hidden set: `values` (bit mask) confined to `positions` of `region`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HiddenSetFinding {
    pub region: Region,
    pub values: u16,
    pub positions: u16,
}

/// SE's `HiddenSet`: digit tuples of `degree` confined to as many cells of a region, regions in
/// the order blocks, columns, rows. Direct mode reports one only when it leaves a hidden single
/// for another digit of the region, and places that.
pub(crate) fn hidden_set(
    b: &Board,
    degree: u32,
    direct: bool,
    scope: Scope,
    sink: &mut dyn Sink,
) -> Flow {
    hidden_set_findings_in(b, degree, direct, scope, &mut |f| {
        hidden_set_worth(b, f, direct, sink)
    })
}

/// Hands over the hint of a hidden set if it is worth one: in direct mode, when it leaves a
/// hidden single for another digit of the region (the first such digit), else when its cells
/// hold another digit.
#[inline]
fn hidden_set_worth(b: &Board, f: HiddenSetFinding, direct: bool, sink: &mut dyn Sink) -> Flow {
    let cells = &REGION_CELLS[f.region];
    if direct {
        // The first other digit with two places or more, one of them outside the set's
        // cells: bit planes over the region's cells (`all`) and those outside (`out`).
        let (mut all, mut all2, mut out, mut out2) = (0u16, 0u16, 0u16, 0u16);
        for (k, &c) in cells.iter().enumerate() {
            let m = b.cands[c as usize];
            all2 |= all & m;
            all |= m;
            if f.positions & (1 << k) == 0 {
                out2 |= out & m;
                out |= m;
            }
        }
        let others = all2 & out & !out2 & !f.values;
        if others == 0 {
            return ControlFlow::Continue(());
        }
        let v = others.trailing_zeros() as u8;
        let k = (0..9)
            .find(|&k| f.positions & (1 << k) == 0 && b.cands[cells[k] as usize] & (1 << v) != 0)
            .expect("a place outside the set");
        sink.add(hidden_set_hint(b, f, Some((cells[k] as usize, v))))
    } else if bits(f.positions as u32).any(|k| b.cands[cells[k] as usize] & !f.values != 0) {
        // The set's cells hold another digit: it goes.
        sink.add(hidden_set_hint(b, f, None))
    } else {
        ControlFlow::Continue(())
    }
}

/// The direct hidden pairs of `pairs` and the direct hidden triplets of `triplets` (their
/// regions) in one pass, for `path::direct_fixpoint`: region by region in SE's order, in each
/// the pairs, then the triplets, so each region's places are counted once. The first hint
/// found may not be the one SE's two producers asked in turn would hand over first; the
/// fixpoint does not depend on which direct step comes first. Finds one whenever either
/// producer would.
pub(crate) fn direct_hidden_sets(
    b: &Board,
    pairs: u32,
    triplets: u32,
    sink: &mut dyn Sink,
) -> Flow {
    for kind in [BLOCK, COLUMN, ROW] {
        for region in regions_of(kind) {
            let empty = b.empty_count(region) as u32;
            let (pair, triplet) = (
                pairs & (1 << region) != 0 && empty > 2,
                triplets & (1 << region) != 0 && empty > 3,
            );
            if !(pair || triplet) {
                continue;
            }
            let more = place_counts(b, region);
            for (wanted, degree) in [(pair, 2), (triplet, 3)] {
                if wanted {
                    hidden_sets_of_region(b, region, kind, degree, &more, &mut |f| {
                        hidden_set_worth(b, f, true, sink)
                    })?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The hidden sets of `degree` in SE's order (before the worth test).
pub(crate) fn hidden_set_findings(
    b: &Board,
    degree: u32,
    direct: bool,
    found: &mut dyn FnMut(HiddenSetFinding) -> Flow,
) -> Flow {
    hidden_set_findings_in(b, degree, direct, Scope::ALL, found)
}

fn hidden_set_findings_in(
    b: &Board,
    degree: u32,
    direct: bool,
    scope: Scope,
    found: &mut dyn FnMut(HiddenSetFinding) -> Flow,
) -> Flow {
    for kind in [BLOCK, COLUMN, ROW] {
        for region in regions_of(kind) {
            if !scope.region(region) {
                continue;
            }
            let empty = b.empty_count(region) as u32;
            if !(empty > degree * 2 || (direct && empty > degree)) {
                continue;
            }
            let more = place_counts(b, region);
            hidden_sets_of_region(b, region, kind, degree, &more, found)?;
        }
    }
    ControlFlow::Continue(())
}

/// How many places each digit has in a region, as bit planes over the digits: `more[i]` holds
/// the digits with more than `i` places.
#[inline(always)]
fn place_counts(b: &Board, region: Region) -> [u16; 5] {
    let mut more = [0u16; 5];
    for &c in &REGION_CELLS[region] {
        let m = b.cands[c as usize];
        more[4] |= more[3] & m;
        more[3] |= more[2] & m;
        more[2] |= more[1] & m;
        more[1] |= more[0] & m;
        more[0] |= m;
    }
    more
}

/// The hidden sets of `degree` of one region (of `kind`), in SE's order, from its
/// [`place_counts`].
#[inline(always)]
fn hidden_sets_of_region(
    b: &Board,
    region: Region,
    kind: usize,
    degree: u32,
    more: &[u16; 5],
    found: &mut dyn FnMut(HiddenSetFinding) -> Flow,
) -> Flow {
    // Only digits with 2..=degree places can be in the set (SE's CommonTuples).
    let eligible = u32::from((more[1] & !more[degree as usize]) >> 1);
    if eligible.pop() < degree {
        return ControlFlow::Continue(());
    }
    // The sets are tested on each digit's places as cells (the same tests as on positions),
    // positions made only for a set found.
    let within = REGION_MASK[region];
    for combo in combos_within(eligible, degree) {
        // Every digit of `combo` has two places or more (it is eligible): SE's common tuple
        // is then a union of exactly `degree` places.
        let mut values = 0u16;
        let mut union: Cells = 0;
        for bit in bits(combo) {
            values |= 1 << (bit + 1);
            union |= b.digits[bit + 1] & within;
        }
        if union.pop() == degree {
            let positions = cells_of(union).fold(0u16, |m, c| m | 1 << INDEX_IN_REGION[c][kind]);
            found(HiddenSetFinding {
                region,
                values,
                positions,
            })?;
        }
    }
    ControlFlow::Continue(())
}

/// The candidates a hidden set removes: its cells' other digits.
pub(crate) fn hidden_set_elims(b: &Board, f: HiddenSetFinding) -> [u16; 81] {
    let mut masks = [0u16; 81];
    for k in bits(f.positions as u32) {
        let c = REGION_CELLS[f.region][k] as usize;
        masks[c] = b.cands[c] & !f.values;
    }
    masks
}

fn hidden_set_hint(b: &Board, f: HiddenSetFinding, place: Option<(usize, u8)>) -> Hint {
    let degree = f.values.pop() as usize;
    let cells: Vec<u8> = bits(f.positions as u32)
        .map(|k| REGION_CELLS[f.region][k])
        .collect();
    let (rating, elims) = match place {
        Some(_) => (if degree == 2 { 2.0 } else { 2.5 }, Vec::new()),
        None => (
            [3.4, 4.0, 5.4][degree - 2],
            elims_from(&hidden_set_elims(b, f)),
        ),
    };
    Hint {
        rating,
        elims,
        place: place.map(|(c, v)| (c as u8, v)),
        detail: Detail::HiddenSet {
            direct: place.is_some(),
            region: f.region as u8,
            values: f.values,
            cells,
        },
    }
}

/// SE's `NakedSet`: `degree` cells of a region whose candidates together are `degree` digits;
/// the digits leave the region's other cells.
pub(crate) fn naked_set(b: &Board, degree: u32, scope: Scope, sink: &mut dyn Sink) -> Flow {
    naked_set_findings_in(b, degree, scope, &mut |f| {
        let mut elims = Vec::new();
        for &c in &REGION_CELLS[f.region] {
            let c = c as usize;
            let m = b.cands[c] & f.values;
            if f.cells & (1u128 << c) == 0 && m != 0 {
                elims.push((c as u8, m));
            }
        }
        if elims.is_empty() {
            return ControlFlow::Continue(());
        }
        elims.sort_unstable();
        sink.add(Hint {
            rating: [3.0, 3.6, 5.0][degree as usize - 2],
            elims,
            place: None,
            detail: Detail::NakedSet {
                region: f.region as u8,
                values: f.values,
                cells: in_region_order(f.region, f.cells),
            },
        })
    })
}

/// A naked set: `cells` of `region` holding only `values`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NakedSetFinding {
    pub region: Region,
    pub cells: Cells,
    pub values: u16,
}

/// The naked sets of `degree` in SE's order (blocks, columns, rows; cell tuples by position).
pub(crate) fn naked_set_findings(
    b: &Board,
    degree: u32,
    found: &mut dyn FnMut(NakedSetFinding) -> Flow,
) -> Flow {
    naked_set_findings_in(b, degree, Scope::ALL, found)
}

fn naked_set_findings_in(
    b: &Board,
    degree: u32,
    scope: Scope,
    found: &mut dyn FnMut(NakedSetFinding) -> Flow,
) -> Flow {
    for kind in [BLOCK, COLUMN, ROW] {
        for region in regions_of(kind) {
            if !scope.region(region) {
                continue;
            }
            if (b.empty_count(region) as u32) < degree * 2 {
                continue;
            }
            // Only cells with 2..=degree candidates can be in the set.
            let mut eligible = 0u32;
            for (k, &c) in REGION_CELLS[region].iter().enumerate() {
                let n = b.count(c as usize);
                if n >= 2 && n <= degree {
                    eligible |= 1 << k;
                }
            }
            if eligible.pop() < degree {
                continue;
            }
            for combo in combos_within(eligible, degree) {
                // Every cell of `combo` has two candidates or more (it is eligible): SE's
                // common tuple is then a union of exactly `degree` digits.
                // The cells as a set are made only for a set found.
                let mut values = 0u16;
                for k in bits(combo) {
                    values |= b.cands[REGION_CELLS[region][k] as usize];
                }
                if values.pop() == degree {
                    let cells =
                        bits(combo).fold(0 as Cells, |m, k| m | 1u128 << REGION_CELLS[region][k]);
                    found(NakedSetFinding {
                        region,
                        cells,
                        values,
                    })?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

// ---------------------------------------------------------------------------------------------
// Fish

/// A basic fish: `value`'s candidates in the `base` lines (of kind `base_kind`) all lie in the
/// `cover` lines of the other kind; bits are line indexes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FishFinding {
    pub base_kind: usize,
    pub base: u16,
    pub cover: u16,
    pub value: u8,
}

/// SE's `Fisherman`: columns as base lines first, then rows; line tuples, then digits.
pub(crate) fn fish_findings(
    b: &Board,
    degree: u32,
    found: &mut dyn FnMut(FishFinding) -> Flow,
) -> Flow {
    fish_findings_in(b, degree, Scope::ALL, found)
}

fn fish_findings_in(
    b: &Board,
    degree: u32,
    scope: Scope,
    found: &mut dyn FnMut(FishFinding) -> Flow,
) -> Flow {
    // How often each digit is placed, in one pass over the grid.
    let mut occurrences = [0usize; 10];
    for &v in &b.values {
        occurrences[v as usize] += 1;
    }
    // The digits that can make a fish: in scope, and with enough lines left.
    let mut digits = 0u16;
    for v in 1..=9u8 {
        if scope.digit(v) && occurrences[v as usize] + degree as usize * 2 <= 9 {
            digits |= 1 << v;
        }
    }
    for (base_kind, _cover_kind) in [(COLUMN, ROW), (ROW, COLUMN)] {
        // positions[line][v]: where v can go in the base line (`Board::positions`).
        let mut positions = [[0u16; 10]; 9];
        for v in digits_of(digits) {
            let d = b.digits[v as usize];
            if base_kind == ROW {
                for (line, row) in positions.iter_mut().enumerate() {
                    row[v as usize] = ((d >> (9 * line)) & 0x1ff) as u16;
                }
            } else {
                // A column's positions are its rows: one bit per cell of the digit, taken
                // row by row (no division by nine per cell).
                for r in 0..9 {
                    let mut row = ((d >> (9 * r)) & 0x1ff) as u32;
                    while row != 0 {
                        let c = row.trailing_zeros() as usize;
                        row &= row - 1;
                        positions[c][v as usize] |= 1 << r;
                    }
                }
            }
        }
        // eligible[v]: the base lines where v has two to `degree` places, the only lines
        // `common_tuple` can accept (a line with more places makes the union too big);
        // line_digits[line]: the digits for which the line is eligible.
        let mut eligible = [0u32; 10];
        let mut line_digits = [0u16; 9];
        for (line, row) in positions.iter().enumerate() {
            for v in digits_of(digits) {
                if (2..=degree).contains(&row[v as usize].pop()) {
                    eligible[v as usize] |= 1 << line;
                    line_digits[line] |= 1 << v;
                }
            }
        }
        if eligible.iter().all(|&e| e.pop() < degree) {
            continue;
        }
        // A combination of lines outside every digit's eligible lines finds nothing.
        let any_eligible = eligible.iter().fold(0, |m, &e| m | e);
        for combo in combos_within(any_eligible, degree) {
            // The digits for which every line of the combination is eligible, ascending.
            let both = bits(combo).fold(0x3fe, |m, line| m & line_digits[line]);
            for v in digits_of(both) {
                let mut sets = [0u16; 4];
                for (i, line) in bits(combo).enumerate() {
                    sets[i] = positions[line][v as usize];
                }
                if let Some(cover) = common_tuple(&sets[..degree as usize], degree) {
                    found(FishFinding {
                        base_kind,
                        base: combo as u16,
                        cover,
                        value: v,
                    })?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The cover kind of a fish.
fn cover_kind(base_kind: usize) -> usize {
    if base_kind == COLUMN {
        ROW
    } else {
        COLUMN
    }
}

/// A fish's eliminations, and the order SE's `HashMap` was filled in (cover line by cover line).
pub(crate) fn fish_elims(b: &Board, f: FishFinding) -> ([u16; 81], Vec<u8>) {
    let mut masks = [0u16; 81];
    let mut order = Vec::new();
    let ck = cover_kind(f.base_kind);
    for line in bits(f.cover as u32) {
        let region = ck * 9 + line;
        let pos = b.positions(region, f.value) & !f.base;
        for k in bits(pos as u32) {
            let c = REGION_CELLS[region][k] as usize;
            masks[c] = 1 << f.value;
            order.push(c as u8);
        }
    }
    (masks, order)
}

/// SE's fish producer for one degree: X-wing, swordfish, jellyfish.
pub(crate) fn fish(b: &Board, degree: u32, scope: Scope, sink: &mut dyn Sink) -> Flow {
    fish_findings_in(b, degree, scope, &mut |f| {
        let (masks, order) = fish_elims(b, f);
        if order.is_empty() {
            return ControlFlow::Continue(());
        }
        // The fish's cells, cover line by cover line, base lines across.
        let ck = cover_kind(f.base_kind);
        let mut cells = Vec::new();
        for line in bits(f.cover as u32) {
            for base in bits(f.base as u32) {
                let c = REGION_CELLS[ck * 9 + line][base];
                if b.has(c as usize, f.value) {
                    cells.push(c);
                }
            }
        }
        sink.add(Hint {
            rating: [3.2, 3.8, 5.2][degree as usize - 2],
            elims: elims_from(&masks),
            place: None,
            detail: Detail::Fish {
                degree: degree as u8,
                base_rows: f.base_kind == ROW,
                value: f.value,
                cells,
            },
        })
    })
}

// ---------------------------------------------------------------------------------------------
// XY- and XYZ-wings

/// SE's `XYWing`: a pivot with two (XYZ: three) candidates and two bivalue pincers among its
/// peers; the shared digit leaves every cell that sees both pincers (and, for XYZ, the pivot).
pub(crate) fn xy_wing(b: &Board, xyz: bool, sink: &mut dyn Sink) -> Flow {
    // The cells with two candidates, and with three: from bit planes over the digits' cells.
    let (mut one, mut two, mut three, mut four) = (0 as Cells, 0 as Cells, 0 as Cells, 0 as Cells);
    for &d in &b.digits[1..] {
        four |= three & d;
        three |= two & d;
        two |= one & d;
        one |= d;
    }
    let bivalue = two & !three;
    let pivots = if xyz { three & !four } else { bivalue };
    // Pivots, then pincers among the pivot's peers, ascending as SE visits them; only bivalue
    // peers can be pincers.
    for xy in cells_of(pivots) {
        let xyv = b.cands[xy];
        let pincers = PEER_MASK[xy] & bivalue;
        for xz in cells_of(pincers) {
            let xzv = b.cands[xz];
            if (xyv & !xzv).count_ones() != 1 {
                continue;
            }
            // The pivot's digit that `xz` lacks, `w`, is in every second pincer whose digits
            // can make a wing with these two (three in all among the three cells, and none
            // common to the three for XY, one for XYZ): XY's is {w, z} (`z` being `xz`'s digit
            // outside the pivot), XYZ's is `w` and one of `xz`'s two digits. Only the bivalue
            // peers holding those are tried (`wing_digits` still decides), ascending.
            let w = (xyv & !xzv).trailing_zeros() as usize;
            let partners = if xyz {
                digits_of(xzv).fold(0 as Cells, |m, d| m | b.digits[d as usize])
            } else {
                b.digits[(xzv & !xyv).trailing_zeros() as usize]
            };
            for yz in cells_of(pincers & b.digits[w] & partners) {
                let yzv = b.cands[yz];
                if !wing_digits(xyz, xyv, xzv, yzv) {
                    continue;
                }
                let z = (xzv & yzv).trailing_zeros() as u8;
                let victims = wing_victims(b, xyz, [xy, xz, yz], z);
                if victims == 0 {
                    continue;
                }
                sink.add(Hint {
                    rating: if xyz { 4.4 } else { 4.2 },
                    elims: cells_of(victims).map(|c| (c as u8, 1u16 << z)).collect(),
                    place: None,
                    detail: Detail::Wing {
                        xyz,
                        cells: [xy as u8, xz as u8, yz as u8],
                        z,
                    },
                })?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Whether a pivot's and two pincers' candidates make a wing: three digits in all, and none
/// (XY) or one (XYZ) common to the three.
pub(crate) fn wing_digits(xyz: bool, xyv: u16, xzv: u16, yzv: u16) -> bool {
    let union = xyv | xzv | yzv;
    let inter = xyv & xzv & yzv;
    union.pop() == 3
        && if xyz {
            inter.count_ones() == 1
        } else {
            inter == 0
        }
}

/// The cells a wing with pivot `xy` and pincers `xz`, `yz` takes `z` out of: those holding it
/// that see both pincers (and, for XYZ, the pivot), the wing's own cells aside.
pub(crate) fn wing_victims(b: &Board, xyz: bool, [xy, xz, yz]: [usize; 3], z: u8) -> Cells {
    let mut victims = PEER_MASK[xz] & PEER_MASK[yz];
    if xyz {
        victims &= PEER_MASK[xy];
    }
    victims &= !((1u128 << xy) | (1u128 << xz) | (1u128 << yz));
    victims & b.digits[z as usize]
}
