//! Input: where puzzles come from (files or stdin, compressed or not) and the formats they come
//! in, read as streams of records — one reader layer that every subcommand shares.
//!
//! - [`source`]: opening files and stdin, gzip/zstd, byte counting, binary files refused.
//! - [`detect`]: the layout of an input told from its first line when no format is given.
//! - [`lines`]: bounded line reading and the one rule for skipped lines (blank, `#` comment).
//! - [`block`]: 9×9 blocks. `json`: LeetCode boards. [`table`]: CSV with columns found by
//!   name. [`pairs`]: `verify`'s puzzle/solution pairs, as lines or CSV.
//!
//! Everything streams with bounded buffers. Every non-blank, non-comment line (or block, or CSV
//! row) yields exactly one record: a grid or the reason it is not one, with the 1-based line
//! where it starts, so nothing a user fed in can silently disappear.

mod block;
pub mod detect;
mod json;
mod lines;
pub mod pairs;
mod source;
mod table;

use std::io;
use std::path::PathBuf;

use crate::engine::Candidates;
use crate::grid::{is_separator, Grid, ParseError};

pub use json::write_board;
pub use lines::{is_skippable, Line, LineReader, MAX_LINE};
pub use pairs::{Pair, PairFormat, PairOptions};
pub use source::Source;
pub use table::Table;

/// The read buffer of every input: large enough that a read is rarely shorter than a chunk of
/// lines, and the window format detection looks through.
const READ_BUFFER: usize = 256 * 1024;

/// The input formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// One puzzle per line: 81 cells, then optionally a separator and anything.
    Line,
    /// 9 rows of 9 cells, puzzles separated by blank lines or simply following each other.
    Block,
    /// JSON boards (LeetCode's `[["5","3",".",...],...]`): one per line, pretty-printed, or
    /// arrays of boards.
    Json,
    /// CSV with a header row; the puzzle is one column.
    Csv,
    /// Pencilmark lines: 729 characters, 81 cells × 9 candidate positions (the digit, or `.`
    /// where the candidate is excluded), as tdoku's benchmark reads them. In `Line` input a line
    /// whose first field is 729 characters long is read this way too.
    Pencilmark,
    /// Told from the first line that is not blank or a comment ([`detect`]): `[` starts JSON, a
    /// row of 9 cells starts blocks, anything else is lines. What no `--input-format` means for
    /// every input but a `.csv` file.
    Detect,
}

/// One puzzle as read: where it starts and what it is.
#[derive(Clone, Debug)]
pub struct Record {
    /// 1-based line number in its input where the puzzle starts.
    pub line: u64,
    /// The grid, or why the text is not one. Rule conflicts are not checked yet. For a
    /// pencilmark line, the grid of its single-candidate cells.
    pub puzzle: Result<Grid, ParseError>,
    /// A pencilmark line's candidate sets (tdoku's 729-character form); `None` for a grid.
    pub candidates: Option<Box<Candidates>>,
}

/// An item that starts on a known line (so shards and resumed runs can select it).
pub trait Lined {
    /// The 1-based line where the item starts.
    fn line(&self) -> u64;
}

impl Lined for Record {
    fn line(&self) -> u64 {
        self.line
    }
}

/// An input named on the command line: a file, or stdin (`-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The name as the user wrote it (`-` for stdin); used in messages and the `file` column.
    pub name: String,
    /// `None` for stdin.
    pub path: Option<PathBuf>,
}

impl Input {
    /// `-` is stdin; anything else is a path.
    pub fn from_arg(arg: &str) -> Input {
        Input {
            name: arg.to_string(),
            path: (arg != "-").then(|| PathBuf::from(arg)),
        }
    }

