//! JSON boards, as LeetCode (problems 36 and 37) gives them: `[["5","3",".",...],...]`, nine
//! rows of nine cells, digits as strings or numbers, `.` or `0` for blanks (`*`, `_`, `""` and
//! `null` too). A board may stand on one line or be pretty-printed over several; a file may hold
//! one board, JSON Lines of boards, or arrays of boards. A row may also be a 9-character string,
//! and a board a flat array of 81 cells.
//!
//! The reader cuts the text into top-level values by counting brackets outside strings, line by
//! line, then hands each value to `serde_json`: a board gives one record, an array of boards one
//! record per board (each numbered by the line its `[` stands on). Anything else — text that is
//! not JSON, a board with eight rows, a cell `"x"`, a value never closed — gives one `invalid`
//! record with the reason, like every other bad input. A value never closed is noticed at the
//! next line that opens a board at a depth no board reaches (or at the end of the input), so one
//! missing `]` costs one record, not the rest of the file.

use std::collections::VecDeque;
use std::io;

use serde_json::Value;

use super::lines::{is_skippable, LineReader, MAX_LINE};
use super::{Record, Records};
use crate::grid::{cell_value, Grid, ParseError};

/// The largest top-level value kept whole (an array of boards: about 40,000 LeetCode boards).
const MAX_VALUE: usize = 16 << 20;

pub(super) struct JsonRecords {
    lines: LineReader,
    /// Records parsed but not yet handed out (an array of boards gives several at once).
    ready: VecDeque<Record>,
    /// The open top-level value: its text, the line it starts on, the bracket depth, and
    /// whether the scan is inside a string (and just after a backslash in one).
    text: Vec<u8>,
    start: u64,
    depth: usize,
    /// The deepest the open value has gone (2 for a board, 3 for an array of boards).
    deepest: usize,
    in_string: bool,
    escaped: bool,
    /// The open value outgrew [`MAX_VALUE`] or a line was cut: it is reported once, then
    /// scanned to its end without being kept.
    broken: Option<String>,
}

impl JsonRecords {
    pub(super) fn new(lines: LineReader) -> JsonRecords {
        JsonRecords {
            lines,
            ready: VecDeque::new(),
            text: Vec::new(),
            start: 0,
            depth: 0,
            deepest: 0,
            in_string: false,
            escaped: false,
            broken: None,
        }
    }

    fn invalid(&mut self, line: u64, why: String) {
        self.ready.push_back(Record {
            line,
            puzzle: Err(ParseError::Other(why)),
            candidates: None,
        });
    }

    /// The open value is finished (its last `]` was read): parse it into records.
    fn close_value(&mut self) {
        let text = std::mem::take(&mut self.text);
        if let Some(why) = self.broken.take() {
            return self.invalid(self.start, why);
        }
        match serde_json::from_slice::<Value>(&text) {
            Err(e) => {
                let at = self.start + e.line().saturating_sub(1) as u64;
                let msg = e.to_string();
                let msg = msg
                    .rsplit_once(" at line ")
                    .map_or(msg.as_str(), |(m, _)| m);
                self.invalid(
                    self.start,
                    format!("not valid JSON: {msg} (line {at}, column {})", e.column()),
                );
            }
            Ok(value) if is_array_of_boards(&value) => {
                let lines = board_lines(&text, self.start);
                if let Value::Array(boards) = value {
                    for (i, b) in boards.iter().enumerate() {
                        let line = lines.get(i).copied().unwrap_or(self.start);
                        self.ready.push_back(Record {
                            line,
                            puzzle: board(b).map_err(ParseError::Other),
                            candidates: None,
                        });
                    }
                }
            }
            Ok(value) => self.ready.push_back(Record {
                line: self.start,
                puzzle: board(&value).map_err(ParseError::Other),
                candidates: None,
            }),
        }
    }

