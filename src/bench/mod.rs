//! `sudoku-batch bench`: time the engine the way the solver community does (after tdoku's
//! `run_benchmark`): load a corpus into memory, warm up, then run whole passes over it until a
//! time target is met, and report puzzles/s, µs/puzzle, the share of puzzles solved without a
//! guess and guesses per puzzle.
//!
//! Loading first keeps I/O and parsing out of the figure, so it measures the engine alone; the
//! `solve` pipeline's own throughput is what `solve -o /dev/null` measures. Whole passes (never a
//! partial one) keep every puzzle's weight equal whatever the time target. With `-j N`, each of
//! N threads runs its own whole passes over the set (starting at its own offset, no barrier
//! between passes) and the aggregate rate is the sum of the threads' rates: a pass-wide barrier
//! left one core idle at the end of every pass and showed as poor scaling on small corpora.
//!
//! **Two kinds of pass.** Throughput (puzzles/s, µs/puzzle) comes from *un-instrumented* passes:
//! no clock is read inside them, so the figure is the engine's alone. The percentiles of
//! per-puzzle solve time (p50, p90, p99, max) come from separate *sampling* passes run after
//! them, in which each solve is wrapped in its own pair of [`Stopwatch`] readings (on the same
//! pool, so with `-j N` they are times under N-thread load). Sampling passes run until a quarter of
//! `--time` is spent, at least one and at most [`SAMPLE_PASSES`]; each puzzle keeps its fastest
//! time, which filters out preemptions and interrupts. The percentiles are exact
//! (nearest-rank over every puzzle of the corpus), not read off a histogram.

use std::hint::black_box;
use std::io::{self, Write};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use serde_json::json;

pub mod export;
pub mod external;
pub mod machine;
pub mod run;

use crate::clock::Stopwatch;
use crate::engine::{self, Candidates, Solved};
use crate::grid::Grid;
use crate::human::group;
use crate::input::{self, Input};
use export::{Column, Fields, Style};

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

/// The most sampling passes (per-puzzle timing) per result; see the module doc.
pub const SAMPLE_PASSES: u32 = 5;

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
    /// For a corpus with pencilmark lines: every puzzle's candidate sets (a grid line's from its
    /// givens), which are then what is timed; empty otherwise.
    pub candidates: Vec<Candidates>,
    /// The 1-based input line of each puzzle (same length as `puzzles`).
    pub lines: Vec<u64>,
    /// Lines skipped because they were not usable puzzles (unreadable or conflicting givens).
    pub skipped: u64,
}

/// The figures for one corpus.
#[derive(Clone, Debug)]
pub struct Measurement {
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
    /// Per-puzzle solve time percentiles (nearest rank), in µs.
    pub p50_us: f64,
    pub p90_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
    /// Sampling passes the percentiles were taken over.
    pub sample_passes: u32,
    /// Every puzzle's solve time in ns (its fastest sampling pass), sorted ascending.
    pub times_ns: Vec<u64>,
    /// Throughput relative to the first thread count of the same file (1.0 for that one).
    pub speedup: f64,
    /// `speedup` divided by the thread ratio: 1.0 is perfect scaling.
    pub efficiency: f64,
}

impl Measurement {
    /// The fields of every export, in column order (see [`crate::export`]).
    pub fn fields(&self) -> Fields {
        vec![
            ("file", json!(self.file)),
            ("mode", json!(self.mode.as_str())),
            ("threads", json!(self.threads)),
            ("puzzles", json!(self.puzzles)),
            ("puzzles_per_sec", json!(self.puzzles_per_sec)),
            ("us_per_puzzle", json!(self.us_per_puzzle)),
            ("no_guess_pct", json!(self.no_guess_pct)),
            ("guesses_per_puzzle", json!(self.guesses_per_puzzle)),
            ("p50_us", json!(self.p50_us)),
            ("p90_us", json!(self.p90_us)),
            ("p99_us", json!(self.p99_us)),
            ("max_us", json!(self.max_us)),
            ("speedup", json!(self.speedup)),
            ("efficiency", json!(self.efficiency)),
            ("skipped", json!(self.skipped)),
            ("passes", json!(self.passes)),
            ("seconds", json!(self.seconds)),
            ("sample_passes", json!(self.sample_passes)),
        ]
    }
}

