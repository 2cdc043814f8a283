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
//!
//! # The files
//!
//! - `potential`: potentials, their tables and causes, the modes.
//! - `hint`: the chain hint, its ranking, name and description.
//! - `arena`: nodes, propagations, the dynamic working grid, ancestry and complexity.
//! - `links`: the static link table and reachability shared by the static searches.
//! - `unary`: X-, Y- and XY-cycles and forcing chains.
//! - `multiple`: cell and region forcing chains, dynamic and Nishio propagation.
//! - `nested`: dynamic (+) and nested chains and their memo.
//! - this file: the `Chainer` (arena, pools, memos and budget) and the ranking of hints.

use std::ops::ControlFlow;

use super::basic;
use super::board::{
    cell_name, cells_of, digits_of, region_kind_name, Board, Cells, Region, ALL_CELLS, BLOCK,
    CELL_REGION, CELL_SLOTS, COLUMN, PEER_MASK, PEER_SLOTS, REGION_CELLS, REGION_MASK, REGION_REST,
    ROW,
};
use super::closure::DigitGrid;
use super::hint::{Detail, Finding, Hint};
use super::popcount::Pop;

mod arena;
mod hint;
mod links;
mod multiple;
mod nested;
mod potential;
#[cfg(test)]
mod tests;
mod unary;

use arena::*;
pub(crate) use hint::ChainHint;
use hint::*;
use links::*;
use nested::*;
pub(crate) use potential::Mode;
use potential::*;
use unary::*;

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

/// SE's sort key of a chain hint: rating, complexity, sort key.
type Key = (f64, u32, u8);

/// Does `a` sort strictly before `b`?
#[inline]
fn key_less(a: Key, b: Key) -> bool {
    a.0 < b.0 || (a.0 == b.0 && (a.1 < b.1 || (a.1 == b.1 && a.2 < b.2)))
}

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
}