    /// Scans one line: opens, extends and closes top-level values.
    fn scan(&mut self, number: u64, line: &[u8], truncated: bool) {
        let trimmed = line.trim_ascii_start();
        // A line opening a board (`[[`) where no board can start — among a board's cells, or
        // after the rows of a board that is still open — means the value before it was never
        // closed. Report it and start again here.
        let misplaced = self.depth >= 2 || (self.depth == 1 && self.deepest == 2);
        if misplaced && !self.in_string && trimmed.starts_with(b"[[") {
            let why = self.broken.take().unwrap_or_else(|| {
                format!("a board that is never closed (a ']' is missing before line {number})")
            });
            self.text.clear();
            self.depth = 0;
            self.invalid(self.start, why);
        }
        if self.depth == 0 && is_skippable(line) {
            return;
        }
        if truncated && self.broken.is_none() {
            self.broken = Some(format!(
                "a line longer than {MAX_LINE} bytes (line {number}): write long arrays of \
                 boards one board per line"
            ));
        }
        let mut i = 0;
        while i < line.len() {
            let b = line[i];
            if self.depth == 0 {
                if b.is_ascii_whitespace() || b == b',' {
                    i += 1;
                    continue;
                }
                if b != b'[' {
                    let rest = String::from_utf8_lossy(&line[i..]);
                    let shown: String = rest.chars().take(20).collect();
                    self.invalid(
                        number,
                        format!(
                            "expected a JSON board (an array starting with '['), found {shown:?}"
                        ),
                    );
                    return;
                }
                self.start = number;
                self.text.clear();
                self.deepest = 0;
            }
            if self.broken.is_none() {
                self.text.push(b);
            }
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                }
            } else {
                match b {
                    b'"' => self.in_string = true,
                    b'[' | b'{' => {
                        self.depth += 1;
                        self.deepest = self.deepest.max(self.depth);
                    }
                    b']' | b'}' => {
                        self.depth -= 1;
                        if self.depth == 0 {
                            self.close_value();
                        }
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        if self.depth > 0 && self.broken.is_none() {
            self.text.push(b'\n');
            if self.text.len() > MAX_VALUE {
                self.text = Vec::new();
                self.broken = Some(format!(
                    "a JSON value larger than {} MiB: write one board per line",
                    MAX_VALUE >> 20
                ));
            }
        }
    }
}

impl Records<Record> for JsonRecords {
    fn next(&mut self) -> io::Result<Option<Record>> {
        loop {
            if let Some(r) = self.ready.pop_front() {
                return Ok(Some(r));
            }
            let Some(line) = self.lines.next_line()? else {
                if self.depth > 0 {
                    let why = self.broken.take().unwrap_or_else(|| {
                        "a board that is never closed (a ']' is missing at the end)".into()
                    });
                    self.depth = 0;
                    self.text.clear();
                    self.invalid(self.start, why);
                    continue;
                }
                return Ok(None);
            };
            let (number, truncated) = (line.number, line.truncated);
            let text = line.text.to_vec();
            self.scan(number, &text, truncated);
        }
    }

    fn line_number(&self) -> u64 {
        self.lines.line_number()
    }

    fn would_wait(&self) -> bool {
        self.ready.is_empty() && !self.lines.has_buffered()
    }
}

/// Whether `v` is an array of boards rather than one board: its elements' elements are arrays.
fn is_array_of_boards(v: &Value) -> bool {
    let Value::Array(items) = v else {
        return false;
    };
    items.iter().any(|b| match b {
        Value::Array(rows) => rows.iter().any(Value::is_array),
        _ => false,
    }) && items
        .iter()
        .all(|b| matches!(b, Value::Array(rows) if rows.iter().all(Value::is_array)))
}

/// The line of each board in an array of boards: where each `[` at depth 2 stands.
fn board_lines(text: &[u8], start: u64) -> Vec<u64> {
    let (mut line, mut depth, mut in_string, mut escaped) = (start, 0usize, false, false);
    let mut lines = Vec::new();
    for &b in text {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'\n' => line += 1,
            b'"' => in_string = true,
            b'[' => {
                depth += 1;
                if depth == 2 {
                    lines.push(line);
                }
            }
            b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    lines
}

/// The grid of one board, or why it is not one.
pub(crate) fn board(v: &Value) -> Result<Grid, String> {
    let Value::Array(rows) = v else {
        return Err(format!(
            "expected a board (an array of 9 rows), found {}",
            kind(v)
        ));
    };
    let mut cells = [0u8; 81];
    // A flat array of 81 cells is a board too.
    if rows.len() == 81 && rows.iter().all(|c| !c.is_array()) {
        for (i, c) in rows.iter().enumerate() {
            cells[i] = cell(c).map_err(|e| format!("cell {}: {e}", i + 1))?;
        }
        return Grid::from_cells(cells).ok_or_else(|| "a cell out of range".into());
    }
    if rows.len() != 9 {
        return Err(format!("expected 9 rows, found {}", rows.len()));
    }
    for (r, row) in rows.iter().enumerate() {
        match row {
            Value::Array(items) => {
                if items.len() != 9 {
                    return Err(format!(
                        "row {}: expected 9 cells, found {}",
                        r + 1,
                        items.len()
                    ));
                }
                for (c, item) in items.iter().enumerate() {
                    cells[r * 9 + c] =
                        cell(item).map_err(|e| format!("row {}, cell {}: {e}", r + 1, c + 1))?;
                }
            }
            Value::String(s) if s.chars().count() == 9 => {
                for (c, ch) in s.bytes().enumerate() {
                    cells[r * 9 + c] = cell_value(ch).ok_or_else(|| {
                        format!(
                            "row {}, cell {}: {ch:?} is not a digit or a blank",
                            r + 1,
                            c + 1
                        )
                    })?;
                }
            }
            other => {
                return Err(format!(
                    "row {}: expected an array of 9 cells, found {}",
                    r + 1,
                    kind(other)
                ))
            }
        }
    }
    Grid::from_cells(cells).ok_or_else(|| "a cell out of range".into())
}

/// One cell: `"5"` or `5`; `"."`, `"0"`, `0`, `"*"`, `"_"`, `""` or `null` for a blank.
fn cell(v: &Value) -> Result<u8, String> {
    match v {
        Value::Null => Ok(0),
        Value::Number(n) => match n.as_u64() {
            Some(d) if d <= 9 => Ok(d as u8),
            _ => Err(format!("{n} is not a digit 1-9 or 0")),
        },
        Value::String(s) if s.is_empty() || s == " " => Ok(0),
        Value::String(s) if s.len() == 1 => {
            cell_value(s.as_bytes()[0]).ok_or_else(|| format!("{s:?} is not a digit or a blank"))
        }
        other => Err(format!("{} is not a digit or a blank", short(other))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 20 {
        format!("{}…", s.chars().take(20).collect::<String>())
    } else {
        s
    }
}

/// A grid as a LeetCode board on one line: `[["5","3","4",...],...]`, `"."` for blanks.
pub fn write_board(g: &Grid, out: &mut Vec<u8>) {
    out.push(b'[');
    for r in 0..9 {
        if r > 0 {
            out.push(b',');
        }
        out.push(b'[');
        for c in 0..9 {
            if c > 0 {
                out.push(b',');
            }
            let v = g.get(r, c);
            out.extend_from_slice(&[b'"', if v == 0 { b'.' } else { b'0' + v }, b'"']);
        }
        out.push(b']');
    }
    out.push(b']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{records, InputFormat};
    use crate::testing::LEET;
    use std::io::BufReader;

    fn read(text: &str) -> Vec<(u64, String)> {
        let src = BufReader::new(
            Box::new(io::Cursor::new(text.as_bytes().to_vec())) as Box<dyn io::Read + Send>
        );
        let mut recs = records(src, InputFormat::Json, None).unwrap();
        let mut out = Vec::new();
        while let Some(r) = recs.next().unwrap() {
            out.push((
                r.line,
                match r.puzzle {
                    Ok(g) => g.to_line(),
                    Err(e) => format!("ERR {e}"),
                },
            ));
        }
        out
    }

    fn leet_board() -> String {
        let g: Grid = LEET.parse().unwrap();
        let mut b = Vec::new();
        write_board(&g, &mut b);
        String::from_utf8(b).unwrap()
    }

    #[test]
    fn boards_one_line_pretty_numbers_arrays_and_lines() {
        let one = leet_board();
        assert_eq!(read(&one), vec![(1, LEET.to_string())]);
        // Pretty-printed, as JSON tools print it.
        let v: Value = serde_json::from_str(&one).unwrap();
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        assert!(pretty.lines().count() > 80);
        assert_eq!(
            read(&format!("# a comment\n{pretty}\n")),
            vec![(2, LEET.to_string())]
        );
        // Numbers, 0 for blanks.
        let numbers = one.replace("\".\"", "0").replace('"', "");
        assert_eq!(read(&numbers), vec![(1, LEET.to_string())]);
        // JSON Lines, and an array of boards over several lines.
        assert_eq!(
            read(&format!("{one}\n\n{numbers}\n")),
            vec![(1, LEET.to_string()), (3, LEET.to_string())]
        );
        assert_eq!(
            read(&format!("[\n{one},\n{numbers}\n]\n")),
            vec![(2, LEET.to_string()), (3, LEET.to_string())]
        );
        // Rows as strings, a flat array of 81 cells.
        let rows: Vec<String> = (0..9)
            .map(|r| format!("\"{}\"", &LEET[r * 9..r * 9 + 9]))
            .collect();
        assert_eq!(
            read(&format!("[{}]", rows.join(","))),
            vec![(1, LEET.to_string())]
        );
        let flat: Vec<String> = LEET.chars().map(|c| format!("\"{c}\"")).collect();
        assert_eq!(
            read(&format!("[{}]", flat.join(","))),
            vec![(1, LEET.to_string())]
        );
    }

    #[test]
    fn each_bad_board_is_one_invalid_record() {
        let one = leet_board();
        let eight_rows = one.replacen(
            "[\"5\",\"3\",\".\",\".\",\"7\",\".\",\".\",\".\",\".\"],",
            "",
            1,
        );
        let bad_cell = one.replacen("\"5\"", "\"x\"", 1);
        let unclosed = &one[..one.len() - 1];
        let text = format!("{eight_rows}\n{bad_cell}\nhello\n{unclosed}\n{one}\n[[1,2]\n");
        let got = read(&text);
        assert_eq!(got.len(), 6, "{got:?}");
        assert_eq!(got[0], (1, "ERR expected 9 rows, found 8".to_string()));
        assert_eq!(
            got[1],
            (
                2,
                "ERR row 1, cell 1: \"x\" is not a digit or a blank".to_string()
            )
        );
        assert!(
            got[2].1.starts_with("ERR expected a JSON board"),
            "{:?}",
            got[2]
        );
        assert_eq!(got[3].0, 4);
        assert!(got[3].1.contains("never closed"), "{:?}", got[3]);
        assert_eq!(got[4], (5, LEET.to_string()), "the board after it is read");
        assert_eq!(got[5].0, 6);
        assert!(got[5].1.contains("never closed"), "{:?}", got[5]);
        // Bad JSON inside brackets is one record naming the line.
        let got = read("[[1,2,]]\n");
        assert!(got[0].1.starts_with("ERR not valid JSON"), "{got:?}");
    }
}