/// The columns of the markdown export; `scaling` adds speed-up and efficiency.
pub fn markdown_columns(scaling: bool) -> Vec<Column> {
    let c = |header, key, style| Column { header, key, style };
    let mut cols = vec![
        c("file", "file", Style::File),
        c("mode", "mode", Style::Text),
        c("threads", "threads", Style::Int),
        c("puzzles", "puzzles", Style::Int),
        c("puzzles/s", "puzzles_per_sec", Style::Int),
        c("µs/puzzle", "us_per_puzzle", Style::Fixed(2)),
        c("p50 µs", "p50_us", Style::Fixed(1)),
        c("p90 µs", "p90_us", Style::Fixed(1)),
        c("p99 µs", "p99_us", Style::Fixed(1)),
        c("max µs", "max_us", Style::Fixed(1)),
        c("no-guess", "no_guess_pct", Style::Pct(1)),
        c("guesses/puzzle", "guesses_per_puzzle", Style::Fixed(2)),
    ];
    if scaling {
        cols.push(c("speed-up", "speedup", Style::Fixed(2)));
        cols.push(c("efficiency", "efficiency", Style::Fraction(0)));
    }
    cols
}

/// Fills in `speedup` and `efficiency` of results that are one file at several thread counts,
/// relative to the first of them.
pub fn compute_scaling(results: &mut [Measurement]) {
    let Some(base) = results.first() else {
        return;
    };
    let (base_rate, base_threads) = (base.puzzles_per_sec, base.threads.max(1) as f64);
    for r in results.iter_mut() {
        r.speedup = if base_rate > 0.0 {
            r.puzzles_per_sec / base_rate
        } else {
            0.0
        };
        r.efficiency = r.speedup * base_threads / r.threads.max(1) as f64;
    }
}

/// The `p`-th percentile (0 < p <= 100) of sorted values by nearest rank; 0 when empty.
pub fn percentile(sorted: &[u64], p: u32) -> u64 {
    let n = sorted.len();
    if n == 0 {
        return 0;
    }
    let rank = (n * p as usize).div_ceil(100).clamp(1, n);
    sorted[rank - 1]
}

