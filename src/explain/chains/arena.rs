//! The propagation arena: derived potentials as nodes with their parents in flat vectors
//! (`Chainer::node`), a propagation's on and off lists with their index (`Prop`), the working
//! grid of a dynamic propagation (`Work`) and one expansion step of it (`Step`), and what SE
//! computes from the ancestry — ancestor counts, complexity, the chain behind a conclusion, rule
//! parents for nested chains. One arena per chainer, reset per search, so that a search
//! allocates nothing once warm.

use super::*;

/// A propagation's on and off potentials, as node ids in the order they were added, with an
/// index from cell-digit to node.
pub(super) struct Prop {
    pub(super) on: Vec<u32>,
    pub(super) off: Vec<u32>,
    /// Node of each potential (indexed by the packed potential), `NONE` if not reached.
    pub(super) idx: Box<[u32; 1458]>,
    /// Where the propagation stopped on a contradiction.
    pub(super) absurd: Option<Absurd>,
    /// The potentials it holds as a set, made on first ask once it has run ([`Prop::set`]).
    pub(super) set: PotSet,
    pub(super) has_set: bool,
    /// The arena range of its nodes, where [`Chainer::propagation_from`] made it: every node
    /// made from its root on but the last one of a contradiction (which is not added).
    pub(super) span: Option<(u32, u32)>,
}

impl Prop {
    pub(super) fn new() -> Prop {
        Prop {
            on: Vec::new(),
            off: Vec::new(),
            idx: Box::new([NONE; 1458]),
            absurd: None,
            set: PotSet::new(),
            has_set: false,
            span: None,
        }
    }
    /// The potentials of this (finished) propagation as a set, for the chains that intersect
    /// several propagations: made from the lists the first time, then kept until the reset.
    pub(super) fn set(&mut self, nodes: &[Node]) -> &PotSet {
        if !self.has_set {
            match self.span {
                // A run of the arena: no list read.
                Some((start, end)) => {
                    for node in &nodes[start as usize..end as usize] {
                        self.set.insert(node.pot);
                    }
                }
                None => {
                    for list in [&self.on, &self.off] {
                        for &n in list {
                            self.set.insert(nodes[n as usize].pot);
                        }
                    }
                }
            }
            #[cfg(debug_assertions)]
            {
                let mut want = PotSet::new();
                for list in [&self.on, &self.off] {
                    for &n in list {
                        want.insert(nodes[n as usize].pot);
                    }
                }
                debug_assert_eq!(want.0, self.set.0);
            }
            self.has_set = true;
        }
        &self.set
    }
    pub(super) fn reset(&mut self, nodes: &[Node]) {
        if self.has_set {
            self.set.clear();
            self.has_set = false;
        }
        let idx = &mut self.idx;
        match self.span.take() {
            // Every node of the lists is in the span; the one that is not (a contradiction's
            // last) has no entry to clear.
            Some((start, end)) => {
                for node in &nodes[start as usize..end as usize] {
                    idx[node.pot as usize] = NONE;
                }
                debug_assert!(self
                    .on
                    .iter()
                    .chain(&self.off)
                    .all(|&n| (start..end).contains(&n)));
            }
            None => {
                // Two plain loops (a chained iterator tests which half it is in at every node).
                for list in [&self.on, &self.off] {
                    for &n in list {
                        idx[nodes[n as usize].pot as usize] = NONE;
                    }
                }
            }
        }
        self.on.clear();
        self.off.clear();
        self.absurd = None;
    }
    #[inline]
    pub(super) fn get(&self, p: Pot) -> u32 {
        self.idx[p as usize]
    }
    #[inline]
    pub(super) fn add(&mut self, p: Pot, node: u32) {
        self.idx[p as usize] = node;
        if pot_on(p) {
            self.on.push(node);
        } else {
            self.off.push(node);
        }
    }
}

/// Appends a node (a free function, so that the node arena and a propagation can be borrowed
/// apart).
#[inline]
pub(super) fn push_node(
    nodes: &mut Vec<Node>,
    parents: &mut Vec<u32>,
    pot: Pot,
    cause: Cause,
    first: u32,
    extra: &[u32],
) -> u32 {
    let id = nodes.len() as u32;
    let depth = nodes[first as usize].depth + 1;
    nodes.push(Node {
        pot,
        depth,
        cause,
        nested: NONE,
        first_parent: parents.len() as u32,
        parent_count: 1 + extra.len() as u32,
    });
    parents.push(first);
    parents.extend_from_slice(extra);
    id
}