    /// The inputs named on a command line (none means stdin), each checked before anything is
    /// written, so that a plainly missing one fails at once. The error names the input.
    pub fn all_from_args(args: &[String]) -> Result<Vec<Input>, String> {
        let mut inputs: Vec<Input> = args.iter().map(|f| Input::from_arg(f)).collect();
        if inputs.is_empty() {
            inputs.push(Input::from_arg("-"));
        }
        for input in &inputs {
            if let Some(path) = &input.path {
                match std::fs::metadata(path) {
                    Ok(m) if m.is_dir() => {
                        return Err(format!("cannot read {}: it is a folder", input.name))
                    }
                    Ok(_) => input.check_text()?,
                    Err(e) => return Err(format!("cannot read {}: {}", input.name, io_reason(&e))),
                }
            }
        }
        Ok(inputs)
    }

    /// The format to read this input in: `explicit` when given, else CSV for a `.csv` file,
    /// else told from its first lines ([`InputFormat::Detect`]).
    pub fn format(&self, explicit: Option<InputFormat>) -> InputFormat {
        explicit.unwrap_or_else(|| match &self.path {
            Some(p) if source::has_extension(&source::without_compression(p), "csv") => {
                InputFormat::Csv
            }
            _ => InputFormat::Detect,
        })
    }

    /// The size in bytes when it is a regular file (for a progress bar with an ETA).
    pub fn size(&self) -> Option<u64> {
        let meta = std::fs::metadata(self.path.as_ref()?).ok()?;
        meta.is_file().then_some(meta.len())
    }
}

/// Why a file could not be opened, in words (no `os error` number): "no such file", ….
pub fn io_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => {
            let s = e.to_string();
            match s.split_once(" (os error") {
                Some((words, _)) => words.to_string(),
                None => s,
            }
        }
    }
}

/// A stream of items (puzzle records, pairs) from one input.
pub trait Records<T>: Send {
    /// The next item, `None` at the end of the input.
    fn next(&mut self) -> io::Result<Option<T>>;
    /// The line the reader has reached (for error messages).
    fn line_number(&self) -> u64;
    /// Whether the next item may have to wait for the source (so a partial chunk should be
    /// sent on now, which keeps interactive use responsive). `false` when unknown.
    fn would_wait(&self) -> bool {
        false
    }
}

/// Puzzle records for `format` from `reader`. For CSV this reads the header and picks the puzzle
/// column (`column`, or the first of [`DEFAULT_COLUMNS`]); an error names what was missing.
pub fn records(
    reader: Source,
    format: InputFormat,
    column: Option<&str>,
) -> Result<Box<dyn Records<Record>>, String> {
    Ok(match format {
        InputFormat::Detect => {
            let (found, reader) = detect::detect(reader).map_err(|e| e.to_string())?;
            return records(reader, found, column);
        }
        InputFormat::Json => Box::new(json::JsonRecords::new(LineReader::new(reader))),
        InputFormat::Line => Box::new(LineRecords {
            lines: LineReader::new(reader),
            pencil: Pencil::ByLength,
        }),
        InputFormat::Pencilmark => Box::new(LineRecords {
            lines: LineReader::new(reader),
            pencil: Pencil::Always,
        }),
        InputFormat::Block => Box::new(block::BlockRecords {
            lines: LineReader::new(reader),
        }),
        InputFormat::Csv => {
            let table = Table::new(reader)?;
            let index = table.column(column, &DEFAULT_COLUMNS, "", "--column")?;
            let name = table.names[index].clone();
            Box::new(CsvRecords {
                table,
                column: index,
                name,
            })
        }
    })
}

struct LineRecords {
    lines: LineReader,
    pencil: Pencil,
}

/// When a line is read as pencilmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pencil {
    /// When its first field is 729 characters long.
    ByLength,
    Always,
}

