//! The uniqueness techniques: unique rectangles and loops (types 1–4) and the bivalue universal
//! grave (BUG, types 1–4), as Sudoku Explainer 1.2.1 finds and orders them.
//!
//! These are the one place SE's order is not "first found": its unique-loop producer collects
//! every loop hint, sorts them by rating and then type (a stable sort, so ties keep the order
//! found), and hands them over in that order. The loop search is SE's depth-first walk, including
//! its quirk that the set of "extra" digits seen so far is shared by the sibling branches of a
//! step (the SE 1.2.1 behaviour `--islkSudokuURUL=0` selects).

// Loops over region kinds (0 block, 1 row, 2 column) index per-cell tables by kind; an
// iterator over the tables would hide that.
#![allow(clippy::needless_range_loop)]

use std::ops::ControlFlow;

use super::basic::{bits, combos, combos_of};
use super::board::{
    cells_of, digits_of, Board, Cells, Region, CELL_REGION, CELL_REGIONS, INDEX_IN_REGION,
    PEER_MASK, REGION_CELLS, REGION_MASK,
};
use super::hint::{elims_from, Detail, Flow, Hint, Sink};
use super::popcount::Pop;

/// A unique loop hint before sorting.
struct LoopHint {
    hint: Hint,
    kind: u8,
}

/// SE's `UniqueLoops`: it collects every unique rectangle or loop hint, sorts them by rating
/// then type (stably: ties keep the order found) and hands them over in that order; only the
/// first is ever taken, so only that one is found here, by the same walk in the same order.
///
/// A loop of `n` cells gives hints rated [`loop_rating`]`(n)` or more, of type 1 or more, so as
/// the walk goes the loops whose hints cannot sort before the best hint found so far (which
/// came earlier in the order, so it wins ties) are left out: once a hint is found, paths are
/// not extended beyond the longest loop that could still do better, and the search stops where
/// none could (a 4.5 rectangle of type 1).
pub(crate) fn unique_loops(b: &Board, sink: &mut dyn Sink) -> Flow {
    thread_local! {
        /// One scratch per thread, kept from search to search (its walks' memo too).
        static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
    }
    let found = SCRATCH.with(|s| first_loop_hint(b, &mut s.borrow_mut()));
    if let Some(h) = found {
        sink.add(h.hint)?;
    }
    ControlFlow::Continue(())
}

/// What the searches keep, so they allocate nothing once it has grown: the loops found from one
/// cell, one after another, the walk's path, the valid loops whose hints were already offered
/// in this search (their cells and digits), and the walks that found no valid loop.
#[derive(Default)]
struct Scratch {
    results: Loops,
    path: Vec<usize>,
    offered: Vec<(Cells, u8, u8)>,
    barren: Barren,
}

/// The walks that found no valid loop, per pair of digits: a walk reads only the cells holding
/// both digits (`pair`) and their candidates (where it starts, where it may go, the extra
/// digits), and the longest loop wanted. So a walk on the same digits, from the same cell, over
/// the same `pair` with the same candidates, and wanting no longer loops, finds no valid loop
/// either: it is not walked again. Kept by content (the cells and their candidates are
/// compared), so it holds from any grid to any other, across steps and puzzles; only walks that
/// wanted every loop (`max_len` unbounded) are recorded.
///
/// The other walks that wanted every loop are kept whole, by the same argument: per pair of
/// digits, the loops each one found (`walks`, the first `used` entries, by start cell). A walk
/// that wants loops of at most `max_len` cells finds exactly those of the whole walk's loops,
/// in the same order: a path is cut only where it reaches `max_len` cells, after the extra
/// digits its siblings inherit were updated, so every other branch is walked as before, and
/// the loops closed are those of at most `max_len` cells. So such a walk is replayed from the
/// whole walk's loops instead.
struct Barren {
    /// Per pair of digits (`v1 * 10 + v2`): the cells holding both, their candidates (by cell),
    /// and the start cells whose walk found no valid loop there.
    pairs: Vec<(Cells, [u16; 81], Cells)>,
    /// Per pair of digits: the start cells whose whole walk is kept in `walks`, and how many
    /// entries of `walks` are in use (the rest keep their space for later).
    kept: Vec<(Cells, usize)>,
    /// Per pair of digits: the start cell and the loops of each whole walk kept.
    walks: Vec<Vec<(usize, Loops)>>,
}

