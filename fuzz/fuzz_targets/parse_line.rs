//! The line parser and the line reader on arbitrary bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::input::InputFormat;
use sudoku_batch::Grid;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    if let Ok(g) = Grid::parse_line(data) {
        assert_eq!(Grid::parse_line(g.to_line().as_bytes()), Ok(g));
        let _ = g.check_givens().map_err(|c| c.to_string());
    } else if let Err(e) = Grid::parse_line(data) {
        assert!(!e.to_string().is_empty());
    }
    common::read_all(data, InputFormat::Line);
});