/// The record of one line: a grid, a pencilmark line, or why it is neither.
fn line_record(line: &Line<'_>, pencil: Pencil) -> Record {
    // Only a line of 729 characters or more can hold a pencilmark field: shorter lines (nearly
    // every line of a corpus) skip the scan for its end.
    let pencil_field = || {
        let t = line.text.trim_ascii_start();
        t.len() >= 729 && t.iter().position(|&b| is_separator(b)).unwrap_or(t.len()) == 729
    };
    if pencil == Pencil::Always || (line.text.len() >= 729 && pencil_field()) {
        return match Candidates::parse_line(line.text) {
            Ok(c) => Record {
                line: line.number,
                puzzle: Ok(c.singles()),
                candidates: Some(Box::new(c)),
            },
            Err(e) => Record {
                line: line.number,
                puzzle: Err(ParseError::Other(e)),
                candidates: None,
            },
        };
    }
    let puzzle = match Grid::parse_line(line.text) {
        Err(ParseError::WrongCellCount { .. }) if line.truncated => {
            Err(ParseError::LineTooLong { kept: MAX_LINE })
        }
        r => r,
    };
    Record {
        line: line.number,
        puzzle,
        candidates: None,
    }
}

impl Records<Record> for LineRecords {
    fn next(&mut self) -> io::Result<Option<Record>> {
        loop {
            let Some(line) = self.lines.next_line()? else {
                return Ok(None);
            };
            if !is_skippable(line.text) {
                return Ok(Some(line_record(&line, self.pencil)));
            }
        }
    }

    fn line_number(&self) -> u64 {
        self.lines.line_number()
    }

    fn would_wait(&self) -> bool {
        !self.lines.has_buffered()
    }
}

/// A puzzle line kept as it was read, for the commands that write input lines unchanged
/// (`dedup`, `split`): its text (without the line ending) and the puzzle it holds.
#[derive(Clone, Debug)]
pub struct RawRecord {
    pub line: u64,
    /// The line's bytes, at most [`MAX_LINE`] of them, CR/LF and a leading BOM dropped.
    pub text: Vec<u8>,
    pub puzzle: Result<Grid, ParseError>,
}

impl Lined for RawRecord {
    fn line(&self) -> u64 {
        self.line
    }
}

/// The lines of a line-format input, each with its text kept (see [`RawRecord`]).
pub fn raw_lines(reader: Source) -> Box<dyn Records<RawRecord>> {
    Box::new(RawLines(LineRecords {
        lines: LineReader::new(reader),
        pencil: Pencil::ByLength,
    }))
}

struct RawLines(LineRecords);

impl Records<RawRecord> for RawLines {
    fn next(&mut self) -> io::Result<Option<RawRecord>> {
        loop {
            let pencil = self.0.pencil;
            let Some(line) = self.0.lines.next_line()? else {
                return Ok(None);
            };
            if is_skippable(line.text) {
                continue;
            }
            let rec = line_record(&line, pencil);
            // Pencilmark lines are kept and reported like any line that is not a grid.
            let puzzle = match rec.candidates {
                Some(_) => Err(ParseError::Other(
                    "a pencilmark line (solve, bench and verify read those)".into(),
                )),
                None => rec.puzzle,
            };
            return Ok(Some(RawRecord {
                line: rec.line,
                text: line.text.to_vec(),
                puzzle,
            }));
        }
    }

    fn line_number(&self) -> u64 {
        self.0.line_number()
    }

    fn would_wait(&self) -> bool {
        self.0.would_wait()
    }
}

/// The columns tried, in order, when `--column` is not given.
pub const DEFAULT_COLUMNS: [&str; 3] = ["quizzes", "puzzle", "puzzles"];

struct CsvRecords {
    table: Table,
    column: usize,
    name: String,
}

impl Records<Record> for CsvRecords {
    fn next(&mut self) -> io::Result<Option<Record>> {
        let Some(row) = self.table.next_row()? else {
            return Ok(None);
        };
        let puzzle = match row.fields {
            Ok(rec) => match rec.get(self.column) {
                Some(field) => Grid::parse_cells(field),
                None => Err(ParseError::Other(format!(
                    "this row has no '{}' field",
                    self.name
                ))),
            },
            Err(msg) => Err(ParseError::Other(msg)),
        };
        Ok(Some(Record {
            line: row.line,
            puzzle,
            candidates: None,
        }))
    }