impl Default for Barren {
    fn default() -> Self {
        Barren {
            pairs: vec![(0, [0; 81], 0); 100],
            kept: vec![(0, 0); 100],
            walks: (0..100).map(|_| Vec::new()).collect(),
        }
    }
}

impl Barren {
    /// Does the entry of `v1`, `v2` describe `pair` on `b`?
    fn holds(&self, key: usize, b: &Board, pair: Cells) -> bool {
        let (cells, cands, _) = &self.pairs[key];
        *cells == pair && cells_of(pair).all(|c| cands[c] == b.cands[c])
    }
}

/// The hint SE's sort puts first.
fn first_loop_hint(b: &Board, scratch: &mut Scratch) -> Option<LoopHint> {
    let mut best: Option<LoopHint> = None;
    let Scratch {
        results,
        path,
        offered,
        barren,
    } = scratch;
    offered.clear();
    // The pairs whose `barren` entry describes this grid, and those checked (once per pair).
    let (mut fits, mut checked): (u128, u128) = (0, 0);
    for cell in 0..81 {
        if b.count(cell) != 2 {
            continue;
        }
        let mut d = digits_of(b.cands[cell]);
        let (v1, v2) = match (d.next(), d.next()) {
            (Some(a), Some(b)) => (a, b),
            _ => continue,
        };
        // The cells holding both digits: the only ones the walk can enter. Fewer than four
        // make no loop (a loop closes on four cells or more), so the walk would find none.
        let pair = b.digits[v1 as usize] & b.digits[v2 as usize];
        if pair.pop() < 4 {
            continue;
        }
        // The bounds only tighten: once no loop can do better, none will from a later cell.
        let max_len = longest_worth(best.as_ref());
        if max_len < 4 {
            break;
        }
        let key = v1 as usize * 10 + v2 as usize;
        if checked >> key & 1 == 0 {
            checked |= 1 << key;
            if barren.holds(key, b, pair) {
                fits |= 1 << key;
            }
        }
        let known = fits >> key & 1 == 1;
        if known && barren.pairs[key].2 >> cell & 1 == 1 {
            // This walk found no valid loop on this pair before, wanting every loop.
            continue;
        }
        results.cells.clear();
        results.ends.clear();
        let replay = known && barren.kept[key].0 >> cell & 1 == 1;
        if replay {
            // This walk was made whole on this pair before: its loops of at most `max_len`
            // cells, in its order, are what the walk would find.
            let used = barren.kept[key].1;
            if let Some((_, whole)) = barren.walks[key][..used].iter().find(|w| w.0 == cell) {
                let mut start = 0;
                for &end in &whole.ends {
                    if end - start <= max_len {
                        results.cells.extend_from_slice(&whole.cells[start..end]);
                        results.ends.push(results.cells.len());
                    }
                    start = end;
                }
            }
        } else {
            let walk = Walk {
                b,
                v1,
                v2,
                pair,
                max_len,
                start: cell,
            };
            let seen = [region_bits(cell), 0];
            walk.check_for_loops(cell, path, 0, 2, 0, None, results, seen);
        }
        let mut start = 0;
        let mut valid = false;
        for &end in &results.ends {
            let lp = &results.cells[start..end];
            start = end;
            // The walk finds a loop again from each of its bivalue cells, both ways round: of
            // the 2,385 loops found on the ER 4.0-6.2 reference puzzles, 1,064 were valid and
            // only 65 distinct. A valid loop's hints depend on its cells and digits only (see
            // `loop_hints`), and any hint of one found again ties with the same hint offered
            // before, which keeps its place: so each is offered once.
            if !is_valid_loop(lp) {
                continue;
            }
            valid = true;
            let cells = lp.iter().fold(0 as Cells, |m, &c| m | 1 << c);
            if offered.contains(&(cells, v1, v2)) {
                continue;
            }
            offered.push((cells, v1, v2));
            loop_hints(b, lp, v1, v2, &mut |h| offer(&mut best, h));
        }
        if max_len == usize::MAX && !replay {
            if !known {
                let entry = &mut barren.pairs[key];
                entry.0 = pair;
                for c in cells_of(pair) {
                    entry.1[c] = b.cands[c];
                }
                entry.2 = 0;
                barren.kept[key] = (0, 0);
                fits |= 1 << key;
            }
            if valid {
                // Kept whole, in the next entry of the pair's list (its space reused).
                let (kept, used) = &mut barren.kept[key];
                let walks = &mut barren.walks[key];
                if *used == walks.len() {
                    walks.push((cell, Loops::default()));
                }
                let (start, whole) = &mut walks[*used];
                *start = cell;
                whole.cells.clone_from(&results.cells);
                whole.ends.clone_from(&results.ends);
                *used += 1;
                *kept |= 1 << cell;
            } else {
                barren.pairs[key].2 |= 1 << cell;
            }
        }
    }
    best
}