/// [`Chainer::node`] with one parent, counted in `work` (a free function, so that the static
/// searches can read the link table and `Reach` in place while they add nodes).
#[inline(always)]
pub(super) fn push1(
    nodes: &mut Vec<Node>,
    parents: &mut Vec<u32>,
    work: &mut u64,
    pot: Pot,
    cause: Cause,
    parent: u32,
) -> u32 {
    *work += 1;
    push_node(nodes, parents, pot, cause, parent, &[])
}

/// The working grid of a dynamic propagation: each cell's candidates and, per digit and
/// region, the digit's places there as a 9-bit mask (bit `i`: the region's `i`-th cell in
/// [`REGION_CELLS`] order, which is ascending). The same grid as a [`Board`]'s `cands` and
/// `digits`, in the shape the loop reads: a digit's places in a region are one 16-bit load
/// (not a 128-bit AND), and a candidate leaves with three 16-bit stores (not a variable 128-bit
/// shift).
#[derive(Clone)]
pub(super) struct Work {
    pub(super) cands: [u16; 81],
    pub(super) places: [[u16; 27]; 10],
}

impl Work {
    pub(super) fn of(b: &Board) -> Work {
        let mut places = [[0u16; 27]; 10];
        for (r, cells) in REGION_CELLS.iter().enumerate() {
            for (i, &c) in cells.iter().enumerate() {
                for v in digits_of(b.cands[c as usize]) {
                    places[v as usize][r] |= 1 << i;
                }
            }
        }
        Work {
            cands: b.cands,
            places,
        }
    }

    /// Takes `v` out of `cell`'s candidates (`Board::remove`).
    #[inline(always)]
    pub(super) fn remove(&mut self, cell: usize, v: u8) {
        self.cands[cell] &= !(1 << v);
        let places = &mut self.places[v as usize];
        let [(b, kb), (r, kr), (c, kc)] = CELL_SLOTS[cell];
        places[b as usize] &= kb;
        places[r as usize] &= kr;
        places[c as usize] &= kc;
    }

    /// The [`Board`] this grid is, `source` with the candidates it lost taken out (the loop
    /// only ever removes candidates).
    pub(super) fn board(&self, source: &Board) -> Board {
        let mut g = source.clone();
        for c in 0..81 {
            g.remove_mask(c, source.cands[c] & !self.cands[c]);
        }
        g
    }
}

/// One step of the dynamic propagation loop: the node being expanded (`from`) and what its
/// consequences are added to.
pub(super) struct Step<'a> {
    pub(super) nodes: &'a mut Vec<Node>,
    pub(super) parents: &'a mut Vec<u32>,
    pub(super) pr: &'a mut Prop,
    pub(super) from: u32,
}

