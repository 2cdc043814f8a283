//! Sudoku Explainer ratings and step paths: a logical solver that reproduces Sudoku Explainer
//! 1.2.1's rating as its command-line rater `serate` gives it — ER (the hardest step), EP (the
//! hardest before the first placement), ED (the first step) — with SE's techniques, ratings and
//! rule for choosing the next step, on this crate's bitboards.
//!
//! SE applies the first hint of the first of its producers that has one, so the rating depends
//! on the order in which every producer visits regions, digits and cells, and for chains on the
//! parents each derived potential gets. Each submodule reproduces one family of producers with
//! SE's orders (`board` holds the tables in SE's order); `path` asks them in SE's order and keeps
//! the running ratings; `chains` is most of the work. The design story, the quirks of SE it
//! keeps, how agreement is checked and what made it fast: `docs/explain.md`.
//!
//! ```
//! use sudoku_batch::{explain, Grid};
//! let p: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()
//!     .unwrap();
//! let r = explain::rate(&p, explain::DEFAULT_BUDGET).unwrap();
//! assert_eq!((r.er.to_string(), r.ep.to_string(), r.ed.to_string()), ("2.6".into(), "1.2".into(), "1.2".into()));
//! assert_eq!(r.er_technique, "Pointing");
//! let e = explain::explain(&p, explain::DEFAULT_BUDGET).unwrap();
//! assert_eq!(e.steps[0].text, "Hidden Single: r6c2: 4 in block");
//! ```

mod basic;
mod board;
mod chains;
mod closure;
pub mod command;
mod exclusion;
mod hint;
mod path;
mod popcount;
#[cfg(test)]
mod tests;
mod unique;

use std::fmt;

use crate::grid::Grid;

/// The default work budget: potentials a puzzle's chains may derive before [`rate`] and
/// [`explain`] give up. Every puzzle of the reference set stays far below it.
pub const DEFAULT_BUDGET: u64 = 20_000_000_000;

/// A rating in tenths (SE prints ratings to one decimal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Tenths(pub u32);

impl fmt::Display for Tenths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// Sudoku Explainer's three ratings of a puzzle and the techniques that set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    /// ER: the hardest step of the whole path.
    pub er: Tenths,
    /// EP: the hardest step up to the first placement.
    pub ep: Tenths,
    /// ED: the first step's rating.
    pub ed: Tenths,
    /// SE's name of the technique that set ER (the first step with that rating).
    pub er_technique: String,
    /// … EP.
    pub ep_technique: String,
    /// … ED.
    pub ed_technique: String,
}

/// A step of a path: SE's rating, technique name and description, and its effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// SE's rating of the step.
    pub rating: Tenths,
    /// SE's technique name, e.g. `Hidden Single`, `Dynamic Contradiction Forcing Chains`.
    pub technique: String,
    /// SE's one-line description, e.g. `Hidden Single: r1c1: 3 in block`.
    pub text: String,
    /// Cells filled, `(cell 0..81, digit 1..9)`; filling a cell also takes its digit out of its
    /// 20 peers.
    pub placements: Vec<(u8, u8)>,
    /// Candidates removed, `(cell 0..81, digit 1..9)`.
    pub eliminations: Vec<(u8, u8)>,
}

/// A rated path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub rating: Rating,
    pub steps: Vec<Step>,
}

/// Why a puzzle got no rating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unrated {
    /// SE rates only puzzles with exactly one solution; this one has `solutions` (0 — givens
    /// that break a rule count as none — or 2, meaning two or more).
    NotUnique { solutions: u32 },
    /// The work budget ran out first.
    GaveUp(GaveUp),
}

/// A rating that ran out of its work budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GaveUp {
    /// The budget that ran out.
    pub budget: u64,
    /// Steps completed before it did.
    pub steps: usize,
    /// ER of those steps.
    pub er_so_far: Tenths,
}

impl fmt::Display for GaveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SE work budget of {} potentials spent after {} steps (ER so far {})",
            self.budget, self.steps, self.er_so_far
        )
    }
}

impl fmt::Display for Unrated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unrated::NotUnique { solutions: 0 } => {
                write!(f, "no solution: SE rates unique puzzles")
            }
            Unrated::NotUnique { .. } => {
                write!(f, "two or more solutions: SE rates unique puzzles")
            }
            Unrated::GaveUp(g) => g.fmt(f),
        }
    }
}

impl std::error::Error for Unrated {}

/// Rates a puzzle as `serate` does (SE 1.2.1). SE rates only puzzles with exactly one
/// solution: others are refused (`Unrated::NotUnique`, after one solver call). `budget` bounds
/// the work (potentials derived by chains; [`DEFAULT_BUDGET`] is more than any known puzzle
/// needs).
pub fn rate(puzzle: &Grid, budget: u64) -> Result<Rating, Unrated> {
    run(puzzle, budget, false).map(|e| e.rating)
}

/// Rates a puzzle and returns SE's step path with it (see [`rate`]).
pub fn explain(puzzle: &Grid, budget: u64) -> Result<Explanation, Unrated> {
    run(puzzle, budget, true)
}

thread_local! {
    /// One chaining engine per thread, its arena and tables reused from puzzle to puzzle (every
    /// search resets what it reads before it starts).
    static CHAINER: std::cell::RefCell<chains::Chainer> =
        std::cell::RefCell::new(chains::Chainer::new());
}

fn run(puzzle: &Grid, budget: u64, keep_steps: bool) -> Result<Explanation, Unrated> {
    let (board, consistent) = board::Board::new_checked(puzzle);
    let mut count = || crate::engine::solve(puzzle, 2).solutions;
    // With consistent givens, the path counts the solutions only if it gets past the steps
    // every solution agrees with (see `path::solve_path`).
    if !consistent {
        let solutions = count();
        if solutions != 1 {
            return Err(Unrated::NotUnique { solutions });
        }
    }
    let p = CHAINER.with(|c| {
        let mut chainer = c.borrow_mut();
        chainer.work = 0;
        chainer.set_limit(budget);
        path::solve_path(
            &board,
            &mut chainer,
            keep_steps,
            consistent.then_some(&mut count),
        )
    });
    let p = p.map_err(|solutions| Unrated::NotUnique { solutions })?;
    let rating = Rating {
        er: Tenths(hint::tenths(p.er)),
        ep: Tenths(hint::tenths(p.ep)),
        ed: Tenths(hint::tenths(p.ed)),
        er_technique: p.er_name,
        ep_technique: p.ep_name,
        ed_technique: p.ed_name,
    };
    if p.gave_up {
        return Err(Unrated::GaveUp(GaveUp {
            budget,
            steps: p.step_count,
            er_so_far: rating.er,
        }));
    }
    let steps = p
        .steps
        .iter()
        .map(|h| {
            let mut elims = Vec::new();
            for &(c, m) in &h.elims {
                for v in board::digits_of(m) {
                    elims.push((c, v));
                }
            }
            Step {
                rating: Tenths(h.tenths()),
                technique: h.name().into_owned(),
                text: h.text(),
                placements: h.place.into_iter().collect(),
                eliminations: elims,
            }
        })
        .collect();
    Ok(Explanation { rating, steps })
}