/// The hints of one loop found by the walk on `v1` and `v2`, in SE's order (none if the loop
/// is not valid).
///
/// Of a valid loop, only the cells' order depends on where the walk started and which way it
/// went; the hints' ratings, types and removals depend on its cells and digits alone. Type 1
/// reads the one extra cell; type 2, the digit the extra cells share (with more than two
/// extra cells the walk admits the third only while all the extra cells seen hold the same one
/// extra digit, so `extra[0]`'s is everyone's); types 3 and 4 treat the two extra cells
/// alike (type 3's sets hold the pair as one cell, whichever of the two stands for it: a digit
/// outside the pair's is in neither, and the loop's digits are in both).
fn loop_hints(b: &Board, lp: &[usize], v1: u8, v2: u8, out: &mut dyn FnMut(LoopHint)) {
    if !is_valid_loop(lp) {
        return;
    }
    let extra: Vec<usize> = lp.iter().copied().filter(|&c| b.count(c) > 2).collect();
    match extra.len() {
        1 => {
            let mut masks = [0u16; 81];
            masks[extra[0]] = (1 << v1) | (1 << v2);
            out(loop_hint(lp, v1, v2, 1, 0.0, masks));
        }
        n if n > 2 => out(type2(b, lp, &extra, v1, v2)),
        2 => {
            let (r1, r2) = (extra[0], extra[1]);
            let r = (b.cands[r1] | b.cands[r2]) & !((1 << v1) | (1 << v2));
            if r.count_ones() == 1 {
                out(type2(b, lp, &extra, v1, v2));
            } else if r.count_ones() >= 2 {
                for h in type3(b, lp, r1, r2, v1, v2) {
                    out(h);
                }
            }
            if let Some(h) = type4(b, lp, r1, r2, v1, v2) {
                out(h);
            }
        }
        _ => {}
    }
}

/// Every unique-loop hint that removes something, sorted as SE sorts them: the whole walk
/// from every bivalue cell, nothing left out (for the tests of [`unique_loops`]).
#[cfg(test)]
pub(crate) fn all_loop_hints(b: &Board) -> Vec<Hint> {
    let mut hints: Vec<LoopHint> = Vec::new();
    let Scratch {
        mut results,
        mut path,
        ..
    } = Scratch::default();
    for cell in 0..81 {
        if b.count(cell) != 2 {
            continue;
        }
        let mut d = digits_of(b.cands[cell]);
        let (Some(v1), Some(v2)) = (d.next(), d.next()) else {
            continue;
        };
        results.cells.clear();
        results.ends.clear();
        let pair = b.digits[v1 as usize] & b.digits[v2 as usize];
        let walk = Walk {
            b,
            v1,
            v2,
            pair,
            max_len: usize::MAX,
            start: cell,
        };
        let seen = [region_bits(cell), 0];
        walk.check_for_loops(cell, &mut path, 0, 2, 0, None, &mut results, seen);
        let mut start = 0;
        for &end in &results.ends {
            loop_hints(b, &results.cells[start..end], v1, v2, &mut |h| {
                if h.hint.elims.iter().any(|&(_, m)| m != 0) {
                    hints.push(h);
                }
            });
            start = end;
        }
    }
    hints.sort_by(|a, b| {
        a.hint
            .rating
            .partial_cmp(&b.hint.rating)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.kind.cmp(&b.kind))
    });
    hints.into_iter().map(|h| h.hint).collect()
}

