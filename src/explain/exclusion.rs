//! Aligned pair and triplet exclusion, as Sudoku Explainer 1.2.1 finds them.
//!
//! Two (three) cells are tried with every combination of their candidates; a combination is
//! excluded when two cells that see each other would hold the same digit, or when it would
//! take every candidate of an "excluder", a cell with two (for triplets: two or three)
//! candidates that all the tried cells see. A candidate no surviving combination uses goes.
//! The cells are paired in SE's order (its `Twomutations`: (0,1), (0,2), (1,2), (0,3), …) and a
//! triplet's third cell comes from the two cells' excluders, first cell's first. Excluder sets
//! are 81-bit masks, so the common excluders of a pair or triplet are one AND. A triplet's
//! combinations are tested all at once, as the bits of a `u64`, when there are at most 64; and
//! the pairs and triplets that excluded nothing are remembered within a puzzle while nothing
//! their test reads changes ([`TripletMemo`]).

use std::ops::ControlFlow;

use super::board::{cells_of, digits_of, Board, Cells, PEER_MASK};
use super::hint::{Detail, Flow, Hint, Sink};
use super::popcount::Pop;

/// The cells SE considers (at least two candidates, no naked single among their peers, some
/// excluder), with their excluders (peers with 2..=`max` candidates), in cell order.
///
/// SE walks each cell's 20 peers; the same sets come from two cell masks built once (the cells
/// with one candidate, those with 2..=`max`), ANDed with each cell's peers.
fn candidates(b: &Board, max: u32) -> (Vec<usize>, Vec<Cells>) {
    let mut singles: Cells = 0;
    let mut small: Cells = 0;
    let mut wide: Cells = 0;
    for (c, &bit) in BIT.iter().enumerate() {
        let n = b.count(c);
        if n == 1 {
            singles |= bit;
        } else if n >= 2 {
            wide |= bit;
            if n <= max {
                small |= bit;
            }
        }
    }
    // At most 81 cells: one allocation each, not one per doubling.
    let mut cells = Vec::with_capacity(81);
    let mut masks = Vec::with_capacity(81);
    for c in cells_of(wide) {
        let peers = PEER_MASK[c];
        let ex = peers & small;
        if peers & singles == 0 && ex != 0 {
            cells.push(c);
            masks.push(ex);
        }
    }
    (cells, masks)
}

/// Whether a set has at most one member (`count_ones() < 2` without a population count: the
/// crate's baseline build has no `popcnt`, and `count_ones` is a software sequence).
#[inline]
fn at_most_one(set: Cells) -> bool {
    set & set.wrapping_sub(1) == 0
}

/// SE's `Twomutations(2, n)`: (0,1), (0,2), (1,2), (0,3), (1,3), (2,3), …
#[cfg(test)]
fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (1..n).flat_map(|j| (0..j).map(move |i| (i, j)))
}

/// The pairs of [`pairs`]`(excl.len())`, in that order, whose two cells have two or more
/// common excluders (`excl`: each listed cell's excluders): the only pairs either search
/// tests. Rather than ANDing every pair's excluder sets, each cell `j` finds the earlier
/// cells that share two of its excluders at once: per excluder cell, the list positions of
/// the cells it is an excluder of, counted "once or twice" over `j`'s excluders.
fn rich_pairs(excl: &[Cells], mut f: impl FnMut(usize, usize) -> Flow) -> Flow {
    // At most 81 listed cells: their positions fit a `u128`.
    let mut of_excluder = [0u128; 81];
    for (i, &ex) in excl.iter().enumerate() {
        for e in cells_of(ex) {
            of_excluder[e] |= 1 << i;
        }
    }
    for (j, &ex) in excl.iter().enumerate().skip(1) {
        let (mut once, mut twice) = (0u128, 0u128);
        for e in cells_of(ex) {
            twice |= once & of_excluder[e];
            once |= of_excluder[e];
        }
        let mut earlier = twice & ((1u128 << j) - 1);
        while earlier != 0 {
            let i = earlier.trailing_zeros() as usize;
            earlier &= earlier - 1;
            f(i, j)?;
        }
    }
    ControlFlow::Continue(())
}

/// Each cell's bit (a load: a variable 128-bit shift is several instructions).
static BIT: [Cells; 81] = {
    let mut out = [0; 81];
    let mut c = 0;
    while c < 81 {
        out[c] = 1 << c;
        c += 1;
    }
    out
};

