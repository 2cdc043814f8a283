//! Engine throughput: `sudoku_batch::engine::solve` against the `sudoku` crate (JCZSolve port; AGPL, so only here and in tests) on the benchmark corpora,
//! in two modes: "first" (stop at the first solution, limit 1) and "unique" (limit 2, the count
//! that proves uniqueness). Each iteration solves a fixed slice of a corpus, so criterion's
//! throughput is puzzles per second.
//!
//! Run: `cargo bench --bench engine`. The corpora are read from `$SUDOKU_DATA` or
//! `../shared/data`; when they are absent the benchmark prints a notice and does nothing.
//! Pass a filter to run part of it, e.g. `cargo bench --bench engine -- hardest1106/first`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use sudoku_batch::engine;

mod common;

/// Corpus file and how many of its first puzzles one iteration solves (kept small so that the
/// whole bench fits a few minutes on a shared 2-core machine).
const CORPORA: [(&str, usize); 5] = [
    ("kaggle_sample", 2000),
    ("17clue", 1000),
    ("top1465", 500),
    ("forum_hardest_sample", 200),
    ("hardest1106", 100),
];

fn engines(c: &mut Criterion) {
    let dir = common::data_dir();
    if !dir.is_dir() {
        println!("skipped: ../shared/data not found ({})", dir.display());
        return;
    }
    for (name, take) in CORPORA {
        let Some((grids, crate_grids)) = common::load(name, take) else {
            continue;
        };
        for (mode, limit) in [("first", 1u32), ("unique", 2u32)] {
            let mut g = c.benchmark_group(format!("{name}/{mode}"));
            g.throughput(Throughput::Elements(grids.len() as u64))
                .sample_size(10)
                .warm_up_time(Duration::from_millis(500))
                .measurement_time(Duration::from_secs(2));
            g.bench_function("sudoku_batch", |b| {
                b.iter(|| {
                    let mut n = 0;
                    for p in &grids {
                        n += engine::solve(black_box(p), limit).solutions;
                    }
                    n
                })
            });
            g.bench_function("sudoku_crate", |b| {
                b.iter(|| {
                    let mut n = 0;
                    for s in &crate_grids {
                        // Count up to `limit` and keep the first solution, like our engines.
                        let mut first = [[0u8; 81]; 1];
                        n += black_box(*s).solutions_up_to_buffer(&mut first, limit as usize);
                    }
                    n
                })
            });
            g.finish();
        }
    }
}

criterion_group!(benches, engines);
criterion_main!(benches);