/// Whether hint `a` sorts strictly before `b` in SE's sort (rating, then type).
fn sorts_before(a: &LoopHint, b: &LoopHint) -> bool {
    a.hint.rating < b.hint.rating || (a.hint.rating == b.hint.rating && a.kind < b.kind)
}

/// The longest loop (in cells; `usize::MAX` for any) whose hints can sort before `best`, found
/// earlier (so it wins ties); 0 for none. Loop ratings only grow with the length, so the loops
/// that can are those up to some length.
fn longest_worth(best: Option<&LoopHint>) -> usize {
    let worth = |len: usize| {
        let r = loop_rating(len);
        best.is_none_or(|h| r < h.hint.rating || (r == h.hint.rating && h.kind > 1))
    };
    if worth(10) {
        return usize::MAX;
    }
    (4..10).rev().find(|&len| worth(len)).unwrap_or(0)
}

/// Loops one after another: `cells[ends[i - 1]..ends[i]]` is the `i`th.
#[derive(Default)]
struct Loops {
    cells: Vec<usize>,
    ends: Vec<usize>,
}

/// Keeps a hint that removes something if it sorts before the best so far (SE also drops equal
/// hints, and the first of equal ones sorts first: neither changes which one that is).
fn offer(best: &mut Option<LoopHint>, h: LoopHint) {
    if h.hint.elims.iter().any(|&(_, m)| m != 0)
        && best.as_ref().is_none_or(|cur| sorts_before(&h, cur))
    {
        *best = Some(h);
    }
}

/// One walk of SE's `checkForLoops`: the grid, the loop's two digits, the cells holding both,
/// and the longest loop wanted.
struct Walk<'a> {
    b: &'a Board,
    v1: u8,
    v2: u8,
    pair: Cells,
    /// Paths are not extended beyond this many cells: the loops they would close are not
    /// wanted. Every other loop is found as before: what a branch passes on to its siblings
    /// (the extra digits) is updated before it is entered, never by it.
    max_len: usize,
    /// The cell the walk starts from, which closes a loop.
    start: usize,
}

impl Walk<'_> {
    /// SE's `checkForLoops`, depth first through the regions of each cell other than the one
    /// that led to it.
    ///
    /// SE visits every cell of each region in the region's order and passes over those already
    /// on the path and those lacking either digit, which change nothing. So only the region's
    /// cells of `pair` not on the path (`on_path`), plus the start cell where it would close a
    /// loop, are visited — in ascending cell order, which is every region's order
    /// (`region_cells_ascend`): the same cells in the same order, the same loops.
    #[allow(clippy::too_many_arguments)]
    fn check_for_loops(
        &self,
        cell: usize,
        path: &mut Vec<usize>,
        on_path: Cells,
        allowed_ex: i32,
        ex_values: u16,
        last_kind: Option<usize>,
        results: &mut Loops,
        seen: [u32; 2],
    ) {
        let (v1, v2) = (self.v1, self.v2);
        path.push(cell);
        let on_path = on_path | (1 << cell);
        let start = self.start;
        let closes = path.len() >= 4;
        let mut ex_values = ex_values;
        for kind in 0..3 {
            if Some(kind) == last_kind {
                continue;
            }
            let region = CELL_REGION[cell][kind];
            let mut open = REGION_MASK[region] & self.pair & !on_path;
            if closes {
                open |= REGION_MASK[region] & (1 << start);
            }
            for next in cells_of(open) {
                if next == start {
                    results.cells.extend_from_slice(path);
                    results.ends.push(results.cells.len());
                    continue;
                }
                let p = self.b.cands[next];
                ex_values |= p;
                ex_values &= !((1 << v1) | (1 << v2));
                if path.len() >= self.max_len {
                    continue;
                }
                let card = p.pop();
                if card == 2 || ex_values.count_ones() == 1 || allowed_ex > 0 {
                    // A region met twice by cells of one parity can never make a valid
                    // loop (SE's isValidLoop): do not extend such a path.
                    let parity = path.len() % 2;
                    let regions = region_bits(next);
                    if seen[parity] & regions != 0 {
                        continue;
                    }
                    let mut seen = seen;
                    seen[parity] |= regions;
                    // A valid loop's even cells meet exactly the regions its odd cells meet.
                    // A region met by one parity only must be met later by a cell not yet on
                    // the path; where no such cell holds both digits, every loop this branch
                    // closes is invalid (dropped below), so it is not walked.
                    if !self.can_balance(seen, on_path | (1 << next)) {
                        continue;
                    }
                    let allowed = if card > 2 { allowed_ex - 1 } else { allowed_ex };
                    self.check_for_loops(
                        next,
                        path,
                        on_path,
                        allowed,
                        ex_values,
                        Some(kind),
                        results,
                        seen,
                    );
                }
            }
        }
        path.pop();
    }

    /// Whether every region that the path's cells of one parity meet and those of the other do
    /// not (`seen`) still holds a cell of `pair` off the path (`on_path`): a loop closed from
    /// here can be valid only then.
    #[inline]
    fn can_balance(&self, seen: [u32; 2], on_path: Cells) -> bool {
        let free = self.pair & !on_path;
        let mut odd_one_out = seen[0] ^ seen[1];
        while odd_one_out != 0 {
            let r = odd_one_out.trailing_zeros() as usize;
            if REGION_MASK[r] & free == 0 {
                return false;
            }
            odd_one_out &= odd_one_out - 1;
        }
        true
    }
}

