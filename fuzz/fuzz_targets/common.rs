//! Shared by the reader targets: run a whole input through a reader and check what must hold.

use std::io::{BufReader, Read};

use sudoku_batch::input::{self, InputFormat, Source};

/// Reads every record of `data` in `format`: no panic, no error (the input is in memory), line
/// numbers increasing and within the input, and every grid well-formed.
pub fn read_all(data: &[u8], format: InputFormat) {
    // Lines end at LF, CRLF or (for CSV records) a lone CR: count every CR and LF, an upper bound.
    let lines = data.split(|&b| b == b'\n' || b == b'\r').count() as u64;
    let source: Source =
        BufReader::new(Box::new(std::io::Cursor::new(data.to_vec())) as Box<dyn Read + Send>);
    let Ok(mut records) = input::records(source, format, None) else {
        return; // a CSV without a puzzle column: reported, not read
    };
    let mut last = 0;
    while let Some(rec) = records.next().expect("in-memory reads cannot fail") {
        assert!(
            rec.line > last && rec.line <= lines,
            "line {} after {last}",
            rec.line
        );
        last = rec.line;
        if let Ok(g) = rec.puzzle {
            assert!(g.cells().iter().all(|&v| v <= 9));
        }
    }
}
