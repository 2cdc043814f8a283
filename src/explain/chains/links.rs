//! Static links: for a grid that does not change during a search, every potential's
//! consequences (SE's `getOnToOff` / `getOffToOn`) computed once and shared by every static
//! search on that grid (`Links`), and reachability over them (`Reach`: strongly connected
//! components and what each reaches), so a unary search whose source cannot reach its target is
//! never run.

use super::*;

/// The cells with two candidates.
pub(super) fn bivalue_cells(b: &Board) -> Cells {
    (0..81)
        .filter(|&c| b.count(c) == 2)
        .fold(0, |m, c| m | 1u128 << c)
}

/// Every unsolved cell has two candidates or more (the memos' premise).
pub(super) fn no_short_cell(b: &Board) -> bool {
    (0..81).all(|c| b.values[c] != 0 || b.count(c) >= 2)
}

/// The links of a grid that does not change during a search (SE's `getOnToOff` and
/// `getOffToOn`), computed once per grid instead of once per potential, and shared by every
/// static search on that grid (the three unary passes and the multiple chains of one step).
/// Built with both kinds of link; a mode reads its part: an on potential's list starts with its
/// cell's other digits (the Y links, then the X ones), an off potential's with its cell's last
/// digit (the Y link, then the X ones), so each mode's list is a contiguous slice of the full one,
/// in the same order as a build for that mode alone.
#[derive(Default)]
pub(super) struct Links {
    /// Every potential's links, both kinds, potential after potential.
    pub(super) edges: Vec<(Pot, Cause)>,
    /// The selected mode's slice of each potential's list.
    pub(super) lo: ByPot<u32>,
    pub(super) hi: ByPot<u32>,
    /// Each mode's slices (X, Y, XY: see [`Links::mode`]), made by the build; the selected
    /// mode's are swapped into `lo` and `hi` (what they held waits in its place here).
    pub(super) modes: [(ByPot<u32>, ByPot<u32>); 3],
    /// The mode whose slices `lo` and `hi` hold.
    pub(super) selected: Option<usize>,
    /// How many entries of `edges` are in some list (see [`Links::update`]).
    pub(super) live: usize,
}

impl Links {
    /// Builds the table of `b`, with every mode's slices.
    pub(super) fn build(&mut self, b: &Board) {
        self.park();
        self.edges.clear();
        for k in 0..729 {
            let (cell, v) = (k / 9, (k % 9 + 1) as u8);
            if b.cands[cell] == 0 {
                // A placed cell: no list for any of its potentials, set at its first digit.
                if v == 1 {
                    let start = self.edges.len() as u32;
                    for (lo, hi) in &mut self.modes {
                        lo.0[2 * k..2 * k + 18].fill(start);
                        hi.0[2 * k..2 * k + 18].fill(start);
                    }
                }
                continue;
            }
            self.list(b, cell, v);
        }
        self.live = self.edges.len();
    }

    /// Makes the lists of `cell`'s potentials of `v` on `b` (none unless `v` is a candidate
    /// there), at the end of `edges`, and points every mode's slices at them.
    #[inline(always)]
    pub(super) fn list(&mut self, b: &Board, cell: usize, v: u8) {
        let k = cell * 9 + v as usize - 1;
        // The off potential (`2k`), then the on one (`2k + 1`): packed potentials count up.
        let start = self.edges.len() as u32;
        if !b.has(cell, v) {
            for (lo, hi) in &mut self.modes {
                lo.0[2 * k..2 * k + 2].fill(start);
                hi.0[2 * k..2 * k + 2].fill(start);
            }
            return;
        }
        let edges = &mut self.edges;
        Chainer::off_targets(b, cell, v, true, true, |on, cause, _| {
            edges.push((on, cause))
        });
        // The Y links open each list: the last digit of a bivalue cell (off), the cell's
        // other digits (on).
        let count = b.count(cell);
        let mid = self.edges.len() as u32;
        Chainer::push_on_to_off(b, pot(cell, v, true), true, &mut self.edges);
        let end = self.edges.len() as u32;
        let (off_ys, on_ys) = ((count == 2) as u32, count - 1);
        // On potentials lose their Y links without Y (their X links are read in every
        // mode); off potentials keep only their Y link without X, only their X links
        // without Y.
        let spans = [
            [(start + off_ys, mid), (mid + on_ys, end)],
            [(start, start + off_ys), (mid, end)],
            [(start, mid), (mid, end)],
        ];
        for ((lo, hi), spans) in self.modes.iter_mut().zip(spans) {
            for (i, (l, h)) in spans.into_iter().enumerate() {
                lo[2 * k + i] = l;
                hi[2 * k + i] = h;
            }
        }
    }