/// A cell's three regions as bits.
fn region_bits(cell: usize) -> u32 {
    CELL_REGIONS[cell]
}

/// SE's `isValidLoop`: the regions of the odd cells are those of the even cells, and neither
/// parity visits a region twice.
fn is_valid_loop(lp: &[usize]) -> bool {
    let mut seen = [0u32; 2];
    for (i, &c) in lp.iter().enumerate() {
        let regions = region_bits(c);
        if seen[i % 2] & regions != 0 {
            return false;
        }
        seen[i % 2] |= regions;
    }
    seen[0] == seen[1]
}

/// The base rating of a loop: 4.5 for a rectangle, 4.6 for six cells, 4.7 for eight, 5.0 from
/// ten, computed as SE adds it up.
fn loop_rating(len: usize) -> f64 {
    let mut r = 4.5;
    if len >= 10 {
        r += 0.3;
    }
    if len >= 8 {
        r += 0.2;
    } else if len >= 6 {
        r += 0.1;
    }
    r
}

fn loop_hint(lp: &[usize], v1: u8, v2: u8, kind: u8, extra: f64, masks: [u16; 81]) -> LoopHint {
    let rating = if extra == 0.0 {
        loop_rating(lp.len())
    } else {
        loop_rating(lp.len()) + extra
    };
    LoopHint {
        hint: Hint {
            rating,
            elims: elims_from(&masks),
            place: None,
            detail: Detail::Loop {
                kind,
                cells: lp.iter().map(|&c| c as u8).collect(),
                v1,
                v2,
            },
        },
        kind,
    }
}

/// Type 2: the extra cells share one extra digit, which leaves every cell that sees them all.
fn type2(b: &Board, lp: &[usize], extra: &[usize], v1: u8, v2: u8) -> LoopHint {
    let common = b.cands[extra[0]] & !((1 << v1) | (1 << v2));
    let value = common.trailing_zeros() as u8;
    let mut seen = super::board::ALL_CELLS;
    let mut extra_set: Cells = 0;
    for &c in extra {
        seen &= PEER_MASK[c];
        extra_set |= 1u128 << c;
    }
    let mut masks = [0u16; 81];
    if value <= 9 {
        for c in cells_of(seen & !extra_set & b.digits[value as usize]) {
            masks[c] = 1 << value;
        }
    }
    loop_hint(lp, v1, v2, 2, 0.0, masks)
}

/// Does a tuple of region positions hold `i1` and not `i2` (SE's `containsFirst`)?
fn contains_first(combo: u32, i1: usize, i2: usize) -> bool {
    combo & (1 << i1) != 0 && combo & (1 << i2) == 0
}

