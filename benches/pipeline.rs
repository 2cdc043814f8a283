//! What the I/O costs: the whole `solve` pipeline (read, parse, solve, format CSV, write) against
//! the engine alone on the same puzzles, single-threaded, on an easy corpus where I/O weighs
//! most. Needs `../shared/data/kaggle_sample.txt`; skips with a notice when it is absent.
//!
//! Run: `cargo bench --bench pipeline`

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku_batch::input::Input;
use sudoku_batch::pipeline::{self, Config};
use sudoku_batch::{bench, engine};

const CORPUS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/data/kaggle_sample.txt"
);

fn pipeline_vs_engine(c: &mut Criterion) {
    if !Path::new(CORPUS).exists() {
        eprintln!("skipped: ../shared/data not found");
        return;
    }
    let input = Input::from_arg(CORPUS);
    let corpus = match bench::load(&input) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skipped: cannot read {CORPUS}: {e}");
            return;
        }
    };
    let mut g = c.benchmark_group("kaggle_sample_unique_1_thread");
    g.throughput(Throughput::Elements(corpus.puzzles.len() as u64));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("engine_only", |b| {
        b.iter(|| {
            corpus
                .puzzles
                .iter()
                .map(|p| u64::from(engine::solve(p, 2).solutions))
                .sum::<u64>()
        })
    });
    let cfg = Config {
        threads: 1,
        ..Config::default()
    };
    g.bench_function("solve_pipeline_csv", |b| {
        b.iter(|| {
            let mut sink = std::io::sink();
            pipeline::run(std::slice::from_ref(&input), &mut sink, &cfg).map(|s| s.puzzles())
        })
    });
    g.finish();
}

criterion_group!(benches, pipeline_vs_engine);
criterion_main!(benches);
