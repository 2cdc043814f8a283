//! `sudoku-batch bench`: time the engine the way the solver community does (after tdoku's
//! `run_benchmark`): load a corpus into memory, warm up, then run whole passes over it until a
//! time target is met, and report puzzles/s, µs/puzzle, the share of puzzles solved without a
//! guess and guesses per puzzle.
//!
//! Loading first keeps I/O and parsing out of the figure, so it measures the engine alone; the
//! `solve` pipeline's own throughput is what `solve -o /dev/null` measures. Whole passes (never a
//! partial one) keep every puzzle's weight equal whatever the time target. With several threads
//! the in-memory set is split across a rayon pool of that size and the aggregate rate reported.

use std::hint::black_box;
use std::io::{self, Write};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::engine;
use crate::grid::Grid;
use crate::input::{self, Input};
use crate::report::group;

/// Stop at the first solution, or count to two to prove uniqueness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    First,
    Unique,
}

impl Mode {
    /// The solution limit this mode solves with.
    pub fn limit(self) -> u32 {
        match self {
            Mode::First => 1,
            Mode::Unique => 2,
        }
    }

    /// The name used in tables and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::First => "first",
            Mode::Unique => "unique",
        }
    }
}

/// How to time.
#[derive(Clone, Debug)]
pub struct Settings {
    pub mode: Mode,
    pub threads: usize,
    pub warmup: Duration,
    pub time: Duration,
}

/// A corpus in memory.
pub struct Corpus {
    /// The name as given.
    pub name: String,
    /// The usable puzzles.
    pub puzzles: Vec<Grid>,
    /// Lines skipped because they were not usable puzzles (unreadable or conflicting givens).
    pub skipped: u64,
}

/// The figures for one corpus.
#[derive(Clone, Debug)]
pub struct Result {
    pub file: String,
    pub mode: Mode,
    pub threads: usize,
    pub puzzles: usize,
    pub skipped: u64,
    pub passes: u64,
    pub seconds: f64,
    pub puzzles_per_sec: f64,
    pub us_per_puzzle: f64,
    pub no_guess_pct: f64,
    pub guesses_per_puzzle: f64,
}

impl Result {
    /// One JSON object (one line), with the fields named as in the struct.
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "file": self.file,
            "mode": self.mode.as_str(),
            "threads": self.threads,
            "puzzles": self.puzzles,
            "skipped": self.skipped,
            "passes": self.passes,
            "seconds": self.seconds,
            "puzzles_per_sec": self.puzzles_per_sec,
            "us_per_puzzle": self.us_per_puzzle,
            "no_guess_pct": self.no_guess_pct,
            "guesses_per_puzzle": self.guesses_per_puzzle,
        })
        .to_string()
    }
}

/// Loads an input (any format `solve` reads, chosen by file name) into memory.
pub fn load(input: &Input) -> io::Result<Corpus> {
    let source = input.open(Arc::new(AtomicU64::new(0)))?;
    let mut records = input::records(source, input.format(None), None)
        .map_err(|m| io::Error::new(io::ErrorKind::InvalidData, m))?;
    let mut puzzles = Vec::new();
    let mut skipped = 0;
    while let Some(rec) = records.next_record()? {
        match rec.puzzle {
            Ok(g) if g.check_givens().is_ok() => puzzles.push(g),
            _ => skipped += 1,
        }
    }
    Ok(Corpus {
        name: input.name.clone(),
        puzzles,
        skipped,
    })
}

/// One pass's totals: solutions (kept so the work cannot be optimised away), guesses, and
/// puzzles that needed none.
#[derive(Clone, Copy, Default)]
struct Pass {
    solutions: u64,
    guesses: u64,
    no_guess: u64,
}

impl Pass {
    fn merge(self, o: Pass) -> Pass {
        Pass {
            solutions: self.solutions + o.solutions,
            guesses: self.guesses + o.guesses,
            no_guess: self.no_guess + o.no_guess,
        }
    }
}

fn one(p: &Grid, limit: u32) -> Pass {
    let r = engine::solve(black_box(p), limit);
    Pass {
        solutions: u64::from(r.solutions),
        guesses: r.guesses,
        no_guess: u64::from(r.guesses == 0),
    }
}

