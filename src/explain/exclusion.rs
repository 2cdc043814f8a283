//! Aligned pair and triplet exclusion, as Sudoku Explainer 1.2.1 finds them.
//!
//! Two (three) cells are tried with every combination of their candidates; a combination is
//! excluded when two cells that see each other would hold the same digit, or when it would
//! take every candidate of an "excluder", a cell with two (for triplets: two or three)
//! candidates that all the tried cells see. A candidate no surviving combination uses goes.
//! The cells are paired in SE's order (its `Twomutations`: (0,1), (0,2), (1,2), (0,3), …) and a
//! triplet's third cell comes from the two cells' excluders, first cell's first.

use std::ops::ControlFlow;

use super::board::{digits_of, Board, PEER_MASK};
use super::hint::{cell_list, elims_from, Flow, Hint, Sink};
use crate::grid::PEERS;

/// The cells SE considers, with their excluders (peers with 2..=`max` candidates), in order.
fn candidates(b: &Board, max: u32) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut cells = Vec::new();
    let mut excluders = Vec::new();
    for c in 0..81 {
        if b.count(c) < 2 {
            continue;
        }
        let mut naked_single = false;
        let mut ex = Vec::new();
        for &p in &PEERS[c] {
            let n = b.count(p as usize);
            if n == 1 {
                naked_single = true;
            } else if n >= 2 && n <= max {
                ex.push(p as usize);
            }
        }
        if !naked_single && !ex.is_empty() {
            cells.push(c);
            excluders.push(ex);
        }
    }
    (cells, excluders)
}

/// SE's `Twomutations(2, n)`: (0,1), (0,2), (1,2), (0,3), (1,3), (2,3), …
fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (1..n).flat_map(|j| (0..j).map(move |i| (i, j)))
}

/// Whether two cells see each other.
fn sees(a: usize, b: usize) -> bool {
    PEER_MASK[a] & (1u128 << b) != 0
}

/// Tries every combination of the cells' candidates and returns, per cell, the candidates some
/// allowed combination uses.
fn allowed_values(b: &Board, cells: &[usize], excluders: &[usize]) -> Vec<u16> {
    let n = cells.len();
    let lists: Vec<Vec<u8>> = cells
        .iter()
        .map(|&c| digits_of(b.cands[c]).collect())
        .collect();
    let mut allowed = vec![0u16; n];
    let mut idx = vec![0usize; n];
    loop {
        let combo: Vec<u8> = (0..n).map(|i| lists[i][idx[i]]).collect();
        let mut ok = true;
        'pairs: for i in 0..n {
            for j in i + 1..n {
                if combo[i] == combo[j] && sees(cells[i], cells[j]) {
                    ok = false;
                    break 'pairs;
                }
            }
        }
        if ok {
            let used: u16 = combo.iter().fold(0, |m, &v| m | (1 << v));
            if excluders.iter().any(|&e| b.cands[e] & !used == 0) {
                ok = false;
            }
        }
        if ok {
            for i in 0..n {
                allowed[i] |= 1 << combo[i];
            }
        }
        // Next combination (the order does not matter: only the union of the allowed ones).
        let mut i = 0;
        loop {
            if i == n {
                return allowed;
            }
            idx[i] += 1;
            if idx[i] < lists[i].len() {
                break;
            }
            idx[i] = 0;
            i += 1;
        }
    }
}

fn exclusion_hint(b: &Board, cells: &[usize], allowed: &[u16]) -> Hint {
    let mut masks = [0u16; 81];
    for (i, &c) in cells.iter().enumerate() {
        masks[c] = b.cands[c] & !allowed[i];
    }
    let (name, rating) = if cells.len() == 2 {
        ("Aligned Pair Exclusion", 6.2)
    } else {
        ("Aligned Triplet Exclusion", 7.5)
    };
    Hint {
        rating,
        name: name.into(),
        text: format!("{}: {}", name, cell_list(cells)),
        elims: elims_from(&masks),
        place: None,
    }
}

/// The excluders common to all `cells`, in the first cell's order.
fn common_excluders(cells: &[usize], index: &[usize], excluders: &[Vec<usize>]) -> Vec<usize> {
    let _ = cells;
    let mut out: Vec<usize> = excluders[index[0]].clone();
    for &i in &index[1..] {
        out.retain(|e| excluders[i].contains(e));
    }
    out
}

/// SE's `AlignedPairExclusion`.
pub(crate) fn aligned_pair(b: &Board, sink: &mut dyn Sink) -> Flow {
    let (cand, excl) = candidates(b, 2);
    if cand.len() < 2 {
        return ControlFlow::Continue(());
    }
    for (i, j) in pairs(cand.len()) {
        let cells = [cand[i], cand[j]];
        let common = common_excluders(&cells, &[i, j], &excl);
        if common.len() < 2 {
            continue;
        }
        let allowed = allowed_values(b, &cells, &common);
        let h = exclusion_hint(b, &cells, &allowed);
        if h.is_worth() {
            sink.add(h)?;
        }
    }
    ControlFlow::Continue(())
}

/// SE's `AlignedExclusion(3)`: aligned triplet exclusion.
pub(crate) fn aligned_triplet(b: &Board, sink: &mut dyn Sink) -> Flow {
    let (cand, excl) = candidates(b, 3);
    if cand.len() < 3 {
        return ControlFlow::Continue(());
    }
    let mut position = [usize::MAX; 81];
    for (i, &c) in cand.iter().enumerate() {
        position[c] = i;
    }
    for (i, j) in pairs(cand.len()) {
        let (c0, c1) = (cand[i], cand[j]);
        // SE's "twin area": the two cells' excluders, first cell's first, that are candidates.
        let mut twin: Vec<usize> = Vec::new();
        for &e in excl[i].iter().chain(excl[j].iter()) {
            if !twin.contains(&e) && position[e] != usize::MAX && e != c0 && e != c1 {
                twin.push(e);
            }
        }
        for &t in &twin {
            let cells = [c0, c1, t];
            let common = common_excluders(&cells, &[i, j, position[t]], &excl);
            if common.len() < 2 {
                continue;
            }
            let allowed = allowed_values(b, &cells, &common);
            let h = exclusion_hint(b, &cells, &allowed);
            if h.is_worth() {
                sink.add(h)?;
            }
        }
    }
    ControlFlow::Continue(())
}
