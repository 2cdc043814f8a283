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
//! This is [`crate::ordered`], the scheme `solve` uses too: at most `4 × threads` chunks are in
//! memory whatever the input size.

use std::io::{self, BufRead, BufReader, Read};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::thread;

use crate::engine;
use crate::grid::{is_separator, Grid};
use crate::input::{Input, LineReader, Source, MAX_LINE};
use crate::ordered::{self, Event, Feeder, StartError};

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

/// How the pairs are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairFormat {
    /// `puzzle:solution` or `puzzle,solution` lines, no header.
    Lines,
    /// CSV with a header row naming the columns.
    Csv,
}

/// How a verify run is done.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The format, or `None` to tell from the first line.
    pub format: Option<PairFormat>,
    /// The CSV column holding the puzzles, or `None` for the defaults.
    pub puzzle_column: Option<String>,
    /// The CSV column holding the solutions, or `None` for the defaults.
    pub solution_column: Option<String>,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Rows per chunk; 0 means 1024.
    pub chunk_size: usize,
}

/// The puzzle columns tried, in order, when none is named.
pub const DEFAULT_PUZZLE_COLUMNS: [&str; 3] = ["quizzes", "puzzle", "puzzles"];
/// The solution columns tried, in order, when none is named.
pub const DEFAULT_SOLUTION_COLUMNS: [&str; 2] = ["solution", "solutions"];

/// One row as read: a puzzle and a claimed solution, or why each could not be read.
#[derive(Clone, Debug)]
pub struct Pair {
    pub line: u64,
    pub puzzle: Result<Grid, String>,
    pub solution: Result<Grid, String>,
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
    let found = engine::solve(puzzle, 2);
    let problem = match &pair.solution {
        Ok(s) => solution_problem(puzzle, s),
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

/// Splits a pair line: two 81-cell fields separated by a separator (`:`, `,`, `;`, whitespace).
pub fn parse_pair_line(line: u64, text: &[u8]) -> Pair {
    let t = text.trim_ascii_start();
    let cut = t.iter().position(|&b| is_separator(b)).unwrap_or(t.len());
    let puzzle = Grid::parse_cells(&t[..cut]).map_err(|e| format!("puzzle: {e}"));
    let rest = &t[cut..];
    let rest = &rest[rest.iter().take_while(|&&b| is_separator(b)).count()..];
    let end = rest
        .iter()
        .position(|&b| is_separator(b))
        .unwrap_or(rest.len());
    let solution = if end == 0 {
        Err("no solution on this line".to_string())
    } else {
        Grid::parse_cells(&rest[..end]).map_err(|e| format!("solution: {e}"))
    };
    Pair {
        line,
        puzzle,
        solution,
    }
}

fn is_skippable(line: &[u8]) -> bool {
    match line.iter().find(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(&b) => b == b'#',
    }
}

/// A stream of pairs from one input.
pub struct Pairs {
    inner: PairsInner,
}

enum PairsInner {
    Lines(LineReader),
    Csv {
        rdr: Box<csv::Reader<Source>>,
        puzzle: (usize, String),
        solution: (usize, String),
        record: csv::ByteRecord,
        line: u64,
    },
}

/// Reads the first line that is not blank or a comment (at most [`MAX_LINE`] bytes of it), and
/// gives back a source that still starts at the very beginning.
fn sniff(mut src: Source) -> io::Result<(Option<Vec<u8>>, Source)> {
    let mut seen = Vec::new();
    let mut first = None;
    while seen.len() < 16 * MAX_LINE {
        let mut line = Vec::new();
        let n = (&mut src)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut line)?;
        seen.extend_from_slice(&line);
        if n == 0 {
            break;
        }
        let text = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&line);
        if !is_skippable(text) {
            first = Some(text.to_vec());
            break;
        }
    }
    let chained: Box<dyn Read + Send> = Box::new(io::Cursor::new(seen).chain(src));
    Ok((first, BufReader::with_capacity(256 * 1024, chained)))
}

/// Whether a line is a `puzzle<sep>solution` pair (two 81-cell fields).
fn looks_like_pair(line: &[u8]) -> bool {
    let p = parse_pair_line(0, line);
    p.puzzle.is_ok() && p.solution.is_ok()
}