impl Step<'_> {
    /// One potential derived, in SE's order (`doChaining`): if its opposite is in the
    /// propagation, a node for it is made and the contradiction returned; if it is new, a node
    /// is made and added; otherwise nothing happens. A node's extra ("hidden") parents, after
    /// `from`, are the propagation's off nodes of `hidden` (a potential without one is left
    /// out), looked up only when a node is made.
    #[inline(always)]
    pub(super) fn derive(
        &mut self,
        q: Pot,
        cause: Cause,
        hidden: impl Iterator<Item = Pot>,
    ) -> ControlFlow<Absurd> {
        let pr = &mut *self.pr;
        let c = pr.idx[conj(q) as usize];
        if c == NONE && pr.idx[q as usize] != NONE {
            return ControlFlow::Continue(());
        }
        let id = self.nodes.len() as u32;
        let depth = self.nodes[self.from as usize].depth + 1;
        let first = self.parents.len();
        self.parents.push(self.from);
        for h in hidden {
            let n = pr.get(h);
            if n != NONE {
                self.parents.push(n);
            }
        }
        self.nodes.push(Node {
            pot: q,
            depth,
            cause,
            nested: NONE,
            first_parent: first as u32,
            parent_count: (self.parents.len() - first) as u32,
        });
        if c != NONE {
            return ControlFlow::Break(if pot_on(q) {
                Absurd { on: id, off: c }
            } else {
                Absurd { on: c, off: id }
            });
        }
        pr.add(q, id);
        ControlFlow::Continue(())
    }

    /// The on potential `p`: SE's `getOnToOff` on the working grid (the cell's other digits
    /// when `y`, then the digit in the block, the rest of the row, the rest of the column),
    /// each derived as it is listed.
    #[inline(always)]
    pub(super) fn on_to_off(&mut self, grid: &Work, p: Pot, y: bool) -> ControlFlow<Absurd> {
        let cell = pot_cell(p);
        let v = pot_value(p);
        if y {
            for d in digits_of(grid.cands[cell] & !(1 << v)) {
                self.derive(pot(cell, d, false), Cause::NakedSingle, None.into_iter())?;
            }
        }
        // The digit's places in the block but the cell; in the row outside the block (a row's
        // index is the column, and the block has three of them); in the column outside the
        // block (a column's index is the row): `PEER_SLOTS`. Each ascending, as SE lists them.
        let places = &grid.places[v as usize];
        for (kind, &(region, keep)) in PEER_SLOTS[cell].iter().enumerate() {
            let region = region as usize;
            for i in digits_of(places[region] & keep) {
                let o = REGION_CELLS[region][i as usize] as usize;
                self.derive(
                    pot(o, v, false),
                    Cause::Hidden(kind as u8),
                    None.into_iter(),
                )?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The off potential `p`, on the working grid before `p` leaves it: SE's `getOffToOn` (the
    /// cell's last digit when `y`, then the digit's last place in block, row, column), each
    /// derived as it is listed, with its hidden parents: the candidates `source` had there that
    /// the grid no longer has (the cell's digits ascending; a region's cells ascending, which is
    /// the region's order). Derivations only add on potentials and the hidden parents are off
    /// ones, so each target gets the parents it had when all were listed before any was added.
    #[inline(always)]
    pub(super) fn off_to_on(
        &mut self,
        source: &Work,
        grid: &Work,
        p: Pot,
        y: bool,
    ) -> ControlFlow<Absurd> {
        let cell = pot_cell(p);
        let v = pot_value(p);
        let cands = grid.cands[cell];
        // Two candidates exactly (a bit test, not a count).
        let two = cands & cands.wrapping_sub(1);
        if y && two != 0 && two & (two - 1) == 0 {
            let other = (cands & !(1 << v)).trailing_zeros() as u8;
            let gone = source.cands[cell] & !cands;
            let hidden = digits_of(gone).map(|d| pot(cell, d, false));
            self.derive(pot(cell, other, true), Cause::NakedSingle, hidden)?;
        }
        // The cell is still on the grid, so it is not among the lost places: the region
        // without it has the same lost places as the whole region.
        let (places, was) = (&grid.places[v as usize], &source.places[v as usize]);
        for (kind, &(region, keep)) in CELL_SLOTS[cell].iter().enumerate() {
            let region = region as usize;
            let rest = places[region] & keep;
            if rest != 0 && rest & (rest - 1) == 0 {
                let cells = &REGION_CELLS[region];
                let other = cells[rest.trailing_zeros() as usize] as usize;
                let lost = was[region] & !places[region];
                let hidden = digits_of(lost).map(|k| pot(cells[k as usize] as usize, v, false));
                self.derive(pot(other, v, true), Cause::Hidden(kind as u8), hidden)?;
            }
        }
        ControlFlow::Continue(())
    }
}

/// A contradiction found by a propagation: the on node and the off node of one potential.
#[derive(Clone, Copy)]
pub(super) struct Absurd {
    pub(super) on: u32,
    pub(super) off: u32,
}

impl Chainer {
    /// Forgets every node and propagation.
    pub(super) fn reset(&mut self) {
        for i in 0..self.props_used {
            let root = self.props[i].on.first().copied();
            if let Some(r) = root {
                let p = self.nodes[r as usize].pot;
                if pot_on(p) {
                    self.on_cache[cv(p)] = NONE;
                }
            }
            let (props, nodes) = (&mut self.props, &self.nodes);
            props[i].reset(nodes);
        }
        self.props_used = 0;
        self.nodes.clear();
        self.parents.clear();
        self.nested.clear();
        self.sigs.clear();
    }

    pub(super) fn new_prop(&mut self) -> usize {
        if self.props_used == self.props.len() {
            self.props.push(Prop::new());
        }
        self.props_used += 1;
        self.props_used - 1
    }

    pub(super) fn node(&mut self, pot: Pot, cause: Cause, parents: &[u32]) -> u32 {
        let id = self.nodes.len() as u32;
        let depth = parents
            .first()
            .map_or(0, |&p| self.nodes[p as usize].depth + 1);
        self.nodes.push(Node {
            pot,
            depth,
            cause,
            nested: NONE,
            first_parent: self.parents.len() as u32,
            parent_count: parents.len() as u32,
        });
        self.parents.extend_from_slice(parents);
        self.work += 1;
        id
    }

    pub(super) fn parents_of(&self, n: u32) -> &[u32] {
        let node = &self.nodes[n as usize];
        &self.parents[node.first_parent as usize..(node.first_parent + node.parent_count) as usize]
    }

    /// SE's `getAncestorCount`: the distinct potentials reached from `n` through parents,
    /// itself included (breadth first, a potential's first-met node expanded).
    pub(super) fn ancestor_count(&mut self, n: u32) -> u32 {
        self.seen.clear();
        self.queue.clear();
        self.queue.push(n);
        let mut count = 0;
        let mut i = 0;
        while i < self.queue.len() {
            let id = self.queue[i];
            i += 1;
            let p = self.nodes[id as usize].pot;
            if self.seen.insert(p) {
                count += 1;
                let node = self.nodes[id as usize];
                for k in 0..node.parent_count {
                    let parent = self.parents[(node.first_parent + k) as usize];
                    self.queue.push(parent);
                }
            }
        }
        count
    }

    /// SE's `getComplexity` of a hint whose conclusions are `targets`: the ancestor counts, plus
    /// the complexity of each distinct nested chain among the ancestors.
    pub(super) fn complexity(&mut self, targets: &[u32]) -> u32 {
        let mut total = 0;
        self.nested_seen.clear();
        for &t in targets {
            total += self.ancestor_count(t);
            if !self.nested.is_empty() {
                // The nodes just counted are in the queue; note their nested chains.
                let mut seen = PotSet::new();
                for k in 0..self.queue.len() {
                    let id = self.queue[k];
                    let node = self.nodes[id as usize];
                    if seen.insert(node.pot) && node.nested != NONE {
                        let (c, sig) = self.nested[node.nested as usize];
                        if !self.nested_seen.contains(&sig) {
                            self.nested_seen.push(sig);
                            total += c;
                        }
                    }
                }
            }
        }
        total
    }

    /// SE's `getChain`: the nodes behind `target`, breadth first, one per potential.
    pub(super) fn chain_nodes(&self, target: u32) -> Vec<u32> {
        let mut seen = PotSet::new();
        let mut out = Vec::new();
        let mut queue = vec![target];
        let mut i = 0;
        while i < queue.len() {
            let id = queue[i];
            i += 1;
            if seen.insert(self.nodes[id as usize].pot) {
                out.push(id);
                queue.extend_from_slice(self.parents_of(id));
            }
        }
        out
    }

    /// The candidates `source` had and `current` lacks that an on potential derived for `cause`
    /// relied on (SE's `collectRuleParents` for one potential).
    pub(super) fn removed_behind(
        p: Pot,
        cause: Cause,
        source: &Board,
        current: &Board,
        out: &mut Vec<Pot>,
        set: &mut PotSet,
    ) {
        let (cell, v) = (pot_cell(p), pot_value(p));
        match cause {
            Cause::NakedSingle => {
                for d in digits_of(source.cands[cell] & !current.cands[cell]) {
                    let q = pot(cell, d, false);
                    if set.insert(q) {
                        out.push(q);
                    }
                }
            }
            Cause::Hidden(kind) => {
                let region = CELL_REGION[cell][kind as usize];
                let gone = source.digits[v as usize] & !current.digits[v as usize];
                if gone & REGION_MASK[region] != 0 {
                    for &c in &REGION_CELLS[region] {
                        if gone & (1u128 << c) != 0 {
                            let q = pot(c as usize, v, false);
                            if set.insert(q) {
                                out.push(q);
                            }
                        }
                    }
                }
            }
            Cause::None | Cause::Advanced => {}
        }
    }

    /// Rule parents and signature of a hint concluding `targets` (each a node), when this
    /// chainer runs nested; `root_cause` stands in for an assumption's missing cause (cell and
    /// region chains).
    pub(super) fn nest_data(
        &self,
        b: &Board,
        targets: &[u32],
        root_cause: Cause,
        order: Vec<u8>,
    ) -> Option<Box<NestData>> {
        let source = self.rule_source.as_ref()?;
        let mut parents = Vec::new();
        let mut set = PotSet::new();
        let mut sig = Vec::new();
        for &t in targets {
            sig.push(self.nodes[t as usize].pot);
            for n in self.chain_nodes(t) {
                let node = self.nodes[n as usize];
                sig.push(node.pot);
                let cause = if node.cause == Cause::None {
                    root_cause
                } else {
                    node.cause
                };
                if pot_on(node.pot) {
                    Self::removed_behind(node.pot, cause, source, b, &mut parents, &mut set);
                }
            }
            sig.push(u16::MAX);
        }
        Some(Box::new(NestData {
            parents,
            sig,
            order,
        }))
    }
}