/// Whether two cells see each other.
#[inline]
fn sees(a: usize, b: usize) -> bool {
    PEER_MASK[a] & (1u128 << b) != 0
}

/// Tries every combination of the cells' candidates and returns, per cell, the candidates some
/// allowed combination uses: for triplets, all combinations at once when there are at most 64
/// ([`allowed_at_once`]), else one by one ([`allowed_one_by_one`]).
fn allowed_values<const N: usize>(b: &Board, cells: [usize; N], excluders: Cells) -> [u16; N] {
    let masks: [u16; N] = std::array::from_fn(|i| b.cands[cells[i]]);
    // An excluder with a digit none of the cells has never loses all its candidates, and
    // when one is left it is that digit, which the last cell does not have: it excludes
    // nothing, so only those within the cells' digits are kept.
    let union = masks.iter().fold(0u16, |u, &m| u | m);
    let mut ex_buf = [0u16; 20];
    let mut n_ex = 0;
    for e in cells_of(excluders) {
        let m = b.cands[e];
        if m & !union == 0 {
            ex_buf[n_ex] = m;
            n_ex += 1;
        }
    }
    let ex = &ex_buf[..n_ex];
    // Which cells see each other, read once.
    let see: [[bool; N]; N] =
        std::array::from_fn(|i| std::array::from_fn(|j| i != j && sees(cells[i], cells[j])));
    // Pairs enumerate one cell's digits only: cheaper one by one.
    let at_once = if N == 3 {
        allowed_at_once(masks, see, ex)
    } else {
        None
    };
    match at_once {
        Some(allowed) => {
            debug_assert_eq!(allowed, allowed_one_by_one(masks, see, ex));
            allowed
        }
        None => allowed_one_by_one(masks, see, ex),
    }
}

/// `COMB[p]`: a bit every `p` bits from bit 0 (`p` in 1..=64).
static COMB: [u64; 65] = {
    let mut out = [0u64; 65];
    let mut p = 1;
    while p <= 64 {
        let mut off = 0;
        while off < 64 {
            out[p] |= 1 << off;
            off += p;
        }
        p += 1;
    }
    out
};

/// [`allowed_values`] with every combination at once, when there are at most 64: combination
/// `x` is bit `x` of a `u64`, its digits the mixed-radix digits of `x` (the first cell's
/// varying fastest). Per cell and digit, the set of combinations where the cell holds the digit
/// is a block of ones repeated with the cell's period (a comb times the block: the blocks do not
/// overlap, so the product has no carries). A combination goes when two cells that see each
/// other hold the same digit, or when it holds every digit of an excluder. `None` with more
/// than 64 combinations.
fn allowed_at_once<const N: usize>(
    masks: [u16; N],
    see: [[bool; N]; N],
    ex: &[u16],
) -> Option<[u16; N]> {
    let mut total = 1u32;
    let mut sizes = [0u32; N];
    for i in 0..N {
        sizes[i] = masks[i].pop();
        total *= sizes[i];
        if total > 64 {
            return None;
        }
    }
    let all = if total == 64 { !0 } else { (1u64 << total) - 1 };
    // `holds[i][d]`: the combinations where cell `i` holds `d`; `has[d]`: where some cell does.
    let mut holds = [[0u64; 10]; N];
    let mut has = [0u64; 10];
    let mut stride = 1u32;
    for i in 0..N {
        let period = stride * sizes[i];
        let block = u64::MAX >> (64 - stride);
        let comb = COMB[period as usize] & all;
        for (k, d) in digits_of(masks[i]).enumerate() {
            let m = (block << (k as u32 * stride)).wrapping_mul(comb) & all;
            holds[i][d as usize] = m;
            has[d as usize] |= m;
        }
        stride = period;
    }
    let mut alive = all;
    for i in 0..N {
        for j in i + 1..N {
            if see[i][j] {
                for d in digits_of(masks[i] & masks[j]) {
                    alive &= !(holds[i][d as usize] & holds[j][d as usize]);
                }
            }
        }
    }
    for &e in ex {
        let mut kill = all;
        for d in digits_of(e) {
            kill &= has[d as usize];
        }
        alive &= !kill;
    }
    let mut allowed = [0u16; N];
    for i in 0..N {
        for d in digits_of(masks[i]) {
            if holds[i][d as usize] & alive != 0 {
                allowed[i] |= 1 << d;
            }
        }
    }
    Some(allowed)
}

