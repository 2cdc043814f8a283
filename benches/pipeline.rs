//! What the I/O costs: the whole `solve` pipeline (read, parse, solve, format CSV, write) against
//! the engine alone on the same puzzles, single-threaded, on an easy corpus where I/O weighs
//! most. Needs the corpora (`../shared/data` or `$SUDOKU_DATA`); skips with a notice without them.
//!
//! Run: `cargo bench --bench pipeline`

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku_batch::input::Input;
use sudoku_batch::run::Settings;
use sudoku_batch::{bench, corpora, engine, solve};

fn pipeline_vs_engine(c: &mut Criterion) {
    let Some(dir) = corpora::dir() else {
        eprintln!("skipped: {}", corpora::MISSING);
        return;
    };
    let path = dir.join("kaggle_sample.txt");
    let input = Input::from_arg(&path.display().to_string());
    let corpus = match bench::load(&input) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skipped: cannot read {}: {e}", path.display());
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
    let settings = Settings {
        threads: 1,
        ..Settings::default()
    };
    let opts = solve::Options::default();
    g.bench_function("solve_pipeline_csv", |b| {
        b.iter(|| {
            let mut sink = std::io::sink();
            solve::run(std::slice::from_ref(&input), &mut sink, &settings, &opts)
                .map(|s| s.puzzles())
        })
    });
    g.finish();
}

criterion_group!(benches, pipeline_vs_engine);
criterion_main!(benches);
