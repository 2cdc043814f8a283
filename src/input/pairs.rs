//! Puzzle/solution pairs, as `verify` reads them: `puzzle:solution` lines, or a CSV table whose
//! puzzle and solution columns are found by name.
//!
//! The format is told from the first line that is not blank or a comment: two 81-cell fields
//! mean pair lines; anything else is a CSV header. Both go through the same readers as every
//! other input ([`super::LineReader`], [`super::Table`]), so skipped lines, line numbers and
//! CSV quirks are the same everywhere.

use std::io::{self, BufRead, BufReader, Read};

use super::lines::{is_skippable, LineReader, MAX_LINE};
use super::table::Table;
use super::{Lined, Records, Source};
use crate::engine::Candidates;
use crate::grid::{is_separator, Grid};

/// How the pairs are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairFormat {
    /// `puzzle:solution` or `puzzle,solution` lines, no header.
    Lines,
    /// CSV with a header row naming the columns.
    Csv,
}

/// The puzzle columns tried, in order, when none is named.
pub const DEFAULT_PUZZLE_COLUMNS: [&str; 3] = ["quizzes", "puzzle", "puzzles"];
/// The solution columns tried, in order, when none is named.
pub const DEFAULT_SOLUTION_COLUMNS: [&str; 2] = ["solution", "solutions"];

/// How to read pairs.
#[derive(Clone, Debug, Default)]
pub struct PairOptions {
    /// The format, or `None` to tell from the first line.
    pub format: Option<PairFormat>,
    /// The CSV column holding the puzzles, or `None` for the defaults.
    pub puzzle_column: Option<String>,
    /// The CSV column holding the solutions, or `None` for the defaults.
    pub solution_column: Option<String>,
}

/// One row as read: a puzzle and a claimed solution, or why each could not be read.
#[derive(Clone, Debug)]
pub struct Pair {
    pub line: u64,
    /// The puzzle (for a pencilmark puzzle, its single-candidate cells).
    pub puzzle: Result<Grid, String>,
    pub solution: Result<Grid, String>,
    /// A pencilmark puzzle's candidate sets (a 729-character puzzle field).
    pub candidates: Option<Box<Candidates>>,
}

/// Reads a puzzle field: 81 cells, or 729 pencilmark characters.
fn puzzle_field(field: &[u8]) -> (Result<Grid, String>, Option<Box<Candidates>>) {
    if field.trim_ascii().len() == 729 {
        match Candidates::parse_line(field) {
            Ok(c) => (Ok(c.singles()), Some(Box::new(c))),
            Err(e) => (Err(format!("puzzle: {e}")), None),
        }
    } else {
        (
            Grid::parse_cells(field).map_err(|e| format!("puzzle: {e}")),
            None,
        )
    }
}

impl Lined for Pair {
    fn line(&self) -> u64 {
        self.line
    }
}

/// Splits a pair line: two 81-cell fields separated by a separator (`:`, `,`, `;`, whitespace).
pub fn parse_pair_line(line: u64, text: &[u8]) -> Pair {
    let t = text.trim_ascii_start();
    let cut = t.iter().position(|&b| is_separator(b)).unwrap_or(t.len());
    let (puzzle, candidates) = puzzle_field(&t[..cut]);
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
        candidates,
    }
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

/// Pairs from `src` in `opts.format`, or the format its first line shows. The inner error is a
/// message for the user (a missing column, say) about line 1.
pub fn pairs(
    src: Source,
    opts: &PairOptions,
) -> io::Result<Result<Box<dyn Records<Pair>>, String>> {
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
        return Ok(Ok(Box::new(PairLines {
            lines: LineReader::new(src),
        })));
    }
    let table = match Table::new(src) {
        Ok(t) => t,
        Err(e) => return Ok(Err(e)),
    };
    let hint = |flag: &str| {
        format!("{flag}, or use --input-format pairs for puzzle,solution lines without a header")
    };
    let columns = table
        .column(
            opts.puzzle_column.as_deref(),
            &DEFAULT_PUZZLE_COLUMNS,
            "puzzle ",
            &hint("--puzzle-column"),
        )
        .and_then(|p| {
            table
                .column(
                    opts.solution_column.as_deref(),
                    &DEFAULT_SOLUTION_COLUMNS,
                    "solution ",
                    &hint("--solution-column"),
                )
                .map(|s| (p, s))
        });
    Ok(columns.map(|(puzzle, solution)| {
        let names = (table.names[puzzle].clone(), table.names[solution].clone());
        Box::new(PairTable {
            table,
            puzzle: (puzzle, names.0),
            solution: (solution, names.1),
        }) as Box<dyn Records<Pair>>
    }))
}

struct PairLines {
    lines: LineReader,
}

impl Records<Pair> for PairLines {
    fn next(&mut self) -> io::Result<Option<Pair>> {
        loop {
            let Some(l) = self.lines.next_line()? else {
                return Ok(None);
            };
            if !is_skippable(l.text) {
                return Ok(Some(parse_pair_line(l.number, l.text)));
            }
        }
    }

    fn line_number(&self) -> u64 {
        self.lines.line_number()
    }
}

struct PairTable {
    table: Table,
    puzzle: (usize, String),
    solution: (usize, String),
}

impl Records<Pair> for PairTable {
    fn next(&mut self) -> io::Result<Option<Pair>> {
        let Some(row) = self.table.next_row()? else {
            return Ok(None);
        };
        let record = match row.fields {
            Ok(r) => r,
            Err(msg) => {
                return Ok(Some(Pair {
                    line: row.line,
                    puzzle: Err(msg.clone()),
                    solution: Err(msg),
                    candidates: None,
                }))
            }
        };
        let field = |(i, name): &(usize, String), what: &str| match record.get(*i) {
            Some(f) if !f.trim_ascii().is_empty() => {
                Grid::parse_cells(f).map_err(|e| format!("{what}: {e}"))
            }
            Some(_) => Err(format!("{what}: the '{name}' field is empty")),
            None => Err(format!("{what}: this row has no '{name}' field")),
        };
        let (puzzle, candidates) = match record.get(self.puzzle.0) {
            Some(f) if f.trim_ascii().len() == 729 => puzzle_field(f),
            _ => (field(&self.puzzle, "puzzle"), None),
        };
        Ok(Some(Pair {
            line: row.line,
            puzzle,
            solution: field(&self.solution, "solution"),
            candidates,
        }))
    }

    fn line_number(&self) -> u64 {
        self.table.line_number()
    }
}
