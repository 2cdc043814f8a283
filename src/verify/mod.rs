//! `sudoku-batch verify`: check a file that pairs puzzles with claimed (reference) solutions.
//!
//! For every row: the puzzle must be readable with no conflicting givens, the solution must be
//! a complete grid that breaks no rule and keeps every given, and the puzzle must have exactly
//! one solution — a reference solution of a puzzle with several is flagged `not_unique` even
//! when it is one of them. Each row gets a [`Verdict`].
//!
//! **Formats**, told apart by the first line that is not blank or a `#` comment (or chosen with
//! [`PairFormat`]): a line holding two 81-cell fields (`puzzle:solution`, `puzzle,solution`,
//! or any separator `solve` accepts, anything after the second field ignored) means *pair
//! lines*; anything else is read as a CSV header, and the puzzle and solution columns are
//! looked up by name (defaults: the first of `quizzes`, `puzzle`, `puzzles`, and the first of
//! `solution`, `solutions`; in `solve`'s output `solutions` is a count, so `solution` comes
//! first). So Kaggle's `quizzes,solutions`, Radcliffe's `puzzle,solution,clues,difficulty` and
//! `solve`'s own output all read as they are.
//!
//! **Streaming, all cores, in order.** A reader thread cuts the input into chunks of rows; each
//! chunk is checked by one rayon job; the calling thread takes the verdicts back in input order.
//! The reader is [`crate::input::pairs`] and the scheme is [`crate::run`]'s, shared with `solve`:
//! at most `4 × threads` chunks are in memory whatever the input size. [`report`] writes what a
//! user sees: the `FILE:LINE: verdict` report, the summary, and the `-o` verdict CSV.

mod report;

use std::io;

use crate::engine;
use crate::grid::Grid;
use crate::input::{self, Input, Pair, PairOptions};
use crate::run::{self, ordered, Chunk, Settings};

pub use crate::input::pairs::{parse_pair_line, PairFormat};
pub use report::{execute, Ended, Request};

/// What a row turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// A unique puzzle and its one solution.
    Right,
    /// The puzzle is unique but the claimed solution is not its solution (missing, unreadable,
    /// incomplete, breaking a rule, or changing a given).
    Wrong,
    /// The puzzle has two or more solutions, so no reference solution can be *the* answer.
    NotUnique,
    /// The puzzle has no solution.
    Unsolvable,
    /// The puzzle cannot be read, or its givens break a rule.
    Invalid,
}

impl Verdict {
    /// All verdicts, in the order summaries list them.
    pub const ALL: [Verdict; 5] = [
        Verdict::Right,
        Verdict::Wrong,
        Verdict::NotUnique,
        Verdict::Unsolvable,
        Verdict::Invalid,
    ];

    /// The word written in reports and the `verdict` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Right => "right",
            Verdict::Wrong => "wrong",
            Verdict::NotUnique => "not_unique",
            Verdict::Unsolvable => "unsolvable",
            Verdict::Invalid => "invalid",
        }
    }
}

/// One row's verdict.
#[derive(Clone, Debug)]
pub struct Checked {
    /// 1-based line of the row in its input.
    pub line: u64,
    /// The puzzle, when it could be read.
    pub puzzle: Option<Grid>,
    /// The claimed solution, when it could be read as 81 cells.
    pub solution: Option<Grid>,
    pub verdict: Verdict,
    /// What is wrong; `None` for `right`.
    pub error: Option<String>,
    /// The puzzle's one solution, when it is unique and the claim is not it.
    pub expected: Option<Grid>,
}

