//! # sudoku-batch
//!
//! Solve sudoku corpora of any size on every core, streaming, into an ordered CSV.
//!
//! The library owns all the work; the `sudoku-batch` binary is a thin shell over [`cli`].
//!
//! - [`grid`]: the 81-cell [`Grid`] value, parsing and formatting, rule checks.
//! - [`engine`]: the allocation-free solver behind one call, [`engine::solve`].
//! - [`input`]: streaming readers for the line, block and CSV formats, with bounded buffers.
//! - [`pipeline`]: chunked reading, parallel solving with rayon, in-order writing.
//! - [`bench`]: the `bench` subcommand's timing loop and tables.
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
pub mod bitboard;
pub mod cli;
pub mod engine;
pub mod grid;
pub mod input;
pub mod pipeline;
pub mod report;

pub use engine::{solve, Solved};
pub use grid::{Conflict, Grid, ParseError, Unit};