/// [`allowed_values`] one combination at a time. The last cell's candidates are not enumerated:
/// for each choice of the others, the digits left for it are one mask computed from the
/// excluders.
fn allowed_one_by_one<const N: usize>(
    masks: [u16; N],
    see: [[bool; N]; N],
    ex: &[u16],
) -> [u16; N] {
    let mut allowed = [0u16; N];
    let last = N - 1;
    // A first cell that sees the last takes its digit from the last one's (`!0` keeps the
    // digit in the mask, `0` clears nothing).
    let see_last: [u16; N] = std::array::from_fn(|i| if see[i][last] { !0 } else { 0 });
    // The digits of the other cells, enumerated; `chosen` is their union.
    let mut idx = [0u16; N];
    for i in 0..last {
        idx[i] = masks[i] & masks[i].wrapping_neg();
    }
    loop {
        // The first cells' digits must be compatible among themselves.
        let mut ok = true;
        let mut chosen = 0u16;
        for i in 0..last {
            for j in i + 1..last {
                if idx[i] == idx[j] && see[i][j] {
                    ok = false;
                }
            }
            chosen |= idx[i];
        }
        if ok {
            let mut last_ok = masks[last];
            for i in 0..last {
                last_ok &= !(idx[i] & see_last[i]);
            }
            for &e in ex {
                let rest = e & !chosen;
                if rest == 0 {
                    last_ok = 0;
                    break;
                }
                if rest & (rest - 1) == 0 {
                    last_ok &= !rest;
                }
            }
            if last_ok != 0 {
                let mut all = true;
                for i in 0..last {
                    allowed[i] |= idx[i];
                    all &= allowed[i] == masks[i];
                }
                allowed[last] |= last_ok;
                if all && allowed[last] == masks[last] {
                    // Every candidate is allowed already: nothing to exclude.
                    return allowed;
                }
            }
        }
        // Next choice for the first cells (the order does not matter: only the union).
        let mut i = 0;
        loop {
            if i == last {
                return allowed;
            }
            let rest = masks[i] & !((idx[i] << 1) - 1);
            if rest != 0 {
                idx[i] = rest & rest.wrapping_neg();
                break;
            }
            idx[i] = masks[i] & masks[i].wrapping_neg();
            i += 1;
        }
    }
}

/// The hint for `cells` if some candidate has no allowed combination.
fn exclusion_hint(b: &Board, cells: &[usize], allowed: &[u16]) -> Option<Hint> {
    let elims: Vec<(u8, u16)> = cells
        .iter()
        .zip(allowed)
        .map(|(&c, &a)| (c as u8, b.cands[c] & !a))
        .filter(|&(_, m)| m != 0)
        .collect();
    if elims.is_empty() {
        return None;
    }
    let mut elims = elims;
    elims.sort_unstable();
    Some(Hint {
        rating: if cells.len() == 2 { 6.2 } else { 7.5 },
        elims,
        place: None,
        detail: Detail::Aligned {
            cells: cells.iter().map(|&c| c as u8).collect(),
        },
    })
}

/// SE's `AlignedPairExclusion`. Pairs that excluded nothing are remembered in `memo` as
/// triplets are (see [`TripletMemo`]): a pair's test reads the candidates of its two cells and
/// of the cells both see (its excluders are those with two candidates), nothing else.
pub(crate) fn aligned_pair(b: &Board, memo: &mut TripletMemo, sink: &mut dyn Sink) -> Flow {
    let (cand, excl) = candidates(b, 2);
    if cand.len() < 2 {
        return ControlFlow::Continue(());
    }
    memo.start(b);
    rich_pairs(&excl, |i, j| {
        let common = excl[i] & excl[j];
        debug_assert!(!at_most_one(common));
        // `cand` is in cell order, so the pair is sorted.
        let cells = [cand[i], cand[j]];
        let key = cells[0] * 81 + cells[1];
        let read = PEER_MASK[cells[0]] & PEER_MASK[cells[1]] | BIT[cells[0]] | BIT[cells[1]];
        if memo.holds(memo.pairs[key], read) {
            return ControlFlow::Continue(());
        }
        let allowed = allowed_values(b, cells, common);
        match exclusion_hint(b, &cells, &allowed) {
            Some(h) => sink.add(h)?,
            None => memo.pairs[key] = memo.version,
        }
        ControlFlow::Continue(())
    })
}

