//! Forcing chains and cycles: SE's `Chaining` producer in all its modes, on the board's
//! bitboards instead of SE's object graph, but with SE's search order, because both the step SE
//! picks and its rating depend on it.
//!
//! # The model
//!
//! A *potential* is "cell c holds (on) / does not hold (off) digit v". A chain propagates from an
//! assumed potential: an *on* potential turns off the cell's other digits and the digit in the
//! cell's peers (SE's `getOnToOff`: the cell's digits, then its block, row and column); an *off*
//! potential turns on the cell's last digit or the digit's last place in a region
//! (`getOffToOn`: the cell, then block, row, column). Each derived potential remembers its
//! parents, and a hint's *complexity* is the number of distinct potentials among the ancestors
//! of its conclusions; SE rates a chain as its technique's base plus 0.1 per step of a
//! logarithmic ladder over that complexity (`length_difficulty`).
//!
//! - **Unary chains** (X-, Y- and XY-cycles and forcing chains; SE's "Forcing Chains &
//!   Cycles"): static propagation in alternating batches of on and off potentials.
//! - **Multiple chains** (cell and region forcing chains), **dynamic chains** (propagation that
//!   removes the candidates it turns off, so later steps see the reduced grid; contradiction and
//!   double forcing chains), **Nishio** (dynamic, one digit): SE's `doChaining`, a queue in which
//!   pending on potentials always go before pending off ones.
//! - **Dynamic (+) and nested chains** (`level > 0`): when the queues run dry, simpler techniques
//!   (and, from level 2, whole nested chain searches) are run on the reduced grid, and what they
//!   remove continues the chain, with the potentials the technique needed gone as parents.
//!
//! A producer computes every hint of its mode and SE keeps the one with the lowest rating, then
//! lowest complexity, then lowest sort key (a stable sort), so the search here visits cells,
//! digits, regions and queue entries exactly in SE's order and keeps the first minimum.

use std::ops::ControlFlow;

use super::basic;
use super::board::{
    cell_name, cells_of, digits_of, region_kind_name, Board, Cells, Region, ALL_CELLS, BLOCK,
    CELL_REGION, CELL_SLOTS, COLUMN, PEER_MASK, PEER_SLOTS, REGION_CELLS, REGION_MASK, REGION_REST,
    ROW,
};
use super::closure::DigitGrid;
use super::hint::{Detail, Hint};
use super::popcount::Pop;

/// No node.
const NONE: u32 = u32::MAX;

/// Digits 1 to 9 as a candidate mask.
const ALL_DIGITS: u16 = 0x3FE;

/// A potential packed as `(cell * 9 + v - 1) * 2 + on`.
type Pot = u16;

#[inline]
fn pot(cell: usize, v: u8, on: bool) -> Pot {
    ((cell * 9 + v as usize - 1) * 2 + on as usize) as Pot
}
#[inline]
fn pot_cell(p: Pot) -> usize {
    p as usize / 18
}
#[inline]
fn pot_value(p: Pot) -> u8 {
    ((p as usize / 2) % 9 + 1) as u8
}
#[inline]
fn pot_on(p: Pot) -> bool {
    p & 1 == 1
}
/// The potential's cell-digit index (0..729), the same for its on and off forms.
#[inline]
fn cv(p: Pot) -> usize {
    p as usize / 2
}
/// The same cell and digit, the other polarity.
#[inline]
fn conj(p: Pot) -> Pot {
    p ^ 1
}
fn pot_name(p: Pot) -> String {
    format!("{}.{}", cell_name(pot_cell(p)), pot_value(p))
}

/// A table with an entry for every `u16`, indexed by a packed potential (or its cell-digit
/// index): only the first 1,458 entries are used, but an index that is a `u16` needs no bounds
/// check, and the static searches index such tables once or twice per link they follow.
struct ByPot<T>(Box<[T; 1 << 16]>);

impl<T: Copy> ByPot<T> {
    fn new(fill: T) -> ByPot<T> {
        match vec![fill; 1 << 16].into_boxed_slice().try_into() {
            Ok(table) => ByPot(table),
            Err(_) => unreachable!("the vector has 65,536 entries"),
        }
    }
}

impl<T: Copy + Default> Default for ByPot<T> {
    fn default() -> Self {
        ByPot::new(T::default())
    }
}

impl<T> std::ops::Index<usize> for ByPot<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[i]
    }
}

impl<T> std::ops::IndexMut<usize> for ByPot<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i]
    }
}

/// Why a potential follows from its parents (SE's `Potential.Cause`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// An assumption (no parents).
    None,
    /// The cell's other digits (off), or its last digit (on).
    NakedSingle,
    /// The digit's other places (off), or its last place (on), in a region of this kind.
    Hidden(u8),
    /// Removed by a simpler technique run on the reduced grid.
    Advanced,
}

/// One potential as derived in a chain.
#[derive(Clone, Copy, Debug)]
struct Node {
    pot: Pot,
    /// The length of the first-parent chain back to the assumption (a lower bound on the
    /// ancestor count minus one).
    depth: u16,
    cause: Cause,
    /// The nested chain this potential came from (index into `Chainer::nested`), or `NONE`.
    nested: u32,
    first_parent: u32,
    parent_count: u32,
}

/// A set of the 1,458 potentials.
#[derive(Clone)]
struct PotSet([u64; 23]);

impl PotSet {
    fn new() -> PotSet {
        PotSet([0; 23])
    }
    fn clear(&mut self) {
        self.0 = [0; 23];
    }
    /// Adds; false if it was already there.
    #[inline]
    fn insert(&mut self, p: Pot) -> bool {
        let (w, b) = (p as usize / 64, p as usize % 64);
        let was = self.0[w] >> b & 1 == 1;
        self.0[w] |= 1 << b;
        !was
    }
}

/// The chaining producer's modes (SE's `Chaining` constructor arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mode {
    pub multiple: bool,
    pub dynamic: bool,
    pub nishio: bool,
    pub level: u8,
    pub nesting_limit: u8,
}

impl Mode {
    pub(crate) const CYCLES: Mode = Mode::new(false, false, false, 0, 0);
    pub(crate) const NISHIO: Mode = Mode::new(false, true, true, 0, 0);
    pub(crate) const MULTIPLE: Mode = Mode::new(true, false, false, 0, 0);
    pub(crate) const DYNAMIC: Mode = Mode::new(true, true, false, 0, 0);

    pub(crate) const fn new(
        multiple: bool,
        dynamic: bool,
        nishio: bool,
        level: u8,
        nesting_limit: u8,
    ) -> Mode {
        Mode {
            multiple,
            dynamic,
            nishio,
            level,
            nesting_limit,
        }
    }

    /// The base rating of the mode's multiple/dynamic hints.
    fn difficulty(self) -> f64 {
        if self.level > 0 {
            8.5 + 0.5 * self.level as f64
        } else if self.nishio {
            7.5
        } else if self.dynamic {
            8.5
        } else {
            8.0
        }
    }

    fn name_prefix(self) -> &'static str {
        if self.level > 0 || (self.dynamic && !self.nishio) {
            "Dynamic "
        } else if self.nishio {
            "Nishio "
        } else {
            ""
        }
    }

    fn name_suffix(self) -> String {
        format!(" Chains{}", nested_suffix(self.level))
    }
}

/// SE's name suffix for a nesting level.
fn nested_suffix(level: u8) -> String {
    match level {
        0 => String::new(),
        1 => " (+)".into(),
        2 => " (+ Forcing Chains)".into(),
        3 => " (+ Multiple Forcing Chains)".into(),
        4 => " (+ Dynamic Forcing Chains)".into(),
        l => format!(" (+ Dynamic Forcing Chains{})", nested_suffix(l - 3)),
    }
}

/// SE's `getLengthDifficulty`: 0.1 for each rung of the ladder 4, 6, 8, 12, 16, 24, … that
/// `complexity - 2` passes.
pub(crate) fn length_difficulty(complexity: u32) -> f64 {
    let mut added = 0.0f64;
    let mut ceil: i64 = 4;
    let length = complexity as i64 - 2;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        if !odd {
            ceil = ceil * 3 / 2;
        } else {
            ceil = ceil * 4 / 3;
        }
        odd = !odd;
    }
    added
}

