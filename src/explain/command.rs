//! The `explain` command and `rate --se`: Sudoku Explainer ratings and step paths for every
//! record, through the streaming machinery every per-puzzle command shares ([`crate::run`]).
//!
//! SE rates only puzzles with exactly one solution, so each record is first solved with limit 2;
//! other records get their status (`invalid`, `unsolvable`, `multiple`) and empty SE fields. A
//! rating that runs out of its work budget gets status `gave-up` and the reason in `error`.

use std::fmt::Write as _;

use super::{explain, rate, Explanation, Tenths, Unrated};
use crate::input::Record;
use crate::run::{Columns, Outcome, PuzzleJob, RowWriter, Status};
use crate::solve::usable_or_invalid;

/// Records per chunk of `rate --se` and `explain` (unless `--chunk-size` says otherwise). A rating
/// takes from microseconds to minutes, so the 1,024 records of other commands' chunks would leave
/// a file of a few hundred hard puzzles to one thread; 16 keeps every core busy on small files and
/// costs nothing measurable on easy ones (a chunk is a few channel messages).
pub const SE_CHUNK: usize = 16;

/// `explain`'s columns (a `file` column follows with several inputs).
pub static COLUMNS: Columns = Columns {
    names: &[
        "line",
        "puzzle",
        "status",
        "er",
        "ep",
        "ed",
        "er_technique",
        "steps",
        "error",
    ],
    status: Some(2),
    counted: false,
};

/// What `explain` does to each puzzle.
#[derive(Clone, Copy, Debug)]
pub struct ExplainJob {
    /// The work budget per puzzle ([`super::DEFAULT_BUDGET`] unless told otherwise).
    pub budget: u64,
    /// SE's own layout: a `#` line per puzzle, then `rating  description` per step.
    pub text: bool,
}

/// A rating as a JSON/CSV number: `10.6`.
pub fn number(t: Tenths) -> Option<f64> {
    Some(f64::from(t.0) / 10.0)
}

/// The steps as a JSON array: `[{"technique":…,"rating":…,"placements":[[c,d]…],
/// "eliminations":[[c,d]…]}…]`.
pub fn steps_json(e: &Explanation) -> String {
    let mut out = String::with_capacity(64 * e.steps.len() + 2);
    out.push('[');
    for (i, s) in e.steps.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"technique\":");
        // Serializing a &str cannot fail.
        out.push_str(&serde_json::to_string(&s.technique).unwrap_or_default());
        let _ = write!(out, ",\"rating\":{}", s.rating);
        for (name, list) in [
            ("placements", &s.placements),
            ("eliminations", &s.eliminations),
        ] {
            let _ = write!(out, ",\"{name}\":[");
            for (k, (c, d)) in list.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                let _ = write!(out, "[{c},{d}]");
            }
            out.push(']');
        }
        out.push('}');
    }
    out.push(']');
    out
}

/// What a usable puzzle's SE path came to, or why there is none: `explain`'s row (and the
/// Python module's `explain`) in one value.
pub enum Answer {
    /// Not exactly one solution: `unsolvable` or `multiple`, with no reason text.
    NotUnique(Status),
    Rated(Explanation),
    /// The budget ran out; the reason, as the `error` column writes it.
    GaveUp(String),
}

/// Explains `grid` (givens already checked) within `budget`.
pub fn answer(grid: &crate::Grid, budget: u64) -> Answer {
    match explain(grid, budget) {
        Ok(e) => Answer::Rated(e),
        Err(Unrated::NotUnique { solutions }) => Answer::NotUnique(Status::from_count(solutions)),
        Err(Unrated::GaveUp(g)) => Answer::GaveUp(g.to_string()),
    }
}

