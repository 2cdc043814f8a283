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
    /// Rows (CSV or JSON lines, the run's format), or the solution for reading.
    pub layout: Layout,
}

/// How `solve` writes what it found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// One row per puzzle with every column (`--format csv` or `jsonl`).
    #[default]
    Rows,
    /// The solution as 9 lines of 9 digits separated by spaces, a blank line between puzzles;
    /// a puzzle without a unique solution gives a `# line N: status (why)` line instead.
    Grid,
    /// The solution as a LeetCode board on one line; a puzzle without a unique solution gives
    /// an object `{"line":N,"status":…,"reason":…}` instead (and `"file"` with several inputs).
    Json,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limit: 2,
            max_guesses: None,
            timing: true,
            layout: Layout::Rows,
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
    layout: Layout,
}

impl SolveJob {
    pub fn new(opts: &Options) -> SolveJob {
        SolveJob {
            limit: opts.limit,
            max_guesses: opts.max_guesses.unwrap_or(u64::MAX),
            timing: opts.timing.then(Stopwatch::new),
            layout: opts.layout,
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
/// the puzzle when it could be read, the status, the fields between status and `error` as
/// `middle` writes them, the reason — and gives back the row's outcome. For commands whose
/// columns run `line, puzzle, status, …, error`. The columns commands share are filled alike
/// in every command: `solutions` and `guesses` 0, the others empty ([`invalid_fields`]).
pub fn usable_or_invalid<'a>(
    rec: &'a Record,
    w: &mut RowWriter,
    middle: &[&str],
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
    invalid_fields(w, middle);
    w.text(Some(&error));
    Err(Outcome {
        status: Status::Invalid,
        ns: None,
    })
}

/// What one record came to: why it is not a usable puzzle, or what solving it found.
enum Answer<'a> {
    Invalid {
        grid: Option<&'a Grid>,
        why: String,
    },
    Done {
        grid: &'a Grid,
        status: Status,
        found: engine::Solved,
        ns: Option<u64>,
    },
}

impl SolveJob {
    /// Check and solve one record.
    #[inline(always)]
    fn answer<'a>(&self, rec: &'a Record) -> Answer<'a> {
        let grid = match &rec.puzzle {
            Ok(g) => g,
            Err(e) => {
                return Answer::Invalid {
                    grid: None,
                    why: e.to_string(),
                }
            }
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
                return Answer::Invalid {
                    grid: Some(grid),
                    why: conflict.to_string(),
                };
            }
        }
        let status = if found.gave_up {
            Status::GaveUp
        } else {
            Status::from_count(found.solutions)
        };
        Answer::Done {
            grid,
            status,
            found,
            ns,
        }
    }

    /// The `grid` and `json` layouts: the solution as a person or a JSON user reads it, or a
    /// line saying why there is none.
    fn readable(&self, rec: &Record, w: &mut RowWriter, file: Option<&str>) -> Outcome {
        let (status, ns, why) = match self.answer(rec) {
            Answer::Done {
                status: status @ Status::Solved,
                found:
                    engine::Solved {
                        first: Some(solution),
                        ..
                    },
                ns,
                ..
            } => {
                let mut out = Vec::with_capacity(200);
                if self.layout == Layout::Grid {
                    // A blank line before every puzzle; the run drops the very first one.
                    out.push(b'\n');
                    out.extend_from_slice(solution.to_block().as_bytes());
                } else {
                    crate::input::write_board(&solution, &mut out);
                    out.push(b'\n');
                }
                w.raw(&out);
                return Outcome { status, ns };
            }
            Answer::Done {
                status, found, ns, ..
            } => {
                let why = match status {
                    Status::Multiple if found.solutions >= self.limit => {
                        format!("{}+ solutions", found.solutions)
                    }
                    Status::Multiple => format!("{} solutions", found.solutions),
                    Status::GaveUp => format!(
                        "--max-guesses ran out after {} guesses, {} solutions found",
                        found.guesses, found.solutions
                    ),
                    _ => "no solution".to_string(),
                };
                (status, ns, why)
            }
            Answer::Invalid { why, .. } => (Status::Invalid, None, why),
        };
        let place = match file {
            Some(name) => format!("{name} line {}", rec.line),
            None => format!("line {}", rec.line),
        };
        let text = if self.layout == Layout::Grid {
            format!("\n# {place}: {status} ({why})\n")
        } else {
            // Serializing a &str cannot fail.
            let quoted = |t: &str| serde_json::to_string(t).unwrap_or_default();
            let file = file.map_or(String::new(), |f| format!(",\"file\":{}", quoted(f)));
            format!(
                "{{\"line\":{},\"status\":\"{status}\",\"reason\":{}{file}}}\n",
                rec.line,
                quoted(&why)
            )
        };
        w.raw(text.as_bytes());
        Outcome { status, ns }
    }
}

/// The fields of an invalid row between `status` and `error`, named by their columns: counts
/// (`solutions`, `guesses`, `solve_ns`) are 0, everything else is empty — in every command.
pub fn invalid_fields(w: &mut RowWriter, columns: &[&str]) {
    for &c in columns {
        if matches!(c, "solutions" | "guesses" | "solve_ns") {
            w.int(0);
        } else {
            w.null();
        }
    }
}

impl PuzzleJob for SolveJob {
    fn command(&self) -> &'static str {
        "solve"
    }

    fn columns(&self) -> &'static Columns {
        &COLUMNS
    }

    fn rows(&self, rec: &Record, w: &mut RowWriter, file: Option<&str>) -> Outcome {
        if self.layout == Layout::Rows {
            run::one_row(self, rec, w, file)
        } else {
            self.readable(rec, w, file)
        }
    }

    fn leading_bytes_to_drop(&self) -> usize {
        usize::from(self.layout == Layout::Grid)
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
        match self.answer(rec) {
            // solutions, solution, guesses and solve_ns of an invalid row: 0, empty, 0, 0.
            Answer::Invalid { grid, why } => {
                echo(w, grid);
                w.word(Status::Invalid.as_str())
                    .int(0)
                    .null()
                    .int(0)
                    .int(0)
                    .text(Some(&why));
                Outcome {
                    status: Status::Invalid,
                    ns: None,
                }
            }
            Answer::Done {
                grid,
                status,
                found,
                ns,
            } => {
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
