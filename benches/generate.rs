//! Minimal-puzzle generation, ours against the `sudoku` crate's
//! (`Sudoku::generate_from(Sudoku::generate_solved())`, AGPL: benches only) and, when installed,
//! QQWing's, on one thread in the same run. The two libraries alternate in chunks of 50 puzzles
//! so a burst of load from elsewhere falls on both; each side's time is summed over a pass and the
//! best of three passes is kept. QQWing is a separate process (`qqwing --generate N --one-line`)
//! timed once per pass, its start-up included.
//!
//! It then prints the clue counts of `STATS` minimal puzzles per symmetry (mean, min, max, and
//! the tries per accepted puzzle for a few clue targets).
//!
//! Run: `cargo bench --bench generate` (2,000 puzzles per side per pass, 10,000 for the
//! statistics), or `cargo bench --bench generate -- 500 2000` for other counts.

use std::hint::black_box;
use std::process::{Command, Stdio};
use std::time::Instant;

use sudoku_batch::generate::{generate_one, Options, Symmetry};

const CHUNK: u64 = 50;
const PASSES: usize = 3;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(2000).max(CHUNK);
    let stats = args.get(1).copied().unwrap_or(10_000);
    let opts = Options::default();
    let accept = |_: &sudoku_batch::Grid, _: &sudoku_batch::Grid| true;

    let qqwing = Command::new("qqwing")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    let (mut best_ours, mut best_crate, mut best_qq) = (f64::MAX, f64::MAX, f64::MAX);
    let mut checks = 0u64;
    for pass in 0..PASSES {
        let (mut t_ours, mut t_crate) = (0.0, 0.0);
        let mut index = pass as u64 * n;
        for _ in 0..n / CHUNK {
            let start = Instant::now();
            for i in index..index + CHUNK {
                let a = generate_one(i, black_box(&opts), &accept);
                checks += a.checks;
                black_box(a);
            }
            t_ours += start.elapsed().as_secs_f64();
            index += CHUNK;
            let start = Instant::now();
            for _ in 0..CHUNK {
                black_box(sudoku::Sudoku::generate_from(
                    sudoku::Sudoku::generate_solved(),
                ));
            }
            t_crate += start.elapsed().as_secs_f64();
        }
        best_ours = best_ours.min(t_ours);
        best_crate = best_crate.min(t_crate);
        if qqwing {
            let start = Instant::now();
            let out = Command::new("qqwing")
                .args(["--generate", &n.to_string(), "--one-line"])
                .stderr(Stdio::null())
                .output();
            let t = start.elapsed().as_secs_f64();
            if matches!(out, Ok(ref o) if o.status.success()) {
                best_qq = best_qq.min(t);
            }
        }
    }
    let total = (n / CHUNK * CHUNK) as f64;
    println!("| generator (minimal, no symmetry, 1 thread) | puzzles/s | ours ÷ it |");
    println!("|---|---:|---:|");
    println!(
        "| sudoku-batch | {:.0} | 1.00× |  ({:.1} uniqueness checks per puzzle)",
        total / best_ours,
        checks as f64 / (total * PASSES as f64)
    );
    println!(
        "| sudoku crate 0.8 generate_from(generate_solved()) | {:.0} | {:.2}× |",
        total / best_crate,
        best_crate / best_ours
    );
    if best_qq < f64::MAX {
        println!(
            "| qqwing --generate {n} --one-line | {:.0} | {:.2}× |",
            n as f64 / best_qq,
            best_qq / best_ours * (total / n as f64)
        );
    } else {
        println!("| qqwing | not installed | |");
    }

    if stats == 0 {
        return;
    }
    println!();
    println!("| symmetry | puzzles | mean clues | min | max | puzzles/s |");
    println!("|---|---:|---:|---:|---:|---:|");
    for sym in [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ] {
        let o = Options {
            seed: 1,
            symmetry: sym,
            ..Options::default()
        };
        let start = Instant::now();
        let counts: Vec<usize> = (0..stats)
            .filter_map(|i| generate_one(i, &o, &accept).found)
            .map(|g| g.puzzle.clues())
            .collect();
        let t = start.elapsed().as_secs_f64();
        let mean = counts.iter().sum::<usize>() as f64 / counts.len() as f64;
        println!(
            "| {sym} | {} | {mean:.2} | {} | {} | {:.0} |",
            counts.len(),
            counts.iter().min().unwrap_or(&0),
            counts.iter().max().unwrap_or(&0),
            counts.len() as f64 / t
        );
    }
    println!();
    println!("| symmetry | clue target | accepted | tries per accepted |");
    println!("|---|---|---:|---:|");
    for (sym, lo, hi) in [
        (Symmetry::Rot90, 17, 81),
        (Symmetry::Rot90, 20, 25),
        (Symmetry::Rot90, 26, 30),
        (Symmetry::None, 17, 22),
    ] {
        let o = Options {
            seed: 2,
            symmetry: sym,
            clues: Some((lo, hi)),
            ..Options::default()
        };
        let k = (stats / 10).max(1);
        let (mut ok, mut tries) = (0u64, 0u64);
        for i in 0..k {
            let a = generate_one(i, &o, &accept);
            ok += u64::from(a.found.is_some());
            tries += a.tries;
        }
        println!(
            "| {sym} | {lo}-{hi} | {ok}/{k} | {:.2} |",
            tries as f64 / ok.max(1) as f64
        );
    }
}