/// Loads an input (any format `solve` reads, chosen by file name) into memory.
pub fn load(input: &Input) -> io::Result<Corpus> {
    let source = input.open(Arc::new(AtomicU64::new(0)))?;
    let mut records = input::records(source, input.format(None), None)
        .map_err(|m| io::Error::new(io::ErrorKind::InvalidData, m))?;
    let mut puzzles = Vec::new();
    let mut candidates = Vec::new();
    let mut lines = Vec::new();
    let mut skipped = 0;
    while let Some(rec) = records.next()? {
        match rec.puzzle {
            Ok(g) if g.check_givens().is_ok() => {
                if let Some(c) = rec.candidates {
                    // The first pencilmark line: the grids so far become candidate sets too.
                    if candidates.is_empty() {
                        candidates.extend(puzzles.iter().map(Candidates::from_grid));
                    }
                    candidates.push(*c);
                } else if !candidates.is_empty() {
                    candidates.push(Candidates::from_grid(&g));
                }
                puzzles.push(g);
                lines.push(rec.line);
            }
            _ => skipped += 1,
        }
    }
    Ok(Corpus {
        name: input.name.clone(),
        puzzles,
        candidates,
        lines,
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

/// What a bench pass solves: grids, or pencilmark candidate sets.
trait Solvable: Sync {
    fn solve(&self, limit: u32) -> Solved;
}

impl Solvable for Grid {
    #[inline]
    fn solve(&self, limit: u32) -> Solved {
        engine::solve(self, limit)
    }
}

impl Solvable for Candidates {
    #[inline]
    fn solve(&self, limit: u32) -> Solved {
        engine::solve_candidates(self, limit, u64::MAX)
    }
}

fn one<T: Solvable>(p: &T, limit: u32) -> Pass {
    let r = black_box(p).solve(limit);
    Pass {
        solutions: u64::from(r.solutions),
        guesses: r.guesses,
        no_guess: u64::from(r.guesses == 0),
    }
}

fn pass<T: Solvable>(puzzles: &[T], limit: u32, pool: Option<&rayon::ThreadPool>) -> Pass {
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

/// One sampling pass: every puzzle's solve timed on its own; each entry of `times` keeps the
/// fastest time seen.
fn sample_pass<T: Solvable>(
    puzzles: &[T],
    limit: u32,
    pool: Option<&rayon::ThreadPool>,
    times: &mut [u64],
) {
    let watch = Stopwatch::new();
    let timed = |p: &T, t: &mut u64| {
        let (r, ns) = watch.time(|| black_box(p).solve(limit));
        black_box(r);
        *t = (*t).min(ns);
    };
    match pool {
        None => puzzles
            .iter()
            .zip(times.iter_mut())
            .for_each(|(p, t)| timed(p, t)),
        Some(pool) => pool.install(|| {
            puzzles
                .par_iter()
                .zip(times.par_iter_mut())
                .with_min_len(64)
                .for_each(|(p, t)| timed(p, t))
        }),
    }
}

/// What one thread's timed passes did; merged over threads by summing rates.
#[derive(Clone, Copy, Default)]
struct Timed {
    /// Whole passes over the set (summed over threads).
    passes: u64,
    /// The longest thread's timed seconds.
    seconds: f64,
    /// Puzzles per second (summed over threads).
    rate: f64,
}

impl Timed {
    fn merge(self, o: Timed) -> Timed {
        Timed {
            passes: self.passes + o.passes,
            seconds: self.seconds.max(o.seconds),
            rate: self.rate + o.rate,
        }
    }
}

/// One thread's share of a measurement: warm-up passes, then whole timed passes over the set,
/// starting at puzzle `from` and wrapping round, until `s.time` has passed on this thread's own
/// clock. Threads never wait for each other between passes (a barrier per pass left the faster
/// thread idle at the end of every pass of a small or uneven corpus), so the aggregate rate is
/// the sum of the threads' own rates.
fn rounds<T: Solvable>(puzzles: &[T], from: usize, limit: u32, s: &Settings) -> Timed {
    let (tail, head) = puzzles.split_at(from);
    let round = || {
        for p in head.iter().chain(tail) {
            black_box(one(p, limit));
        }
    };
    let warm = Instant::now();
    while warm.elapsed() < s.warmup {
        round();
    }
    let mut passes = 0u64;
    let start = Instant::now();
    loop {
        round();
        passes += 1;
        if start.elapsed() >= s.time {
            break;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    Timed {
        passes,
        seconds,
        rate: (passes * puzzles.len() as u64) as f64 / seconds,
    }
}

/// Times one corpus.
pub fn run(corpus: &Corpus, s: &Settings) -> Result<Measurement, String> {
    if corpus.candidates.is_empty() {
        run_on(corpus, &corpus.puzzles, s)
    } else {
        run_on(corpus, &corpus.candidates, s)
    }
}

fn run_on<T: Solvable>(
    corpus: &Corpus,
    puzzles: &[T],
    s: &Settings,
) -> Result<Measurement, String> {
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
    let mut stats = Pass::default();
    let mut timed = Timed::default();
    if !puzzles.is_empty() {
        // The first pass gives the guess and no-guess figures; the timed passes give the rate.
        stats = pass(puzzles, limit, pool.as_ref());
        timed = match &pool {
            None => rounds(puzzles, 0, limit, s),
            Some(pool) => {
                let start_line = Barrier::new(threads);
                pool.broadcast(|ctx| {
                    start_line.wait();
                    rounds(puzzles, ctx.index() * puzzles.len() / threads, limit, s)
                })
                .into_iter()
                .fold(Timed::default(), Timed::merge)
            }
        };
    }
    let (passes, seconds) = (timed.passes, timed.seconds);

    let mut times = vec![u64::MAX; puzzles.len()];
    let mut sample_passes = 0;
    if !puzzles.is_empty() {
        let budget = s.time / 4;
        let sampling = Instant::now();
        loop {
            sample_pass(puzzles, limit, pool.as_ref(), &mut times);
            sample_passes += 1;
            if sample_passes >= SAMPLE_PASSES || sampling.elapsed() >= budget {
                break;
            }
        }
    }
    times.sort_unstable();
    let us = |p| percentile(&times, p) as f64 / 1000.0;

    let n = puzzles.len() as f64;
    let per = |x: u64| if n > 0.0 { x as f64 / n } else { 0.0 };
    black_box(stats.solutions);
    Ok(Measurement {
        file: corpus.name.clone(),
        mode: s.mode,
        threads,
        puzzles: puzzles.len(),
        skipped: corpus.skipped,
        passes,
        seconds,
        puzzles_per_sec: timed.rate,
        us_per_puzzle: if timed.rate > 0.0 {
            1e6 / timed.rate
        } else {
            0.0
        },
        no_guess_pct: per(stats.no_guess) * 100.0,
        guesses_per_puzzle: per(stats.guesses),
        p50_us: us(50),
        p90_us: us(90),
        p99_us: us(99),
        max_us: us(100),
        sample_passes,
        times_ns: times,
        speedup: 1.0,
        efficiency: 1.0,
    })
}

/// The header of the human table; `scaling` adds speed-up and efficiency.
pub fn write_table_header(w: &mut dyn Write, scaling: bool) -> io::Result<()> {
    write!(
        w,
        "{:<32} {:>6} {:>7} {:>9} {:>12} {:>10} {:>9} {:>9} {:>9} {:>10} {:>9} {:>9}",
        "file",
        "mode",
        "threads",
        "puzzles",
        "puzzles/s",
        "µs/puzzle",
        "p50 µs",
        "p90 µs",
        "p99 µs",
        "max µs",
        "no-guess",
        "guesses"
    )?;
    if scaling {
        write!(w, " {:>8} {:>10}", "speed-up", "efficiency")?;
    }
    writeln!(w)
}

/// One row of the human table.
pub fn write_table_row(w: &mut dyn Write, r: &Measurement, scaling: bool) -> io::Result<()> {
    write!(
        w,
        "{:<32} {:>6} {:>7} {:>9} {:>12} {:>10.2} {:>9.1} {:>9.1} {:>9.1} {:>10.1} {:>8.1}% {:>9.2}",
        r.file,
        r.mode.as_str(),
        r.threads,
        group(r.puzzles as u64),
        group(r.puzzles_per_sec.round() as u64),
        r.us_per_puzzle,
        r.p50_us,
        r.p90_us,
        r.p99_us,
        r.max_us,
        r.no_guess_pct,
        r.guesses_per_puzzle
    )?;
    if scaling {
        write!(w, " {:>8.2} {:>9.0}%", r.speedup, r.efficiency * 100.0)?;
    }
    writeln!(w)
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
            candidates: Vec::new(),
            name: "t".into(),
            puzzles: vec![leet, Grid::EMPTY, leet, leet],
            lines: vec![1, 2, 3, 4],
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
            let v: serde_json::Value =
                serde_json::from_str(&export::object(&r.fields()).to_string()).unwrap();
            for (key, _) in r.fields() {
                assert!(v.get(key).is_some(), "{key}");
            }
            assert!(v.get("p99_us").is_some());
            assert_eq!(v["threads"], threads);
            assert_eq!(v["mode"], "unique");
            assert_eq!(r.times_ns.len(), 4);
            assert!(r.times_ns.windows(2).all(|w| w[0] <= w[1]), "sorted");
            assert!((1..=SAMPLE_PASSES).contains(&r.sample_passes));
            assert!(r.p50_us > 0.0);
            assert!(r.p50_us <= r.p90_us && r.p90_us <= r.p99_us && r.p99_us <= r.max_us);
            assert_eq!(r.max_us, *r.times_ns.last().unwrap() as f64 / 1000.0);
        }
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&v, 50), 50);
        assert_eq!(percentile(&v, 90), 90);
        assert_eq!(percentile(&v, 99), 99);
        assert_eq!(percentile(&v, 100), 100);
        assert_eq!(percentile(&[7], 50), 7);
        assert_eq!(percentile(&[1, 2, 3], 50), 2);
        assert_eq!(percentile(&[1, 2, 3], 99), 3);
        assert_eq!(percentile(&[], 50), 0);
    }

    #[test]
    fn scaling_is_relative_to_the_first_count() {
        let corpus = Corpus {
            candidates: Vec::new(),
            name: "t".into(),
            puzzles: vec![Grid::EMPTY],
            lines: vec![1],
            skipped: 0,
        };
        let settings = Settings {
            mode: Mode::First,
            threads: 1,
            warmup: Duration::ZERO,
            time: Duration::ZERO,
        };
        let mut rs = vec![
            run(&corpus, &settings).unwrap(),
            run(&corpus, &settings).unwrap(),
        ];
        rs[0].puzzles_per_sec = 100.0;
        rs[1].puzzles_per_sec = 150.0;
        rs[1].threads = 2;
        compute_scaling(&mut rs);
        assert_eq!((rs[0].speedup, rs[0].efficiency), (1.0, 1.0));
        assert_eq!((rs[1].speedup, rs[1].efficiency), (1.5, 0.75));
    }
}
