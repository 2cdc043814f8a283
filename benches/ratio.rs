//! The engine against the `sudoku` crate (JCZSolve port; AGPL, so only in benches and tests),
//! measured so that a noisy shared machine hurts the ratio as little as possible: both engines
//! solve the same 50-puzzle chunk in turn, chunk after chunk, so a burst of load from elsewhere
//! falls on both; each engine's time is summed over a whole pass, and the best of three passes
//! is kept. It also prints our guesses per puzzle, which a change to the engine should explain.
//!
//! Run: `cargo bench --bench ratio` (the first 5,000 puzzles of each corpus), or
//! `cargo bench --bench ratio -- 1000 forum` for another count and only the corpora whose name
//! contains `forum`. The corpora are read from `$SUDOKU_DATA` or `../shared/data`; when they are
//! absent it prints a notice and does nothing. Criterion's `benches/engine.rs` gives the same
//! comparison with confidence intervals, on smaller slices.

use std::hint::black_box;
use std::time::Instant;
use sudoku_batch::engine;

mod common;

const CORPORA: [&str; 5] = [
    "kaggle_sample",
    "17clue",
    "top1465",
    "forum_hardest_sample",
    "hardest1106",
];
const CHUNK: usize = 50;
const PASSES: usize = 3;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let take: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(5000);
    let filter = args.get(1).cloned().unwrap_or_default();
    let dir = common::data_dir();
    if !dir.is_dir() {
        println!("skipped: ../shared/data not found ({})", dir.display());
        return;
    }
    println!("| corpus | puzzles | mode | ours/s | crate/s | ratio | our guesses/puzzle |");
    println!("|---|---:|---|---:|---:|---:|---:|");
    for name in CORPORA.iter().filter(|n| n.contains(filter.as_str())) {
        let Some((ours, theirs)) = common::load(name, take) else {
            continue;
        };
        for (mode, limit) in [("first", 1u32), ("unique", 2u32)] {
            let (mut best_ours, mut best_theirs) = (f64::MAX, f64::MAX);
            let mut guesses = 0;
            for pass in 0..PASSES {
                let (mut t_ours, mut t_theirs) = (0.0, 0.0);
                for (a, b) in ours.chunks(CHUNK).zip(theirs.chunks(CHUNK)) {
                    let start = Instant::now();
                    for p in a {
                        let s = engine::solve(black_box(p), limit);
                        if pass == 0 {
                            guesses += s.guesses;
                        }
                    }
                    t_ours += start.elapsed().as_secs_f64();
                    let start = Instant::now();
                    for s in b {
                        // Count up to `limit` and keep the first solution, like our engine.
                        let mut first = [[0u8; 81]; 1];
                        black_box(black_box(*s).solutions_up_to_buffer(&mut first, limit as usize));
                    }
                    t_theirs += start.elapsed().as_secs_f64();
                }
                best_ours = best_ours.min(t_ours);
                best_theirs = best_theirs.min(t_theirs);
            }
            let n = ours.len() as f64;
            println!(
                "| {name} | {} | {mode} | {:.0} | {:.0} | {:.2}× | {:.2} |",
                ours.len(),
                n / best_ours,
                n / best_theirs,
                best_theirs / best_ours,
                guesses as f64 / n
            );
        }
    }
}