    /// Turns the table of `old` into that of `b`: only the lists that can differ are made
    /// again (at the end of `edges`; the old ones are left unread), unless the unread part has
    /// grown as large as the rest, and then the whole table is built.
    ///
    /// A potential's lists read its cell's candidates (the Y links, and whether it is a
    /// candidate at all) and its digit's places in the cell's three regions (the X links:
    /// every other place in them, for the on potential; the last one in each, for the off
    /// one). So they can differ only for the potentials of a cell whose candidates differ, and
    /// for those of a digit that differs in some cell, in that cell's peers: every other list
    /// is the same on `b` as on `old`, and made again it would be made the same.
    pub(super) fn update(&mut self, old: &Board, b: &Board) {
        if self.edges.len() >= 2 * self.live {
            self.build(b);
            return;
        }
        self.park();
        let mut changed: Cells = 0;
        let mut near = [0 as Cells; 10];
        for (cell, (&was, &is)) in old.cands.iter().zip(&b.cands).enumerate() {
            let diff = was ^ is;
            if diff != 0 {
                changed |= 1 << cell;
                for v in digits_of(diff) {
                    near[v as usize] |= PEER_MASK[cell];
                }
            }
        }
        for v in 1..=9u8 {
            // The potentials with lists on either grid (the others have none on both).
            let redo =
                (changed | near[v as usize]) & (old.digits[v as usize] | b.digits[v as usize]);
            for cell in cells_of(redo) {
                let k = cell * 9 + v as usize - 1;
                let (lo, hi) = &self.modes[2];
                // Both lists of a potential pair lie together: the off one, then the on one.
                self.live -= (hi[2 * k + 1] - lo[2 * k]) as usize;
                let start = self.edges.len();
                self.list(b, cell, v);
                self.live += self.edges.len() - start;
            }
        }
    }

    /// The list of potential `p` in mode `m` (see [`Links::mode`]), whichever is selected.
    #[cfg(any(test, debug_assertions))]
    pub(super) fn list_of(&self, m: usize, p: usize) -> &[(Pot, Cause)] {
        let (lo, hi) = if self.selected == Some(m) {
            (&self.lo, &self.hi)
        } else {
            (&self.modes[m].0, &self.modes[m].1)
        };
        &self.edges[lo[p] as usize..hi[p] as usize]
    }

    /// Both tables hold the same lists in every mode.
    #[cfg(any(test, debug_assertions))]
    pub(super) fn assert_same(&self, other: &Links) {
        for m in 0..3 {
            for p in 0..1458 {
                assert_eq!(
                    self.list_of(m, p),
                    other.list_of(m, p),
                    "mode {m}, potential {p}"
                );
            }
        }
    }

    /// Debug builds: the table holds, in every mode, the lists a build on `b` makes.
    #[cfg(debug_assertions)]
    pub(super) fn check(&self, b: &Board) {
        thread_local! {
            static FRESH: std::cell::RefCell<Links> = std::cell::RefCell::new(Links::default());
        }
        FRESH.with(|fresh| {
            let mut fresh = fresh.borrow_mut();
            fresh.build(b);
            self.assert_same(&fresh);
        });
    }