/// Why `solution` is not a solution of `puzzle`, or `None` when it is one.
///
/// ```
/// use sudoku_batch::{verify::solution_problem, Grid};
/// let p: Grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse().unwrap();
/// let s: Grid = "534678912672195348198342567859761423426853791713924856961537284287419635345286179".parse().unwrap();
/// assert_eq!(solution_problem(&p, &s), None);
/// assert_eq!(solution_problem(&p, &p).unwrap(), "the solution is incomplete: 51 blank cells");
/// ```
pub fn solution_problem(puzzle: &Grid, solution: &Grid) -> Option<String> {
    let blanks = solution.cells().iter().filter(|&&v| v == 0).count();
    if blanks > 0 {
        let s = if blanks == 1 { "" } else { "s" };
        return Some(format!(
            "the solution is incomplete: {blanks} blank cell{s}"
        ));
    }
    if let Err(c) = solution.check_givens() {
        return Some(format!("the solution breaks a rule: {c}"));
    }
    for (i, (&p, &s)) in puzzle.cells().iter().zip(solution.cells()).enumerate() {
        if p != 0 && p != s {
            return Some(format!(
                "the solution changes a given: r{}c{} is {s}, the given is {p}",
                i / 9 + 1,
                i % 9 + 1
            ));
        }
    }
    None
}

/// Checks one pair.
pub fn check(pair: &Pair) -> Checked {
    let mut out = Checked {
        line: pair.line,
        puzzle: pair.puzzle.as_ref().ok().copied(),
        solution: pair.solution.as_ref().ok().copied(),
        verdict: Verdict::Invalid,
        error: None,
        expected: None,
    };
    let puzzle = match &pair.puzzle {
        Ok(p) => p,
        Err(e) => {
            out.error = Some(e.clone());
            return out;
        }
    };
    if let Err(c) = puzzle.check_givens() {
        out.error = Some(format!("puzzle: {c}"));
        return out;
    }
    let found = match &pair.candidates {
        Some(c) => engine::solve_candidates(c, 2, u64::MAX),
        None => engine::solve(puzzle, 2),
    };
    let problem = match &pair.solution {
        Ok(s) => solution_problem(puzzle, s).or_else(|| {
            let c = pair.candidates.as_ref()?;
            (!c.allows(s)).then(|| "the solution puts a digit its cell's candidates exclude".into())
        }),
        Err(e) => Some(e.clone()),
    };
    match found.solutions {
        0 => {
            out.verdict = Verdict::Unsolvable;
            out.error = Some("the puzzle has no solution".into());
        }
        1 => match problem {
            None => out.verdict = Verdict::Right,
            Some(why) => {
                out.verdict = Verdict::Wrong;
                out.error = Some(why);
                out.expected = found.first;
            }
        },
        _ => {
            out.verdict = Verdict::NotUnique;
            out.error = Some(match problem {
                None => {
                    "the puzzle has 2 or more solutions (the claimed one is one of them)".into()
                }
                Some(why) => format!("the puzzle has 2 or more solutions, and {why}"),
            });
        }
    }
    out
}

/// Counts by verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    counts: [u64; 5],
}

impl Summary {
    /// Rows with this verdict.
    pub fn count(&self, v: Verdict) -> u64 {
        self.counts[v as usize]
    }

