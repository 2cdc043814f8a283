//! One step of a solution path: what a technique found, how SE rates it, and what it changes.
//!
//! A [`Hint`] is the explainer's equivalent of SE's `Hint` + `Rule`: its rating as the same
//! `double` SE computes (so that ties and sums of `0.1` steps compare exactly as they do in
//! Java), the candidates it removes, the cell it fills if any, and a compact [`Detail`] from
//! which SE's technique name (`getName`) and one-line description (`toString`, the text
//! `serate` prints after a step) are rendered on demand. Rating a puzzle never builds a string
//! for a step it does not report. A hint that fills a cell counts as a *placement* for the
//! pearl rating, as SE's `getCell() != null` does.
//!
//! Producers hand hints to a [`Sink`]; SE's solver keeps only the first hint of the first
//! producer that has one, which is [`First`].

use std::borrow::Cow;
use std::ops::ControlFlow;

use super::board::{
    cell_name, cells_of, digits_of, region_kind_name, Board, Cells, CELL_REGIONS, PEER_MASK,
    REGION_CELLS,
};

/// What a producer's search does after handing over a hint: go on, or stop.
pub(crate) type Flow = ControlFlow<()>;

/// A step: a technique's finding, rated.
#[derive(Clone, Debug)]
pub(crate) struct Hint {
    /// SE's rating of the step, the exact `double` SE computes.
    pub rating: f64,
    /// The candidates removed: `(cell, mask)` with bit `v` for digit `v`, ascending by cell.
    pub elims: Vec<(u8, u16)>,
    /// The cell filled and its digit, if the step places one.
    pub place: Option<(u8, u8)>,
    /// What was found, for the name and the description.
    pub detail: Detail,
}

/// What a technique found, as much as its name and SE's description need.
#[derive(Clone, Debug)]
pub(crate) enum Detail {
    /// A hidden single (the placement) in a region; `alone`: the region's last empty cell.
    HiddenSingle { region: u8 },
    /// A naked single (the placement).
    NakedSingle,
    /// Pointing or claiming: `value`'s candidates in `r1` all lie in `r2` (`cells`: those
    /// candidates). Direct: the placement is the hidden single it leaves.
    Locking {
        direct: bool,
        r1: u8,
        r2: u8,
        value: u8,
        cells: Vec<u8>,
    },
    /// A hidden set of `values` in `cells` of `region`; direct: the placement is the hidden
    /// single it leaves.
    HiddenSet {
        direct: bool,
        region: u8,
        values: u16,
        cells: Vec<u8>,
    },
    /// A naked set of `values` in `cells` of `region`.
    NakedSet {
        region: u8,
        values: u16,
        cells: Vec<u8>,
    },
    /// A basic fish of `degree` on `value`; `base_rows`: the base lines are rows.
    Fish {
        degree: u8,
        base_rows: bool,
        value: u8,
        cells: Vec<u8>,
    },
    /// An XY-wing or XYZ-wing: pivot and pincers, and the digit removed.
    Wing { xyz: bool, cells: [u8; 3], z: u8 },
    /// A unique rectangle or loop of `kind` (1–4) on `v1`, `v2` (for type 4: the locked digit,
    /// then the removed one).
    Loop {
        kind: u8,
        cells: Vec<u8>,
        v1: u8,
        v2: u8,
    },
    /// A BUG of `kind` (1–4): its cells and the digits the description names.
    Bug {
        kind: u8,
        cells: Vec<u8>,
        values: u16,
    },
    /// Aligned pair (two cells) or triplet (three) exclusion.
    Aligned { cells: Vec<u8> },
    /// A finding of a technique that names and describes itself: the forcing chains and cycles,
    /// whose hint type lives beside the chains (`chains/hint.rs`).
    Found(Box<dyn Finding>),
}