fn find_column(
    names: &[String],
    named: Option<&str>,
    defaults: &[&str],
) -> Option<(usize, String)> {
    let wanted: Vec<&str> = match named {
        Some(n) => vec![n],
        None => defaults.to_vec(),
    };
    wanted.iter().find_map(|w| {
        names
            .iter()
            .position(|n| n == w)
            .map(|i| (i, w.to_string()))
    })
}

fn missing_column(names: &[String], named: Option<&str>, defaults: &[&str], what: &str) -> String {
    let wanted: Vec<String> = match named {
        Some(n) => vec![format!("'{n}'")],
        None => defaults.iter().map(|d| format!("'{d}'")).collect(),
    };
    format!(
        "no {what} column named {} in the header (columns: {}); choose one with --{what}-column, \
         or use --input-format pairs for puzzle,solution lines without a header",
        wanted.join(" or "),
        names.join(", ")
    )
}

impl Pairs {
    /// Pairs from `src` in `opts.format`, or the format the first line shows. An error is a
    /// message for the user (a missing column, say) at line 1.
    pub fn new(src: Source, opts: &Options) -> io::Result<Result<Pairs, String>> {
        let (first, src) = sniff(src)?;
        let format = opts.format.unwrap_or_else(|| {
            if opts.puzzle_column.is_some() || opts.solution_column.is_some() {
                PairFormat::Csv
            } else if first.as_deref().is_none_or(looks_like_pair) {
                PairFormat::Lines
            } else {
                PairFormat::Csv
            }
        });
        if format == PairFormat::Lines {
            return Ok(Ok(Pairs {
                inner: PairsInner::Lines(LineReader::new(src)),
            }));
        }
        let mut rdr = csv::ReaderBuilder::new()
            .flexible(true)
            .comment(Some(b'#'))
            .from_reader(src);
        let headers = match rdr.byte_headers() {
            Ok(h) => h.clone(),
            Err(e) => return Ok(Err(format!("cannot read the CSV header: {e}"))),
        };
        let names: Vec<String> = headers
            .iter()
            .map(|h| {
                let h = h.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(h);
                String::from_utf8_lossy(h).trim().to_string()
            })
            .collect();
        let pc = opts.puzzle_column.as_deref();
        let sc = opts.solution_column.as_deref();
        let Some(puzzle) = find_column(&names, pc, &DEFAULT_PUZZLE_COLUMNS) else {
            return Ok(Err(missing_column(
                &names,
                pc,
                &DEFAULT_PUZZLE_COLUMNS,
                "puzzle",
            )));
        };
        let Some(solution) = find_column(&names, sc, &DEFAULT_SOLUTION_COLUMNS) else {
            return Ok(Err(missing_column(
                &names,
                sc,
                &DEFAULT_SOLUTION_COLUMNS,
                "solution",
            )));
        };
        Ok(Ok(Pairs {
            inner: PairsInner::Csv {
                rdr: Box::new(rdr),
                puzzle,
                solution,
                record: csv::ByteRecord::new(),
                line: 1,
            },
        }))
    }

    /// The next pair, `None` at the end.
    pub fn next_pair(&mut self) -> io::Result<Option<Pair>> {
        match &mut self.inner {
            PairsInner::Lines(lines) => loop {
                let Some(l) = lines.next_line()? else {
                    return Ok(None);
                };
                if !is_skippable(l.text) {
                    return Ok(Some(parse_pair_line(l.number, l.text)));
                }
            },
            PairsInner::Csv {
                rdr,
                puzzle,
                solution,
                record,
                line,
            } => match rdr.read_byte_record(record) {
                Ok(false) => Ok(None),
                Ok(true) => {
                    *line = record.position().map_or(*line + 1, |p| p.line());
                    let field = |(i, name): &(usize, String), what: &str| match record.get(*i) {
                        Some(f) if !f.trim_ascii().is_empty() => {
                            Grid::parse_cells(f).map_err(|e| format!("{what}: {e}"))
                        }
                        Some(_) => Err(format!("{what}: the '{name}' field is empty")),
                        None => Err(format!("{what}: this row has no '{name}' field")),
                    };
                    Ok(Some(Pair {
                        line: *line,
                        puzzle: field(puzzle, "puzzle"),
                        solution: field(solution, "solution"),
                    }))
                }
                Err(e) => match e.into_kind() {
                    csv::ErrorKind::Io(e) => Err(e),
                    kind => {
                        *line += 1;
                        let msg = format!("bad CSV row: {kind:?}");
                        Ok(Some(Pair {
                            line: *line,
                            puzzle: Err(msg.clone()),
                            solution: Err(msg),
                        }))
                    }
                },
            },
        }
    }

