//! Multiple and dynamic chains: cell and region forcing chains, contradiction and double
//! forcing chains, Nishio (SE's `doChaining`: a queue in which pending on potentials go before
//! pending off ones; dynamic propagation removes what it turns off, so later steps see the
//! reduced grid), and the hints they make.

use super::*;

/// The regions a digit of a cell is region-chained in, with the digit's places there: the
/// first `.1` entries (see [`Chainer::chained_regions`]).
#[derive(Default)]
pub(super) struct Chained(pub(super) [(Region, Cells); 3], usize);

impl Chainer {
    /// SE's `getMultipleChainsHintList`: for each cell (with three or more candidates, or two
    /// in dynamic mode), its binary, region and cell chains; every hint goes to `keep`.
    pub(crate) fn multiple_hints(
        &mut self,
        b: &Board,
        mode: Mode,
        keep: &mut dyn FnMut(ChainHint),
    ) {
        self.best = None;
        self.reset();
        if mode.dynamic || mode.level > 0 {
            self.source = Work::of(b);
        }
        if !mode.dynamic && mode.level == 0 {
            self.static_links(b, !mode.nishio, true);
            // What each source can reach, for `cell_hints` to leave out the chains that
            // cannot conclude anything.
            self.static_reach(b, !mode.nishio, true, ALL_DIGITS);
        }
        let memo = mode == Mode::NISHIO && self.rule_source.is_none() && no_short_cell(b);
        self.nishio_skip = if memo { self.nishio_memo.skip(b) } else { 0 };
        if mode.nishio {
            for v in 1..=9u8 {
                self.digit_grids[v as usize] = DigitGrid::of(b, v);
            }
        }
        for cell in 0..81 {
            if b.values[cell] != 0 {
                continue;
            }
            let card = b.count(cell);
            if self.spent() {
                return;
            }
            if card > 2 || (card > 1 && mode.dynamic) {
                self.cell_hints(b, mode, cell, card, keep);
            }
        }
        if memo && self.best.is_none() {
            self.nishio_memo.record(b);
        }
        self.nishio_skip = 0;
    }