/// A technique's finding that renders its own name and description. Techniques whose findings
/// need more than a [`Detail`] variant's few fields (the chains) implement it beside their
/// search, so that this file depends on no technique.
pub(crate) trait Finding: std::fmt::Debug {
    /// SE's technique name (`getName`).
    fn name(&self) -> String;
    /// SE's one-line description (`toString`).
    fn text(&self) -> String;
    /// A boxed copy, for [`Hint`]'s `Clone`.
    fn boxed(&self) -> Box<dyn Finding>;
}

impl Clone for Box<dyn Finding> {
    fn clone(&self) -> Self {
        self.boxed()
    }
}

const SET_NAMES: [&str; 3] = ["Pair", "Triplet", "Quad"];

impl Hint {
    /// Applies the step as SE's `apply` does: remove the candidates, then fill the cell (the
    /// path uses [`Hint::apply_noting`], which does the same).
    #[cfg(test)]
    pub(crate) fn apply(&self, board: &mut Board) {
        for &(c, m) in &self.elims {
            board.remove_mask(c as usize, m);
        }
        if let Some((c, v)) = self.place {
            board.place(c as usize, v);
        }
    }

    /// [`Hint::apply`], returning the digits whose candidates changed and the regions of the
    /// cells that changed (what comparing the candidates before and after gives).
    pub(crate) fn apply_noting(&self, board: &mut Board) -> (u16, u32) {
        let (mut digits, mut regions) = (0u16, 0u32);
        for &(c, m) in &self.elims {
            let gone = m & board.cands[c as usize];
            if gone != 0 {
                digits |= gone;
                regions |= CELL_REGIONS[c as usize];
                board.remove_mask(c as usize, m);
            }
        }
        if let Some((c, v)) = self.place {
            let c = c as usize;
            let had = board.cands[c];
            if had != 0 {
                digits |= had;
                regions |= CELL_REGIONS[c];
            }
            let peers = PEER_MASK[c] & board.digits[v as usize];
            if peers != 0 {
                digits |= 1 << v;
                for p in cells_of(peers) {
                    regions |= CELL_REGIONS[p];
                }
            }
            board.place(c, v);
        }
        (digits, regions)
    }

    /// The rating in tenths, as `serate` prints it: `(int)((r + 0.05) * 10)`.
    pub(crate) fn tenths(&self) -> u32 {
        tenths(self.rating)
    }

