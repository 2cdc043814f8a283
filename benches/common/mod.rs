//! Corpus loading shared by the benches that compare our engine with the `sudoku` crate.

use std::path::PathBuf;
use sudoku_batch::Grid;

/// Where the corpora are (the build script found them: `$SUDOKU_DATA` or `../shared/data`).
pub fn data_dir() -> PathBuf {
    sudoku_batch::corpora::dir().unwrap_or_default()
}

/// The first `take` puzzles of corpus `name`, parsed for both engines; `None` (with a notice)
/// when the file is missing.
pub fn load(name: &str, take: usize) -> Option<(Vec<Grid>, Vec<sudoku::Sudoku>)> {
    let path = data_dir().join(format!("{name}.txt"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("{} not found, skipping", path.display());
        return None;
    };
    let lines: Vec<&str> = text.lines().take(take).collect();
    let ours = lines
        .iter()
        .map(|l| l.parse().expect("corpus line parses"))
        .collect();
    let theirs = lines
        .iter()
        .map(|l| sudoku::Sudoku::from_str_line(l).expect("corpus line parses"))
        .collect();
    Some((ours, theirs))
}
