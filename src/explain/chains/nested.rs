//! Dynamic (+) and nested chains (`level > 0`): when a dynamic propagation's queues run dry,
//! simpler techniques — and, from level 2, whole nested chain searches — run on the reduced
//! grid, and what they remove continues the chain (`advanced_potentials`). Nested searches are
//! the rater's dearest work, so their results are kept per puzzle (`NestMemo`), exactly: the
//! same reduced grid and rule found again costs a look-up and the same budget.

use super::*;

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
pub(super) struct NestMemo {
    pub(super) work: u64,
    /// Each nested hint handed over, in order.
    pub(super) found: Vec<NestFound>,
}

/// A nested hint as [`NestMemo`] keeps it.
pub(super) struct NestFound {
    pub(super) complexity: u32,
    pub(super) sig: Vec<u16>,
    /// The removals, per cell.
    pub(super) masks: [u16; 81],
    /// Their cells in the order SE's map of them was filled.
    pub(super) order: Vec<u8>,
    /// The rule parents against every candidate the reduced grid lacks.
    pub(super) parents: Vec<Pot>,
}

/// The most reduced grids [`NestMemo`] keeps before it starts over (memory bound).
pub(super) const NEST_MEMO_MAX: usize = 20_000;

impl Chainer {
    /// SE's `getAdvancedPotentials`: the techniques of the mode's level, in order, run on the
    /// reduced `grid`; the first that finds something whose premises include candidates the
    /// chain removed (`source` had them, `grid` has not) supplies off potentials, each with those
    /// removed candidates as parents.
    pub(super) fn advanced_potentials(
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
    pub(super) fn push_nested(
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
pub(super) struct Advanced {
    pub(super) pot: Pot,
    /// The potentials (off, removed by the chain) the technique relied on.
    pub(super) parents: Vec<Pot>,
    /// The nested chain it came from, or `NONE`.
    pub(super) nested: u32,
}

/// The order Java's `HashMap<Cell, …>` iterates cells inserted in `order`: by bucket (the cell
/// index modulo the table size, 16 doubling past 3/4 full), insertion order within a bucket.
pub(super) fn java_hashmap_order(order: &[u8]) -> Vec<u8> {
    let mut cap = 16usize;
    while order.len() > cap * 3 / 4 {
        cap *= 2;
    }
    let mut out = order.to_vec();
    out.sort_by_key(|&c| c as usize & (cap - 1));
    out
}

/// Appends a technique's removals, in SE's iteration order, as advanced potentials.
pub(super) fn push_advanced(
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
