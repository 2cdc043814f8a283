//! The block reader (9 rows of 9 cells) on arbitrary bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::input::InputFormat;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::read_all(data, InputFormat::Block));
