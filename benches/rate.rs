//! `rate` per puzzle, one core: the whole [`rate`] call with 16 samples (one limit-2 solve plus
//! 16 transformed ones, and the grade), next to its parts — the single limit-2 solve that every
//! row needs anyway and the logic-only [`grade`] — so the cost of rating reads as a ratio in
//! one run. Each iteration handles a fixed slice of a corpus; throughput is puzzles per second.
//!
//! Run: `cargo bench --bench rate` (a filter narrows it, e.g. `-- kaggle_sample/grade`).
//!
//! `cargo bench --bench rate -- --table` instead prints, for each corpus slice, the mean and
//! p50/p90/p99 of `rating` (samples 16, seed 0) and the class distribution, on every core: the
//! table the README quotes. The corpora come from `$SUDOKU_DATA` or `../shared/data`; without
//! them both modes print a notice and do nothing.

use criterion::{criterion_group, Criterion, Throughput};
use rayon::prelude::*;
use std::hint::black_box;
use std::time::{Duration, Instant};
use sudoku_batch::engine;
use sudoku_batch::rate::{grade, rate, Class, DEFAULT_SAMPLES};

mod common;

/// Corpus and slice per bench iteration.
const BENCHED: [(&str, usize); 2] = [("kaggle_sample", 2000), ("forum_hardest_sample", 200)];

/// Corpus and slice for the table (the first puzzles of each file).
const TABLED: [(&str, usize); 5] = [
    ("kaggle_sample", 5000),
    ("17clue", 5000),
    ("top1465", 1465),
    ("forum_hardest_sample", 5000),
    ("hardest1106", 375),
];

fn rate_bench(c: &mut Criterion) {
    for (name, take) in BENCHED {
        let Some((grids, _)) = common::load(name, take) else {
            continue;
        };
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Elements(grids.len() as u64))
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        g.bench_function("solve2", |b| {
            b.iter(|| {
                grids
                    .iter()
                    .map(|p| engine::solve(black_box(p), 2).guesses)
                    .sum::<u64>()
            })
        });
        g.bench_function("grade", |b| {
            b.iter(|| grids.iter().filter(|p| grade(black_box(p)).singles).count())
        });
        g.bench_function("rate16", |b| {
            b.iter(|| {
                grids
                    .iter()
                    .map(|p| rate(black_box(p), DEFAULT_SAMPLES, 0).rating.unwrap_or(0.0))
                    .sum::<f64>()
            })
        });
        g.finish();
    }
}

/// The nearest-rank percentile `q` (0..=100) of sorted values.
fn percentile(sorted: &[f64], q: usize) -> f64 {
    let rank = (q * sorted.len()).div_ceil(100).max(1);
    sorted[rank - 1]
}

fn table() {
    println!("| corpus (slice) | puzzles | rating mean | p50 | p90 | p99 | simple | easy | intermediate | expert | seconds |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, take) in TABLED {
        let Some((grids, _)) = common::load(name, take) else {
            continue;
        };
        let start = Instant::now();
        let rated: Vec<_> = grids
            .par_iter()
            .map(|p| rate(p, DEFAULT_SAMPLES, 0))
            .collect();
        let secs = start.elapsed().as_secs_f64();
        let mut ratings: Vec<f64> = rated.iter().filter_map(|r| r.rating).collect();
        ratings.sort_by(f64::total_cmp);
        let mut classes = [0usize; 4];
        for r in &rated {
            if let Some(g) = r.grade {
                classes[g.class as usize] += 1;
            }
        }
        let n = ratings.len().max(1);
        let mean = ratings.iter().sum::<f64>() / n as f64;
        let pct = |k: usize| {
            format!(
                "{} ({:.1}%)",
                classes[k],
                100.0 * classes[k] as f64 / n as f64
            )
        };
        let path = common::data_dir().join(format!("{name}.txt"));
        let total = std::fs::read_to_string(path).map_or(0, |t| t.lines().count());
        let slice = if grids.len() >= total {
            format!("all {total}")
        } else {
            format!("first {} of {total}", grids.len())
        };
        println!(
            "| {name} ({slice}) | {} | {mean:.2} | {:.2} | {:.2} | {:.2} | {} | {} | {} | {} | {secs:.1} |",
            ratings.len(),
            percentile(&ratings, 50),
            percentile(&ratings, 90),
            percentile(&ratings, 99),
            pct(Class::Simple as usize),
            pct(Class::Easy as usize),
            pct(Class::Intermediate as usize),
            pct(Class::Expert as usize),
        );
    }
}

criterion_group!(benches, rate_bench);

fn main() {
    if !common::data_dir().is_dir() {
        println!(
            "skipped: corpora not found ({})",
            common::data_dir().display()
        );
        return;
    }
    if std::env::args().any(|a| a == "--table") {
        table();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
