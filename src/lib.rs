//! # sudoku-batch
//!
//! Solve sudoku corpora of any size on every core, streaming, into an ordered CSV.
//!
//! The library owns all the work; the `sudoku-batch` binary is a thin shell over [`cli`].
//!
//! - [`grid`]: the 81-cell [`Grid`] value, parsing and formatting, rule checks.
//! - [`engine`]: the allocation-free solver behind one call, [`engine::solve`]; the band-bitboard
//!   engine that does the work lives in the private `bitboard` module.
//! - [`input`]: streaming readers for the line, block and CSV formats, with bounded buffers.
//! - [`output`]: `-o FILE` written as `FILE.partial` until done; `--resume` repairs and continues it.
//! - [`ordered`]: the ordered, bounded parallel map that `solve` and `verify` share.
//! - [`pipeline`]: chunked reading, parallel solving with rayon, in-order writing.
//! - [`bench`]: the `bench` subcommand's timing loop, percentiles and tables.
//! - [`bench_run`]: the `bench` command end to end: thread lists, exports, `--external`.
//! - [`export`]: benchmark exports as JSON, CSV and markdown.
//! - [`histogram`]: the SVG of solve-time distributions (`bench --histogram`).
//! - [`machine`]: the machine description in benchmark exports (CPU, cores, OS, commit).
//! - [`external`]: running and refereeing another solver (`bench --external`).
//! - [`verify`]: checking reference-solution files (`verify`).
//! - [`report`]: the CSV and JSON-lines row writers and the run summary.
//! - [`cli`]: the command line.
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

pub mod bench;
pub mod bench_run;
pub mod cli;
#[doc(hidden)]
pub mod corpora;
pub mod engine;
pub mod export;
pub mod external;
pub mod generate;
pub mod grid;
pub mod histogram;
pub mod input;
pub mod machine;
pub mod ordered;
pub mod output;
pub mod pipeline;
pub mod report;
pub mod rng;
#[cfg(test)]
mod testing;
pub mod transform;
pub mod verify;

pub use engine::{solve, Solved};
pub use grid::{Conflict, Grid, ParseError, Unit};
