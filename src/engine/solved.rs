//! What every engine returns: the facade, the bitboard engine and the oracle all speak
//! [`Solved`], which lives on its own so that no engine imports the facade that calls it.

use crate::grid::Grid;

/// What a solve call found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Solutions found, never more than the limit asked for.
    pub solutions: u32,
    /// The first solution found, when there is one.
    pub first: Option<Grid>,
    /// Branching decisions: each candidate tried at a branch point, except a cell's last
    /// candidate, which follows from the others' refutation. Counted the same way whatever the
    /// limit, so figures from `first` and `unique` runs compare.
    pub guesses: u64,
    /// The guess budget ran out before the search finished: `solutions` is then only what was
    /// found so far.
    pub gave_up: bool,
}