    pub(super) fn cell_hints(
        &mut self,
        b: &Board,
        mode: Mode,
        cell: usize,
        card: u32,
        keep: &mut dyn FnMut(ChainHint),
    ) {
        let mut value_prop = [usize::MAX; 10];
        // Whether no digit's propagation was kept for the cell chain yet.
        let mut cell_first = true;
        // In the static mode (the links do not change) a propagation derives only potentials
        // its source reaches in the links (`Reach`). A cell chain concludes a potential that
        // every digit's propagation derived, so where the digits' sources reach no potential
        // in common it concludes nothing, and is not made; the same holds for a region chain
        // and its places (`chained_regions`). A propagation that no chain left reads is not
        // run: in this mode only the cell and region chains read it (no contradiction or
        // double chain). The chains left out hand over no hint, so the hints and their order
        // are the same.
        let fixed = !mode.dynamic && mode.level == 0;
        let cell_live = !fixed
            || self
                .reach
                .meet(digits_of(b.cands[cell]).map(|v| pot(cell, v, true)));
        if mode.nishio && mode.level == 0 {
            self.nishio_cell(b, mode, cell, keep);
            return;
        }
        for v in digits_of(b.cands[cell]) {
            let regions = if mode.nishio {
                Chained::default()
            } else {
                self.chained_regions(b, mode, cell, v, fixed)
            };
            if !cell_live && regions.1 == 0 {
                continue;
            }
            let p_on = pot(cell, v, true);
            let p_off = conj(p_on);
            let do_double = card >= 3 && !mode.nishio && mode.dynamic;
            let do_contradiction = mode.dynamic || mode.nishio;
            // On.
            let on_prop = self.on_propagation(b, mode, p_on);
            let absurd = self.props[on_prop].absurd;
            if do_contradiction {
                if let Some(a) = absurd {
                    let h = self.binary_hint(b, mode, p_on, a.on, a.off, true, p_on);
                    self.offer(h, keep);
                }
            }
            // Off: only contradiction and double chains read it (not so the static multiple
            // chains, where SE computes it for nothing).
            let mut off_prop = usize::MAX;
            if do_contradiction || do_double {
                let absurd;
                (off_prop, absurd) = self.propagation_from(b, mode, p_off);
                if do_contradiction {
                    if let Some(a) = absurd {
                        let h = self.binary_hint(b, mode, p_off, a.on, a.off, true, p_off);
                        self.offer(h, keep);
                    }
                }
            }
            if do_double {
                // The potentials both propagations hold, as nodes of the on one, in the order
                // of its lists (on list, then off list): the double chains, in SE's order.
                let mut common = std::mem::take(&mut self.common);
                self.common_nodes(&[on_prop, off_prop], &mut common);
                for &n in &common {
                    let q = self.nodes[n as usize].pot;
                    let m = self.props[off_prop].get(q);
                    let src = if pot_on(q) { p_on } else { p_off };
                    let h = self.binary_hint(b, mode, src, n, m, false, q);
                    self.offer(h, keep);
                }
                self.common = common;
            }
            self.region_chainings(b, mode, v, on_prop, &regions, keep);
            if !cell_live {
                continue;
            }
            value_prop[v as usize] = on_prop;
            cell_first = false;
        }
        if !cell_first && !mode.nishio && (card == 2 || (mode.multiple && card > 2)) {
            // The on (off) potentials every digit of the cell leads to, as nodes of the first
            // digit's propagation, in its lists' order (SE's cellToOn, then cellToOff). Every
            // digit has its propagation here (`cell_live`).
            let mut cell_props = [0usize; 9];
            let mut k = 0;
            for v in digits_of(b.cands[cell]) {
                cell_props[k] = value_prop[v as usize];
                k += 1;
            }
            let cell_props = &cell_props[..k];
            self.offer_reductions(
                b,
                mode,
                cell_props,
                |target| Shape::Cell { src: cell, target },
                5,
                keep,
            );
        }
    }