    /// The index in [`Links::modes`] of mode (`y`, `x`): X, Y, XY (without Y, the X links).
    pub(super) fn mode(y: bool, x: bool) -> usize {
        match (y, x) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        }
    }

    /// Puts the selected mode's slices back in [`Links::modes`].
    pub(super) fn park(&mut self) {
        if let Some(m) = self.selected.take() {
            let (lo, hi) = &mut self.modes[m];
            std::mem::swap(&mut self.lo, lo);
            std::mem::swap(&mut self.hi, hi);
        }
    }

    /// Selects the links of mode (`y`, `x`) (swaps its slices in: no copy).
    pub(super) fn select(&mut self, y: bool, x: bool) {
        let m = Self::mode(y, x);
        if self.selected != Some(m) {
            self.park();
            let (lo, hi) = &mut self.modes[m];
            std::mem::swap(&mut self.lo, lo);
            std::mem::swap(&mut self.hi, hi);
            self.selected = Some(m);
        }
    }

    /// The consequences of a potential in the selected mode.
    #[inline(always)]
    pub(super) fn of(&self, p: Pot) -> &[(Pot, Cause)] {
        &self.edges[self.lo[p as usize] as usize..self.hi[p as usize] as usize]
    }

    /// Has the potential no consequence in the selected mode? Such an off potential is a dead
    /// end of the unary searches (see [`Chainer::do_cycles`]).
    #[inline(always)]
    pub(super) fn leads_nowhere(&self, p: Pot) -> bool {
        self.lo[p as usize] == self.hi[p as usize]
    }
}

/// Reachability in the selected links of a unary pass (static: they do not change during the
/// pass), answered for every source at once: the strongly connected components of the link
/// graph (Tarjan), and per component the set of components it reaches. A unary search walks
/// only links, so what it can derive is what its source reaches; a forcing chain whose target
/// its source does not reach, or a cycle where none can close, finds nothing, and is not run.
/// Built for each unary pass (the Y pass, which runs no forcing chain, from its bivalue cells),
/// and kept for the static multiple chains.
#[derive(Default)]
pub(super) struct Reach {
    /// Each potential's state: [`Reach::UNSEEN`] (not visited: not a candidate, or not
    /// reached from the cells built from), its visit order while it is on Tarjan's stack, and
    /// once its component is complete, that component's number with [`Reach::DONE`] set. One
    /// table for both, so that Tarjan reads one entry per edge.
    pub(super) state: ByPot<u16>,
    /// How many on potentials each component holds.
    pub(super) ons: Vec<u16>,
    /// Words per component in `closure` (enough for every component the build can make).
    pub(super) words: usize,
    /// Per component, the components it reaches (itself included), `words` words each.
    pub(super) closure: Vec<u64>,
    /// Tarjan's scratch: the stack and the explicit call stack (each parent's potential, next
    /// edge, list end and low link).
    pub(super) stack: Vec<u16>,
    pub(super) calls: Vec<(u16, u32, u32, u16)>,
}

impl Reach {
    /// Not visited yet (in `state`). Also the default fill: a fresh table holds zeros, which
    /// the first build resets for the candidates it reads.
    const UNSEEN: u16 = u16::MAX;
    /// The bit of `state` that marks a complete component's number (visit orders stay below
    /// 2,916 and component numbers below 1,458, both far under this bit).
    const DONE: u16 = 1 << 15;

    /// The component of `p` (a potential the last build visited).
    #[inline]
    pub(super) fn comp(&self, p: Pot) -> usize {
        debug_assert!(
            self.state[p as usize] & Self::DONE != 0 && self.state[p as usize] != Self::UNSEEN
        );
        (self.state[p as usize] & !Self::DONE) as usize
    }

