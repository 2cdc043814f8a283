//! The `canon` command: the canonical form of every record, one row each, through the streaming
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
        "canonical",
        "automorphisms",
        "error",
    ],
    status: Some(2),
    counted: false,
};

/// The columns with `--transform`.
pub static COLUMNS_WITH_TRANSFORM: Columns = Columns {
    names: &[
        "line",
        "puzzle",
        "status",
        "canonical",
        "automorphisms",
        "transform",
        "error",
    ],
    status: Some(2),
    counted: false,
};

/// What `canon` does to each puzzle.
#[derive(Clone, Copy, Debug)]
pub struct CanonJob {
    /// Also write the transform that maps the input to its canonical form.
    pub transform: bool,
}

impl PuzzleJob for CanonJob {
    fn command(&self) -> &'static str {
        "canon"
    }

    fn columns(&self) -> &'static Columns {
        if self.transform {
            &COLUMNS_WITH_TRANSFORM
        } else {
            &COLUMNS
        }
    }

    fn row(&self, rec: &Record, w: &mut RowWriter) -> Outcome {
        // As in every per-puzzle command, text that is not a grid and givens that break a rule
        // are `invalid` (`dedup` and `split` key only valid puzzles too).
        let grid = match usable_or_invalid(rec, w, {
            let names = self.columns().names;
            &names[3..names.len() - 1]
        }) {
            Ok(g) => g,
            Err(outcome) => return outcome,
        };
        let c = super::canonical(grid);
        w.grid(Some(grid))
            .word(Status::Ok.as_str())
            .cells(&super::form_line(&c))
            .int(u64::from(c.automorphisms));
        if self.transform {
            w.cells(c.transform.to_string().as_bytes());
        }
        w.null();
        Outcome {
            status: Status::Ok,
            ns: None,
        }
    }
}