    fn line_number(&self) -> u64 {
        self.table.line_number()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::LEET;
    use std::io::BufReader;
    use std::path::Path;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    fn source(bytes: Vec<u8>) -> Source {
        BufReader::new(Box::new(io::Cursor::new(bytes)))
    }

    fn read_all(bytes: Vec<u8>, format: InputFormat, column: Option<&str>) -> Vec<Record> {
        let reader = source(bytes);
        let mut recs = records(reader, format, column).unwrap();
        let mut out = Vec::new();
        while let Some(r) = recs.next().unwrap() {
            out.push(r);
        }
        out
    }

    fn summary(recs: &[Record]) -> Vec<(u64, String)> {
        recs.iter()
            .map(|r| {
                (
                    r.line,
                    match &r.puzzle {
                        Ok(g) => g.to_line(),
                        Err(e) => format!("ERR {e}"),
                    },
                )
            })
            .collect()
    }

    #[test]
    fn lines_with_bom_crlf_comments_and_blanks() {
        let text = format!("\u{feff}{LEET}\r\n\r\n# comment\n   \n{LEET} trailing\nabc\n{LEET}");
        let recs = read_all(text.into_bytes(), InputFormat::Line, None);
        assert_eq!(
            summary(&recs),
            vec![
                (1, LEET.to_string()),
                (5, LEET.to_string()),
                (6, "ERR unexpected character 'a' at cell 1".to_string()),
                (7, LEET.to_string()),
            ]
        );
    }

    #[test]
    fn invalid_bytes_and_huge_lines_each_give_one_record() {
        let mut bytes = b"\x00\xff\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'1', MAX_LINE * 3));
        bytes.push(b'\n');
        bytes.extend_from_slice(LEET.as_bytes());
        bytes.push(b' ');
        bytes.extend(std::iter::repeat_n(b'x', MAX_LINE * 2));
        bytes.extend_from_slice(b"\nlast");
        let recs = read_all(bytes, InputFormat::Line, None);
        assert_eq!(
            summary(&recs),
            vec![
                (1, "ERR unexpected character '\\0' at cell 1".to_string()),
                (
                    2,
                    format!("ERR line too long: no separator in its first {MAX_LINE} bytes")
                ),
                (3, LEET.to_string()),
                (4, "ERR unexpected character 'l' at cell 1".to_string()),
            ]
        );
    }

    #[test]
    fn blocks_with_and_without_separators() {
        let mut text = String::from("# two puzzles back to back, then one after a blank line\n");
        let g: Grid = LEET.parse().unwrap();
        let block = g.to_block();
        text.push_str(&block);
        text.push_str(&block.replace(' ', "").replace('.', "0"));
        text.push_str("\n\n");
        for (i, row) in block.lines().enumerate() {
            if i % 3 == 0 {
                text.push_str("------+-------+------\n");
            }
            let r: Vec<&str> = row.split(' ').collect();
            text.push_str(&format!(
                "{} | {} | {}\n",
                r[..3].join(" "),
                r[3..6].join(" "),
                r[6..].join(" ")
            ));
        }
        text.push_str("\n5 3 * * 7\n\n");
        text.push_str("1 2 3 4 5 6 7 8 x\n");
        let recs = read_all(text.into_bytes(), InputFormat::Block, None);
        assert_eq!(
            summary(&recs),
            vec![
                (2, LEET.to_string()),
                (11, LEET.to_string()),
                (23, LEET.to_string()),
                (35, "ERR row 1: expected 9 cells, found 5".to_string()),
                (37, "ERR row 1: unexpected character 'x'".to_string()),
            ]
        );
    }

    #[test]
    fn csv_columns() {
        let text = format!("quizzes,solutions\n{LEET},x\n\"{LEET}\",y\nshort\n");
        let recs = read_all(text.clone().into_bytes(), InputFormat::Csv, None);
        assert_eq!(
            summary(&recs),
            vec![
                (2, LEET.to_string()),
                (3, LEET.to_string()),
                (4, "ERR unexpected character 's' at cell 1".to_string()),
            ]
        );
        let recs = read_all(text.into_bytes(), InputFormat::Csv, Some("solutions"));
        assert_eq!(
            recs[0].puzzle.as_ref().unwrap_err().to_string(),
            "unexpected character 'x' at cell 1"
        );
        assert_eq!(
            summary(&recs)[2],
            (4, "ERR this row has no 'solutions' field".to_string())
        );
        let text = format!("\u{feff}id,puzzle,solution,clues,difficulty\n1,{LEET},,30,0.0\n");
        let recs = read_all(text.into_bytes(), InputFormat::Csv, None);
        assert_eq!(summary(&recs), vec![(2, LEET.to_string())]);
        // Lone CRs end records too (found by fuzzing): numbers still increase, one per record.
        let text = format!("quizzes\r{LEET}\r{LEET}\r");
        let recs = read_all(text.into_bytes(), InputFormat::Csv, None);
        assert_eq!(
            summary(&recs),
            vec![(2, LEET.to_string()), (3, LEET.to_string())]
        );
        let reader = source(b"a,b\n".to_vec());
        let err = records(reader, InputFormat::Csv, None).err().unwrap();
        assert!(err.contains("'quizzes' or 'puzzle' or 'puzzles'"), "{err}");
    }

    fn compressed_inputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
        use std::io::Write as _;
        let text = format!("{LEET}\n# c\n{LEET}\n");
        let mut gz = Vec::new();
        for part in [&text[..50], &text[50..]] {
            // two gzip members back to back, cut mid-line
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(part.as_bytes()).unwrap();
            gz.extend(e.finish().unwrap());
        }
        let mut zst = zstd::encode_all(&text.as_bytes()[..100], 1).unwrap();
        zst.extend(zstd::encode_all(&text.as_bytes()[100..], 1).unwrap());
        let _ = dir;
        vec![
            ("plain.txt".into(), text.into_bytes()),
            ("multi.txt.gz".into(), gz.clone()),
            ("gz-without-extension.txt".into(), gz),
            ("multi.txt.zst".into(), zst),
        ]
    }

