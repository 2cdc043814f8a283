//! `sudoku-batch augment`: K random equivalent copies of every puzzle (and of its solution, when
//! it has exactly one), for training-data augmentation. Each row records its source line and the
//! transform, so any copy can be traced and undone.
//!
//! The copies of a puzzle are drawn from `--seed` and the puzzle itself, so they are the same
//! whatever `-j`, chunking or the puzzle's place in the file; the same puzzle twice gets the
//! same copies. The solution is computed and proven unique by the engine (the solution of a
//! transformed puzzle is the transformed solution), never read from the input.

use crate::engine;
use crate::input::{Input, Record};
use crate::rng::{hash_bytes, Rng};
use crate::run::{self, output, Columns, Outcome, PuzzleJob, RowWriter, Settings, Status};
use crate::solve::usable_or_invalid;
use crate::transform::Transform;

/// The output columns (a `file` column follows with several inputs). `copy` counts from 1.
pub static COLUMNS: Columns = Columns {
    names: &[
        "line",
        "puzzle",
        "status",
        "copy",
        "augmented",
        "solution",
        "transform",
        "error",
    ],
    status: Some(2),
    counted: false,
};

/// What `augment` does to each puzzle.
#[derive(Clone, Copy, Debug)]
pub struct AugmentJob {
    /// Copies per puzzle.
    pub copies: u32,
    pub seed: u64,
}

impl AugmentJob {
    /// The transforms of `grid`'s copies: a function of the seed and the grid only.
    pub fn transforms(&self, grid: &crate::Grid) -> impl Iterator<Item = Transform> {
        let mut rng = Rng::for_item(self.seed, hash_bytes(grid.cells()));
        (0..self.copies).map(move |_| Transform::random(&mut rng))
    }
}

impl PuzzleJob for AugmentJob {
    fn command(&self) -> &'static str {
        "augment"
    }

    fn columns(&self) -> &'static Columns {
        &COLUMNS
    }

    /// The row of an invalid record (valid ones are written by [`PuzzleJob::rows`]).
    fn row(&self, rec: &Record, w: &mut RowWriter) -> Outcome {
        match usable_or_invalid(rec, w, &COLUMNS.names[3..7]) {
            Err(outcome) => outcome,
            // Not reached for valid records: `rows` writes those.
            Ok(_) => Outcome {
                status: Status::Ok,
                ns: None,
            },
        }
    }

    fn rows(&self, rec: &Record, w: &mut RowWriter, file: Option<&str>) -> Outcome {
        let grid = match (&rec.puzzle, rec.puzzle.as_ref().map(|g| g.check_givens())) {
            (Ok(g), Ok(Ok(()))) => *g,
            _ => {
                w.int(rec.line);
                let outcome = self.row(rec, w);
                if let Some(name) = file {
                    w.text(Some(name));
                }
                w.end();
                return outcome;
            }
        };
        let found = engine::solve(&grid, 2);
        let solution = (found.solutions == 1).then_some(found.first).flatten();
        for (k, t) in self.transforms(&grid).enumerate() {
            w.int(rec.line)
                .grid(Some(&grid))
                .word(Status::Ok.as_str())
                .int(k as u64 + 1)
                .grid(Some(&t.apply(&grid)))
                .grid(solution.map(|s| t.apply(&s)).as_ref())
                .cells(t.to_string().as_bytes())
                .null();
            if let Some(name) = file {
                w.text(Some(name));
            }
            w.end();
        }
        Outcome {
            status: Status::Ok,
            ns: None,
        }
    }
}

/// The whole `augment` command. `--resume` is refused: a cut run may have written only some of
/// a puzzle's copies, and rerunning is as cheap as resuming.
pub fn execute(
    inputs: &[Input],
    target: output::Target<'_>,
    settings: Settings,
    job: AugmentJob,
) -> Result<output::Ended, run::Error> {
    if target.resume {
        return Err(run::Error::OutputFile(
            "augment does not resume (a cut run may hold part of a puzzle's copies): run it again"
                .into(),
        ));
    }
    run::execute(inputs, target, settings, job)
}
