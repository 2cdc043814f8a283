//! `sudoku-batch solve`: every puzzle's solutions counted (to 2 by default, proving uniqueness),
//! the first one written, with the guesses it took and the time — one row per input record, in
//! input order, through the shared streaming machinery of [`crate::run`].
//!
//! This module is only what is particular to `solve`: its options ([`Options`]), its columns
//! ([`COLUMNS`]) and the row of one record ([`SolveJob`]). Reading, chunking, threads, ordering,
//! `-o`/`--resume` and the summary are [`crate::run`]'s.

use std::io::Write;

use crate::clock::Stopwatch;
use crate::engine;
use crate::grid::Grid;
use crate::input::{Input, Record};
use crate::run::{self, output, Columns, Outcome, PuzzleJob, RowWriter, Settings, Status, Summary};

/// The output columns, in order (a `file` column follows with several inputs). A contract with
/// downstream tools: columns may be added at the end, never renamed or reordered.
pub static COLUMNS: Columns = Columns {
    names: &[
        "line",
        "puzzle",
        "status",
        "solutions",
        "solution",
        "guesses",
        "solve_ns",
        "error",
    ],
    status: Some(2),
    counted: false,
};

/// What `solve` does to each puzzle.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Count solutions up to this many (2 proves uniqueness, 1 is `--first`).
    pub limit: u32,
    /// Give a puzzle up (status `gave-up`) after this many guesses.
    pub max_guesses: Option<u64>,
    /// Measure each solve (`false` writes 0 in `solve_ns`, for byte-identical reruns).
    pub timing: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limit: 2,
            max_guesses: None,
            timing: true,
        }
    }
}

/// The row of one record: check, solve, write.
#[derive(Clone, Copy, Debug)]
pub struct SolveJob {
    limit: u32,
    max_guesses: u64,
    /// The stopwatch for `solve_ns`, or `None` when not timing.
    timing: Option<Stopwatch>,
}

impl SolveJob {
    pub fn new(opts: &Options) -> SolveJob {
        SolveJob {
            limit: opts.limit,
            max_guesses: opts.max_guesses.unwrap_or(u64::MAX),
            timing: opts.timing.then(Stopwatch::new),
        }
    }
}

/// Why a record is not a usable puzzle — the puzzle when it could be read, and the reason — or
/// `None` when it is one. Every per-puzzle command writes such a record as an `invalid` row.
pub fn unusable(rec: &Record) -> Option<(Option<&Grid>, String)> {
    match &rec.puzzle {
        Err(e) => Some((None, e.to_string())),
        Ok(g) => g.check_givens().err().map(|c| (Some(g), c.to_string())),
    }
}

/// The usable puzzle of `rec`; or, when it is not one, writes the rest of its `invalid` row —
/// the puzzle when it could be read, the status, `empty` empty fields, the reason — and gives
/// back the row's outcome. For commands whose columns run `line, puzzle, status, …, error`.
pub fn usable_or_invalid<'a>(
    rec: &'a Record,
    w: &mut RowWriter,
    empty: usize,
) -> Result<&'a Grid, Outcome> {
    let (puzzle, error) = match &rec.puzzle {
        Err(e) => (None, e.to_string()),
        Ok(_) if rec.candidates.is_some() => (
            None,
            "a pencilmark line: solve, bench and verify read those".to_string(),
        ),
        Ok(g) => match g.check_givens() {
            Ok(()) => return Ok(g),
            Err(conflict) => (Some(g), conflict.to_string()),
        },
    };
    w.grid(puzzle).word(Status::Invalid.as_str());
    for _ in 0..empty {
        w.null();
    }
    w.text(Some(&error));
    Err(Outcome {
        status: Status::Invalid,
        ns: None,
    })
}

impl PuzzleJob for SolveJob {
    fn columns(&self) -> &'static Columns {
        &COLUMNS
    }

    fn row(&self, rec: &Record, w: &mut RowWriter) -> Outcome {
        // A pencilmark line's `puzzle` is its 729-character form.
        let echo = |w: &mut RowWriter, grid: Option<&Grid>| match &rec.candidates {
            Some(c) => {
                w.cells(c.to_line().as_bytes());
            }
            None => {
                w.grid(grid);
            }
        };
        // solutions, solution, guesses and solve_ns of an invalid row: 0, empty, 0, 0.
        let invalid = |w: &mut RowWriter, grid: Option<&Grid>, why: &str| {
            echo(w, grid);
            w.word(Status::Invalid.as_str())
                .int(0)
                .null()
                .int(0)
                .int(0)
                .text(Some(why));
            Outcome {
                status: Status::Invalid,
                ns: None,
            }
        };
        let grid = match &rec.puzzle {
            Ok(g) => g,
            Err(e) => return invalid(w, None, &e.to_string()),
        };
        let solve = || match &rec.candidates {
            Some(c) => engine::solve_candidates(c, self.limit, self.max_guesses),
            None => engine::solve_with_budget(grid, self.limit, self.max_guesses),
        };
        let (found, ns) = match &self.timing {
            Some(watch) => {
                let (found, ns) = watch.time(solve);
                (found, Some(ns))
            }
            None => (solve(), None),
        };
        // Givens that break a rule leave no solution, so they are looked for only then: a
        // solution found proves there is no conflict, and the check is skipped for nearly
        // every puzzle (it cost as much as formatting the row).
        if found.solutions == 0 || found.gave_up {
            if let Err(conflict) = grid.check_givens() {
                return invalid(w, Some(grid), &conflict.to_string());
            }
        }
        let status = if found.gave_up {
            Status::GaveUp
        } else {
            Status::from_count(found.solutions)
        };
        echo(w, Some(grid));
        w.word(status.as_str())
            .int(u64::from(found.solutions))
            .grid(found.first.as_ref())
            .int(found.guesses)
            .int(ns.unwrap_or(0))
            .null();
        Outcome { status, ns }
    }
}

/// Solves every puzzle of `inputs` into `out` (no `-o` lifecycle: see [`execute`]).
pub fn run(
    inputs: &[Input],
    out: &mut dyn Write,
    settings: &Settings,
    opts: &Options,
) -> Result<Summary, run::Error> {
    run::run(inputs, out, settings, SolveJob::new(opts))
}

/// The whole `solve` command: every record solved, inside the `-o` lifecycle.
pub fn execute(
    inputs: &[Input],
    target: output::Target<'_>,
    settings: Settings,
    opts: &Options,
) -> Result<output::Ended, run::Error> {
    run::execute(inputs, target, settings, SolveJob::new(opts))
}
