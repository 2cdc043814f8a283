//! The `rate` command: [`super::rate`] for every record, one row each, through the streaming
//! machinery every per-puzzle command shares ([`crate::run`]).

use crate::input::Record;
use crate::run::{Columns, Outcome, PuzzleJob, RowWriter, Status};
use crate::solve::usable_or_invalid;

/// The output columns (a `file` column follows with several inputs).
pub static COLUMNS: Columns = Columns {
    names: &[
        "line",
        "puzzle",
        "status",
        "solutions",
        "clues",
        "guesses",
        "rating",
        "singles",
        "class",
        "error",
    ],
    status: Some(2),
    counted: false,
};

/// What `rate` does to each puzzle.
#[derive(Clone, Copy, Debug)]
pub struct RateJob {
    /// Transforms the rating averages over.
    pub samples: u32,
    /// The run's seed (with the puzzle itself, it draws the transforms).
    pub seed: u64,
}

impl PuzzleJob for RateJob {
    fn command(&self) -> &'static str {
        "rate"
    }

    fn columns(&self) -> &'static Columns {
        &COLUMNS
    }

    fn row(&self, rec: &Record, w: &mut RowWriter) -> Outcome {
        let grid = match usable_or_invalid(rec, w, &COLUMNS.names[3..9]) {
            Ok(g) => g,
            Err(outcome) => return outcome,
        };
        let r = super::rate(grid, self.samples, self.seed);
        let status = Status::from_count(r.solutions);
        w.grid(Some(grid))
            .word(status.as_str())
            .int(u64::from(r.solutions))
            .int(r.clues as u64)
            .int(r.guesses)
            .number(r.rating)
            .boolean(r.grade.map(|g| g.singles))
            .text(r.grade.map(|g| g.class.as_str()))
            .null();
        Outcome { status, ns: None }
    }
}