/// What kind of chain hint, with what SE needs to name and describe it.
#[derive(Clone, Debug)]
enum Shape {
    Cycle {
        x: bool,
        y: bool,
        /// The cells of the cycle, in SE's display order.
        cells: Vec<usize>,
    },
    Forcing {
        x: bool,
        y: bool,
        target: Pot,
        turbot: bool,
    },
    Binary {
        src: Pot,
        dst_on: Pot,
        dst_off: Pot,
        absurd: bool,
    },
    Cell {
        src: usize,
        target: Pot,
    },
    Region {
        region: Region,
        value: u8,
        target: Pot,
    },
}

/// A chain hint as a record: enough to rank it and, for the winner, to build the step.
#[derive(Clone, Debug)]
pub(crate) struct ChainHint {
    difficulty: f64,
    complexity: u32,
    sort_key: u8,
    mode: Mode,
    shape: Shape,
    /// Removed candidates, `(cell, mask)` ascending by cell.
    elims: Vec<(u8, u16)>,
    place: Option<(u8, u8)>,
    /// When the hint is found by a nested search: what the enclosing chain needs of it.
    nest: Option<Box<NestData>>,
}

/// What a chain found inside another chain (SE's nested `ChainingHint`) hands to it.
#[derive(Clone, Debug)]
struct NestData {
    /// SE's `getRuleParents`: the candidates the enclosing chain removed that this chain used.
    parents: Vec<Pot>,
    /// SE's `FullChain` identity: each conclusion and the potentials behind it, in order.
    sig: Vec<u16>,
    /// The cells of the removals in the order SE's `HashMap` of them was filled.
    order: Vec<u8>,
}

impl ChainHint {
    /// SE's ordering of chain hints: rating, then complexity, then sort key.
    pub(crate) fn before(&self, other: &ChainHint) -> bool {
        if self.difficulty != other.difficulty {
            return self.difficulty < other.difficulty;
        }
        if self.complexity != other.complexity {
            return self.complexity < other.complexity;
        }
        self.sort_key < other.sort_key
    }

    pub(crate) fn name(&self) -> String {
        let m = self.mode;
        match &self.shape {
            Shape::Cycle { x, y, cells } => {
                if *x && *y {
                    "Bidirectional Cycle".into()
                } else if *y {
                    "Bidirectional Y-Cycle".into()
                } else if cells.len() == 4 {
                    "Generalized X-Wing".into()
                } else {
                    "Bidirectional X-Cycle".into()
                }
            }
            Shape::Forcing { x, y, turbot, .. } => {
                if *x && *y {
                    "Forcing Chain".into()
                } else if *y {
                    "Forcing Y-Chain".into()
                } else if *turbot {
                    "Turbot Fish".into()
                } else {
                    "Forcing X-Chain".into()
                }
            }
            Shape::Binary { absurd, .. } => {
                let kind = if m.nishio {
                    "Forcing"
                } else if *absurd {
                    "Contradiction Forcing"
                } else {
                    "Double Forcing"
                };
                format!("{}{}{}", m.name_prefix(), kind, m.name_suffix())
            }
            Shape::Cell { .. } => format!("{}Cell Forcing{}", m.name_prefix(), m.name_suffix()),
            Shape::Region { .. } => {
                format!("{}Region Forcing{}", m.name_prefix(), m.name_suffix())
            }
        }
    }

    pub(crate) fn text(&self) -> String {
        let onoff = |p: Pot| if pot_on(p) { " on" } else { " off" };
        match &self.shape {
            Shape::Cycle { cells, .. } => {
                let names: Vec<String> = cells.iter().map(|&c| cell_name(c)).collect();
                format!("{}: {}", self.name(), names.join(","))
            }
            Shape::Forcing { target, .. } => {
                format!("{}: {}{}", self.name(), pot_name(*target), onoff(*target))
            }
            Shape::Binary {
                src,
                dst_on,
                dst_off,
                absurd,
            } => {
                if self.mode.nishio {
                    format!(
                        "Nishio Forcing Chain: {}{} ==> {} both on & off",
                        pot_name(*src),
                        onoff(*src),
                        pot_name(*dst_off)
                    )
                } else if *absurd {
                    format!(
                        "Contradiction Forcing Chain: {}{} ==> {} both on & off",
                        pot_name(*src),
                        onoff(*src),
                        pot_name(*dst_off)
                    )
                } else {
                    format!(
                        "Double Forcing Chain: {} on & off ==> {}{}",
                        pot_name(*src),
                        pot_name(*dst_on),
                        onoff(*dst_on)
                    )
                }
            }
            Shape::Cell { src, target } => format!(
                "Cell Forcing Chains: {} ==> {}{}",
                cell_name(*src),
                pot_name(*target),
                onoff(*target)
            ),
            Shape::Region {
                region,
                value,
                target,
            } => format!(
                "Region Forcing Chains: {} in {} ==> {}{}",
                value,
                region_kind_name(*region),
                pot_name(*target),
                onoff(*target)
            ),
        }
    }

    /// The step this hint is.
    pub(crate) fn into_hint(self) -> Hint {
        Hint {
            rating: self.difficulty,
            elims: self.elims.clone(),
            place: self.place,
            detail: Detail::Chain(Box::new(self)),
        }
    }
}

/// A propagation's on and off potentials, as node ids in the order they were added, with an
/// index from cell-digit to node.
struct Prop {
    on: Vec<u32>,
    off: Vec<u32>,
    /// Node of each potential (indexed by the packed potential), `NONE` if not reached.
    idx: Box<[u32; 1458]>,
    /// Where the propagation stopped on a contradiction.
    absurd: Option<Absurd>,
    /// The potentials it holds as a set, made on first ask once it has run ([`Prop::set`]).
    set: PotSet,
    has_set: bool,
    /// The arena range of its nodes, where [`Chainer::propagation_from`] made it: every node
    /// made from its root on but the last one of a contradiction (which is not added).
    span: Option<(u32, u32)>,
}

