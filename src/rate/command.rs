//! The `rate` command: [`super::rate`] for every record, one row each, through the streaming
//! machinery every per-puzzle command shares ([`crate::run`]).

use crate::input::Record;
use crate::run::{Columns, Outcome, PuzzleJob, RowWriter, Status};
use crate::solve::usable_or_invalid;

/// The columns with `--se`.
pub use crate::explain::command::RATE_COLUMNS as SE_COLUMNS;

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
    /// `--se`: add Sudoku Explainer's ER, EP, ED and ER technique, within this work budget.
    pub se: Option<u64>,
}

impl PuzzleJob for RateJob {
    fn command(&self) -> &'static str {
        "rate"
    }

    fn columns(&self) -> &'static Columns {
        if self.se.is_some() {
            &SE_COLUMNS
        } else {
            &COLUMNS
        }
    }

    fn row(&self, rec: &Record, w: &mut RowWriter) -> Outcome {
        let columns = self.columns();
        let middle = &columns.names[3..columns.names.len() - 1];
        let grid = match usable_or_invalid(rec, w, middle) {
            Ok(g) => g,
            Err(outcome) => return outcome,
        };
        let r = super::rate(grid, self.samples, self.seed);
        let mut status = Status::from_count(r.solutions);
        let se = self
            .se
            .map(|budget| crate::explain::command::se_rating(grid, r.solutions == 1, budget));
        let why = match &se {
            Some(Err(why)) => {
                status = Status::GaveUp;
                Some(why.as_str())
            }
            _ => None,
        };
        w.grid(Some(grid))
            .word(status.as_str())
            .int(u64::from(r.solutions))
            .int(r.clues as u64)
            .int(r.guesses)
            .number(r.rating)
            .boolean(r.grade.map(|g| g.singles))
            .text(r.grade.map(|g| g.class.as_str()));
        if let Some(se) = &se {
            crate::explain::command::write_se_fields(se.as_ref().ok().and_then(|r| r.as_ref()), w);
        }
        w.text(why);
        Outcome { status, ns: None }
    }
}
