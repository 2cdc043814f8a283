//! Sudoku Explainer ratings and step paths: a logical solver that reproduces Sudoku Explainer
//! 1.2.1's rating (as `serate` gives it) — its techniques, their ratings, and its rule for
//! choosing the next step — on this crate's bitboards.
//!
//! Work in progress.

mod basic;
mod board;
mod chains;
mod exclusion;
mod hint;
mod path;
mod unique;

use crate::grid::Grid;

/// A step of a path, for callers: SE's rating, technique name and description, and its effect.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// SE's rating of the step in tenths (e.g. 12 for 1.2).
    pub rating: u32,
    /// SE's technique name.
    pub technique: String,
    /// SE's one-line description.
    pub text: String,
    /// Cells filled, `(cell 0..81, digit)`.
    pub placements: Vec<(u8, u8)>,
    /// Candidates removed, `(cell 0..81, digit)`.
    pub eliminations: Vec<(u8, u8)>,
}

/// A rated path.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    pub er: u32,
    pub ep: u32,
    pub ed: u32,
    pub er_technique: String,
    pub ep_technique: String,
    pub ed_technique: String,
    pub steps: Vec<Step>,
}

/// Rates a puzzle with SE's path.
pub fn explain(puzzle: &Grid) -> Explained {
    let board = board::Board::new(puzzle);
    let mut chainer = chains::Chainer::new();
    let p = path::solve_path(&board, &mut chainer);
    let steps = p
        .steps
        .iter()
        .map(|s| {
            let mut elims = Vec::new();
            for &(c, m) in &s.hint.elims {
                for v in board::digits_of(m) {
                    elims.push((c, v));
                }
            }
            Step {
                rating: s.hint.tenths(),
                technique: s.hint.name().into_owned(),
                text: s.hint.text(),
                placements: s.hint.place.into_iter().collect(),
                eliminations: elims,
            }
        })
        .collect();
    Explained {
        er: hint::tenths(p.er),
        ep: hint::tenths(p.ep),
        ed: hint::tenths(p.ed),
        er_technique: p.er_name,
        ep_technique: p.ep_name,
        ed_technique: p.ed_name,
        steps,
    }
}
