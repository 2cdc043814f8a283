//! Unary chains and cycles (SE's "Forcing Chains & Cycles", `Chaining(false, false, false)`):
//! X-, Y- and XY-cycles and forcing chains from every potential, static propagation in
//! alternating batches of on and off potentials, in SE's order, with the memos that skip a
//! pass whose outcome cannot have changed (`DigitMemo`, `YMemo`).

use super::*;

/// For searches whose every potential is of one digit — X-chains and cycles, Nishio — what a
/// source of digit `v` finds depends on `v`'s candidate cells alone (given that every unsolved
/// cell has two candidates or more, which SE's order guarantees: naked singles come first).
/// When such a search found no hint at all, no search pruned anything, so no source of any
/// digit had a hint: `clean[v]` keeps `v`'s cells then, and a later search on a grid where
/// `v`'s cells are the same skips `v`'s sources. Which hint wins cannot change: those sources
/// would hand over nothing.
#[derive(Clone, Copy, Default)]
pub(super) struct DigitMemo {
    pub(super) clean: [Option<Cells>; 10],
}

impl DigitMemo {
    /// The digits whose sources `b` lets this memo skip.
    pub(super) fn skip(&self, b: &Board) -> u16 {
        let mut m = 0;
        for v in 1..=9 {
            if self.clean[v] == Some(b.digits[v]) {
                m |= 1 << v;
            }
        }
        m
    }
    /// Records that no source of any digit had a hint on `b`.
    pub(super) fn record(&mut self, b: &Board) {
        for v in 1..=9 {
            self.clean[v] = Some(b.digits[v]);
        }
    }
}

/// "Found nothing" for the Y pass (cycles only, from bivalue cells). In the Y links an off
/// potential links only to its cell's last digit, so every off potential outside a bivalue
/// cell is a dead end, and every on potential but a source is reached from an off one of its
/// own bivalue cell: what a Y search makes — its components ([`Reach`], built from the
/// bivalue cells), its nodes in their order, its cycles — depends only on the bivalue cells
/// and their candidates (their peers' on-to-off links lead elsewhere only to dead ends, never
/// made), and on the pruning bound. A cycle's removals are candidates of the grid seen by its
/// potentials. So when the Y pass found no hint with no hint before it (nothing pruned), a
/// later grid with the same bivalue cells, holding the same candidates, and no candidate the
/// recorded grid lacked (SE's path only takes candidates out) finds the same cycles, none of
/// which removes anything: the pass is skipped. Kept per puzzle, like the other memos, and off
/// where they are (nested searches, a cell with fewer than two candidates).
#[derive(Clone, Default)]
pub(super) struct YMemo {
    /// The candidates of the grid where the Y pass found nothing.
    pub(super) clean: Option<[u16; 81]>,
}

impl YMemo {
    /// Does the Y pass on `b` find nothing, by the record?
    pub(super) fn holds(&self, b: &Board) -> bool {
        // Exactly two digits.
        let two = |m: u16| {
            let rest = m & m.wrapping_sub(1);
            rest != 0 && rest & (rest - 1) == 0
        };
        self.clean.as_ref().is_some_and(|rec| {
            rec.iter()
                .zip(&b.cands)
                .all(|(&r, &c)| c & !r == 0 && two(r) == two(c))
        })
    }

    /// Records that the Y pass found no hint on `b`, nothing pruned.
    pub(super) fn record(&mut self, b: &Board) {
        self.clean = Some(b.cands);
    }
}

