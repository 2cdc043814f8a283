//! Where the community's benchmark corpora are, for the tests and benches (not part of the
//! tool's interface).
//!
//! One place decides: the build script looks for `$SUDOKU_DATA`, else `../shared/data` beside
//! the crate, and when the folder exists sets `cfg(corpora)` and records its path. Tests that
//! need a corpus are marked `#[cfg_attr(not(corpora), ignore = "...")]`, so without the corpora
//! they show as *ignored* in the test summary rather than passing without testing anything.

use std::path::PathBuf;

use crate::grid::Grid;

/// Why a corpus test is ignored: the message `cargo test` prints beside it.
pub const MISSING: &str = "needs the corpora: ../shared/data or $SUDOKU_DATA";

/// The corpora folder the build found, if any.
pub fn dir() -> Option<PathBuf> {
    option_env!("SUDOKU_CORPORA").map(PathBuf::from)
}

/// The path of corpus file `name` (for example `top1465.txt`). Panics with [`MISSING`] when the
/// build found no corpora: call it only from tests marked as above.
pub fn path(name: &str) -> PathBuf {
    match dir() {
        Some(d) => d.join(name),
        None => panic!("{MISSING}"),
    }
}

/// The first `take` puzzles of corpus `name` (one 81-cell puzzle per line). Panics, with the
/// file and line, when the file is missing or a line is not a puzzle.
pub fn puzzles(name: &str, take: usize) -> Vec<Grid> {
    let p = path(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    text.lines()
        .take(take)
        .enumerate()
        .map(|(i, l)| {
            Grid::parse_line(l.as_bytes())
                .unwrap_or_else(|e| panic!("{}:{}: {e}", p.display(), i + 1))
        })
        .collect()
}