    #[test]
    fn compressed_files_read_like_text() {
        let dir = std::env::temp_dir().join(format!("sudoku-batch-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, bytes) in compressed_inputs(&dir) {
            let path = dir.join(&name);
            std::fs::write(&path, &bytes).unwrap();
            let input = Input::from_arg(path.to_str().unwrap());
            let counter = Arc::new(AtomicU64::new(0));
            let src = input.open(Arc::clone(&counter)).unwrap();
            let mut recs = records(src, input.format(None), None).unwrap();
            let mut got = Vec::new();
            while let Some(r) = recs.next().unwrap() {
                got.push(r);
            }
            assert_eq!(
                summary(&got),
                vec![(1, LEET.to_string()), (3, LEET.to_string())],
                "{name}"
            );
            assert_eq!(
                counter.load(Ordering::Relaxed),
                bytes.len() as u64,
                "{name}"
            );
        }
        // A .gz that is not gzip is an error, not text.
        let path = dir.join("fake.txt.gz");
        std::fs::write(&path, format!("{LEET}\n")).unwrap();
        let input = Input::from_arg(path.to_str().unwrap());
        assert!(input.open(Arc::new(AtomicU64::new(0))).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn format_by_extension() {
        assert_eq!(Input::from_arg("x.csv.gz").format(None), InputFormat::Csv);
        assert_eq!(
            Input::from_arg("x.txt.zst").format(None),
            InputFormat::Detect
        );
        assert_eq!(Input::from_arg("x.CSV").format(None), InputFormat::Csv);
        assert_eq!(Input::from_arg("x.txt").format(None), InputFormat::Detect);
        assert_eq!(Input::from_arg("-").format(None), InputFormat::Detect);
        assert_eq!(
            Input::from_arg("x.csv").format(Some(InputFormat::Line)),
            InputFormat::Line
        );
        assert_eq!(Input::from_arg("-").path, None);
    }
}