    /// The potentials every propagation of `props` holds (all finished), as the nodes of the
    /// first one, in the order of its lists (its on list, then its off list): into `out`. The
    /// same nodes in the same order as walking the first propagation's lists and keeping those
    /// every other propagation holds, but from the intersection of their sets (23 words each),
    /// which is most often empty or small where the lists are long.
    pub(super) fn common_nodes(&mut self, props: &[usize], out: &mut Vec<u32>) {
        /// Sorts the off nodes after the on ones (node ids stay below it).
        const OFF: u32 = 1 << 31;
        out.clear();
        let (all, nodes) = (&mut self.props, &self.nodes);
        debug_assert!((nodes.len() as u64) < OFF as u64);
        let mut common = all[props[0]].set(nodes).0;
        for &pp in &props[1..] {
            let set = &all[pp].set(nodes).0;
            let mut any = 0;
            for (w, &s) in common.iter_mut().zip(set) {
                *w &= s;
                any |= *w;
            }
            if any == 0 {
                return;
            }
        }
        let first = &all[props[0]];
        for (w, &word) in common.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let p = (w * 64) as Pot + word.trailing_zeros() as Pot;
                word &= word - 1;
                let n = first.get(p);
                debug_assert!(n != NONE);
                out.push(if pot_on(p) { n } else { n | OFF });
            }
        }
        // Each list ascends (a node is added as it is made).
        out.sort_unstable();
        for n in out.iter_mut() {
            *n &= !OFF;
        }
        debug_assert_eq!(*out, self.common_nodes_by_lists(props));
    }

    /// [`Chainer::common_nodes`] the slow way: the first propagation's lists, keeping the
    /// potentials every other one holds (what debug builds and the tests check it against).
    pub(super) fn common_nodes_by_lists(&self, props: &[usize]) -> Vec<u32> {
        let first = &self.props[props[0]];
        first
            .on
            .iter()
            .chain(&first.off)
            .copied()
            .filter(|&n| {
                let q = self.nodes[n as usize].pot;
                props.iter().all(|&pp| self.props[pp].get(q) != NONE)
            })
            .collect()
    }

    /// [`Chainer::cell_hints`] in the Nishio mode: for each digit of `cell`, the contradictions
    /// of its on and its off propagation, in that order (Nishio has no double, cell or region
    /// chains, so nothing else reads them). A memo can drop some digits (`nishio_skip`), and a
    /// propagation whose bitboard closure empties no region (`closure::DigitGrid`) cannot end
    /// in a contradiction, so it is not built: it would hand over no hint, and the pruning
    /// bound only moves with hints, so the propagations that do run are the same, in the same
    /// order, with the same nodes. (The work counter, and so `--se-budget`, counts only the
    /// nodes built: skipping makes the budget run out later, never sooner.)
    pub(super) fn nishio_cell(
        &mut self,
        b: &Board,
        mode: Mode,
        cell: usize,
        keep: &mut dyn FnMut(ChainHint),
    ) {
        for v in digits_of(b.cands[cell] & !self.nishio_skip) {
            let grid = self.digit_grids[v as usize];
            let p_on = pot(cell, v, true);
            for p in [p_on, conj(p_on)] {
                if !grid.contradicts(cell, pot_on(p)) {
                    #[cfg(debug_assertions)]
                    self.assert_barren(b, mode, p);
                    continue;
                }
                let absurd = if pot_on(p) {
                    let prop = self.on_propagation(b, mode, p);
                    self.props[prop].absurd
                } else {
                    self.propagation_from(b, mode, p).1
                };
                if let Some(a) = absurd {
                    let h = self.binary_hint(b, mode, p, a.on, a.off, true, p);
                    self.offer(h, keep);
                }
            }
        }
    }

    /// Debug builds: the propagation from `p`, which the pre-test skipped, finds no
    /// contradiction. It is built and then dropped with everything it added (nodes, parents,
    /// its propagation slot, the work it counted), so the search goes on as in a release build.
    #[cfg(debug_assertions)]
    pub(super) fn assert_barren(&mut self, b: &Board, mode: Mode, p: Pot) {
        let (nodes, parents, work) = (self.nodes.len(), self.parents.len(), self.work);
        let (prop, absurd) = self.propagation_from(b, mode, p);
        assert!(
            absurd.is_none() || self.work > self.limit,
            "the closure missed a contradiction from {}",
            pot_name(p)
        );
        let (props, all) = (&mut self.props, &self.nodes);
        props[prop].reset(all);
        self.props_used -= 1;
        self.nodes.truncate(nodes);
        self.parents.truncate(parents);
        self.work = work;
    }

    /// The regions (block, row, column) where SE's `doRegionChainings` chains the digit `v` of
    /// `cell`: those where `cell` is the digit's first place, with the digit's places there.
    /// With `fixed` (static links), only those whose places reach a potential in common (see
    /// [`Chainer::cell_hints`]).
    pub(super) fn chained_regions(
        &self,
        b: &Board,
        mode: Mode,
        cell: usize,
        v: u8,
        fixed: bool,
    ) -> Chained {
        let mut out = Chained::default();
        for kind in [BLOCK, ROW, COLUMN] {
            let region = CELL_REGION[cell][kind];
            let places = b.digits[v as usize] & REGION_MASK[region];
            let n = places.pop();
            if !(n == 2 || (mode.multiple && n > 2)) {
                continue;
            }
            // A region lists its cells ascending (`region_cells_ascend`): its first place is
            // the lowest.
            if places.trailing_zeros() as usize != cell {
                continue;
            }
            if fixed && !self.reach.meet(cells_of(places).map(|c| pot(c, v, true))) {
                continue;
            }
            out.0[out.1] = (region, places);
            out.1 += 1;
        }
        out
    }

    /// SE's `doRegionChainings` for the digit `v` in the regions `regions` (where its first
    /// place is the cell whose propagation is `on_prop`).
    pub(super) fn region_chainings(
        &mut self,
        b: &Board,
        mode: Mode,
        v: u8,
        on_prop: usize,
        regions: &Chained,
        keep: &mut dyn FnMut(ChainHint),
    ) {
        for &(region, places) in &regions.0[..regions.1] {
            let cell = places.trailing_zeros() as usize;
            let mut pos_props = [0usize; 9];
            let mut n_pos = 0;
            for c in cells_of(places) {
                pos_props[n_pos] = if c == cell {
                    on_prop
                } else {
                    self.on_propagation(b, mode, pot(c, v, true))
                };
                n_pos += 1;
            }
            let pos_props = &pos_props[..n_pos];
            // The first place is the cell: the potentials every place leads to, as nodes of
            // the cell's propagation, in the order of its lists (its on list, then its off list).
            debug_assert_eq!(pos_props[0], on_prop);
            self.offer_reductions(
                b,
                mode,
                pos_props,
                |target| Shape::Region {
                    region,
                    value: v,
                    target,
                },
                6,
                keep,
            );
        }
    }

    /// Offers a cell or region forcing chain ([`Chainer::reduction_hint`]: `shape` of its
    /// target, `sort_key`) for each potential every propagation of `props` leads to, in the
    /// order of the first one's lists.
    pub(super) fn offer_reductions(
        &mut self,
        b: &Board,
        mode: Mode,
        props: &[usize],
        shape: impl Fn(Pot) -> Shape,
        sort_key: u8,
        keep: &mut dyn FnMut(ChainHint),
    ) {
        let mut common = std::mem::take(&mut self.common);
        self.common_nodes(props, &mut common);
        for &n in &common {
            let target = self.nodes[n as usize].pot;
            let mut targets = [0u32; 9];
            for (t, &pp) in targets.iter_mut().zip(props) {
                *t = self.props[pp].get(target);
            }
            let h = self.reduction_hint(
                b,
                mode,
                target,
                &targets[..props.len()],
                shape(target),
                sort_key,
            );
            self.offer(h, keep);
        }
        self.common = common;
    }

    /// A cell or region forcing chain: every branch leads to `target`.
    pub(super) fn reduction_hint(
        &mut self,
        b: &Board,
        mode: Mode,
        target: Pot,
        branches: &[u32],
        shape: Shape,
        sort_key: u8,
    ) -> Option<ChainHint> {
        let (cell, v) = (pot_cell(target), pot_value(target));
        let (removed, place) = if pot_on(target) {
            let m = b.cands[cell] & !(1 << v);
            if m == 0 {
                return None;
            }
            (m, Some((cell as u8, v)))
        } else {
            (1u16 << v, None)
        };
        let lower: u32 = branches
            .iter()
            .map(|&n| self.nodes[n as usize].depth as u32 + 1)
            .sum();
        if !self.can_beat(mode.difficulty(), lower, sort_key) {
            return None;
        }
        // Allocated only for a hint that is made.
        let elims = vec![(cell as u8, removed)];
        let complexity = self.complexity(branches);
        let root_cause = match &shape {
            Shape::Region { region, .. } => Cause::Hidden((region / 9) as u8),
            _ => Cause::NakedSingle,
        };
        let nest = self.nest_data(b, branches, root_cause, vec![cell as u8]);
        Some(ChainHint {
            difficulty: mode.difficulty() + length_difficulty(complexity),
            complexity,
            sort_key,
            mode,
            shape,
            elims,
            place,
            nest,
        })
    }

    /// A contradiction (`absurd`) or double forcing chain from `src`, concluding `target`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn binary_hint(
        &mut self,
        b: &Board,
        mode: Mode,
        src: Pot,
        dst_on: u32,
        dst_off: u32,
        absurd: bool,
        target: Pot,
    ) -> Option<ChainHint> {
        let (cell, v) = (pot_cell(target), pot_value(target));
        // SE's createChainingOffHint removes the target; createChainingOnHint keeps only it.
        let off_hint = if absurd { pot_on(src) } else { !pot_on(target) };
        let removed = if off_hint {
            1u16 << v
        } else {
            let m = b.cands[cell] & !(1 << v);
            if m == 0 {
                return None;
            }
            m
        };
        // SE's result: the source reversed for contradictions and Nishio, else the on branch.
        let result = if absurd || mode.nishio {
            conj(src)
        } else {
            self.nodes[dst_on as usize].pot
        };
        let place = if pot_on(result) {
            Some((pot_cell(result) as u8, pot_value(result)))
        } else {
            None
        };
        let lower = self.nodes[dst_on as usize].depth as u32
            + self.nodes[dst_off as usize].depth as u32
            + 2;
        if !self.can_beat(mode.difficulty(), lower, if absurd { 7 } else { 1 }) {
            return None;
        }
        // Allocated only for a hint that is made.
        let elims = vec![(cell as u8, removed)];
        let complexity = self.complexity(&[dst_on, dst_off]);
        let nest = self.nest_data(b, &[dst_on, dst_off], Cause::None, vec![cell as u8]);
        Some(ChainHint {
            difficulty: mode.difficulty() + length_difficulty(complexity),
            complexity,
            sort_key: if absurd { 7 } else { 1 },
            mode,
            shape: Shape::Binary {
                src,
                dst_on: self.nodes[dst_on as usize].pot,
                dst_off: self.nodes[dst_off as usize].pot,
                absurd,
            },
            elims,
            place,
            nest,
        })
    }

    /// `doChaining` on a grid that does not change (multiple forcing chains): the same queue
    /// discipline, the links read from the search's table.
    pub(super) fn static_loop(&mut self, links: &Links, prop: usize) -> Option<Absurd> {
        let Chainer {
            nodes,
            parents,
            props,
            work,
            limit,
            ..
        } = self;
        let pr = &mut props[prop];
        let mut on_cur = 0;
        let mut off_cur = 0;
        let start = nodes.len() as u64;
        loop {
            if *work + (nodes.len() as u64 - start) > *limit {
                *work += nodes.len() as u64 - start;
                return None;
            }
            let n = if on_cur < pr.on.len() {
                on_cur += 1;
                pr.on[on_cur - 1]
            } else if off_cur < pr.off.len() {
                off_cur += 1;
                pr.off[off_cur - 1]
            } else {
                *work += nodes.len() as u64 - start;
                return None;
            };
            let p = nodes[n as usize].pot;
            for &(q, cause) in links.of(p) {
                let c = pr.idx[conj(q) as usize];
                if c != NONE {
                    let m = push_node(nodes, parents, q, cause, n, &[]);
                    *work += nodes.len() as u64 - start;
                    return Some(if pot_on(q) {
                        Absurd { on: m, off: c }
                    } else {
                        Absurd { on: c, off: m }
                    });
                }
                if pr.idx[q as usize] == NONE {
                    let m = push_node(nodes, parents, q, cause, n, &[]);
                    pr.add(q, m);
                }
            }
        }
    }

    /// The propagation from the on potential `p` (computed once per search: it depends only on
    /// the grid and the mode).
    pub(super) fn on_propagation(&mut self, b: &Board, mode: Mode, p: Pot) -> usize {
        let cached = self.on_cache[cv(p)];
        if cached != NONE {
            return cached as usize;
        }
        let (prop, absurd) = self.propagation_from(b, mode, p);
        self.props[prop].absurd = absurd;
        self.on_cache[cv(p)] = prop as u32;
        prop
    }

    /// A new propagation seeded with `p` alone, run to its end (SE's `doChaining`): its slot
    /// and the contradiction it found, if any. Not cached (see [`Chainer::on_propagation`]).
    pub(super) fn propagation_from(
        &mut self,
        b: &Board,
        mode: Mode,
        p: Pot,
    ) -> (usize, Option<Absurd>) {
        let prop = self.new_prop();
        let root = self.node(p, Cause::None, &[]);
        self.props[prop].add(p, root);
        let absurd = self.do_chaining(b, mode, prop);
        // A contradiction's last node is made but not added (`Step::derive`, `static_loop`).
        let end = self.nodes.len() as u32 - u32::from(absurd.is_some());
        self.props[prop].span = Some((root, end));
        (prop, absurd)
    }

    /// SE's `doChaining`: propagate the prop's seeds; on potentials always first. In dynamic
    /// mode each off potential, once processed, is removed from the working grid. Stops at the
    /// first potential found both on and off.
    pub(super) fn do_chaining(&mut self, b: &Board, mode: Mode, prop: usize) -> Option<Absurd> {
        if !mode.dynamic && mode.level == 0 {
            let links = self.take_links();
            let result = self.static_loop(&links, prop);
            self.put_links(links);
            return result;
        }
        // The working grid starts as the search's grid (`multiple_hints` set `source` to it).
        debug_assert!(self.source.cands == b.cands);
        let mut grid = self.source.clone();
        self.chaining_loop(b, &mut grid, mode, prop)
    }

    pub(super) fn chaining_loop(
        &mut self,
        b: &Board,
        grid: &mut Work,
        mode: Mode,
        prop: usize,
    ) -> Option<Absurd> {
        let mut on_cur = 0;
        let mut off_cur = 0;
        let y = !mode.nishio;
        loop {
            // Propagate until the queues run dry, a contradiction, or the budget.
            {
                let Chainer {
                    nodes,
                    parents,
                    props,
                    work,
                    limit,
                    source,
                    ..
                } = &mut *self;
                let pr = &mut props[prop];
                let start = nodes.len() as u64;
                loop {
                    if *work + (nodes.len() as u64 - start) > *limit {
                        *work += nodes.len() as u64 - start;
                        return None;
                    }
                    // Pending on potentials always go first.
                    let (n, on) = if on_cur < pr.on.len() {
                        on_cur += 1;
                        (pr.on[on_cur - 1], true)
                    } else if off_cur < pr.off.len() {
                        off_cur += 1;
                        (pr.off[off_cur - 1], false)
                    } else {
                        *work += nodes.len() as u64 - start;
                        break;
                    };
                    let p = nodes[n as usize].pot;
                    let mut step = Step {
                        nodes,
                        parents,
                        pr,
                        from: n,
                    };
                    let flow = if on {
                        step.on_to_off(grid, p, y)
                    } else {
                        step.off_to_on(source, grid, p, y)
                    };
                    if let ControlFlow::Break(a) = flow {
                        *work += nodes.len() as u64 - start;
                        return Some(a);
                    }
                    if !on && mode.dynamic {
                        grid.remove(pot_cell(p), pot_value(p));
                    }
                }
            }
            if mode.level > 0 {
                let found = self.advanced_potentials(&grid.board(b), b, mode, prop);
                let mut added = false;
                for a in found {
                    if self.props[prop].get(a.pot) != NONE {
                        continue;
                    }
                    let parents: Vec<u32> = a
                        .parents
                        .iter()
                        .map(|&q| self.props[prop].get(q))
                        .filter(|&n| n != NONE)
                        .collect();
                    let m = self.node(a.pot, Cause::Advanced, &parents);
                    self.nodes[m as usize].nested = a.nested;
                    self.props[prop].add(a.pot, m);
                    added = true;
                }
                if added {
                    continue;
                }
            }
            return None;
        }
    }
}