/// Type 3: the two extra cells act as one cell holding their extra digits, which forms a naked
/// or hidden set with other cells of a region they share.
fn type3(b: &Board, lp: &[usize], c1: usize, c2: usize, v1: u8, v2: u8) -> Vec<LoopHint> {
    let mut out = Vec::new();
    let both = (1u16 << v1) | (1u16 << v2);
    let extra = (b.cands[c1] | b.cands[c2]) & !both;
    let extra_n = extra.pop();
    for degree in extra_n..=7 {
        for kind in 0..3 {
            let region = CELL_REGION[c1][kind];
            if region != CELL_REGION[c2][kind] {
                continue;
            }
            let empty = b.empty_count(region) as u32;
            let i1 = INDEX_IN_REGION[c1][kind] as usize;
            let i2 = INDEX_IN_REGION[c2][kind] as usize;
            if degree * 2 <= empty {
                for &combo in combos(degree) {
                    if !contains_first(combo, i1, i2) {
                        continue;
                    }
                    // The sets are the extra digits (for the two extra cells) and the other
                    // cells' candidates; each must have two members or more, and together
                    // exactly `degree` (SE's common tuple). No list is built: the tests are on
                    // masks, in any order (they only and together).
                    let mut naked = extra & b.cands[c1] & b.cands[c2];
                    let mut others: Cells = 0;
                    let mut ok = extra.count_ones() > 1;
                    let mut union = extra;
                    for k in bits(combo & !(1 << i1)) {
                        let c = REGION_CELLS[region][k] as usize;
                        let m = b.cands[c];
                        naked |= m;
                        union |= m;
                        ok &= m.count_ones() > 1;
                        others |= 1u128 << c;
                    }
                    if naked.pop() != degree || !ok || union.pop() != degree {
                        continue;
                    }
                    out.push(type3_naked(b, lp, v1, v2, region, c1, c2, others, union));
                }
            }
            if degree * 2 < empty {
                // The digits other than the loop's and the extra ones, ascending.
                let mut rem = [0u8; 9];
                let mut n_rem = 0;
                for v in 1..=9u8 {
                    if v != v1 && v != v2 && extra & (1 << v) == 0 {
                        rem[n_rem] = v;
                        n_rem += 1;
                    }
                }
                if degree >= 2 && (degree - 2) as usize <= n_rem {
                    for &pc in combos_of(degree - 2, n_rem as u32) {
                        // The chosen digits with the loop's two: every one must have a place
                        // in the region besides the second extra cell, all together `degree`.
                        let hidden: u16 = bits(pc).fold(both, |m, i| m | (1 << rem[i]));
                        let mut union = 0u16;
                        let mut ok = true;
                        for v in digits_of(hidden) {
                            let pos = b.positions(region, v) & !(1 << i2);
                            ok &= pos != 0;
                            union |= pos;
                        }
                        if !ok || union.pop() != degree {
                            continue;
                        }
                        out.push(type3_hidden(b, lp, v1, v2, region, c1, c2, hidden, union));
                    }
                }
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn type3_naked(
    b: &Board,
    lp: &[usize],
    v1: u8,
    v2: u8,
    region: Region,
    c1: usize,
    c2: usize,
    others: Cells,
    values: u16,
) -> LoopHint {
    // SE on a plain sudoku (its "Latin" branch): the set's digits leave the region's other
    // cells.
    let mut masks = [0u16; 81];
    for &c in &REGION_CELLS[region] {
        let c = c as usize;
        if others & (1u128 << c) != 0 || c == c1 || c == c2 {
            continue;
        }
        masks[c] = b.cands[c] & values;
    }
    let n = values.pop() as i32;
    loop_hint(lp, v1, v2, 3, ((n - 1) as f64) * 0.1, masks)
}

#[allow(clippy::too_many_arguments)]
fn type3_hidden(
    b: &Board,
    lp: &[usize],
    v1: u8,
    v2: u8,
    region: Region,
    c1: usize,
    c2: usize,
    hidden: u16,
    positions: u16,
) -> LoopHint {
    let kind = region / 9;
    let pos = positions & !(1 << INDEX_IN_REGION[c1][kind]) & !(1 << INDEX_IN_REGION[c2][kind]);
    let mut masks = [0u16; 81];
    for k in bits(pos as u32) {
        let c = REGION_CELLS[region][k] as usize;
        masks[c] = b.cands[c] & !hidden;
    }
    let n = pos.pop() as f64;
    loop_hint(lp, v1, v2, 3, (n - 1.0) * 0.1, masks)
}

/// Type 4: one of the loop's digits is locked in the two extra cells within a region they share,
/// so the other digit leaves both.
fn type4(b: &Board, lp: &[usize], c1: usize, c2: usize, v1: u8, v2: u8) -> Option<LoopHint> {
    let mut r1 = None;
    let mut r2 = None;
    for kind in 0..3 {
        let region = CELL_REGION[c1][kind];
        if region != CELL_REGION[c2][kind] {
            continue;
        }
        let rest = REGION_MASK[region] & !(1u128 << c1) & !(1u128 << c2);
        if rest & b.digits[v1 as usize] == 0 {
            r1 = Some(region);
        }
        if rest & b.digits[v2 as usize] == 0 {
            r2 = Some(region);
        }
    }
    let (lock, rem) = if r1.is_some() {
        (v1, v2)
    } else if r2.is_some() {
        (v2, v1)
    } else {
        return None;
    };
    let mut masks = [0u16; 81];
    masks[c1] = 1 << rem;
    masks[c2] = 1 << rem;
    // SE keeps the removal even where the cell lacks the digit; apply ignores it.
    masks[c1] &= b.cands[c1];
    masks[c2] &= b.cands[c2];
    Some(loop_hint(lp, lock, rem, 4, 0.0, masks))
}

// ---------------------------------------------------------------------------------------------
// BUG

/// SE's `BivalueUniversalGrave` (the SE 1.2.1 algorithm, `--islkSudokuBUG=0`).
pub(crate) fn bug(b: &Board, sink: &mut dyn Sink) -> Flow {
    let mut temp = b.clone();
    let mut bug_cells: Vec<usize> = Vec::new();
    let mut bug_values = [0u16; 81];
    let mut all_values = 0u16;
    let mut common: Option<Cells> = None;
    // The cells with three candidates or more, as a set: a region's such places of a digit are
    // one AND, where SE lists them (one of them, or none, is all that is read; bit tests stand
    // for its counts — these producers are asked at every step).
    let mut many: Cells = 0;
    for c in cells_of(b.empty) {
        let m = b.cands[c];
        let rest = m & m.wrapping_sub(1);
        if rest & rest.wrapping_sub(1) != 0 {
            many |= 1 << c;
        }
    }
    for kind in 0..3 {
        for region in kind * 9..kind * 9 + 9 {
            for v in 1..=9u8 {
                let set = b.digits[v as usize] & REGION_MASK[region];
                // Zero or two places: nothing to do (`set` has two bits when clearing its
                // lowest leaves one).
                let rest = set & set.wrapping_sub(1);
                if set == 0 || (rest != 0 && rest & (rest - 1) == 0) {
                    continue;
                }
                let new = set & many;
                if new != 0 && new & (new - 1) == 0 {
                    let cell = new.trailing_zeros() as usize;
                    if !bug_cells.contains(&cell) {
                        bug_cells.push(cell);
                    }
                    bug_values[cell] |= 1 << v;
                    all_values |= 1 << v;
                    temp.remove(cell, v);
                    let mut cc = match common {
                        None => PEER_MASK[cell],
                        Some(s) => s & PEER_MASK[cell],
                    };
                    for &c in &bug_cells {
                        cc &= !(1u128 << c);
                    }
                    common = Some(cc);
                    if bug_cells.len() > 1 && all_values.count_ones() > 1 && cc == 0 {
                        return ControlFlow::Continue(());
                    }
                }
                if new == 0 {
                    return ControlFlow::Continue(());
                }
            }
        }
    }
    for c in 0..81 {
        if temp.values[c] == 0 && temp.count(c) != 2 {
            return ControlFlow::Continue(());
        }
    }
    for region in 0..27 {
        for v in 1..=9u8 {
            let n = temp.position_count(region, v);
            if n != 0 && n != 2 {
                return ControlFlow::Continue(());
            }
        }
    }
    if bug_cells.len() == 1 {
        let cell = bug_cells[0];
        let mut masks = [0u16; 81];
        masks[cell] = b.cands[cell] & !all_values;
        sink.add(Hint {
            rating: 5.6,
            elims: elims_from(&masks),
            place: None,
            detail: Detail::Bug {
                kind: 1,
                cells: vec![cell as u8],
                values: 0,
            },
        })?;
    } else if all_values.count_ones() == 1 {
        bug2(b, &bug_cells, all_values, common, sink)?;
        if bug_cells.len() == 2 {
            bug4(b, &bug_cells, &bug_values, all_values, sink)?;
        }
    } else if let Some(cc) = common.filter(|&c| c != 0) {
        if bug_cells.len() == 2 {
            bug4(b, &bug_cells, &bug_values, all_values, sink)?;
        }
        bug3(b, &bug_cells, all_values, cc, sink)?;
    }
    ControlFlow::Continue(())
}

fn bug2(
    b: &Board,
    cells: &[usize],
    all_values: u16,
    common: Option<Cells>,
    sink: &mut dyn Sink,
) -> Flow {
    let value = all_values.trailing_zeros() as u8;
    let Some(common) = common.filter(|&c| c != 0) else {
        return ControlFlow::Continue(());
    };
    let victims = common & b.digits[value as usize];
    if victims == 0 {
        return ControlFlow::Continue(());
    }
    sink.add(Hint {
        rating: 5.7,
        elims: cells_of(victims)
            .map(|c| (c as u8, 1u16 << value))
            .collect(),
        place: None,
        detail: Detail::Bug {
            kind: 2,
            cells: cells.iter().map(|&c| c as u8).collect(),
            values: 1 << value,
        },
    })
}

fn bug4(
    b: &Board,
    cells: &[usize],
    extra: &[u16; 81],
    all_values: u16,
    sink: &mut dyn Sink,
) -> Flow {
    let (c1, c2) = (cells[0], cells[1]);
    let common = b.cands[c1] & b.cands[c2] & !all_values;
    if common.count_ones() != 1 {
        return ControlFlow::Continue(());
    }
    let value = common.trailing_zeros() as u8;
    for kind in 0..3 {
        if CELL_REGION[c1][kind] != CELL_REGION[c2][kind] {
            continue;
        }
        let mut masks = [0u16; 81];
        masks[c1] = b.cands[c1] & !extra[c1] & !(1 << value);
        masks[c2] = b.cands[c2] & !extra[c2] & !(1 << value);
        sink.add(Hint {
            rating: 5.7,
            elims: elims_from(&masks),
            place: None,
            detail: Detail::Bug {
                kind: 4,
                cells: vec![c1 as u8, c2 as u8],
                values: 1 << value,
            },
        })?;
    }
    ControlFlow::Continue(())
}

fn bug3(b: &Board, cells: &[usize], all_values: u16, common: Cells, sink: &mut dyn Sink) -> Flow {
    for kind in 0..3 {
        let region = CELL_REGION[cells[0]][kind];
        if cells.iter().any(|&c| CELL_REGION[c][kind] != region) {
            continue;
        }
        let region_cells: Vec<usize> = cells_of(common & REGION_MASK[region]).collect();
        for degree in 2..=6u32 {
            if (region_cells.len() as u32) < degree {
                continue;
            }
            for &combo in combos_of(degree - 1, region_cells.len() as u32) {
                let mut naked_cells: Cells = 0;
                let mut other = 0u16;
                let mut ok = true;
                let mut union = all_values;
                if all_values.count_ones() <= 1 {
                    ok = false;
                }
                for c in bits(combo).map(|i| region_cells[i]) {
                    naked_cells |= 1u128 << c;
                    let p = b.cands[c];
                    other |= p;
                    if p.count_ones() <= 1 {
                        ok = false;
                    }
                    union |= p;
                }
                if other.pop() != degree || !ok || union.pop() != degree {
                    continue;
                }
                let naked = union;
                let mut masks = [0u16; 81];
                for &c in &region_cells {
                    if naked_cells & (1u128 << c) != 0 || cells.contains(&c) {
                        continue;
                    }
                    masks[c] = b.cands[c] & naked;
                }
                let elims = elims_from(&masks);
                if elims.is_empty() {
                    continue;
                }
                let n = naked.pop() as i32;
                sink.add(Hint {
                    rating: 5.7 + ((n - 1) as f64) * 0.1,
                    elims,
                    place: None,
                    detail: Detail::Bug {
                        kind: 3,
                        cells: cells.iter().map(|&c| c as u8).collect(),
                        values: naked,
                    },
                })?;
            }
        }
    }
    ControlFlow::Continue(())
}