    /// The line reading has reached (for error messages).
    pub fn line_number(&self) -> u64 {
        match &self.inner {
            PairsInner::Lines(l) => l.line_number(),
            PairsInner::Csv { line, .. } => *line,
        }
    }
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
            .map(|&v| format!("{} {}", crate::report::group(self.count(v)), v.as_str()))
            .collect();
        format!(
            "{} rows: {}",
            crate::report::group(self.rows()),
            parts.join(", ")
        )
    }
}

/// Why a verify run stopped: an input could not be opened or read. Formats as `FILE:LINE: …`.
#[derive(Debug)]
pub struct Error {
    pub name: String,
    pub line: Option<u64>,
    pub message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}: {}", self.name, self.message),
            None => write!(f, "{}: {}", self.name, self.message),
        }
    }
}

/// Checks every row of `inputs` (read in order) and hands each verdict to `report` in input
/// order, with the index of its input. `report` returning an error stops the run with it
/// (a closed pipe, say). Returns the counts.
pub fn run(
    inputs: &[Input],
    opts: &Options,
    report: &mut dyn FnMut(usize, &Checked) -> io::Result<()>,
) -> Result<Result<Summary, Error>, io::Error> {
    let threads = if opts.threads == 0 {
        thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.threads
    };
    let mut summary = Summary::default();
    let (read_inputs_, read_opts) = (inputs.to_vec(), opts.clone());
    let result = ordered::run(
        threads,
        "verify",
        move |feeder| read_inputs(&read_inputs_, &read_opts, feeder),
        |(file, batch): (usize, Vec<Pair>)| (file, batch.iter().map(check).collect::<Vec<_>>()),
        |event| match event {
            Event::Idle => Ok(()),
            Event::Failed(e) => Err(Stop::Input(e)),
            Event::Done((file, rows)) => {
                for row in &rows {
                    summary.counts[row.verdict as usize] += 1;
                    report(file, row).map_err(Stop::Io)?;
                }
                Ok(())
            }
        },
    );
    match result {
        Ok(()) => Ok(Ok(summary)),
        Err(Stop::Input(e)) => Ok(Err(e)),
        Err(Stop::Io(e)) => Err(e),
    }
}

/// Why the ordered run stopped early.
enum Stop {
    Input(Error),
    Io(io::Error),
}

impl From<StartError> for Stop {
    fn from(e: StartError) -> Stop {
        Stop::Io(io::Error::other(e.0))
    }
}

type Checks = (usize, Vec<Checked>);

fn read_inputs(
    inputs: &[Input],
    opts: &Options,
    feeder: &mut Feeder<(usize, Vec<Pair>), Checks, Error>,
) {
    let chunk_size = if opts.chunk_size == 0 {
        1024
    } else {
        opts.chunk_size
    };
    for (file, input) in inputs.iter().enumerate() {
        let fail =
            |feeder: &mut Feeder<(usize, Vec<Pair>), Checks, Error>, line, message: String| {
                feeder.fail(Error {
                    name: input.name.clone(),
                    line,
                    message,
                });
            };
        let mut pairs = match input
            .open(Arc::new(AtomicU64::new(0)))
            .and_then(|src| Pairs::new(src, opts))
        {
            Ok(Ok(p)) => p,
            Ok(Err(message)) => return fail(feeder, Some(1), message),
            Err(e) => return fail(feeder, None, e.to_string()),
        };
        let mut done = false;
        while !done {
            let mut batch = Vec::with_capacity(chunk_size);
            let mut error = None;
            while batch.len() < chunk_size {
                match pairs.next_pair() {
                    Ok(Some(p)) => batch.push(p),
                    Ok(None) => {
                        done = true;
                        break;
                    }
                    Err(e) => {
                        error = Some((pairs.line_number() + 1, e));
                        break;
                    }
                }
            }
            // Refused means the consumer has stopped: stop reading too.
            if !batch.is_empty() && !feeder.send((file, batch)) {
                return;
            }
            if let Some((line, e)) = error {
                return fail(feeder, Some(line), e.to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
