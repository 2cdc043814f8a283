//! The engine on every public corpus in `../shared/data`, against the solution counts that an
//! independent checker recorded in the Summary table of `../shared/data/SOURCES.md`.
//!
//! Each line is classified with the library alone: invalid (it does not parse, or its givens
//! conflict), unsolvable (0 solutions), solved (1) or multiple (2, the limit). The table's
//! "conflicting givens" puzzles are also counted under "0 sol", so unsolvable must equal
//! "0 sol" − "conflicting givens". Every solution the engine returns must solve its puzzle.

use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use sudoku_batch::{engine, Grid};

/// One row of the Summary table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row {
    puzzles: u64,
    zero: u64,
    one: u64,
    many: u64,
    conflicting: u64,
}

/// What the library made of one file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    lines: u64,
    invalid: u64,
    unsolvable: u64,
    solved: u64,
    multiple: u64,
    /// Solutions returned that do not solve their puzzle (must stay 0).
    bad_solutions: u64,
    /// Solved or multiple without a returned solution, or unsolvable with one (must stay 0).
    missing_or_extra: u64,
}

impl Tally {
    fn add(mut self, o: Tally) -> Tally {
        self.lines += o.lines;
        self.invalid += o.invalid;
        self.unsolvable += o.unsolvable;
        self.solved += o.solved;
        self.multiple += o.multiple;
        self.bad_solutions += o.bad_solutions;
        self.missing_or_extra += o.missing_or_extra;
        self
    }
}

fn number(cell: &str) -> u64 {
    let digits: String = cell.chars().filter(|c| *c != ',').collect();
    digits
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a number in the Summary table: {cell:?}"))
}

/// The rows of the table under `## Summary`, by file name.
fn summary(sources: &str) -> BTreeMap<String, Row> {
    let section = sources
        .split("\n## ")
        .find(|s| s.starts_with("Summary"))
        .expect("SOURCES.md has a `## Summary` section");
    let mut rows = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cols: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
        assert_eq!(cols.len(), 7, "unexpected Summary row: {line}");
        let file = cols[0].trim().trim_matches('`').to_string();
        let row = Row {
            puzzles: number(cols[1]),
            zero: number(cols[3]),
            one: number(cols[4]),
            many: number(cols[5]),
            conflicting: number(cols[6]),
        };
        assert!(
            rows.insert(file.clone(), row).is_none(),
            "{file} appears twice in the Summary table"
        );
    }
    assert!(!rows.is_empty(), "no rows found in the Summary table");
    rows
}

fn classify(line: &[u8]) -> Tally {
    let mut t = Tally {
        lines: 1,
        ..Tally::default()
    };
    let puzzle = match Grid::parse_line(line) {
        Ok(g) if g.check_givens().is_ok() => g,
        _ => {
            t.invalid = 1;
            return t;
        }
    };
    let found = engine::solve(&puzzle, 2);
    match found.solutions {
        0 => t.unsolvable = 1,
        1 => t.solved = 1,
        2 => t.multiple = 1,
        n => panic!("engine counted {n} solutions with limit 2"),
    }
    match found.first {
        Some(s) if found.solutions > 0 => {
            if !s.is_solution_of(&puzzle) {
                t.bad_solutions = 1;
            }
        }
        None if found.solutions == 0 => {}
        _ => t.missing_or_extra = 1,
    }
    t
}

fn tally_file(path: &Path) -> Tally {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // Every line, including any blank one; only the empty piece after the final LF is not a line.
    let body = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    let lines: Vec<&[u8]> = if body.is_empty() {
        Vec::new()
    } else {
        body.split(|&b| b == b'\n').collect()
    };
    lines
        .par_iter()
        .map(|l| classify(l.strip_suffix(b"\r").unwrap_or(l)))
        .reduce(Tally::default, Tally::add)
}

#[test]
#[cfg_attr(
    not(corpora),
    ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
)]
fn corpora_match_the_recorded_counts() {
    let dir = sudoku_batch::corpora::dir().expect(sudoku_batch::corpora::MISSING);
    let dir = dir.as_path();
    let sources = std::fs::read_to_string(dir.join("SOURCES.md")).expect("read SOURCES.md");
    let table = summary(&sources);

    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("read ../shared/data")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no *.txt files in {}", dir.display());

    let listed: Vec<&String> = table.keys().collect();
    let unlisted: Vec<&String> = files.iter().filter(|f| !table.contains_key(*f)).collect();
    let absent: Vec<&String> = listed
        .iter()
        .copied()
        .filter(|f| !files.contains(f))
        .collect();
    assert!(
        unlisted.is_empty() && absent.is_empty(),
        "files without a Summary row: {unlisted:?}; Summary rows without a file: {absent:?}"
    );

    let mut mismatches = Vec::new();
    let mut total = Tally::default();
    for file in &files {
        let row = table[file];
        assert_eq!(
            row.zero + row.one + row.many,
            row.puzzles,
            "{file}: the Summary row does not add up"
        );
        let t = tally_file(&dir.join(file));
        total = total.add(t);
        let expected = Tally {
            lines: row.puzzles,
            invalid: row.conflicting,
            unsolvable: row.zero - row.conflicting,
            solved: row.one,
            multiple: row.many,
            bad_solutions: 0,
            missing_or_extra: 0,
        };
        println!(
            "{file}: {} lines, {} invalid, {} unsolvable, {} solved, {} multiple",
            t.lines, t.invalid, t.unsolvable, t.solved, t.multiple
        );
        if t != expected {
            mismatches.push(format!(
                "{file}:\n  found    {t:?}\n  expected {expected:?}"
            ));
        }
    }
    println!(
        "total: {} lines, {} invalid, {} unsolvable, {} solved, {} multiple",
        total.lines, total.invalid, total.unsolvable, total.solved, total.multiple
    );
    assert!(
        mismatches.is_empty(),
        "counts differ from SOURCES.md:\n{}",
        mismatches.join("\n")
    );
}

#[test]
fn summary_table_parses() {
    let text = "intro\n\n## Summary\n\n| file | puzzles | clues (min–max) | 0 sol | 1 sol | \
                2+ sol | conflicting givens |\n|---|---:|---|---:|---:|---:|---:|\n\
                | `17clue.txt` | 49,158 | 17–17 | 0 | 49,158 | 0 | 0 |\n\
                | `invalid.txt` | 17 | 20–28 | 17 | 0 | 0 | 3 |\n\n## Other\n\
                | `not_this.txt` | 1 | 1–1 | 1 | 0 | 0 | 0 |\n";
    let rows = summary(text);
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows["17clue.txt"],
        Row {
            puzzles: 49_158,
            zero: 0,
            one: 49_158,
            many: 0,
            conflicting: 0
        }
    );
    assert_eq!(rows["invalid.txt"].conflicting, 3);
    assert_eq!(rows["invalid.txt"].zero, 17);
}