    /// SE's name of the technique (`getName()`), e.g. `Hidden Single`.
    pub(crate) fn name(&self) -> Cow<'static, str> {
        match &self.detail {
            Detail::HiddenSingle { .. } => "Hidden Single".into(),
            Detail::NakedSingle => "Naked Single".into(),
            Detail::Locking { direct, r1, .. } => {
                let pointing = *r1 < 9;
                match (direct, pointing) {
                    (true, true) => "Direct Pointing",
                    (true, false) => "Direct Claiming",
                    (false, true) => "Pointing",
                    (false, false) => "Claiming",
                }
                .into()
            }
            Detail::HiddenSet { direct, values, .. } => {
                let n = SET_NAMES[values.count_ones() as usize - 2];
                if *direct {
                    format!("Direct Hidden {}", n).into()
                } else {
                    format!("Hidden {}", n).into()
                }
            }
            Detail::NakedSet { values, .. } => {
                format!("Naked {}", SET_NAMES[values.count_ones() as usize - 2]).into()
            }
            Detail::Fish { degree, .. } => {
                ["X-Wing", "Swordfish", "Jellyfish"][*degree as usize - 2].into()
            }
            Detail::Wing { xyz, .. } => if *xyz { "XYZ-Wing" } else { "XY-Wing" }.into(),
            Detail::Loop { kind, cells, .. } => {
                if cells.len() > 4 {
                    format!("Unique Loop {} type {}", cells.len(), kind).into()
                } else {
                    format!("Unique Rectangle type {}", kind).into()
                }
            }
            Detail::Bug { kind, .. } => format!("BUG type {}", kind).into(),
            Detail::Aligned { cells } => if cells.len() == 2 {
                "Aligned Pair Exclusion"
            } else {
                "Aligned Triplet Exclusion"
            }
            .into(),
            Detail::Found(f) => f.name().into(),
        }
    }

    /// SE's one-line description (`toString()`), e.g. `Hidden Single: r1c1: 3 in block`.
    pub(crate) fn text(&self) -> String {
        let name = self.name();
        let place = self.place.map(|(c, v)| (c as usize, v));
        match &self.detail {
            Detail::HiddenSingle { region } => {
                let (c, v) = place.unwrap_or((0, 0));
                format!(
                    "{}: {}: {} in {}",
                    name,
                    cell_name(c),
                    v,
                    region_kind_name(*region as usize)
                )
            }
            Detail::NakedSingle => {
                let (c, v) = place.unwrap_or((0, 0));
                format!("{}: {}: {}", name, cell_name(c), v)
            }
            Detail::Locking {
                direct,
                r1,
                r2,
                value,
                cells,
            } => format!(
                "{}: {}: {} {} {} {} {}",
                name,
                cell_full_list(cells),
                value,
                if *direct { "of" } else { "in" },
                region_kind_name(*r1 as usize),
                if *direct { "in" } else { "and" },
                region_kind_name(*r2 as usize)
            ),
            Detail::HiddenSet {
                region,
                values,
                cells,
                ..
            }
            | Detail::NakedSet {
                region,
                values,
                cells,
            } => format!(
                "{}: {}: {} in {}",
                name,
                cell_full_list(cells),
                value_list(*values, ","),
                region_kind_name(*region as usize)
            ),
            Detail::Fish {
                degree,
                base_rows,
                value,
                cells,
            } => {
                let (a, b) = if *base_rows {
                    ("rows", "columns")
                } else {
                    ("columns", "rows")
                };
                format!(
                    "{}: {}: {} in {} {} and {} {}",
                    name,
                    cell_full_list(cells),
                    value,
                    degree,
                    a,
                    degree,
                    b
                )
            }
            Detail::Wing { cells, z, .. } => {
                format!("{}: {} on value {}", name, cell_full_list(cells), z)
            }
            Detail::Loop { cells, v1, v2, .. } => {
                format!("{}: {} on {}, {}", name, cell_full_list(cells), v1, v2)
            }
            Detail::Bug {
                kind,
                cells,
                values,
            } => match kind {
                1 => format!("{}: {}", name, cell_list(cells)),
                2 => format!(
                    "{}: {} on {}",
                    name,
                    cell_list(cells),
                    value_list(*values, ",")
                ),
                3 => format!(
                    "{}: {} on {}",
                    name,
                    cell_list(cells),
                    value_list(*values, ", ")
                ),
                _ => format!(
                    "{}: {} on {}",
                    name,
                    cell_list(cells),
                    value_list(*values, ",")
                ),
            },
            Detail::Aligned { cells } => format!("{}: {}", name, cell_list(cells)),
            Detail::Found(f) => f.text(),
        }
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

/// The cells of a set in the order of a region's cells.
pub(crate) fn in_region_order(region: usize, set: Cells) -> Vec<u8> {
    REGION_CELLS[region]
        .iter()
        .copied()
        .filter(|&c| set & (1u128 << c) != 0)
        .collect()
}

/// SE's `Cell.toString(cells...)`: names joined by commas.
pub(crate) fn cell_list(cells: &[u8]) -> String {
    let names: Vec<String> = cells.iter().map(|&c| cell_name(c as usize)).collect();
    names.join(",")
}

/// SE's `Cell.toFullString(cells...)`: `Cell r1c1` or `Cells r1c1,r1c2`.
pub(crate) fn cell_full_list(cells: &[u8]) -> String {
    if cells.len() <= 1 {
        format!("Cell {}", cell_list(cells))
    } else {
        format!("Cells {}", cell_list(cells))
    }
}

/// Digits joined by `sep`.
pub(crate) fn value_list(mask: u16, sep: &str) -> String {
    let v: Vec<String> = digits_of(mask).map(|d| d.to_string()).collect();
    v.join(sep)
}