impl PuzzleJob for ExplainJob {
    fn command(&self) -> &'static str {
        "explain"
    }

    fn columns(&self) -> &'static Columns {
        &COLUMNS
    }

    fn row(&self, rec: &Record, w: &mut RowWriter) -> Outcome {
        let grid = match usable_or_invalid(rec, w, &COLUMNS.names[3..8]) {
            Ok(g) => g,
            Err(outcome) => return outcome,
        };
        let status = match answer(grid, self.budget) {
            Answer::NotUnique(status) => {
                w.grid(Some(grid)).word(status.as_str());
                for _ in 3..9 {
                    w.null();
                }
                status
            }
            Answer::GaveUp(why) => {
                w.grid(Some(grid)).word(Status::GaveUp.as_str());
                for _ in 3..8 {
                    w.null();
                }
                w.text(Some(&why));
                Status::GaveUp
            }
            Answer::Rated(e) => {
                w.grid(Some(grid))
                    .word(Status::Solved.as_str())
                    .float(number(e.rating.er), 1)
                    .float(number(e.rating.ep), 1)
                    .float(number(e.rating.ed), 1)
                    .text(Some(&e.rating.er_technique))
                    .json(&steps_json(&e))
                    .null();
                Status::Solved
            }
        };
        Outcome { status, ns: None }
    }

    fn rows(&self, rec: &Record, w: &mut RowWriter, file: Option<&str>) -> Outcome {
        if !self.text {
            return crate::run::one_row(self, rec, w, file);
        }
        let place = match file {
            Some(name) => format!("{name} line {}", rec.line),
            None => format!("line {}", rec.line),
        };
        // A blank line before every puzzle; the run drops the very first one.
        let mut out = String::from("\n");
        let status = match rec
            .puzzle
            .as_ref()
            .map_err(|e| e.to_string())
            .and_then(|g| {
                if rec.candidates.is_some() {
                    return Err("a pencilmark line: solve, bench and verify read those".into());
                }
                g.check_givens().map(|()| g).map_err(|c| c.to_string())
            }) {
            Err(why) => {
                let _ = writeln!(out, "# {place}: invalid ({why})");
                Status::Invalid
            }
            Ok(grid) => match answer(grid, self.budget) {
                Answer::NotUnique(status) => {
                    let why = match status {
                        Status::Multiple => "2+ solutions",
                        _ => "no solution",
                    };
                    let _ = writeln!(out, "# {place}: {status} ({why}): {}", grid.to_line());
                    status
                }
                Answer::GaveUp(why) => {
                    let _ = writeln!(out, "# {place}: gave-up ({why}): {}", grid.to_line());
                    Status::GaveUp
                }
                Answer::Rated(e) => {
                    let r = &e.rating;
                    let _ = writeln!(
                        out,
                        "# {place}: {}  ER {} EP {} ED {} ({})",
                        grid.to_line(),
                        r.er,
                        r.ep,
                        r.ed,
                        r.er_technique
                    );
                    for s in &e.steps {
                        let _ = writeln!(out, "{}  {}", s.rating, s.text);
                    }
                    Status::Solved
                }
            },
        };
        w.raw(out.as_bytes());
        Outcome { status, ns: None }
    }

    fn leading_bytes_to_drop(&self) -> usize {
        usize::from(self.text)
    }
}

/// `rate --se`'s columns: rate's, with SE's before `error`.
pub static RATE_COLUMNS: Columns = Columns {
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
        "er",
        "ep",
        "ed",
        "er_technique",
        "error",
    ],
    status: Some(2),
    counted: false,
};

/// The SE rating of a `rate --se` row: `Ok(None)` for a puzzle without exactly one solution
/// (SE rates only those), `Err(reason)` when the budget ran out.
pub fn se_rating(
    grid: &crate::Grid,
    unique: bool,
    budget: u64,
) -> Result<Option<super::Rating>, String> {
    if !unique {
        return Ok(None);
    }
    match rate(grid, budget) {
        Ok(r) => Ok(Some(r)),
        Err(Unrated::NotUnique { .. }) => Ok(None),
        Err(Unrated::GaveUp(g)) => Err(g.to_string()),
    }
}

/// Writes the SE fields of a `rate --se` row (`er, ep, ed, er_technique`), empty without a
/// rating.
pub fn write_se_fields(rating: Option<&super::Rating>, w: &mut RowWriter) {
    match rating {
        Some(r) => {
            w.float(number(r.er), 1)
                .float(number(r.ep), 1)
                .float(number(r.ed), 1)
                .text(Some(&r.er_technique));
        }
        None => {
            w.null().null().null().null();
        }
    }
}
