//! Minlex canonicalisation throughput (`sudoku_batch::canon::canonical`) on the benchmark
//! corpora: each iteration canonicalises the first 10,000 puzzles of a corpus (fewer when the
//! corpus is smaller), so criterion's throughput is puzzles per second on one core.
//!
//! Run: `cargo bench --bench canon`; a filter runs part of it, e.g.
//! `cargo bench --bench canon -- 17clue`. The corpora are read from `$SUDOKU_DATA` or
//! `../shared/data`; when they are absent the benchmark prints a notice and does nothing.
//! Each corpus is also run through the older whole-permutation search
//! (`canonical_by_permutations`, `<corpus>/by_permutations`), so one run gives the ratio.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use sudoku_batch::canon::Canonicalizer;

mod common;

const CORPORA: [&str; 4] = ["17clue", "top1465", "forum_hardest_sample", "kaggle_sample"];

/// How many puzzles from the top of each corpus one iteration canonicalises.
const TAKE: usize = 10_000;

fn canon(c: &mut Criterion) {
    let dir = common::data_dir();
    if !dir.is_dir() {
        println!("skipped: ../shared/data not found ({})", dir.display());
        return;
    }
    let mut g = c.benchmark_group("canon");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for name in CORPORA {
        let Some((grids, _)) = common::load(name, TAKE) else {
            continue;
        };
        let mut canon = Canonicalizer::default();
        g.throughput(Throughput::Elements(grids.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut autos = 0u64;
                for p in &grids {
                    autos += u64::from(canon.canonical(black_box(p)).automorphisms);
                }
                autos
            })
        });
        g.bench_function(format!("{name}/by_permutations"), |b| {
            b.iter(|| {
                let mut autos = 0u64;
                for p in &grids {
                    autos += u64::from(canon.canonical_by_permutations(black_box(p)).automorphisms);
                }
                autos
            })
        });
    }
    g.finish();
}

criterion_group!(benches, canon);
criterion_main!(benches);