    /// Computes the components of the links `links` selects on `b`, and what each reaches, for
    /// the potentials of `digits` (every digit, unless the links join potentials of one digit
    /// only: then those of other digits are neither reached nor asked about) that those of
    /// `cells` reach (every cell, unless only those are asked about). Without `closure`, only
    /// the components (for [`Reach::may_cycle`] and a test of two potentials sharing one):
    /// [`Reach::reaches`] and [`Reach::meet`] are not to be asked.
    ///
    /// Tarjan completes a component after every component it reaches, so those have lower
    /// numbers, and their closure rows are final when it completes: its row is made then, from
    /// its members (the top of Tarjan's stack) and their links, in the same visit.
    pub(super) fn build(
        &mut self,
        links: &Links,
        b: &Board,
        digits: u16,
        cells: Cells,
        closure: bool,
    ) {
        // Only candidates' potentials are linked, visited or asked about: only theirs are reset.
        let mut pots = 0usize;
        for cell in 0..81 {
            for v in digits_of(b.cands[cell] & digits) {
                let k = 2 * (cell * 9 + v as usize - 1);
                self.state.0[k..k + 2].fill(Self::UNSEEN);
                pots += 2;
            }
        }
        self.ons.clear();
        self.stack.clear();
        // Each component has a potential of its own: at most `pots` of them.
        self.words = if closure { pots.div_ceil(64) } else { 0 };
        if self.closure.len() < pots * self.words {
            self.closure.resize(pots * self.words, 0);
        }
        let mut next = 0u16;
        for cell in cells_of(cells) {
            for v in digits_of(b.cands[cell] & digits) {
                let k = cell * 9 + v as usize - 1;
                for root in [2 * k as u16, 2 * k as u16 + 1] {
                    if self.state[root as usize] == Self::UNSEEN {
                        self.strong_connect(links, root, &mut next);
                    }
                }
            }
        }
    }

    /// Starts the closure row of the component numbered `c`: its first `c / 64 + 1` words
    /// (a component reaches only components numbered up to its own, so the rest of the row is
    /// never read: see `reaches` and `meet`) zeroed, and its own bit.
    #[inline]
    pub(super) fn start_row(closure: &mut [u64], words: usize, c: usize) {
        let last = c / 64;
        let row = &mut closure[c * words..c * words + last + 1];
        row[last] = 1 << (c % 64);
        // The words before the last, if any (a `memset` call costs more than a word or two).
        if last > 0 {
            row[..last].fill(0);
        }
    }

    /// Tarjan's visit from `root`, with an explicit call stack. The potential being visited,
    /// its next edge, its list's end and its low link are kept in locals; a descent pushes
    /// them (the parent's frame) and a return pops them.
    pub(super) fn strong_connect(&mut self, links: &Links, root: Pot, next: &mut u16) {
        let closure = self.words != 0;
        let (mut v, mut e, mut end) = (
            root as usize,
            links.lo[root as usize],
            links.hi[root as usize],
        );
        self.state[v] = *next;
        let mut low = *next;
        *next += 1;
        self.stack.push(root);
        loop {
            if e < end {
                let w = links.edges[e as usize].0 as usize;
                e += 1;
                let sw = self.state[w];
                if sw == Self::UNSEEN {
                    if links.leads_nowhere(w as Pot) {
                        // A dead end is a component of its own, complete at once; it reaches
                        // only itself.
                        let c = self.ons.len();
                        self.state[w] = c as u16 | Self::DONE;
                        self.ons.push(pot_on(w as Pot) as u16);
                        if closure {
                            Self::start_row(&mut self.closure, self.words, c);
                        }
                    } else {
                        self.state[w] = *next;
                        self.stack.push(w as u16);
                        self.calls.push((v as u16, e, end, low));
                        (v, e, end, low) = (w, links.lo[w], links.hi[w], *next);
                    }
                    *next += 1;
                } else if sw & Self::DONE == 0 {
                    // On the stack (not yet in a component).
                    low = low.min(sw);
                }
                continue;
            }
            if low == self.state[v] {
                // `v` is the root of a component: the stack from `v` up.
                let c = self.ons.len();
                let mark = c as u16 | Self::DONE;
                let mut at = self.stack.len();
                let mut ons = 0;
                loop {
                    at -= 1;
                    let w = self.stack[at];
                    self.state[w as usize] = mark;
                    ons += pot_on(w) as u16;
                    if w as usize == v {
                        break;
                    }
                }
                self.ons.push(ons);
                if closure {
                    let words = self.words;
                    let (head, tail) = self.closure.split_at_mut(c * words);
                    // Its row starts at the front of `tail`.
                    Self::start_row(tail, 0, c);
                    let row = &mut tail[..c / 64 + 1];
                    for &m in &self.stack[at..] {
                        for &(w, _) in links.of(m) {
                            let d = (self.state[w as usize] & !Self::DONE) as usize;
                            let bit = 1 << (d % 64);
                            if row[d / 64] & bit == 0 {
                                if links.leads_nowhere(w) {
                                    // A dead end reaches only itself.
                                    row[d / 64] |= bit;
                                } else {
                                    // `d` is complete, so numbered below `c`, and reaches only
                                    // components numbered up to its own: its row's first words.
                                    let used = d / 64 + 1;
                                    let from = &head[d * words..d * words + used];
                                    for (r, &x) in row[..used].iter_mut().zip(from) {
                                        *r |= x;
                                    }
                                }
                            }
                        }
                    }
                }
                self.stack.truncate(at);
            }
            match self.calls.pop() {
                Some((u, ue, uend, ulow)) => {
                    (v, e, end, low) = (u as usize, ue, uend, ulow.min(low));
                }
                None => break,
            }
        }
    }

