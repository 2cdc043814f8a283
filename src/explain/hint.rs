//! One step of a solution path: what a technique found, how SE rates it, and what it changes.
//!
//! A [`Hint`] is the explainer's equivalent of SE's `Hint` + `Rule`: SE's technique name
//! (`getName`), its description (`toString`, the one-line text `serate` prints after a step),
//! its rating as the same `double` SE computes (so that ties and sums of `0.1` steps compare
//! exactly as they do in Java), the candidates it removes and the cell it fills, if any. A
//! hint that fills a cell counts as a *placement* for the pearl rating, as SE's
//! `getCell() != null` does.
//!
//! Producers hand hints to a [`Sink`]; SE's solver keeps only the first hint of the first
//! producer that has one, which is [`First`].

use std::ops::ControlFlow;

use super::board::Board;

/// What a producer's search does after handing over a hint: go on, or stop.
pub(crate) type Flow = ControlFlow<()>;

/// A step: a technique's finding, rated.
#[derive(Clone, Debug)]
pub(crate) struct Hint {
    /// SE's rating of the step, the exact `double` SE computes.
    pub rating: f64,
    /// SE's name of the technique (`getName()`), e.g. `Hidden Single`.
    pub name: String,
    /// SE's one-line description (`toString()`), e.g. `Hidden Single: r1c1: 3 in block`.
    pub text: String,
    /// The candidates removed: `(cell, mask)` with bit `v` for digit `v`.
    pub elims: Vec<(u8, u16)>,
    /// The cell filled and its digit, if the step places one.
    pub place: Option<(u8, u8)>,
}

impl Hint {
    /// Applies the step as SE's `apply` does: remove the candidates, then fill the cell.
    pub(crate) fn apply(&self, board: &mut Board) {
        for &(c, m) in &self.elims {
            board.remove_mask(c as usize, m);
        }
        if let Some((c, v)) = self.place {
            board.place(c as usize, v);
        }
    }

    /// SE's `isWorth` for indirect hints: it removes something.
    pub(crate) fn is_worth(&self) -> bool {
        self.elims.iter().any(|&(_, m)| m != 0)
    }

    /// The rating in tenths, as `serate` prints it: `(int)((r + 0.05) * 10)`.
    pub(crate) fn tenths(&self) -> u32 {
        tenths(self.rating)
    }
}

/// A rating in tenths, rounded as `serate` rounds for printing.
pub(crate) fn tenths(rating: f64) -> u32 {
    ((rating + 0.05) * 10.0) as u32
}

/// Where producers put the hints they find.
pub(crate) trait Sink {
    fn add(&mut self, hint: Hint) -> Flow;
}

/// SE's `SingleHintAccumulator`: keeps the first hint and stops the search.
#[derive(Default)]
pub(crate) struct First(pub Option<Hint>);

impl Sink for First {
    fn add(&mut self, hint: Hint) -> Flow {
        self.0 = Some(hint);
        ControlFlow::Break(())
    }
}

/// Builds an elimination list from per-cell masks, dropping empty ones, ordered by cell.
pub(crate) fn elims_from(masks: &[u16; 81]) -> Vec<(u8, u16)> {
    masks
        .iter()
        .enumerate()
        .filter(|(_, &m)| m != 0)
        .map(|(c, &m)| (c as u8, m))
        .collect()
}

/// SE's `Cell.toString(cells...)`: names joined by commas.
pub(crate) fn cell_list(cells: &[usize]) -> String {
    let names: Vec<String> = cells.iter().map(|&c| super::board::cell_name(c)).collect();
    names.join(",")
}

/// SE's `Cell.toFullString(cells...)`: `Cell r1c1` or `Cells r1c1,r1c2`.
pub(crate) fn cell_full_list(cells: &[usize]) -> String {
    if cells.len() <= 1 {
        format!("Cell {}", cell_list(cells))
    } else {
        format!("Cells {}", cell_list(cells))
    }
}

/// Digits joined by `sep`.
pub(crate) fn value_list(mask: u16, sep: &str) -> String {
    let v: Vec<String> = super::board::digits_of(mask)
        .map(|d| d.to_string())
        .collect();
    v.join(sep)
}