impl Chainer {
    /// SE's `Chaining(false, false, false)`: X-cycles and chains, then Y, then XY; every hint
    /// goes to `keep`.
    pub(crate) fn unary_hints(&mut self, b: &Board, keep: &mut dyn FnMut(ChainHint)) {
        self.best = None;
        let memo = self.rule_source.is_none() && no_short_cell(b);
        for (y, x) in [(false, true), (true, false), (true, true)] {
            let x_only = x && !y;
            let skip = if memo && x_only {
                self.x_memo.skip(b)
            } else {
                0
            };
            // The least key a hint of this pass can have: a cycle of complexity 4, a forcing
            // chain (X and XY passes) of complexity 2. Once the best hint so far sorts before
            // both, every search of the pass would stop at its first test, having derived
            // nothing: the pass, or the rest of it, is skipped.
            let (cycle_base, cycle_key) = unary_base(true, x, y);
            let (chain_base, chain_key) = unary_base(false, true, y);
            let open = |c: &Chainer| {
                c.can_beat(cycle_base, 4, cycle_key) || (x && c.can_beat(chain_base, 2, chain_key))
            };
            if !open(self) {
                continue;
            }
            let y_only = y && !x;
            if memo && y_only && self.y_memo.holds(b) {
                continue;
            }
            self.static_links(b, y, x);
            // X links join potentials of one digit only, so the X pass needs the
            // components of the digits it searches, and finds them from their sources.
            self.static_reach(b, y, x, if y { ALL_DIGITS } else { ALL_DIGITS & !skip });
            'pass: for cell in 0..81 {
                if b.values[cell] != 0 || b.count(cell) < 2 {
                    continue;
                }
                for v in digits_of(b.cands[cell] & !skip) {
                    if self.spent() {
                        return;
                    }
                    if !open(self) {
                        break 'pass;
                    }
                    self.unary_chaining(b, cell, v, y, x, keep);
                }
            }
            // X-chains come first, so no hint so far means none was pruned.
            if memo && x_only && self.best.is_none() {
                self.x_memo.record(b);
            }
            // Nor after the Y pass, which then found none either.
            if memo && y_only && self.best.is_none() && !self.spent() {
                self.y_memo.record(b);
            }
        }
    }

    pub(super) fn unary_chaining(
        &mut self,
        b: &Board,
        cell: usize,
        v: u8,
        y: bool,
        x: bool,
        keep: &mut dyn FnMut(ChainHint),
    ) {
        if !x && b.count(cell) > 2 {
            return;
        }
        let src = pot(cell, v, true);
        // A cycle closes on an off potential that links back to the source: the other digit
        // of a bivalue cell (Y) or the other place of the digit in a region (X). Without one
        // there is no cycle, and SE's plain forcing-chain search from the on source (which
        // does not repeat off potentials, so is much smaller) finds what is left. So it does
        // in the X and XY passes when no cycle can close for want of a second on potential in
        // the source's component (see `Reach::may_cycle`); the Y pass then has nothing to do.
        let closable = self.reach.may_cycle(src)
            && ((y && b.count(cell) == 2)
                || (x
                    && [BLOCK, ROW, COLUMN].iter().any(|&kind| {
                        (b.digits[v as usize] & REGION_MASK[CELL_REGION[cell][kind]]).pop() == 2
                    })));
        // The forcing-chain searches run only where the source reaches its target (see
        // `do_forcing_chains`). Where no search runs, nothing is made: the nodes are not even
        // reset (the next search that runs resets them first).
        let (to_off, to_on) = (
            x && self.reach.reaches(src, conj(src)),
            x && self.reach.reaches(conj(src), src),
        );
        if !closable && !to_off && !to_on {
            return;
        }
        self.reset();
        // The closing nodes of the cycles and the chain targets (scratch kept in the chainer).
        let mut cycles = std::mem::take(&mut self.found_cycles);
        let mut chains = std::mem::take(&mut self.found_chains);
        cycles.clear();
        chains.clear();
        if closable {
            // The cycle search from the on source also finds the forcing chain from it (SE
            // runs a second search; its tree is the same up to its target, see `do_cycles`).
            // Where the source does not reach that target, the search looks for cycles only.
            let target = self.do_cycles(src, y, x, to_off, &mut cycles);
            chains.extend(target);
        } else if to_off {
            self.do_forcing_chains(src, y, &mut chains);
        }
        if to_on {
            self.do_forcing_chains(conj(src), y, &mut chains);
        }
        for &dst in &cycles {
            let h = self.cycle_hint(b, dst, y, x);
            self.offer(h, keep);
        }
        for &t in &chains {
            let h = self.forcing_chain_hint(b, t, y, x);
            self.offer(h, keep);
        }
        self.found_cycles = cycles;
        self.found_chains = chains;
    }

    /// The on-to-off consequences of an on potential, in SE's order, appended to `out`: the
    /// cell's other digits (Y links), then the digit in the block, the rest of the row, the rest
    /// of the column.
    #[inline(always)]
    pub(super) fn push_on_to_off(b: &Board, p: Pot, y: bool, out: &mut Vec<(Pot, Cause)>) {
        let cell = pot_cell(p);
        let v = pot_value(p);
        if y {
            for d in digits_of(b.cands[cell]) {
                if d != v {
                    out.push((pot(cell, d, false), Cause::NakedSingle));
                }
            }
        }
        let dv = b.digits[v as usize] & PEER_MASK[cell];
        if dv == 0 {
            return;
        }
        let block = REGION_MASK[CELL_REGION[cell][BLOCK]];
        let row = REGION_MASK[CELL_REGION[cell][ROW]];
        for o in cells_of(dv & block) {
            out.push((pot(o, v, false), Cause::Hidden(BLOCK as u8)));
        }
        for o in cells_of(dv & row & !block) {
            out.push((pot(o, v, false), Cause::Hidden(ROW as u8)));
        }
        for o in cells_of(dv & !row & !block) {
            out.push((pot(o, v, false), Cause::Hidden(COLUMN as u8)));
        }
    }

    /// The on potentials the off potential (`cell`, `v`) leads to, in SE's order, each with
    /// its cause and, for the digit's last place in a region, that region: the cell's last
    /// digit (Y), then the digit's last place in block, row, column (X).
    #[inline(always)]
    pub(super) fn off_targets(
        b: &Board,
        cell: usize,
        v: u8,
        y: bool,
        x: bool,
        mut f: impl FnMut(Pot, Cause, Option<Region>),
    ) {
        if y && b.count(cell) == 2 {
            let other = (b.cands[cell] & !(1 << v)).trailing_zeros() as u8;
            f(pot(cell, other, true), Cause::NakedSingle, None);
        }
        if x {
            // The digit's places in each region of the cell, without it: exactly one is a
            // nonzero set with no second bit (a bit test, where `count_ones` on 128 bits is a
            // software sequence in this build).
            let dv = b.digits[v as usize];
            for (kind, &others) in REGION_REST[cell].iter().enumerate() {
                let rest = dv & others;
                if rest != 0 && rest & (rest - 1) == 0 {
                    let other = rest.trailing_zeros() as usize;
                    f(
                        pot(other, v, true),
                        Cause::Hidden(kind as u8),
                        Some(CELL_REGION[cell][kind]),
                    );
                }
            }
        }
    }

    /// Starts a fresh pair of on/off membership stamps (for the static searches).
    pub(super) fn next_stamp(&mut self) -> u32 {
        self.stamp += 1;
        if self.stamp == u32::MAX {
            self.stamp_on.0.fill(0);
            self.stamp_off.0.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// SE's `doCycles`: alternate batches from the on source; every time the source comes back
    /// on after at least four steps, that is a cycle (its closing node goes to `cycles`).
    ///
    /// With `want_target`, it also returns the first off potential of the source it derives:
    /// SE's `doForcingChains` from the on source in the same mode builds the same tree (its
    /// deduplicated off potentials are the first of each here, and `isParent` never drops a
    /// first one), stopping at that node, so the node and its chain are the same.
    ///
    /// An off potential with no links in the mode (a dead end) would derive nothing in the next
    /// batch, so it gets no node unless it is that target: the nodes that parent anything, the
    /// cycles and their order are the same. Likewise (with [`Reach`]), a potential outside the
    /// source's component cannot be on a cycle (each node of one reaches the source again), and
    /// while the target is wanted and not found, it matters only if it reaches the target: the
    /// others get no node (a dead end is one of them).
    ///
    /// The pruning bound (fixed during a search: hints are offered after it) is read per round
    /// of the two batches: a cycle closed in a round has the complexity of its closing node's
    /// depth, so a round runs only while those cycles, or the target while it is chased, could
    /// beat the best hint; and where the cycles of later rounds cannot, a round makes, besides
    /// the chased nodes, only the off nodes that close a cycle at once (the partners) and the
    /// closing nodes. Every test only turns false as rounds go on, so a node left out would be
    /// left out at every later meeting too; every node made is made as before (same parent,
    /// order and layer), and every cycle or target chain that could beat the best hint is made
    /// whole. Only hints that could not be picked, and fewer nodes against `--se-budget`, go.
    pub(super) fn do_cycles(
        &mut self,
        src: Pot,
        y: bool,
        x: bool,
        want_target: bool,
        cycles: &mut Vec<u32>,
    ) -> Option<u32> {
        let mut target: Option<u32> = None;
        let (fc_base, fc_key) = unary_base(false, true, y);
        let stamp = self.next_stamp();
        let root = self.node(src, Cause::None, &[]);
        self.stamp_on[cv(src)] = stamp;
        // Each node goes with its chain's partners (see below) as bits: for an on node, the
        // partners among the off potentials on its first-parent chain (SE's `isParent` reads
        // that chain); for an off node, its on parent's and itself if it is one.
        let mut pending_on = std::mem::take(&mut self.cyc_a);
        let mut pending_off = std::mem::take(&mut self.cyc_b);
        let mut batch = std::mem::take(&mut self.cyc_c);
        pending_on.clear();
        pending_off.clear();
        pending_on.push((root, 0));
        let mut length = 0;
        let (base, sort_key) = unary_base(true, x, y);
        let links = &self.links;
        // A node can matter only if it lies in the source's component (every node of a cycle
        // reaches the source again) or, while the forcing-chain target is wanted and not found,
        // reaches that target; the others are not made. Every node made is made as before, from
        // the same parent in the same order.
        let reach = &self.reach;
        // (Compared by state: a complete component's number with the same mark.)
        let (src_comp, tgt) = (reach.state[src as usize], conj(src));
        // The off potentials that link back to the source (a cycle closes through them): at
        // most four, the other digit of a bivalue cell and the other place in each region.
        // Unused entries hold `NONE`, no potential.
        let mut partners = [NONE as Pot; 4];
        let mut np = 0;
        for &(q, _) in links.of(src) {
            if np < 4 && links.of(q).iter().any(|&(r, _)| r == src) {
                partners[np] = q;
                np += 1;
            }
        }
        for (i, &q) in partners[..np].iter().enumerate() {
            self.part[q as usize] = 1 << i;
        }
        while !self.spent() && (!pending_on.is_empty() || !pending_off.is_empty()) {
            // This round makes off nodes at depth `next_depth` (the on ones pending are one
            // less), then on nodes and closing nodes at `next_depth + 1`. A cycle's complexity is
            // its closing node's depth (its chain's potentials are distinct, the source counted
            // once), so the cycles closed in this round have complexity `next_depth + 1`, those
            // of later rounds `next_depth + 3` or more (and every cycle at least four).
            let next_depth = pending_on
                .first()
                .or(pending_off.first())
                .map_or(0, |&(n, _)| self.nodes[n as usize].depth as u32 + 1);
            let cycles_now = self.can_beat(base, (next_depth + 1).max(4), sort_key);
            let cycles_later = self.can_beat(base, (next_depth + 3).max(4), sort_key);
            let chase =
                want_target && target.is_none() && self.can_beat(fc_base, next_depth + 1, fc_key);
            if !cycles_now && !chase {
                break;
            }
            // The target (an off potential, made in the first batch) found in a later round
            // has complexity `next_depth + 3` or more.
            let chase_later = chase && self.can_beat(fc_base, next_depth + 3, fc_key);
            // A node matters for a cycle of a later round only in the source's component; an
            // off node for one closed in this round only if it links back to the source (a
            // partner); and, while the target is chased and could be found in a later round,
            // a node that reaches it (the target itself is made in any round that chases it).
            let keep = |q: Pot, partner: bool| {
                (cycles_later && reach.state[q as usize] == src_comp)
                    || (partner && cycles_now)
                    || (chase_later && reach.reaches(q, tgt))
            };
            length += 1;
            std::mem::swap(&mut batch, &mut pending_on);
            pending_on.clear();
            for &(p, m) in &batch {
                for &(q, cause) in links.of(self.nodes[p as usize].pot) {
                    let is_target = want_target && target.is_none() && q == tgt;
                    let k = cv(q);
                    let pb = self.part[q as usize] as u32;
                    if !is_target {
                        if self.stamp_off[k] == stamp {
                            // Made already: the first of it, ahead in the queue, takes every on
                            // potential it leads to, so it is not made again, unless it links
                            // back to the source (a partner) and is not on the node's chain
                            // (SE's `isParent`). Every potential on that chain was made in this
                            // search, so only the partners' part of it is read. (The target is
                            // never on a chain: its first node is the target.) Made again, it
                            // derives only the source (its other on potentials were made from
                            // its first node, or left out for good): a cycle of this round.
                            if pb & !m == 0 || !cycles_now {
                                continue;
                            }
                        } else if !keep(q, pb != 0) {
                            // Outside the source's component and not leading to the target
                            // while it is wanted. So is every off potential with no links (a
                            // dead end): it would derive nothing in the next batch.
                            continue;
                        }
                    }
                    self.stamp_off[k] = stamp;
                    let n = push1(
                        &mut self.nodes,
                        &mut self.parents,
                        &mut self.work,
                        q,
                        cause,
                        p,
                    );
                    pending_off.push((n, m | pb));
                    if is_target {
                        target = Some(n);
                    }
                }
            }
            length += 1;
            std::mem::swap(&mut batch, &mut pending_off);
            pending_off.clear();
            for &(p, m) in &batch {
                for &(q, cause) in links.of(self.nodes[p as usize].pot) {
                    let fresh = self.stamp_on[cv(q)] != stamp;
                    if length >= 4 && q == src {
                        if !cycles_now {
                            continue;
                        }
                        let n = push1(
                            &mut self.nodes,
                            &mut self.parents,
                            &mut self.work,
                            q,
                            cause,
                            p,
                        );
                        cycles.push(n);
                    } else if fresh && keep(q, false) {
                        let n = push1(
                            &mut self.nodes,
                            &mut self.parents,
                            &mut self.work,
                            q,
                            cause,
                            p,
                        );
                        self.stamp_on[cv(q)] = stamp;
                        // Its chain's partners: its parent's (that one included).
                        pending_on.push((n, m));
                    }
                }
            }
        }
        for &q in &partners[..np] {
            self.part[q as usize] = 0;
        }
        self.cyc_a = pending_on;
        self.cyc_b = pending_off;
        self.cyc_c = batch;
        target
    }

    /// SE's `doForcingChains` from `src` (on or off): alternate batches; a potential that
    /// contradicts the source is a chain target (at most one per call).
    ///
    /// The links do not change during a unary pass, so this is a breadth-first search of one
    /// static graph, each potential entered once: when `src` does not reach its target in that
    /// graph ([`Reach`]), the search would create nodes and find nothing, and the caller does not
    /// run it (a dead-end off source, with no links, reaches nothing).
    ///
    /// A potential that does not reach the target cannot be on its chain (every node of it
    /// does), so it gets no node: the nodes made are made as before, from the same parents in
    /// the same order, and the target's chain is the same. (A dead-end off potential, with no
    /// links, reaches nothing; an off one skipped is still stamped as reached.)
    pub(super) fn do_forcing_chains(&mut self, src: Pot, y: bool, chains: &mut Vec<u32>) {
        // The caller asks only where the source reaches its target.
        debug_assert!(self.reach.reaches(src, conj(src)));
        let stamp = self.next_stamp();
        let root = self.node(src, Cause::None, &[]);
        let mut pending_on = std::mem::take(&mut self.buf_a);
        let mut pending_off = std::mem::take(&mut self.buf_b);
        let mut batch = std::mem::take(&mut self.buf_c);
        pending_on.clear();
        pending_off.clear();
        if pot_on(src) {
            self.stamp_on[cv(src)] = stamp;
            pending_on.push(root);
        } else {
            self.stamp_off[cv(src)] = stamp;
            pending_off.push(root);
        }
        let target = conj(src);
        let off_src = !pot_on(src);
        let mut found = chains.iter().any(|&c| self.nodes[c as usize].pot == target);
        let (base, sort_key) = unary_base(false, true, y);
        let links = &self.links;
        // Only a node that reaches the target can be on its chain: the others are not made
        // (nor stamped: they would not be made later either). A dead end reaches nothing.
        let reach = &self.reach;
        while !found && !self.spent() && (!pending_on.is_empty() || !pending_off.is_empty()) {
            // The target's complexity is its depth plus one (its chain's potentials are
            // distinct). An off target (on source) is made in this round's first batch, at
            // `next_depth`; an on target in its second, one deeper than the off nodes it reads
            // (at `next_depth + 1`, or at 1 in the first round of an off source, which reads the
            // source itself). So the target found in this round has this complexity, and one
            // found in a later round two more.
            let next_depth = pending_on
                .first()
                .or(pending_off.first())
                .map_or(0, |&n| self.nodes[n as usize].depth as u32 + 1);
            let now = next_depth + 1 + (off_src && !pending_on.is_empty()) as u32;
            if !self.can_beat(base, now, sort_key) {
                break;
            }
            // In the last round that could find a target that beats the best hint, only the
            // nodes that make it at once matter: an on source's round ends after the first
            // batch; an off source's makes only the off nodes that link to the target, then
            // only the target.
            let last = !self.can_beat(base, now + 2, sort_key);
            std::mem::swap(&mut batch, &mut pending_on);
            pending_on.clear();
            for &p in &batch {
                for &(q, cause) in links.of(self.nodes[p as usize].pot) {
                    let is_target = q == target && !found;
                    let fresh = self.stamp_off[cv(q)] != stamp;
                    if is_target || fresh {
                        if fresh {
                            self.stamp_off[cv(q)] = stamp;
                            if !is_target
                                && (!reach.reaches(q, target)
                                    || (last && !links.of(q).iter().any(|&(r, _)| r == target)))
                            {
                                continue;
                            }
                        }
                        let n = push1(
                            &mut self.nodes,
                            &mut self.parents,
                            &mut self.work,
                            q,
                            cause,
                            p,
                        );
                        if is_target {
                            chains.push(n);
                            found = true;
                        }
                        if fresh {
                            pending_off.push(n);
                        }
                    }
                }
            }
            if last && !off_src {
                break;
            }
            std::mem::swap(&mut batch, &mut pending_off);
            pending_off.clear();
            for &p in &batch {
                for &(q, cause) in links.of(self.nodes[p as usize].pot) {
                    let is_target = q == target && !found;
                    let fresh = self.stamp_on[cv(q)] != stamp;
                    if is_target || (fresh && !last && reach.reaches(q, target)) {
                        let n = push1(
                            &mut self.nodes,
                            &mut self.parents,
                            &mut self.work,
                            q,
                            cause,
                            p,
                        );
                        if is_target {
                            chains.push(n);
                            found = true;
                        }
                        if fresh {
                            self.stamp_on[cv(q)] = stamp;
                            pending_on.push(n);
                        }
                    }
                }
            }
        }
        self.buf_a = pending_on;
        self.buf_b = pending_off;
        self.buf_c = batch;
    }

    /// SE's `createCycleHint`: a candidate seen by an on and by an off potential of the cycle
    /// (outside the cycle's cells) goes.
    pub(super) fn cycle_hint(
        &mut self,
        b: &Board,
        dst: u32,
        y: bool,
        x: bool,
    ) -> Option<ChainHint> {
        if !self.cycle_removes(b, dst) {
            return None;
        }
        // The chain from the closing node up to (not including) the root.
        let mut chain = Vec::new();
        let mut cur = dst;
        loop {
            let node = self.nodes[cur as usize];
            if node.parent_count == 0 {
                break;
            }
            chain.push(cur);
            cur = self.parents[node.first_parent as usize];
        }
        let mut cells_set: u128 = 0;
        for &n in &chain {
            cells_set |= 1u128 << pot_cell(self.nodes[n as usize].pot);
        }
        let mut forw: Vec<Pot> = Vec::new();
        let mut back: Vec<Pot> = Vec::new();
        for &n in &chain {
            let p = self.nodes[n as usize].pot;
            let v = pot_value(p);
            let cand = PEER_MASK[pot_cell(p)] & !cells_set & b.digits[v as usize];
            for c in cells_of(cand) {
                let q = pot(c, v, false);
                let list = if pot_on(p) { &mut forw } else { &mut back };
                if !list.contains(&q) {
                    list.push(q);
                }
            }
        }
        let mut masks = [0u16; 81];
        let mut any = false;
        let mut forw_order: Vec<u8> = Vec::new();
        for q in forw {
            if back.contains(&q) {
                if masks[pot_cell(q)] == 0 {
                    forw_order.push(pot_cell(q) as u8);
                }
                masks[pot_cell(q)] |= 1 << pot_value(q);
                any = true;
            }
        }
        if !any {
            return None;
        }
        // Display cells: from the root's child to the closing node (SE's reversed cycle).
        let mut cells = Vec::new();
        for &n in chain.iter().rev() {
            let c = pot_cell(self.nodes[n as usize].pot);
            if !cells.contains(&c) {
                cells.push(c);
            }
        }
        let complexity = self.complexity(&[dst]);
        let nest = self.cycle_nest_data(b, dst, &chain, &forw_order);
        let base = if x && y { 7.0 } else { 6.5 };
        Some(ChainHint {
            difficulty: base + length_difficulty(complexity),
            complexity,
            sort_key: if x && y {
                4
            } else if y {
                3
            } else {
                2
            },
            mode: Mode::CYCLES,
            shape: Shape::Cycle { x, y, cells },
            elims: crate::explain::hint::elims_from(&masks),
            place: None,
            nest,
        })
    }

    /// Whether the cycle closing at `dst` removes anything, as [`Chainer::cycle_hint`] decides
    /// it (a candidate off the cycle's cells seen by an on potential and by an off potential
    /// of its digit), from one mask per digit and side instead of the lists it builds: most
    /// cycles remove nothing, and then no list is needed.
    pub(super) fn cycle_removes(&self, b: &Board, dst: u32) -> bool {
        let mut cells_set: u128 = 0;
        let mut cur = dst;
        loop {
            let node = &self.nodes[cur as usize];
            if node.parent_count == 0 {
                break;
            }
            cells_set |= 1u128 << pot_cell(node.pot);
            cur = self.parents[node.first_parent as usize];
        }
        let mut sides = [[0 as Cells; 10]; 2];
        let mut cur = dst;
        loop {
            let node = &self.nodes[cur as usize];
            if node.parent_count == 0 {
                break;
            }
            let (c, v) = (pot_cell(node.pot), pot_value(node.pot) as usize);
            sides[pot_on(node.pot) as usize][v] |= PEER_MASK[c] & !cells_set & b.digits[v];
            cur = self.parents[node.first_parent as usize];
        }
        (1..10).any(|v| sides[0][v] & sides[1][v] != 0)
    }

    /// Rule parents and signature of a cycle found by a nested search: its targets are the
    /// closing on potential and SE's reversed copy of the cycle (polarities flipped, each
    /// potential keeping its cause).
    pub(super) fn cycle_nest_data(
        &self,
        b: &Board,
        dst: u32,
        chain: &[u32],
        order: &[u8],
    ) -> Option<Box<NestData>> {
        let source = self.rule_source.as_ref()?;
        let mut parents = Vec::new();
        let mut set = PotSet::new();
        let mut sig = Vec::new();
        // The closing node's chain: dst up to the root's child (the root repeats dst's potential).
        let dst_pot = self.nodes[dst as usize].pot;
        sig.push(dst_pot);
        for &n in chain {
            let node = self.nodes[n as usize];
            sig.push(node.pot);
            if pot_on(node.pot) {
                Self::removed_behind(node.pot, node.cause, source, b, &mut parents, &mut set);
            }
        }
        sig.push(u16::MAX);
        // The reversed cycle: from the root (reversed) down to dst's parent (dst reversed
        // repeats the root's).
        let rev_target = conj(dst_pot);
        sig.push(rev_target);
        sig.push(rev_target);
        for &n in chain[1..].iter().rev() {
            let node = self.nodes[n as usize];
            sig.push(conj(node.pot));
            if !pot_on(node.pot) {
                Self::removed_behind(
                    conj(node.pot),
                    node.cause,
                    source,
                    b,
                    &mut parents,
                    &mut set,
                );
            }
        }
        sig.push(u16::MAX);
        Some(Box::new(NestData {
            parents,
            sig,
            order: order.to_vec(),
        }))
    }

    /// SE's `createForcingChainHint`.
    pub(super) fn forcing_chain_hint(
        &mut self,
        b: &Board,
        t: u32,
        y: bool,
        x: bool,
    ) -> Option<ChainHint> {
        let p = self.nodes[t as usize].pot;
        let (cell, v) = (pot_cell(p), pot_value(p));
        let (elims, place) = if pot_on(p) {
            let m = b.cands[cell] & !(1 << v);
            if m == 0 {
                return None;
            }
            (vec![(cell as u8, m)], Some((cell as u8, v)))
        } else {
            (vec![(cell as u8, 1u16 << v)], None)
        };
        let complexity = self.complexity(&[t]);
        let nest = self.nest_data(b, &[t], Cause::None, vec![cell as u8]);
        let base = if x && y { 7.0 } else { 6.6 };
        Some(ChainHint {
            difficulty: base + length_difficulty(complexity),
            complexity,
            sort_key: if x && y {
                4
            } else if y {
                3
            } else {
                2
            },
            mode: Mode::CYCLES,
            shape: Shape::Forcing {
                x,
                y,
                target: p,
                turbot: complexity == 6,
            },
            elims,
            place,
            nest,
        })
    }
}

/// The base rating and sort key of a unary chain hint: cycles 6.5, forcing X/Y chains 6.6,
/// either with both links 7.0; sort keys X 2, Y 3, XY 4.
pub(super) fn unary_base(cycle: bool, x: bool, y: bool) -> (f64, u8) {
    let sort_key = if x && y {
        4
    } else if y {
        3
    } else {
        2
    };
    let base = if x && y {
        7.0
    } else if cycle {
        6.5
    } else {
        6.6
    };
    (base, sort_key)
}