/// The number of triplet keys (`(c0 * 81 + c1) * 81 + c2`, cells sorted).
const TRIPLETS: usize = 81 * 81 * 81;

/// Aligned exclusion's memory within one puzzle: the pairs and the triplets of cells that
/// excluded nothing, kept while nothing they read changes. A triplet's test reads the candidates of its three cells
/// and of the cells all three see (the excluders among them are those with two or three
/// candidates), nothing else; so when none of those cells' candidates changed, it excludes
/// nothing again, and skipping it cannot change which hint is found first.
pub(crate) struct TripletMemo {
    /// The grid of the last search, `None` at the start of a puzzle.
    grid: Option<Board>,
    /// Grid versions, counted up across puzzles (a new puzzle starts a version, and nothing
    /// recorded before it holds).
    version: u32,
    /// The version the puzzle started at.
    first: u32,
    /// `since[v - first]`: the cells whose candidates changed after version `v`.
    since: Vec<Cells>,
    /// Per triplet: the version of the grid on which it excluded nothing (0: none).
    nothing: Vec<u32>,
    /// The same per pair (`c0 * 81 + c1`, `c0 < c1`).
    pairs: Vec<u32>,
}

impl Default for TripletMemo {
    fn default() -> Self {
        TripletMemo {
            grid: None,
            version: 0,
            first: 1,
            since: Vec::new(),
            nothing: Vec::new(),
            pairs: Vec::new(),
        }
    }
}

impl TripletMemo {
    /// Forgets everything (a new puzzle starts).
    pub(crate) fn forget(&mut self) {
        self.grid = None;
    }

    /// Starts a search on `b`: the cells changed since the last one.
    fn start(&mut self, b: &Board) {
        if self.nothing.is_empty() {
            self.nothing = vec![0; TRIPLETS];
            self.pairs = vec![0; 81 * 81];
        }
        match &self.grid {
            Some(old) if old == b => return,
            Some(old) => {
                self.version += 1;
                let mut delta: Cells = 0;
                for c in 0..81 {
                    if old.cands[c] != b.cands[c] {
                        delta |= 1u128 << c;
                    }
                }
                self.since.iter_mut().for_each(|s| *s |= delta);
                self.since.push(0);
            }
            None => {
                self.version += 1;
                self.first = self.version;
                self.since.clear();
                self.since.push(0);
            }
        }
        self.grid = Some(b.clone());
    }

    /// Did some cells exclude nothing (at grid version `at`, 0 if never) on a grid where the
    /// cells their test reads, `read` (they and the cells all of them see), had the candidates
    /// they have now?
    #[inline]
    fn holds(&self, at: u32, read: Cells) -> bool {
        // 0 (never) and the versions of earlier puzzles are before `first`.
        at >= self.first && self.since[(at - self.first) as usize] & read == 0
    }
}

