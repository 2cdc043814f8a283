//! # sudoku-batch
//!
//! Solve sudoku corpora of any size on every core, streaming, into an ordered CSV.
//!
//! The library owns all the work; the `sudoku-batch` binary is a thin shell over [`cli`], which
//! only parses arguments and maps outcomes to exit codes. One module per capability:
//!
//! - [`grid`]: the 81-cell [`Grid`] value, parsing and formatting, rule checks.
//! - [`engine`]: the allocation-free solver behind one call, [`engine::solve`]; the band-bitboard
//!   engine is private behind it, its design story in `docs/engine.md`.
//! - [`input`]: the one reader layer every command shares: files and stdin, gzip/zstd, lines,
//!   blocks, JSON boards (told apart by themselves), CSV columns, puzzle/solution pairs; binary
//!   files refused.
//! - [`run`]: the streaming machinery of every per-puzzle command: chunks, the ordered parallel
//!   map, rows (CSV/JSONL), the summary, progress, the `-o`/`--resume` lifecycle.
//! - [`solve`]: the `solve` command's options, columns and row.
//! - [`verify`]: checking reference solutions (`verify`).
//! - [`augment`]: random equivalent copies of puzzles (and solutions) for training data.
//! - [`canon`]: minlex canonical forms, automorphism counts and the transform to the form.
//! - [`dedup`], [`split`]: equivalence-aware deduplication and leak-free splits.
//! - [`sample`]: reproducible stratified samples (bottom-k per band of a rating).
//! - [`generate`]: seeded, proven-unique puzzle generation and `minimize`.
//! - [`rate`]: what `rate` writes per puzzle: guesses, transform-averaged rating, singles, class.
//! - [`explain`]: Sudoku Explainer 1.2.1's rating (ER/EP/ED) and step path, as `serate` gives
//!   them; `explain` and `rate --se`.
//! - [`export`]: train/test/valid files as the folders training code reads: a Hugging Face
//!   dataset (Parquet and a dataset card) or HRM's NumPy layout.
//! - [`bench`]: timing the engine, exports (one file per format), the machine, refereeing other
//!   solvers (`bench --external`).
//! - [`transform`], [`rng`]: equivalence transforms and seeded randomness for the dataset
//!   commands.
//! - [`human`]: numbers and durations for people; [`clock`]: the per-solve stopwatch.
//! - [`provenance`]: what made an output file (version, command line, seeds, inputs' SHA-256),
//!   recorded with it and read back by `sudoku-batch provenance`.
//! - [`cli`]: argument definitions, dispatch, exit codes.
//!
//! ```
//! use sudoku_batch::{engine, Grid};
//! let puzzle: Grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!     .parse()
//!     .unwrap();
//! let found = engine::solve(&puzzle, 2); // count up to 2: is it unique?
//! assert_eq!(found.solutions, 1);
//! assert!(found.first.unwrap().is_solution_of(&puzzle));
//! ```

pub mod audit;
pub mod augment;
pub mod bench;
pub mod canon;
pub mod cli;
pub mod clock;
#[doc(hidden)]
pub mod corpora;
pub mod dedup;
pub mod engine;
pub mod explain;
pub mod export;
pub mod generate;
pub mod grid;
pub mod human;
pub mod input;
pub mod provenance;
pub mod rate;
pub mod rng;
pub mod run;
pub mod sample;
pub mod solve;
pub mod split;
#[cfg(test)]
mod testing;
pub mod transform;
pub mod verify;

pub use engine::{solve, Solved};
pub use grid::{Conflict, Grid, ParseError, Unit};