impl Prop {
    fn new() -> Prop {
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
    fn set(&mut self, nodes: &[Node]) -> &PotSet {
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
    fn reset(&mut self, nodes: &[Node]) {
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
    fn get(&self, p: Pot) -> u32 {
        self.idx[p as usize]
    }
    #[inline]
    fn add(&mut self, p: Pot, node: u32) {
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
fn push_node(
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
fn push1(
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
struct Work {
    cands: [u16; 81],
    places: [[u16; 27]; 10],
}

impl Work {
    fn of(b: &Board) -> Work {
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
    fn remove(&mut self, cell: usize, v: u8) {
        self.cands[cell] &= !(1 << v);
        let places = &mut self.places[v as usize];
        let [(b, kb), (r, kr), (c, kc)] = CELL_SLOTS[cell];
        places[b as usize] &= kb;
        places[r as usize] &= kr;
        places[c as usize] &= kc;
    }

    /// The [`Board`] this grid is, `source` with the candidates it lost taken out (the loop
    /// only ever removes candidates).
    fn board(&self, source: &Board) -> Board {
        let mut g = source.clone();
        for c in 0..81 {
            g.remove_mask(c, source.cands[c] & !self.cands[c]);
        }
        g
    }
}

/// One step of the dynamic propagation loop: the node being expanded (`from`) and what its
/// consequences are added to.
struct Step<'a> {
    nodes: &'a mut Vec<Node>,
    parents: &'a mut Vec<u32>,
    pr: &'a mut Prop,
    from: u32,
}

impl Step<'_> {
    /// One potential derived, in SE's order (`doChaining`): if its opposite is in the
    /// propagation, a node for it is made and the contradiction returned; if it is new, a node
    /// is made and added; otherwise nothing happens. A node's extra ("hidden") parents, after
    /// `from`, are the propagation's off nodes of `hidden` (a potential without one is left
    /// out), looked up only when a node is made.
    #[inline(always)]
    fn derive(
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
    fn on_to_off(&mut self, grid: &Work, p: Pot, y: bool) -> ControlFlow<Absurd> {
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
    fn off_to_on(&mut self, source: &Work, grid: &Work, p: Pot, y: bool) -> ControlFlow<Absurd> {
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
struct Absurd {
    on: u32,
    off: u32,
}

/// The chaining engine: node arena, propagation pool and scratch space.
pub(crate) struct Chainer {
    nodes: Vec<Node>,
    parents: Vec<u32>,
    props: Vec<Prop>,
    props_used: usize,
    seen: PotSet,
    queue: Vec<u32>,
    /// Work done (potentials derived), for the caller's budget.
    pub(crate) work: u64,
    /// When this chainer runs as a nested rule: the enclosing chain's starting grid, against
    /// which the hints' rule parents are taken.
    rule_source: Option<Board>,
    /// The grid of the current multiple-chain search as a [`Work`] (set by `multiple_hints`,
    /// read by every dynamic propagation of that search).
    source: Work,
    /// The chainer nested rules run in.
    inner: Option<Box<Chainer>>,
    /// Nested chains referenced by nodes: (complexity, signature id).
    nested: Vec<(u32, u32)>,
    sigs: std::collections::HashMap<Vec<u16>, u32>,
    nested_seen: Vec<u32>,
    /// Scratch for the static searches and the propagation loop.
    stamp: u32,
    stamp_on: ByPot<u32>,
    stamp_off: ByPot<u32>,
    buf_a: Vec<u32>,
    buf_b: Vec<u32>,
    buf_c: Vec<u32>,
    /// Scratch for the cell and region chains: the nodes of the first propagation whose
    /// potentials every propagation of the chain holds ([`Chainer::common_nodes`]).
    common: Vec<u32>,
    /// The best hint's key so far, when only the best hint is wanted (top level): searches stop
    /// where they can no longer beat it.
    best: Option<Key>,
    /// The work budget.
    limit: u64,
    /// The propagation from each on potential, computed once per search (`NONE`: not yet).
    on_cache: Vec<u32>,
    /// Which partner of the cycle search's source each potential is, as a bit (0: none; set and
    /// cleared by each search).
    part: ByPot<u8>,
    /// Scratch for a unary search: the closing nodes of its cycles, its chain targets.
    found_cycles: Vec<u32>,
    found_chains: Vec<u32>,
    /// Scratch for the cycle search's batches: each node with its chain's partners.
    cyc_a: Vec<(u32, u32)>,
    cyc_b: Vec<(u32, u32)>,
    cyc_c: Vec<(u32, u32)>,
    /// The static links of the current search.
    links: Links,
    /// The grid `links` was built for.
    links_grid: Option<Board>,
    /// A second table, in `links`'s place while a search has moved that one out.
    spare_links: Option<Links>,
    /// "Found nothing" memos of the searches that read one digit only (see [`DigitMemo`]).
    x_memo: DigitMemo,
    /// "Found nothing" memo of the Y pass (see [`YMemo`]).
    y_memo: YMemo,
    nishio_memo: DigitMemo,
    /// Digits whose sources the current Nishio search skips (their memo holds).
    nishio_skip: u16,
    /// Each digit's places on the current Nishio search's grid, for its pre-test.
    digit_grids: [DigitGrid; 10],
    /// Reachability in the current unary pass's links (see [`Reach`]).
    reach: Reach,
    /// The links mode `reach` holds, on the grid `links` holds (`None`: neither).
    reach_mode: Option<(bool, bool, u16)>,
    /// Aligned triplet exclusion's memory (it keeps the thread's state here, with the memos
    /// of the chains).
    pub(crate) triplets: super::exclusion::TripletMemo,
    /// What the nested chain rules found on each reduced grid (see [`NestMemo`]).
    nest_memo: std::collections::HashMap<Vec<u8>, NestMemo>,
}

/// What one nested chain rule of [`Chainer::advanced_potentials`] found on one reduced grid,
/// and the work it cost; kept per puzzle, so that the same reduced grid met again (from another
/// source, level or step) is not searched again. Exact by construction:
/// - the key is the whole input of the inner search — the reduced grid's values and candidates
///   and the rule (its mode) — compared in full on a hit;
/// - the inner search reads the enclosing chain's starting grid only for the rule parents (the
///   candidates it had that the reduced grid lacks); the inner chainer takes them against a grid
///   with every candidate in every empty cell, and each use keeps those the enclosing grid had,
///   the same list in the same order (the enclosing grid only has fewer candidates, in the same
///   empty cells);
/// - only complete runs are kept (the inner search never ran out of budget), and a hit is taken
///   only when its recorded work fits the budget the search would have had, and adds that work:
///   the counter, and so `--se-budget`, move exactly as if the search had run again.
struct NestMemo {
    work: u64,
    /// Each nested hint handed over, in order.
    found: Vec<NestFound>,
}

/// A nested hint as [`NestMemo`] keeps it.
struct NestFound {
    complexity: u32,
    sig: Vec<u16>,
    /// The removals, per cell.
    masks: [u16; 81],
    /// Their cells in the order SE's map of them was filled.
    order: Vec<u8>,
    /// The rule parents against every candidate the reduced grid lacks.
    parents: Vec<Pot>,
}

/// The most reduced grids [`NestMemo`] keeps before it starts over (memory bound).
const NEST_MEMO_MAX: usize = 20_000;

/// For searches whose every potential is of one digit — X-chains and cycles, Nishio — what a
/// source of digit `v` finds depends on `v`'s candidate cells alone (given that every unsolved
/// cell has two candidates or more, which SE's order guarantees: naked singles come first).
/// When such a search found no hint at all, no search pruned anything, so no source of any
/// digit had a hint: `clean[v]` keeps `v`'s cells then, and a later search on a grid where
/// `v`'s cells are the same skips `v`'s sources. Which hint wins cannot change: those sources
/// would hand over nothing.
#[derive(Clone, Copy, Default)]
struct DigitMemo {
    clean: [Option<Cells>; 10],
}

impl DigitMemo {
    /// The digits whose sources `b` lets this memo skip.
    fn skip(&self, b: &Board) -> u16 {
        let mut m = 0;
        for v in 1..=9 {
            if self.clean[v] == Some(b.digits[v]) {
                m |= 1 << v;
            }
        }
        m
    }
    /// Records that no source of any digit had a hint on `b`.
    fn record(&mut self, b: &Board) {
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
struct YMemo {
    /// The candidates of the grid where the Y pass found nothing.
    clean: Option<[u16; 81]>,
}

impl YMemo {
    /// Does the Y pass on `b` find nothing, by the record?
    fn holds(&self, b: &Board) -> bool {
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
    fn record(&mut self, b: &Board) {
        self.clean = Some(b.cands);
    }
}

/// The cells with two candidates.
fn bivalue_cells(b: &Board) -> Cells {
    (0..81)
        .filter(|&c| b.count(c) == 2)
        .fold(0, |m, c| m | 1u128 << c)
}

/// Every unsolved cell has two candidates or more (the memos' premise).
fn no_short_cell(b: &Board) -> bool {
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
struct Links {
    /// Every potential's links, both kinds, potential after potential.
    edges: Vec<(Pot, Cause)>,
    /// The selected mode's slice of each potential's list.
    lo: ByPot<u32>,
    hi: ByPot<u32>,
    /// Each mode's slices (X, Y, XY: see [`Links::mode`]), made by the build; the selected
    /// mode's are swapped into `lo` and `hi` (what they held waits in its place here).
    modes: [(ByPot<u32>, ByPot<u32>); 3],
    /// The mode whose slices `lo` and `hi` hold.
    selected: Option<usize>,
    /// How many entries of `edges` are in some list (see [`Links::update`]).
    live: usize,
}

impl Links {
    /// Builds the table of `b`, with every mode's slices.
    fn build(&mut self, b: &Board) {
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
    fn list(&mut self, b: &Board, cell: usize, v: u8) {
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
    fn update(&mut self, old: &Board, b: &Board) {
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
    fn list_of(&self, m: usize, p: usize) -> &[(Pot, Cause)] {
        let (lo, hi) = if self.selected == Some(m) {
            (&self.lo, &self.hi)
        } else {
            (&self.modes[m].0, &self.modes[m].1)
        };
        &self.edges[lo[p] as usize..hi[p] as usize]
    }

    /// Both tables hold the same lists in every mode.
    #[cfg(any(test, debug_assertions))]
    fn assert_same(&self, other: &Links) {
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
    fn check(&self, b: &Board) {
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
    fn mode(y: bool, x: bool) -> usize {
        match (y, x) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        }
    }

    /// Puts the selected mode's slices back in [`Links::modes`].
    fn park(&mut self) {
        if let Some(m) = self.selected.take() {
            let (lo, hi) = &mut self.modes[m];
            std::mem::swap(&mut self.lo, lo);
            std::mem::swap(&mut self.hi, hi);
        }
    }

    /// Selects the links of mode (`y`, `x`) (swaps its slices in: no copy).
    fn select(&mut self, y: bool, x: bool) {
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
    fn of(&self, p: Pot) -> &[(Pot, Cause)] {
        &self.edges[self.lo[p as usize] as usize..self.hi[p as usize] as usize]
    }

    /// Has the potential no consequence in the selected mode? Such an off potential is a dead
    /// end of the unary searches (see [`Chainer::do_cycles`]).
    #[inline(always)]
    fn leads_nowhere(&self, p: Pot) -> bool {
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
struct Reach {
    /// Each potential's state: [`Reach::UNSEEN`] (not visited: not a candidate, or not
    /// reached from the cells built from), its visit order while it is on Tarjan's stack, and
    /// once its component is complete, that component's number with [`Reach::DONE`] set. One
    /// table for both, so that Tarjan reads one entry per edge.
    state: ByPot<u16>,
    /// How many on potentials each component holds.
    ons: Vec<u16>,
    /// Words per component in `closure` (enough for every component the build can make).
    words: usize,
    /// Per component, the components it reaches (itself included), `words` words each.
    closure: Vec<u64>,
    /// Tarjan's scratch: the stack and the explicit call stack (each parent's potential, next
    /// edge, list end and low link).
    stack: Vec<u16>,
    calls: Vec<(u16, u32, u32, u16)>,
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
    fn comp(&self, p: Pot) -> usize {
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
    fn build(&mut self, links: &Links, b: &Board, digits: u16, cells: Cells, closure: bool) {
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
    fn start_row(closure: &mut [u64], words: usize, c: usize) {
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
    fn strong_connect(&mut self, links: &Links, root: Pot, next: &mut u16) {
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
    fn reaches(&self, from: Pot, to: Pot) -> bool {
        let (c, d) = (self.comp(from), self.comp(to));
        // A component reaches only components numbered up to its own, and its row holds no
        // more words than those need.
        d <= c && self.closure[c * self.words + d / 64] >> (d % 64) & 1 == 1
    }

    /// Do the potentials `pots` (candidates' potentials) all reach one potential, counting
    /// each as reaching itself? False means that no potential is reached by every one of them.
    fn meet(&self, pots: impl Iterator<Item = Pot>) -> bool {
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
    fn may_cycle(&self, p: Pot) -> bool {
        self.ons[self.comp(p)] >= 2
    }
}

/// SE's sort key of a chain hint: rating, complexity, sort key.
type Key = (f64, u32, u8);

/// Does `a` sort strictly before `b`?
#[inline]
fn key_less(a: Key, b: Key) -> bool {
    a.0 < b.0 || (a.0 == b.0 && (a.1 < b.1 || (a.1 == b.1 && a.2 < b.2)))
}

/// The regions a digit of a cell is region-chained in, with the digit's places there: the
/// first `.1` entries (see [`Chainer::chained_regions`]).
#[derive(Default)]
struct Chained([(Region, Cells); 3], usize);

impl Default for Chainer {
    fn default() -> Self {
        Chainer::new()
    }
}

impl Chainer {
    pub(crate) fn new() -> Chainer {
        Chainer {
            nodes: Vec::new(),
            parents: Vec::new(),
            props: Vec::new(),
            props_used: 0,
            seen: PotSet::new(),
            queue: Vec::new(),
            work: 0,
            rule_source: None,
            source: Work {
                cands: [0; 81],
                places: [[0; 27]; 10],
            },
            inner: None,
            nested: Vec::new(),
            sigs: std::collections::HashMap::new(),
            nested_seen: Vec::new(),
            stamp: 0,
            stamp_on: ByPot::new(0),
            stamp_off: ByPot::new(0),
            buf_a: Vec::new(),
            buf_b: Vec::new(),
            buf_c: Vec::new(),
            common: Vec::new(),
            best: None,
            limit: u64::MAX,
            on_cache: vec![NONE; 729],
            part: ByPot::new(0),
            found_cycles: Vec::new(),
            found_chains: Vec::new(),
            cyc_a: Vec::new(),
            cyc_b: Vec::new(),
            cyc_c: Vec::new(),
            links: Links::default(),
            links_grid: None,
            spare_links: None,
            x_memo: DigitMemo::default(),
            y_memo: YMemo::default(),
            nishio_memo: DigitMemo::default(),
            nishio_skip: 0,
            digit_grids: [DigitGrid::default(); 10],
            reach: Reach::default(),
            reach_mode: None,
            triplets: Default::default(),
            nest_memo: std::collections::HashMap::new(),
        }
    }

    /// Sets the work budget: once more potentials than this have been derived, every search
    /// stops and [`Chainer::spent`] says so.
    pub(crate) fn set_limit(&mut self, limit: u64) {
        self.limit = limit;
        self.forget_memos();
    }

    /// Forgets every memo, here and in every chainer nested in this one, so that nothing from
    /// one puzzle reaches the next: a memo hit skips work, and the work a puzzle counts against
    /// its budget must not depend on what the thread rated before it.
    fn forget_memos(&mut self) {
        self.nest_memo.clear();
        self.x_memo = DigitMemo::default();
        self.y_memo = YMemo::default();
        self.nishio_memo = DigitMemo::default();
        self.triplets.forget();
        if let Some(inner) = self.inner.as_mut() {
            inner.forget_memos();
        }
    }

    /// The budget ran out.
    #[inline]
    pub(crate) fn spent(&self) -> bool {
        self.work > self.limit
    }

    /// Records a hint handed over, for pruning (top level only).
    /// Notes `h` (when there is one) and hands it to `keep`.
    fn offer(&mut self, h: Option<ChainHint>, keep: &mut dyn FnMut(ChainHint)) {
        if let Some(h) = h {
            self.note(&h);
            keep(h);
        }
    }

    fn note(&mut self, h: &ChainHint) {
        if self.rule_source.is_none() {
            let k = (h.difficulty, h.complexity, h.sort_key);
            if self.best.is_none_or(|b| key_less(k, b)) {
                self.best = Some(k);
            }
        }
    }

    /// Could a hint with this base rating, sort key and (at least) this complexity still sort
    /// before the best one so far? Always, when every hint is wanted.
    #[inline]
    fn can_beat(&self, base: f64, complexity: u32, sort_key: u8) -> bool {
        match self.best {
            None => true,
            Some(b) => key_less(
                (base + length_difficulty(complexity), complexity, sort_key),
                b,
            ),
        }
    }

    /// Selects the links of mode (`y`, `x`) on `b`, building the table unless it holds `b`.
    fn static_links(&mut self, b: &Board, y: bool, x: bool) {
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
    fn static_reach(&mut self, b: &Board, y: bool, x: bool, digits: u16) {
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
    fn take_links(&mut self) -> Links {
        let spare = self.spare_links.take().unwrap_or_default();
        std::mem::replace(&mut self.links, spare)
    }

    /// Puts back the link table [`Chainer::take_links`] moved out.
    fn put_links(&mut self, links: Links) {
        self.spare_links = Some(std::mem::replace(&mut self.links, links));
    }

    /// Forgets every node and propagation.
    fn reset(&mut self) {
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

    fn new_prop(&mut self) -> usize {
        if self.props_used == self.props.len() {
            self.props.push(Prop::new());
        }
        self.props_used += 1;
        self.props_used - 1
    }

    fn node(&mut self, pot: Pot, cause: Cause, parents: &[u32]) -> u32 {
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

    fn parents_of(&self, n: u32) -> &[u32] {
        let node = &self.nodes[n as usize];
        &self.parents[node.first_parent as usize..(node.first_parent + node.parent_count) as usize]
    }

    /// SE's `getAncestorCount`: the distinct potentials reached from `n` through parents,
    /// itself included (breadth first, a potential's first-met node expanded).
    fn ancestor_count(&mut self, n: u32) -> u32 {
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
    fn complexity(&mut self, targets: &[u32]) -> u32 {
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
    fn chain_nodes(&self, target: u32) -> Vec<u32> {
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
    fn removed_behind(
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
    fn nest_data(
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

    // -----------------------------------------------------------------------------------------
    // Unary chains: cycles and forcing chains

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

    fn unary_chaining(
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
    fn push_on_to_off(b: &Board, p: Pot, y: bool, out: &mut Vec<(Pot, Cause)>) {
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
    fn off_targets(
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
    fn next_stamp(&mut self) -> u32 {
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
    fn do_cycles(
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
    fn do_forcing_chains(&mut self, src: Pot, y: bool, chains: &mut Vec<u32>) {
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
    fn cycle_hint(&mut self, b: &Board, dst: u32, y: bool, x: bool) -> Option<ChainHint> {
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
            elims: super::hint::elims_from(&masks),
            place: None,
            nest,
        })
    }

    /// Whether the cycle closing at `dst` removes anything, as [`Chainer::cycle_hint`] decides
    /// it (a candidate off the cycle's cells seen by an on potential and by an off potential
    /// of its digit), from one mask per digit and side instead of the lists it builds: most
    /// cycles remove nothing, and then no list is needed.
    fn cycle_removes(&self, b: &Board, dst: u32) -> bool {
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
    fn cycle_nest_data(
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
    fn forcing_chain_hint(&mut self, b: &Board, t: u32, y: bool, x: bool) -> Option<ChainHint> {
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

    // -----------------------------------------------------------------------------------------
    // Multiple, dynamic and Nishio chains

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

    fn cell_hints(
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
    fn common_nodes(&mut self, props: &[usize], out: &mut Vec<u32>) {
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
    fn common_nodes_by_lists(&self, props: &[usize]) -> Vec<u32> {
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
    fn nishio_cell(&mut self, b: &Board, mode: Mode, cell: usize, keep: &mut dyn FnMut(ChainHint)) {
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
    fn assert_barren(&mut self, b: &Board, mode: Mode, p: Pot) {
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
    fn chained_regions(&self, b: &Board, mode: Mode, cell: usize, v: u8, fixed: bool) -> Chained {
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
    fn region_chainings(
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
    fn offer_reductions(
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
    fn reduction_hint(
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
    fn binary_hint(
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
    fn static_loop(&mut self, links: &Links, prop: usize) -> Option<Absurd> {
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
    fn on_propagation(&mut self, b: &Board, mode: Mode, p: Pot) -> usize {
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
    fn propagation_from(&mut self, b: &Board, mode: Mode, p: Pot) -> (usize, Option<Absurd>) {
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
    fn do_chaining(&mut self, b: &Board, mode: Mode, prop: usize) -> Option<Absurd> {
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

    fn chaining_loop(
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

    // -----------------------------------------------------------------------------------------
    // Dynamic (+) and nested chains: what simpler techniques remove from the reduced grid

    /// SE's `getAdvancedPotentials`: the techniques of the mode's level, in order, run on the
    /// reduced `grid`; the first that finds something whose premises include candidates the
    /// chain removed (`source` had them, `grid` has not) supplies off potentials, each with those
    /// removed candidates as parents.
    fn advanced_potentials(
        &mut self,
        grid: &Board,
        source: &Board,
        mode: Mode,
        prop: usize,
    ) -> Vec<Advanced> {
        let _ = (mode, prop);
        let mut out = Vec::new();
        // Pointing and claiming.
        let _ = basic::locking_findings(grid, &mut |r1, r2, v| {
            let mut order = Vec::new();
            for &c in &REGION_CELLS[r2] {
                let c = c as usize;
                if REGION_MASK[r1] & (1u128 << c) == 0 && grid.has(c, v) {
                    order.push(c as u8);
                }
            }
            if order.is_empty() {
                return std::ops::ControlFlow::Continue(());
            }
            let mut parents = Vec::new();
            for &c in &REGION_CELLS[r1] {
                let c = c as usize;
                if REGION_MASK[r2] & (1u128 << c) == 0 && source.has(c, v) && !grid.has(c, v) {
                    parents.push(pot(c, v, false));
                }
            }
            if !parents.is_empty() {
                let mut masks = [0u16; 81];
                for &c in &order {
                    masks[c as usize] = 1 << v;
                }
                push_advanced(&mut out, &masks, &order, &parents, NONE);
            }
            std::ops::ControlFlow::Continue(())
        });
        if !out.is_empty() {
            return out;
        }
        // Hidden pairs.
        let _ = basic::hidden_set_findings(grid, 2, false, &mut |f| {
            let masks = basic::hidden_set_elims(grid, f);
            let order: Vec<u8> = REGION_CELLS[f.region]
                .iter()
                .copied()
                .filter(|&c| masks[c as usize] != 0)
                .collect();
            if order.is_empty() {
                return std::ops::ControlFlow::Continue(());
            }
            let mut parents = Vec::new();
            for (k, &c) in REGION_CELLS[f.region].iter().enumerate() {
                if f.positions & (1 << k) != 0 {
                    continue;
                }
                for v in digits_of(f.values) {
                    if source.has(c as usize, v) {
                        parents.push(pot(c as usize, v, false));
                    }
                }
            }
            if !parents.is_empty() {
                push_advanced(&mut out, &masks, &order, &parents, NONE);
            }
            std::ops::ControlFlow::Continue(())
        });
        if !out.is_empty() {
            return out;
        }
        // Naked pairs.
        let _ = basic::naked_set_findings(grid, 2, &mut |f| {
            let mut masks = [0u16; 81];
            let mut order = Vec::new();
            for &c in &REGION_CELLS[f.region] {
                let c = c as usize;
                if f.cells & (1u128 << c) == 0 && grid.cands[c] & f.values != 0 {
                    masks[c] = grid.cands[c] & f.values;
                    order.push(c as u8);
                }
            }
            if order.is_empty() {
                return std::ops::ControlFlow::Continue(());
            }
            let mut parents = Vec::new();
            for &c in &REGION_CELLS[f.region] {
                let c = c as usize;
                if f.cells & (1u128 << c) == 0 {
                    continue;
                }
                for v in digits_of(source.cands[c] & !f.values) {
                    parents.push(pot(c, v, false));
                }
            }
            if !parents.is_empty() {
                push_advanced(&mut out, &masks, &order, &parents, NONE);
            }
            std::ops::ControlFlow::Continue(())
        });
        if !out.is_empty() {
            return out;
        }
        // X-wings.
        let _ = basic::fish_findings(grid, 2, &mut |f| {
            let (masks, order) = basic::fish_elims(grid, f);
            if order.is_empty() {
                return std::ops::ControlFlow::Continue(());
            }
            let cover_kind = if f.base_kind == COLUMN { ROW } else { COLUMN };
            let mut covers = 0u128;
            for line in basic::bits(f.cover as u32) {
                covers |= REGION_MASK[cover_kind * 9 + line];
            }
            let v = f.value;
            let mut parents = Vec::new();
            for line in basic::bits(f.base as u32) {
                for &c in &REGION_CELLS[f.base_kind * 9 + line] {
                    let c = c as usize;
                    if covers & (1u128 << c) == 0 && source.has(c, v) && !grid.has(c, v) {
                        parents.push(pot(c, v, false));
                    }
                }
            }
            if !parents.is_empty() {
                push_advanced(&mut out, &masks, &order, &parents, NONE);
            }
            std::ops::ControlFlow::Continue(())
        });
        if !out.is_empty() || mode.level < 2 {
            return out;
        }
        // Nested chains: forcing chains and cycles (levels 2 and 3), then multiple forcing
        // chains (level 3); from level 4, dynamic forcing chains nested to the mode's limit.
        let rules: &[Option<Mode>] = match mode.level {
            2 => &[None],
            3 => &[None, Some(Mode::MULTIPLE)],
            _ => &[Some(Mode::new(true, true, false, mode.nesting_limit, 0))],
        };
        // The inner searches take their rule parents against every candidate `grid` lacks (see
        // [`NestMemo`]); those `source` had are kept below.
        let left = self.limit.saturating_sub(self.work);
        let mut grid_key = Vec::with_capacity(81 * 3 + 4);
        grid_key.extend_from_slice(&grid.values);
        for &m in &grid.cands {
            grid_key.extend_from_slice(&m.to_le_bytes());
        }
        let mut inner = None;
        for rule in rules {
            let mut key = grid_key.clone();
            match rule {
                None => key.push(0),
                Some(m) => key.extend_from_slice(&[1, m.dynamic as u8, m.level, m.nesting_limit]),
            }
            let memo = match self.nest_memo.remove(&key) {
                Some(memo) if memo.work <= left => memo,
                _ => {
                    let inner = inner.get_or_insert_with(|| {
                        let mut full = grid.clone();
                        for c in 0..81 {
                            if full.values[c] == 0 {
                                full.cands[c] = 0x3FE;
                            }
                        }
                        for v in 1..10 {
                            full.digits[v] = full.empty;
                        }
                        let mut inner = self.inner.take().unwrap_or_default();
                        inner.rule_source = Some(full);
                        inner.limit = left;
                        inner
                    });
                    inner.work = 0;
                    let mut hints: Vec<ChainHint> = Vec::new();
                    match rule {
                        None => inner.unary_hints(grid, &mut |h| hints.push(h)),
                        Some(m) => inner.multiple_hints(grid, *m, &mut |h| hints.push(h)),
                    }
                    // SE sorts them (stably) and keeps the first of equal removals.
                    hints.sort_by(|a, b| {
                        if a.before(b) {
                            std::cmp::Ordering::Less
                        } else if b.before(a) {
                            std::cmp::Ordering::Greater
                        } else {
                            std::cmp::Ordering::Equal
                        }
                    });
                    let mut memo = NestMemo {
                        work: inner.work,
                        found: Vec::new(),
                    };
                    inner.work = 0;
                    let mut kept: Vec<&ChainHint> = Vec::new();
                    for h in &hints {
                        if kept.iter().any(|k| k.elims == h.elims) {
                            continue;
                        }
                        kept.push(h);
                        let Some(nest) = &h.nest else {
                            continue;
                        };
                        let mut masks = [0u16; 81];
                        for &(c, m) in &h.elims {
                            masks[c as usize] = m;
                        }
                        memo.found.push(NestFound {
                            complexity: h.complexity,
                            sig: nest.sig.clone(),
                            masks,
                            order: nest.order.clone(),
                            parents: nest.parents.clone(),
                        });
                    }
                    memo
                }
            };
            self.work += memo.work;
            if self.spent() {
                break;
            }
            let mut parents = Vec::new();
            for f in &memo.found {
                parents.clear();
                parents.extend(
                    f.parents
                        .iter()
                        .copied()
                        .filter(|&q| source.has(pot_cell(q), pot_value(q))),
                );
                if parents.is_empty() {
                    continue;
                }
                self.push_nested(&mut out, f.complexity, &f.sig, &f.masks, &f.order, &parents);
            }
            // A complete run (the budget held) is kept for the next time this grid comes.
            if memo.work <= left {
                if self.nest_memo.len() >= NEST_MEMO_MAX {
                    self.nest_memo.clear();
                }
                self.nest_memo.insert(key, memo);
            }
            if !out.is_empty() {
                break;
            }
        }
        if let Some(mut inner) = inner {
            inner.rule_source = None;
            self.inner = Some(inner);
        }
        out
    }

    /// Hands a nested hint's removals over as advanced potentials, its chain registered for the
    /// complexity count.
    fn push_nested(
        &mut self,
        out: &mut Vec<Advanced>,
        complexity: u32,
        sig: &[u16],
        masks: &[u16; 81],
        order: &[u8],
        parents: &[Pot],
    ) {
        let sig = match self.sigs.get(sig) {
            Some(&id) => id,
            None => {
                let id = self.sigs.len() as u32;
                self.sigs.insert(sig.to_vec(), id);
                id
            }
        };
        let nested = self.nested.len() as u32;
        self.nested.push((complexity, sig));
        push_advanced(out, masks, order, parents, nested);
    }
}

/// An off potential a simpler technique supplies inside a chain.
struct Advanced {
    pot: Pot,
    /// The potentials (off, removed by the chain) the technique relied on.
    parents: Vec<Pot>,
    /// The nested chain it came from, or `NONE`.
    nested: u32,
}

/// The order Java's `HashMap<Cell, …>` iterates cells inserted in `order`: by bucket (the cell
/// index modulo the table size, 16 doubling past 3/4 full), insertion order within a bucket.
fn java_hashmap_order(order: &[u8]) -> Vec<u8> {
    let mut cap = 16usize;
    while order.len() > cap * 3 / 4 {
        cap *= 2;
    }
    let mut out = order.to_vec();
    out.sort_by_key(|&c| c as usize & (cap - 1));
    out
}

/// Appends a technique's removals, in SE's iteration order, as advanced potentials.
fn push_advanced(
    out: &mut Vec<Advanced>,
    masks: &[u16; 81],
    order: &[u8],
    parents: &[Pot],
    nested: u32,
) {
    for c in java_hashmap_order(order) {
        for v in digits_of(masks[c as usize]) {
            out.push(Advanced {
                pot: pot(c as usize, v, false),
                parents: parents.to_vec(),
                nested,
            });
        }
    }
}

/// The base rating and sort key of a unary chain hint: cycles 6.5, forcing X/Y chains 6.6,
/// either with both links 7.0; sort keys X 2, Y 3, XY 4.
fn unary_base(cycle: bool, x: bool, y: bool) -> (f64, u8) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    fn holds(set: &PotSet, p: Pot) -> bool {
        set.0[p as usize / 64] >> (p as usize % 64) & 1 == 1
    }

    /// The potentials `from` reaches through one link or more, by a plain search.
    fn reached(links: &Links, from: Pot) -> PotSet {
        let mut seen = PotSet::new();
        let mut queue = vec![from];
        while let Some(p) = queue.pop() {
            for &(q, _) in links.of(p) {
                if seen.insert(q) {
                    queue.push(q);
                }
            }
        }
        seen
    }

    /// `Reach` answers, for every pair of candidate potentials, what a search of the links
    /// finds, in the three unary modes (in the Y mode, built from the bivalue cells, for what
    /// their potentials reach), on puzzles and on grids with candidates taken out; two of them
    /// share a component exactly when each reaches the other; and `may_cycle` is false only
    /// where no on potential reached from the source leads back to it.
    /// In the static multiple mode's links, every propagation derives only what its source
    /// reaches, and `meet` agrees with the searches on every cell's and region's group.
    /// A cell and a digit drawn by a xorshift step of `seed`.
    fn random_candidate(seed: &mut u64) -> (usize, u8) {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        ((*seed % 81) as usize, (*seed / 81 % 9 + 1) as u8)
    }

    /// The next grid of a test's sequence: `hint` applied if there is one, else `tries`
    /// random candidates taken out of cells with more than `keep` (`(tries, keep)`); then the
    /// naked singles left placed.
    fn next_grid(
        b: &mut Board,
        hint: Option<&ChainHint>,
        seed: &mut u64,
        (tries, keep): (u32, u32),
    ) {
        match hint {
            Some(h) => {
                for &(cell, m) in &h.elims {
                    b.remove_mask(cell as usize, m);
                }
                if let Some((cell, v)) = h.place {
                    b.place(cell as usize, v);
                }
            }
            None => {
                for _ in 0..tries {
                    let (cell, v) = random_candidate(seed);
                    if b.has(cell, v) && b.count(cell) > keep {
                        b.remove(cell, v);
                    }
                }
            }
        }
        while let Some(cell) = (0..81).find(|&c| b.values[c] == 0 && b.count(c) == 1) {
            let v = b.cands[cell].trailing_zeros() as u8;
            b.place(cell, v);
        }
    }

    /// The Nishio pre-test never misses a contradiction: along sequences of grids (the best
    /// Nishio hint applied, with the naked singles it leaves, or now and then candidates taken
    /// out), for every candidate of every digit, the real propagation from its on and from its
    /// off potential finds a contradiction only where the bitboard closure finds one; both
    /// answers occur. (The closure also flags some the propagation does not report, e.g. the
    /// off potential of a hidden single these grids leave: SE derives nothing from a region
    /// with no place left, the closure calls it a contradiction.)
    /// `common_nodes` (set intersection, then the first propagation's order) hands over the
    /// nodes that walking the first propagation's lists and keeping those every other
    /// propagation holds gives, in that order: for every cell's digits and every region's
    /// places, on the propagations of dynamic searches along solving paths (the sets made from
    /// the propagations' spans of the arena); and the reset over those spans clears every index.
    #[test]
    fn common_nodes_are_the_filtered_lists() {
        let puzzles = [
            "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64...",
            "7.....4...2..7..8...3..8.799..5..3...6..2..9...1.97..6...3..9...3..4..6...9..1.35",
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let (mut groups, mut found) = (0usize, 0usize);
        for text in puzzles {
            let g: Grid = text.parse().unwrap();
            let mut b = Board::new(&g);
            for round in 0..12 {
                for mode in [Mode::DYNAMIC, Mode::MULTIPLE] {
                    let mut hints = Vec::new();
                    let mut chainer = Chainer::new();
                    chainer.multiple_hints(&b, mode, &mut |h| hints.push(h));
                    // The on propagations the search made, by cell and digit.
                    let props_of = |cells: Cells, v: Option<u8>, c: &Chainer| -> Vec<usize> {
                        let mut out = Vec::new();
                        for cell in cells_of(cells) {
                            for d in 1..=9u8 {
                                if v.is_some_and(|v| v != d) || !b.has(cell, d) {
                                    continue;
                                }
                                let n = c.on_cache[cv(pot(cell, d, true))];
                                if n != NONE {
                                    out.push(n as usize);
                                }
                            }
                        }
                        out
                    };
                    let mut sets: Vec<Vec<usize>> = Vec::new();
                    for cell in 0..81 {
                        sets.push(props_of(1 << cell, None, &chainer));
                    }
                    for v in 1..=9u8 {
                        for &mask in &REGION_MASK {
                            sets.push(props_of(b.digits[v as usize] & mask, Some(v), &chainer));
                        }
                    }
                    // Each off propagation with the on one of its potential (double chains).
                    for i in 0..chainer.props_used {
                        let Some(&root) = chainer.props[i].off.first() else {
                            continue;
                        };
                        let p = chainer.nodes[root as usize].pot;
                        let on = chainer.on_cache[cv(p)];
                        let off_root = chainer.props[i].on.first().is_none_or(|&n| n > root);
                        if off_root && on != NONE {
                            sets.push(vec![on as usize, i]);
                        }
                    }
                    let mut out = Vec::new();
                    for props in sets.into_iter().filter(|p| p.len() >= 2) {
                        chainer.common_nodes(&props, &mut out);
                        assert_eq!(out, chainer.common_nodes_by_lists(&props), "{text} {round}");
                        groups += 1;
                        found += out.len();
                    }
                    // The reset (over each propagation's span of the arena) leaves every
                    // index empty and every set clear.
                    let used = chainer.props_used;
                    chainer.reset();
                    for pr in &chainer.props[..used] {
                        assert!(pr.idx.iter().all(|&n| n == NONE), "{text} {round}");
                        assert!(pr.set.0.iter().all(|&w| w == 0) && pr.span.is_none());
                    }
                    if mode == Mode::DYNAMIC {
                        let best = hints.iter().reduce(|a, h| if h.before(a) { h } else { a });
                        next_grid(&mut b, best.filter(|_| round % 3 != 2), &mut seed, (4, 2));
                    }
                }
                if b.is_solved() {
                    break;
                }
            }
        }
        assert!(groups > 1000 && found > 1000, "{groups} {found}");
        eprintln!("common nodes: {groups} groups, {found} nodes");
    }

    #[test]
    fn the_nishio_pre_test_flags_every_contradiction() {
        let puzzles = [
            "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64...",
            "7.....4...2..7..8...3..8.799..5..3...6..2..9...1.97..6...3..9...3..4..6...9..1.35",
            "1...34.8....8..5....4.6..21.18......3..1.2..6......81.52..7.9....6..9....9.64...2",
            "..3..6.8....1..2......7...4..9..8.6..3..4..9..7.6..2..4...8......5..1....2.9..6..",
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let (mut absurd, mut flagged, mut tested) = (0usize, 0usize, 0usize);
        for text in puzzles {
            let g: Grid = text.parse().unwrap();
            let mut b = Board::new(&g);
            for round in 0..30 {
                let mut chainer = Chainer::new();
                chainer.reset();
                chainer.source = Work::of(&b);
                for v in 1..=9u8 {
                    let grid = DigitGrid::of(&b, v);
                    for cell in cells_of(b.digits[v as usize]) {
                        for on in [true, false] {
                            let p = pot(cell, v, on);
                            let prop = chainer.new_prop();
                            let root = chainer.node(p, Cause::None, &[]);
                            chainer.props[prop].add(p, root);
                            let found = chainer.do_chaining(&b, Mode::NISHIO, prop).is_some();
                            let flag = grid.contradicts(cell, on);
                            assert!(!found || flag, "{text} {round} {}", pot_name(p));
                            absurd += usize::from(found);
                            flagged += usize::from(flag);
                            tested += 1;
                        }
                    }
                }
                let mut hints = Vec::new();
                let mut chainer = Chainer::new();
                chainer.multiple_hints(&b, Mode::NISHIO, &mut |h| hints.push(h));
                let best = hints.iter().reduce(|a, h| if h.before(a) { h } else { a });
                next_grid(&mut b, best.filter(|_| round % 4 != 3), &mut seed, (4, 2));
                if b.is_solved() {
                    break;
                }
            }
        }
        assert!(
            absurd > 0 && flagged < tested,
            "{absurd} {flagged} {tested}"
        );
        eprintln!("nishio pre-test: {absurd} contradictions, {flagged} flagged of {tested}");
    }

    /// The Y pass's "found nothing" memo changes no hint: along sequences of grids (the first
    /// unary hint applied, with the naked singles it leaves, or now and then candidates taken
    /// out of cells with four or more, so that the bivalue cells stay), a chainer that
    /// remembers hands over the same unary hints, in the same order, as a fresh one; and the
    /// memo is used.
    #[test]
    fn the_y_memo_keeps_the_unary_hints() {
        let puzzles = [
            "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64...",
            "7.....4...2..7..8...3..8.799..5..3...6..2..9...1.97..6...3..9...3..4..6...9..1.35",
            "1...34.8....8..5....4.6..21.18......3..1.2..6......81.52..7.9....6..9....9.64...2",
        ];
        let hints = |c: &mut Chainer, b: &Board| {
            let mut out = Vec::new();
            c.unary_hints(b, &mut |h| out.push(h));
            out
        };
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut kept = Chainer::new();
        let (mut hits, mut rounds) = (0, 0);
        for text in puzzles {
            let g: Grid = text.parse().unwrap();
            let mut b = Board::new(&g);
            kept.set_limit(u64::MAX);
            for round in 0..60 {
                hits += usize::from(no_short_cell(&b) && kept.y_memo.holds(&b));
                let with = hints(&mut kept, &b);
                let mut fresh = Chainer::new();
                fresh.set_limit(u64::MAX);
                let without = hints(&mut fresh, &b);
                assert_eq!(format!("{with:?}"), format!("{without:?}"), "{round}");
                rounds += 1;
                next_grid(
                    &mut b,
                    with.first().filter(|_| round % 3 != 2),
                    &mut seed,
                    (3, 3),
                );
                if b.is_solved() || !no_short_cell(&b) {
                    break;
                }
            }
        }
        assert!(hits > 5, "{hits} of {rounds}");
    }

    /// The link table made up to date from another grid's (`Links::update`) holds the lists a
    /// build makes, in every mode: along a solving path of sorts (candidates taken out, digits
    /// placed), and between unrelated grids (candidates come back too).
    #[test]
    fn updated_links_are_those_a_build_makes() {
        let puzzles = [
            "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64...",
            "7.....4...2..7..8...3..8.799..5..3...6..2..9...1.97..6...3..9...3..4..6...9..1.35",
            "1...34.8....8..5....4.6..21.18......3..1.2..6......81.52..7.9....6..9....9.64...2",
        ];
        let (mut links, mut fresh) = (Links::default(), Links::default());
        let mut old: Option<Board> = None;
        let (mut updates, mut builds) = (0, 0);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for text in puzzles.iter().cycle().take(6) {
            let g: Grid = text.parse().unwrap();
            let mut b = Board::new(&g);
            for round in 0..40 {
                match &old {
                    Some(o) => {
                        let before = links.edges.len() >= 2 * links.live;
                        links.update(o, &b);
                        if before {
                            builds += 1;
                        } else {
                            updates += 1;
                        }
                    }
                    None => links.build(&b),
                }
                // Some selection in place, as the searches leave it.
                links.select(round % 3 != 0, round % 2 == 0);
                fresh.build(&b);
                links.assert_same(&fresh);
                old = Some(b.clone());
                // Take out a few candidates (never a cell's last), and now and then place one.
                for i in 0..6 {
                    let (cell, v) = random_candidate(&mut seed);
                    if b.has(cell, v) && b.count(cell) > 2 {
                        if i == 0 && round % 4 == 1 {
                            b.place(cell, v);
                        } else {
                            b.remove(cell, v);
                        }
                    }
                }
            }
        }
        // Both ways were taken.
        assert!(
            updates > 100 && builds > 5,
            "{updates} updates, {builds} builds"
        );
    }

    #[test]
    fn reach_agrees_with_a_search_of_the_links() {
        let (mut met, mut groups_seen) = (0, 0);
        let mut reach = Reach::default();
        let puzzles = [
            "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64...",
            "7.....4...2..7..8...3..8.799..5..3...6..2..9...1.97..6...3..9...3..4..6...9..1.35",
            "1...34.8....8..5....4.6..21.18......3..1.2..6......81.52..7.9....6..9....9.64...2",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for text in puzzles {
            let g: Grid = text.parse().unwrap();
            let mut b = Board::new(&g);
            for round in 0..6 {
                let mut links = Links::default();
                links.build(&b);
                for (y, x) in [(false, true), (true, false), (true, true)] {
                    links.select(y, x);
                    // X links join one digit's potentials: the X pass builds for some digits
                    // only. One `Reach` for every build, so stale entries are there too.
                    let digits = if y {
                        ALL_DIGITS
                    } else {
                        ALL_DIGITS & !(0x52 << (round % 3))
                    };
                    // The Y pass builds from its bivalue cells, and asks only about what
                    // their potentials reach.
                    let cells = if x { ALL_CELLS } else { bivalue_cells(&b) };
                    reach.build(&links, &b, digits, cells, true);
                    let mut pots: Vec<Pot> = (0..1458u16)
                        .filter(|&p| {
                            b.has(pot_cell(p), pot_value(p)) && digits >> pot_value(p) & 1 == 1
                        })
                        .collect();
                    let roots: Vec<PotSet> = pots
                        .iter()
                        .filter(|&&p| cells >> pot_cell(p) & 1 == 1)
                        .map(|&p| reached(&links, p))
                        .collect();
                    pots.retain(|&p| {
                        cells >> pot_cell(p) & 1 == 1 || roots.iter().any(|r| holds(r, p))
                    });
                    let seen_of: Vec<PotSet> = pots.iter().map(|&p| reached(&links, p)).collect();
                    for (i, &s) in pots.iter().enumerate() {
                        let seen = &seen_of[i];
                        for (j, &t) in pots.iter().enumerate() {
                            if t != s {
                                assert_eq!(reach.reaches(s, t), holds(seen, t), "{round} {s} {t}");
                                // One component: each reaches the other.
                                assert_eq!(
                                    reach.comp(s) == reach.comp(t),
                                    holds(seen, t) && holds(&seen_of[j], s),
                                    "{round} {s} {t}"
                                );
                            }
                        }
                        if pot_on(s) && !reach.may_cycle(s) {
                            for &u in &pots {
                                assert!(
                                    !(pot_on(u)
                                        && u != s
                                        && holds(seen, u)
                                        && holds(&reached(&links, u), s)),
                                    "{round} {s} {u}"
                                );
                            }
                        }
                    }
                }
                // The static multiple mode's links: every propagation stays within what its
                // source reaches, and `meet` says whether some potential is reached by each
                // potential of a set (each counted as reaching itself), for every cell's digits
                // and every region's places of a digit.
                let mut chainer = Chainer::new();
                chainer.static_links(&b, true, true);
                chainer
                    .reach
                    .build(&chainer.links, &b, ALL_DIGITS, ALL_CELLS, true);
                links.select(true, true);
                let on_pots: Vec<Pot> = (0..1458u16)
                    .filter(|&p| pot_on(p) && b.has(pot_cell(p), pot_value(p)))
                    .collect();
                for &p in &on_pots {
                    let prop = chainer.on_propagation(&b, Mode::MULTIPLE, p);
                    let seen = reached(&links, p);
                    let pr = &chainer.props[prop];
                    for &n in pr.on.iter().chain(&pr.off) {
                        let q = chainer.nodes[n as usize].pot;
                        assert!(q == p || holds(&seen, q), "{round} {p} {q}");
                    }
                }
                let mut groups: Vec<Vec<Pot>> = (0..81)
                    .filter(|&c| b.count(c) >= 2)
                    .map(|c| digits_of(b.cands[c]).map(|v| pot(c, v, true)).collect())
                    .collect();
                for &region in &REGION_MASK {
                    for v in 1..=9u8 {
                        let places = b.digits[v as usize] & region;
                        if places.count_ones() >= 2 {
                            groups.push(cells_of(places).map(|c| pot(c, v, true)).collect());
                        }
                    }
                }
                for group in &groups {
                    let sets: Vec<PotSet> = group.iter().map(|&p| reached(&links, p)).collect();
                    let common = (0..1458u16).any(|q| {
                        group
                            .iter()
                            .zip(&sets)
                            .all(|(&p, set)| q == p || holds(set, q))
                    });
                    assert_eq!(chainer.reach.meet(group.iter().copied()), common, "{round}");
                    met += common as usize;
                }
                groups_seen += groups.len();
                // Take out a few candidates (never a cell's last) for the next round.
                for _ in 0..12 {
                    let (cell, v) = random_candidate(&mut seed);
                    if b.has(cell, v) && b.count(cell) > 2 {
                        b.remove(cell, v);
                    }
                }
            }
        }
        // Both answers occur.
        assert!(met > 0 && met < groups_seen, "{met} of {groups_seen}");
    }
}