    /// Does `from` reach `to` through the selected links (`from` itself not counted unless it
    /// lies on a cycle)? Both must be candidates' potentials.
    #[inline]
    pub(super) fn reaches(&self, from: Pot, to: Pot) -> bool {
        let (c, d) = (self.comp(from), self.comp(to));
        // A component reaches only components numbered up to its own, and its row holds no
        // more words than those need.
        d <= c && self.closure[c * self.words + d / 64] >> (d % 64) & 1 == 1
    }

    /// Do the potentials `pots` (candidates' potentials) all reach one potential, counting
    /// each as reaching itself? False means that no potential is reached by every one of them.
    pub(super) fn meet(&self, pots: impl Iterator<Item = Pot>) -> bool {
        // At most 1,458 components, so 23 words. A row holds only the words up to its own
        // component's (the others are zero): the common part is within the shortest row.
        let mut common = [!0u64; 23];
        let mut used = self.words;
        for p in pots {
            let c = self.comp(p);
            used = used.min(c / 64 + 1);
            for (a, &x) in common[..used]
                .iter_mut()
                .zip(&self.closure[c * self.words..c * self.words + used])
            {
                *a &= x;
            }
        }
        common[..used].iter().any(|&w| w != 0)
    }

    /// Could a cycle through the on potential `p` close? It closes from an off potential whose
    /// parent is an on potential other than `p` reached from `p` and reaching `p` again (through
    /// that off potential): a second on potential in `p`'s component.
    #[inline]
    pub(super) fn may_cycle(&self, p: Pot) -> bool {
        self.ons[self.comp(p)] >= 2
    }
}

impl Chainer {
    /// Selects the links of mode (`y`, `x`) on `b`, building the table unless it holds `b`.
    pub(super) fn static_links(&mut self, b: &Board, y: bool, x: bool) {
        match &mut self.links_grid {
            Some(old) if old == b => {}
            Some(old) => {
                self.links.update(old, b);
                old.clone_from(b);
                self.reach_mode = None;
                #[cfg(debug_assertions)]
                self.links.check(b);
            }
            None => {
                self.links.build(b);
                self.links_grid = Some(b.clone());
                self.reach_mode = None;
            }
        }
        self.links.select(y, x);
    }

    /// Builds `reach` for the links [`Chainer::static_links`] selected (mode `y`, `x`, on `b`),
    /// unless it holds them already: the XY pass and the static multiple chains of one step
    /// read the same links of the same grid.
    pub(super) fn static_reach(&mut self, b: &Board, y: bool, x: bool, digits: u16) {
        if self.reach_mode != Some((y, x, digits)) {
            // The Y pass searches from bivalue cells only (a cycle needs one, and it runs no
            // forcing chain), and asks only about potentials they reach.
            let cells = if x { ALL_CELLS } else { bivalue_cells(b) };
            // The Y pass reads only the components (it runs no forcing chain).
            self.reach.build(&self.links, b, digits, cells, x);
            self.reach_mode = Some((y, x, digits));
        }
    }

    /// Moves the link table out for a search (which reads it while it changes the rest of the
    /// chainer), leaving the spare table in its place: no allocation.
    pub(super) fn take_links(&mut self) -> Links {
        let spare = self.spare_links.take().unwrap_or_default();
        std::mem::replace(&mut self.links, spare)
    }

    /// Puts back the link table [`Chainer::take_links`] moved out.
    pub(super) fn put_links(&mut self, links: Links) {
        self.spare_links = Some(std::mem::replace(&mut self.links, links));
    }
}