fn pass(puzzles: &[Grid], limit: u32, pool: Option<&rayon::ThreadPool>) -> Pass {
    match pool {
        None => puzzles
            .iter()
            .fold(Pass::default(), |acc, p| acc.merge(one(p, limit))),
        Some(pool) => pool.install(|| {
            puzzles
                .par_iter()
                .with_min_len(64)
                .map(|p| one(p, limit))
                .reduce(Pass::default, Pass::merge)
        }),
    }
}

/// Times one corpus.
pub fn run(corpus: &Corpus, s: &Settings) -> std::result::Result<Result, String> {
    let threads = s.threads.max(1);
    let pool = if threads > 1 {
        Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| e.to_string())?,
        )
    } else {
        None
    };
    let limit = s.mode.limit();
    let puzzles = &corpus.puzzles;
    let mut stats = Pass::default();
    if !puzzles.is_empty() {
        let warm = Instant::now();
        stats = pass(puzzles, limit, pool.as_ref());
        while warm.elapsed() < s.warmup {
            black_box(pass(puzzles, limit, pool.as_ref()));
        }
    }
    let mut passes = 0u64;
    let start = Instant::now();
    if !puzzles.is_empty() {
        loop {
            black_box(pass(puzzles, limit, pool.as_ref()));
            passes += 1;
            if start.elapsed() >= s.time {
                break;
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let n = puzzles.len() as f64;
    let solved = (passes as f64) * n;
    let per = |x: u64| if n > 0.0 { x as f64 / n } else { 0.0 };
    black_box(stats.solutions);
    Ok(Result {
        file: corpus.name.clone(),
        mode: s.mode,
        threads,
        puzzles: puzzles.len(),
        skipped: corpus.skipped,
        passes,
        seconds,
        puzzles_per_sec: if seconds > 0.0 { solved / seconds } else { 0.0 },
        us_per_puzzle: if solved > 0.0 {
            seconds * 1e6 / solved
        } else {
            0.0
        },
        no_guess_pct: per(stats.no_guess) * 100.0,
        guesses_per_puzzle: per(stats.guesses),
    })
}

/// The header of the human table.
pub fn write_table_header(w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "{:<40} {:>6} {:>7} {:>9} {:>12} {:>10} {:>9} {:>9}",
        "file", "mode", "threads", "puzzles", "puzzles/s", "µs/puzzle", "no-guess", "guesses"
    )
}

/// One row of the human table.
pub fn write_table_row(w: &mut dyn Write, r: &Result) -> io::Result<()> {
    writeln!(
        w,
        "{:<40} {:>6} {:>7} {:>9} {:>12} {:>10.2} {:>8.1}% {:>9.2}",
        r.file,
        r.mode.as_str(),
        r.threads,
        group(r.puzzles as u64),
        group(r.puzzles_per_sec.round() as u64),
        r.us_per_puzzle,
        r.no_guess_pct,
        r.guesses_per_puzzle
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_add_up() {
        let leet: Grid =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        let corpus = Corpus {
            name: "t".into(),
            puzzles: vec![leet, Grid::EMPTY, leet, leet],
            skipped: 2,
        };
        for threads in [1, 2] {
            let r = run(
                &corpus,
                &Settings {
                    mode: Mode::Unique,
                    threads,
                    warmup: Duration::ZERO,
                    time: Duration::from_millis(20),
                },
            )
            .unwrap();
            assert_eq!(r.puzzles, 4);
            assert_eq!(r.skipped, 2);
            assert!(r.passes >= 1);
            // LeetCode 37 needs no guess; the empty grid does.
            assert_eq!(r.no_guess_pct, 75.0);
            assert!(r.guesses_per_puzzle > 0.0);
            let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
            for key in [
                "file",
                "mode",
                "threads",
                "puzzles",
                "puzzles_per_sec",
                "us_per_puzzle",
                "no_guess_pct",
                "guesses_per_puzzle",
            ] {
                assert!(v.get(key).is_some(), "{key}");
            }
            assert_eq!(v["threads"], threads);
            assert_eq!(v["mode"], "unique");
        }
    }
}
