//! The block format: a puzzle as 9 rows of 9 cells, with the drawing of a printed grid (`|`,
//! `---+---+---`) ignored; puzzles separated by blank lines or simply following each other.

use std::io;

use super::lines::{is_skippable, LineReader};
use super::{Record, Records};
use crate::grid::{cell_value, Grid, ParseError};

pub(super) struct BlockRecords {
    pub(super) lines: LineReader,
}

/// Whether a line only draws the grid (`---+---+---`, `|`, `=`), with no cells on it.
fn is_rule_line(line: &[u8]) -> bool {
    line.iter()
        .all(|b| matches!(b, b'-' | b'+' | b'=' | b'|') || b.is_ascii_whitespace())
}

impl Records<Record> for BlockRecords {
    fn next(&mut self) -> io::Result<Option<Record>> {
        let mut cells = [0u8; 81];
        let mut rows = 0usize;
        let mut start = 0u64;
        let mut error: Option<String> = None;
        while let Some(line) = self.lines.next_line()? {
            let text = line.text;
            let blank = text.iter().all(|b| b.is_ascii_whitespace());
            if blank {
                if rows > 0 {
                    break;
                }
                continue;
            }
            if is_skippable(text) || is_rule_line(text) {
                continue;
            }
            if rows == 0 {
                start = line.number;
            }
            if error.is_none() {
                error = parse_block_row(text, rows, &mut cells)
                    .err()
                    .map(|e| format!("row {}: {e}", rows + 1));
                if error.is_none() && line.truncated {
                    error = Some(format!("row {}: line too long", rows + 1));
                }
            }
            rows += 1;
            if rows == 9 {
                break;
            }
        }
        if rows == 0 {
            return Ok(None);
        }
        let puzzle = match error {
            Some(e) => Err(ParseError::Other(e)),
            None if rows < 9 => Err(ParseError::Other(format!("expected 9 rows, found {rows}"))),
            None => Grid::from_cells(cells).ok_or_else(|| ParseError::Other("bad cell".into())),
        };
        Ok(Some(Record {
            line: start,
            puzzle,
            candidates: None,
        }))
    }

    fn line_number(&self) -> u64 {
        self.lines.line_number()
    }

    fn would_wait(&self) -> bool {
        !self.lines.has_buffered()
    }
}

/// Reads one row of a block: 9 cells, with spaces, tabs, `,` and `|` between them ignored.
fn parse_block_row(text: &[u8], row: usize, cells: &mut [u8; 81]) -> Result<(), String> {
    let mut n = 0usize;
    for (i, &b) in text.iter().enumerate() {
        if b.is_ascii_whitespace() || b == b',' || b == b'|' {
            continue;
        }
        match cell_value(b) {
            Some(v) => {
                if n < 9 {
                    cells[row * 9 + n] = v;
                }
                n += 1;
            }
            None => {
                return Err(match crate::grid::unexpected_at(&text[i..], n + 1) {
                    ParseError::UnexpectedChar { ch, .. } => {
                        format!("unexpected character '{}'", ch.escape_debug())
                    }
                    e => e.to_string(),
                })
            }
        }
    }
    if n == 9 {
        Ok(())
    } else {
        Err(format!("expected 9 cells, found {n}"))
    }
}