/// SE's `AlignedExclusion(3)`: aligned triplet exclusion.
pub(crate) fn aligned_triplet(b: &Board, memo: &mut TripletMemo, sink: &mut dyn Sink) -> Flow {
    let (cand, excl) = candidates(b, 3);
    if cand.len() < 3 {
        return ControlFlow::Continue(());
    }
    let mut position = [usize::MAX; 81];
    let mut in_list: Cells = 0;
    for (i, &c) in cand.iter().enumerate() {
        position[c] = i;
        in_list |= 1u128 << c;
    }
    memo.start(b);
    // The sets of three cells visited so far, to check `visited_before` (debug builds).
    #[cfg(debug_assertions)]
    let mut visited = std::collections::HashSet::new();
    // Every triplet needs two excluders common to all three cells, so its first two too.
    rich_pairs(&excl, |i, j| {
        let (c0, c1) = (cand[i], cand[j]);
        let pair = excl[i] & excl[j];
        debug_assert!(!at_most_one(pair));
        // SE's "twin area": the two cells' excluders, first cell's first (each in cell order),
        // that are candidates.
        // A third cell's common excluders are `pair & excl[t]`, and `excl[t]` is its peers
        // with two or three candidates, which `pair` has only: so it has two or more exactly
        // when it sees two or more cells of `pair`. Those cells are `twice`; the others are
        // skipped as SE's test would, and the order stays the twin area's.
        let (mut once, mut twice): (Cells, Cells) = (0, 0);
        for p in cells_of(pair) {
            twice |= once & PEER_MASK[p];
            once |= PEER_MASK[p];
        }
        let (b0, b1) = (BIT[c0], BIT[c1]);
        let c01 = b0 | b1;
        // The cells every triplet of the pair reads that the third cell does not add (see
        // `TripletMemo::holds`).
        let read01 = PEER_MASK[c0] & PEER_MASK[c1];
        // Whether each cell of the pair has the other as an excluder.
        let (ex_ij, ex_ji) = (excl[i] & b1 != 0, excl[j] & b0 != 0);
        let keep = in_list & twice & !c01;
        let first = excl[i] & keep;
        let second = excl[j] & !excl[i] & keep;
        for t in cells_of(first).chain(cells_of(second)) {
            let k = position[t];
            let ek = excl[k];
            let common = pair & ek;
            debug_assert!(!at_most_one(common));
            // SE tries a set of three cells once. Its pairs come in the order (i, j) with j
            // ascending, then i; and a third cell passes for a pair exactly when it is an
            // excluder of one of the pair's cells, the other conditions (a candidate, two
            // common excluders: it sees two of the pair's common excluders) being the same for
            // the three pairs of a set. So with `k` after `j`, (i, j) is the set's first pair;
            // with `k` between, (i, k) came first and had `j` as a third cell if `i` or `k` has
            // it as an excluder; with `k` first, (k, i) and (k, j) came first, with third cells
            // `j` and `i` on the same terms.
            let visited_before =
                k < j && (ex_ij || ek & b1 != 0 || (k < i && (ek & b0 != 0 || ex_ji)));
            let cells = [c0, c1, t];
            // The list ascends (`candidates`) and `i < j`, so where `k` falls sorts the set.
            let sorted = if k < i {
                [t, c0, c1]
            } else if k < j {
                [c0, t, c1]
            } else {
                [c0, c1, t]
            };
            #[cfg(debug_assertions)]
            {
                let mut check = cells;
                check.sort_unstable();
                debug_assert_eq!(sorted, check);
                debug_assert_eq!(visited_before, !visited.insert(sorted));
            }
            if visited_before {
                continue;
            }
            let key = (sorted[0] * 81 + sorted[1]) * 81 + sorted[2];
            if memo.holds(memo.nothing[key], read01 & PEER_MASK[t] | c01 | BIT[t]) {
                continue;
            }
            let allowed = allowed_values(b, cells, common);
            match exclusion_hint(b, &cells, &allowed) {
                Some(h) => sink.add(h)?,
                None => memo.nothing[key] = memo.version,
            }
        }
        ControlFlow::Continue(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `rich_pairs` hands over exactly the pairs of `pairs` with two or more common
    /// excluders, in the same order, and stops where its callback breaks.
    #[test]
    fn rich_pairs_are_the_pairs_with_two_common_excluders_in_order() {
        let mut rng = crate::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next_u64();
        let mut found = 0;
        for round in 0..400 {
            let n = (next() % 82) as usize;
            // Sparse sets, as excluders are (a cell's peers with few candidates).
            let excl: Vec<Cells> = (0..n)
                .map(|_| {
                    let mut set: Cells = 0;
                    for _ in 0..(next() % 9) {
                        set |= 1 << (next() % 81);
                    }
                    set
                })
                .collect();
            let want: Vec<(usize, usize)> = pairs(n)
                .filter(|&(i, j)| (excl[i] & excl[j]).count_ones() >= 2)
                .collect();
            let mut got = Vec::new();
            let _ = rich_pairs(&excl, |i, j| {
                got.push((i, j));
                ControlFlow::Continue(())
            });
            assert_eq!(got, want, "round {round}");
            found += want.len();
            // Stopping after the k-th pair stops there.
            if let Some(k) = (!want.is_empty()).then(|| (next() as usize) % want.len()) {
                let mut seen = Vec::new();
                let flow = rich_pairs(&excl, |i, j| {
                    seen.push((i, j));
                    if seen.len() > k {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                assert!(flow.is_break());
                assert_eq!(seen, want[..=k], "round {round}");
            }
        }
        assert!(found > 1000, "{found}");
    }
}