    /// All rows.
    pub fn rows(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Whether every row is right.
    pub fn all_right(&self) -> bool {
        self.rows() == self.count(Verdict::Right)
    }

    /// `12 rows: 10 right, 1 wrong, …`
    pub fn line(&self) -> String {
        let parts: Vec<String> = Verdict::ALL
            .iter()
            .map(|&v| format!("{} {}", crate::human::group(self.count(v)), v.as_str()))
            .collect();
        format!(
            "{} rows: {}",
            crate::human::group(self.rows()),
            parts.join(", ")
        )
    }
}

/// Checks every row of `inputs` (read in order, `threads` workers, 0 for one per core) and hands
/// each verdict to `report` in input order, with the index of its input. `report` returning an
/// error stops the run with it (a closed pipe, say). Returns the counts.
pub fn run(
    inputs: &[Input],
    opts: &PairOptions,
    threads: usize,
    chunk_size: usize,
    report: &mut dyn FnMut(usize, &Checked) -> io::Result<()>,
) -> Result<Summary, run::Error> {
    let mut summary = Summary::default();
    let settings = Settings {
        threads,
        chunk_size,
        ..Settings::default()
    };
    let (read_inputs, read_opts) = (inputs.to_vec(), opts.clone());
    ordered::run(
        run::threads(threads),
        "verify",
        move |feeder| {
            run::feed(&read_inputs, &settings, feeder, |src, _| {
                input::pairs::pairs(src, &read_opts).map_err(|e| e.to_string())?
            })
        },
        |chunk: Chunk<Pair>| {
            (
                chunk.file,
                chunk.items.iter().map(check).collect::<Vec<_>>(),
            )
        },
        |event| match event {
            ordered::Event::Idle => Ok(()),
            ordered::Event::Failed(e) => Err(e),
            ordered::Event::Done((file, rows)) => {
                for row in &rows {
                    summary.counts[row.verdict as usize] += 1;
                    report(file, row).map_err(run::Error::Output)?;
                }
                Ok(())
            }
        },
    )?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::pairs::parse_pair_line;

    use crate::testing::{LEET, LEET_SOLUTION as SOL};

    fn pair(p: &str, s: &str) -> Pair {
        parse_pair_line(7, format!("{p}:{s}").as_bytes())
    }

    #[test]
    fn verdicts() {
        let c = check(&pair(LEET, SOL));
        assert_eq!((c.verdict, c.error), (Verdict::Right, None));

        let mut bad = SOL.as_bytes().to_vec();
        bad.swap(2, 3); // r1c3 and r1c4 swapped: columns break
        let bad = String::from_utf8(bad).unwrap();
        let c = check(&pair(LEET, &bad));
        assert_eq!(c.verdict, Verdict::Wrong);
        assert_eq!(
            c.error.unwrap(),
            "the solution breaks a rule: column 3 has two 6s"
        );
        assert_eq!(c.expected.unwrap().to_line(), SOL);

        let c = check(&pair(LEET, &LEET.replace('.', "1")));
        assert_eq!(c.verdict, Verdict::Wrong);

        let c = check(&pair(LEET, &SOL[..80]));
        assert_eq!(c.verdict, Verdict::Wrong);
        assert_eq!(c.error.unwrap(), "solution: expected 81 cells, found 80");

        let c = check(&parse_pair_line(1, LEET.as_bytes()));
        assert_eq!(c.verdict, Verdict::Wrong);
        assert_eq!(c.error.unwrap(), "no solution on this line");

        let empty = ".".repeat(81);
        let c = check(&pair(&empty, SOL));
        assert_eq!(c.verdict, Verdict::NotUnique);
        assert!(c.error.unwrap().contains("one of them"));

        let unsolvable = format!("12345678.........9{}", ".".repeat(63));
        let c = check(&pair(&unsolvable, SOL));
        assert_eq!(c.verdict, Verdict::Unsolvable);

        let c = check(&pair(&LEET.replacen('5', "3", 1), SOL));
        assert_eq!(c.verdict, Verdict::Invalid);
        assert_eq!(c.error.unwrap(), "puzzle: row 1 has two 3s");

        let c = check(&pair("x", SOL));
        assert_eq!(c.verdict, Verdict::Invalid);
        assert_eq!(
            c.error.unwrap(),
            "puzzle: unexpected character 'x' at cell 1"
        );
    }

    #[test]
    fn changed_given_is_named() {
        // A valid grid that is not LEET's solution: relabel digits 1 <-> 2 everywhere.
        let other: String = SOL
            .chars()
            .map(|c| match c {
                '1' => '2',
                '2' => '1',
                c => c,
            })
            .collect();
        let c = check(&pair(LEET, &other));
        assert_eq!(c.verdict, Verdict::Wrong);
        assert_eq!(
            c.error.unwrap(),
            "the solution changes a given: r2c4 is 2, the given is 1"
        );
    }

    #[test]
    fn pair_separators() {
        for sep in [":", ",", ", ", " ", "\t", ";"] {
            let p = parse_pair_line(1, format!("  {LEET}{sep}{SOL},extra").as_bytes());
            assert_eq!(p.puzzle.unwrap().to_line(), LEET, "{sep:?}");
            assert_eq!(p.solution.unwrap().to_line(), SOL, "{sep:?}");
        }
    }
}
