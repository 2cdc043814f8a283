//! Input: where puzzles come from (files or stdin) and the three formats they come in (line,
//! block, CSV), read as a stream of [`Record`]s.
//!
//! Everything here streams with bounded buffers. Lines are read by [`LineReader`], which keeps at
//! most [`MAX_LINE`] bytes of any line and skips the rest, so a multi-megabyte line with no
//! newline costs no more memory than a normal one and still produces exactly one `invalid` record.
//! Every non-blank, non-comment line (or block, or CSV row) yields exactly one record: either a
//! grid or the reason it is not one, with the 1-based line where it starts, so nothing a user fed
//! in can silently disappear.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::grid::{cell_value, Grid, ParseError};

/// The most bytes of one line that are kept; the rest of a longer line is read and dropped.
pub const MAX_LINE: usize = 64 * 1024;

const READ_BUFFER: usize = 256 * 1024;

/// The input formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// One puzzle per line: 81 cells, then optionally a separator and anything.
    Line,
    /// 9 rows of 9 cells, puzzles separated by blank lines or simply following each other.
    Block,
    /// CSV with a header row; the puzzle is one column.
    Csv,
}

/// One puzzle as read: where it starts and what it is.
#[derive(Clone, Debug)]
pub struct Record {
    /// 1-based line number in its input where the puzzle starts.
    pub line: u64,
    /// The grid, or why the text is not one. Rule conflicts are not checked yet.
    pub puzzle: Result<Grid, ParseError>,
}

/// A buffered byte source: a file or stdin behind a byte counter.
pub type Source = BufReader<Box<dyn Read + Send>>;

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

    /// The format to read this input in: `explicit` when given, else CSV for a `.csv` file,
    /// else lines.
    pub fn format(&self, explicit: Option<InputFormat>) -> InputFormat {
        explicit.unwrap_or_else(|| match &self.path {
            Some(p) if has_extension(&without_compression(p), "csv") => InputFormat::Csv,
            _ => InputFormat::Line,
        })
    }

    /// The size in bytes when it is a regular file (for a progress bar with an ETA).
    pub fn size(&self) -> Option<u64> {
        let meta = std::fs::metadata(self.path.as_ref()?).ok()?;
        meta.is_file().then_some(meta.len())
    }

    /// Opens the input for buffered reading. Every byte read is added to `counter`.
    ///
    /// Gzip (concatenated members too) and zstd (concatenated frames too) are decompressed on
    /// the fly, recognised by their magic bytes — on stdin as well — or, failing that, by a
    /// `.gz` / `.zst` extension (so a damaged file is reported as such, not read as text).
    pub fn open(&self, counter: Arc<AtomicU64>) -> io::Result<Source> {
        let (raw, by_name): (Box<dyn Read + Send>, Compression) = match &self.path {
            None => (Box::new(io::stdin()), Compression::None),
            Some(p) => {
                let f = File::open(p)?;
                if f.metadata()?.is_dir() {
                    return Err(io::Error::other("is a directory"));
                }
                (Box::new(f), Compression::by_extension(p))
            }
        };
        let counted: Box<dyn Read + Send> = Box::new(Counted {
            inner: raw,
            counter,
        });
        let (by_magic, stream) = sniff(counted)?;
        let text: Box<dyn Read + Send> = match by_magic.or(by_name) {
            Compression::None => stream,
            Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(stream)),
            Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(stream)?),
        };
        Ok(BufReader::with_capacity(READ_BUFFER, text))
    }
}

/// How an input is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    fn by_extension(p: &Path) -> Compression {
        if has_extension(p, "gz") {
            Compression::Gzip
        } else if has_extension(p, "zst") {
            Compression::Zstd
        } else {
            Compression::None
        }
    }

    /// This, unless it is `None`, else `other`.
    fn or(self, other: Compression) -> Compression {
        if self == Compression::None {
            other
        } else {
            self
        }
    }
}

/// Reads the first bytes of a stream to recognise gzip or zstd, and hands back a stream that
/// still starts with them.
fn sniff(mut r: Box<dyn Read + Send>) -> io::Result<(Compression, Box<dyn Read + Send>)> {
    let mut head = [0u8; 4];
    let mut n = 0;
    while n < head.len() {
        match r.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let kind = match &head[..n] {
        [0x1f, 0x8b, ..] => Compression::Gzip,
        [0x28, 0xb5, 0x2f, 0xfd] => Compression::Zstd,
        _ => Compression::None,
    };
    Ok((kind, Box::new(io::Cursor::new(head[..n].to_vec()).chain(r))))
}

/// The path without a `.gz` or `.zst` extension (`a.csv.gz` → `a.csv`).
fn without_compression(p: &Path) -> PathBuf {
    if Compression::by_extension(p) == Compression::None {
        p.to_path_buf()
    } else {
        p.with_extension("")
    }
}

fn has_extension(p: &Path, ext: &str) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// A reader that adds the bytes it reads to a shared counter (for the progress bar).
struct Counted<R> {
    inner: R,
    counter: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// One line as read.
pub struct Line<'a> {
    /// 1-based line number.
    pub number: u64,
    /// Whether the line was longer than [`MAX_LINE`] and cut there.
    pub truncated: bool,
    /// The kept bytes, without the line ending.
    pub text: &'a [u8],
}

/// Reads lines with a bounded buffer: CR before LF is dropped, a UTF-8 BOM at the very start is
/// dropped, and at most [`MAX_LINE`] bytes of a line are kept.
pub struct LineReader {
    inner: Source,
    buf: Vec<u8>,
    line: u64,
    truncated: bool,
}

impl LineReader {
    pub fn new(inner: Source) -> Self {
        LineReader {
            inner,
            buf: Vec::with_capacity(256),
            line: 0,
            truncated: false,
        }
    }

    /// The next line, without its line ending, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.buf.clear();
        self.truncated = false;
        let mut any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            let room = MAX_LINE - self.buf.len();
            if take > room {
                self.truncated = true;
            }
            self.buf.extend_from_slice(&chunk[..take.min(room)]);
            self.inner.consume(if done { take + 1 } else { take });
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line += 1;
        if self.line == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.buf.drain(..3);
        }
        if !self.truncated && self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Ok(Some(Line {
            number: self.line,
            truncated: self.truncated,
            text: &self.buf,
        }))
    }

    /// The 1-based number of the line last returned.
    pub fn line_number(&self) -> u64 {
        self.line
    }

    /// Whether the next line can be read without waiting on the source (for flushing partial
    /// chunks when the input is interactive).
    pub fn has_buffered(&self) -> bool {
        !self.inner.buffer().is_empty()
    }
}

/// Whether a line is blank or a comment (no record).
fn is_skippable(line: &[u8]) -> bool {
    match line.iter().find(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(&b) => b == b'#',
    }
}

/// A stream of records in one of the formats.
pub trait Records: Send {
    /// The next record, `None` at the end of the input.
    fn next_record(&mut self) -> io::Result<Option<Record>>;
    /// The line the reader has reached (for error messages).
    fn line_number(&self) -> u64;
    /// Whether the next record may have to wait for the source (so a partial chunk should be
    /// sent on now, which keeps interactive use responsive). `false` when unknown.
    fn would_wait(&self) -> bool {
        false
    }
}

/// Records for `format` from `reader`. For CSV this reads the header and picks the puzzle column
/// (`column`, or the first of `quizzes`, `puzzle`, `puzzles`); an error names what was missing.
pub fn records(
    reader: Source,
    format: InputFormat,
    column: Option<&str>,
) -> Result<Box<dyn Records>, String> {
    Ok(match format {
        InputFormat::Line => Box::new(LineRecords {
            lines: LineReader::new(reader),
        }),
        InputFormat::Block => Box::new(BlockRecords {
            lines: LineReader::new(reader),
        }),
        InputFormat::Csv => Box::new(CsvRecords::new(reader, column)?),
    })
}

struct LineRecords {
    lines: LineReader,
}

impl Records for LineRecords {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        loop {
            let Some(line) = self.lines.next_line()? else {
                return Ok(None);
            };
            if is_skippable(line.text) {
                continue;
            }
            let puzzle = match Grid::parse_line(line.text) {
                Err(ParseError::WrongCellCount { .. }) if line.truncated => {
                    Err(ParseError::LineTooLong { kept: MAX_LINE })
                }
                r => r,
            };
            return Ok(Some(Record {
                line: line.number,
                puzzle,
            }));
        }
    }

    fn line_number(&self) -> u64 {
        self.lines.line_number()
    }

    fn would_wait(&self) -> bool {
        !self.lines.has_buffered()
    }
}

struct BlockRecords {
    lines: LineReader,
}

/// Whether a line only draws the grid (`---+---+---`, `|`, `=`), with no cells on it.
fn is_rule_line(line: &[u8]) -> bool {
    line.iter()
        .all(|b| matches!(b, b'-' | b'+' | b'=' | b'|') || b.is_ascii_whitespace())
}

impl Records for BlockRecords {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
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

/// The columns tried, in order, when `--column` is not given.
pub const DEFAULT_COLUMNS: [&str; 3] = ["quizzes", "puzzle", "puzzles"];

struct CsvRecords {
    rdr: csv::Reader<Source>,
    column: usize,
    name: String,
    record: csv::ByteRecord,
    line: u64,
}

impl CsvRecords {
    fn new(reader: Source, column: Option<&str>) -> Result<CsvRecords, String> {
        let mut rdr = csv::ReaderBuilder::new()
            .flexible(true)
            .comment(Some(b'#'))
            .from_reader(reader);
        let headers = rdr
            .byte_headers()
            .map_err(|e| format!("cannot read the CSV header: {e}"))?
            .clone();
        let names: Vec<String> = headers
            .iter()
            .map(|h| String::from_utf8_lossy(h).trim().to_string())
            .collect();
        let wanted: Vec<&str> = match column {
            Some(c) => vec![c],
            None => DEFAULT_COLUMNS.to_vec(),
        };
        let found = wanted
            .iter()
            .find_map(|w| names.iter().position(|n| n == w).map(|i| (i, *w)));
        let Some((index, name)) = found else {
            return Err(format!(
                "no column named {} in the CSV header (columns: {}); choose one with --column",
                wanted
                    .iter()
                    .map(|w| format!("'{w}'"))
                    .collect::<Vec<_>>()
                    .join(" or "),
                names.join(", ")
            ));
        };
        Ok(CsvRecords {
            rdr,
            column: index,
            name: name.to_string(),
            record: csv::ByteRecord::new(),
            line: 1,
        })
    }
}

impl Records for CsvRecords {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        match self.rdr.read_byte_record(&mut self.record) {
            Ok(false) => Ok(None),
            Ok(true) => {
                // The csv crate counts lines by LF only, so in a file ending its lines with a
                // lone CR every record would claim the header's line. Rows must have strictly
                // increasing numbers (resume relies on it): count such a record as the next line.
                let reported = self.record.position().map_or(0, |p| p.line());
                self.line = reported.max(self.line + 1);
                let puzzle = match self.record.get(self.column) {
                    Some(field) => Grid::parse_cells(field),
                    None => Err(ParseError::Other(format!(
                        "this row has no '{}' field",
                        self.name
                    ))),
                };
                Ok(Some(Record {
                    line: self.line,
                    puzzle,
                }))
            }
            Err(e) => match e.into_kind() {
                csv::ErrorKind::Io(e) => Err(e),
                kind => {
                    // A malformed row: report it as one invalid record and go on.
                    self.line += 1;
                    Ok(Some(Record {
                        line: self.line,
                        puzzle: Err(ParseError::Other(format!("bad CSV row: {kind:?}"))),
                    }))
                }
            },
        }
    }

    fn line_number(&self) -> u64 {
        self.line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::LEET;

    fn source(bytes: Vec<u8>) -> Source {
        BufReader::new(Box::new(io::Cursor::new(bytes)))
    }

    fn read_all(bytes: Vec<u8>, format: InputFormat, column: Option<&str>) -> Vec<Record> {
        let reader = source(bytes);
        let mut recs = records(reader, format, column).unwrap();
        let mut out = Vec::new();
        while let Some(r) = recs.next_record().unwrap() {
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
            while let Some(r) = recs.next_record().unwrap() {
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
        let src = input.open(Arc::new(AtomicU64::new(0))).unwrap();
        let mut recs = records(src, InputFormat::Line, None).unwrap();
        assert!(recs.next_record().is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn format_by_extension() {
        assert_eq!(Input::from_arg("x.csv.gz").format(None), InputFormat::Csv);
        assert_eq!(Input::from_arg("x.txt.zst").format(None), InputFormat::Line);
        assert_eq!(Input::from_arg("x.CSV").format(None), InputFormat::Csv);
        assert_eq!(Input::from_arg("x.txt").format(None), InputFormat::Line);
        assert_eq!(Input::from_arg("-").format(None), InputFormat::Line);
        assert_eq!(
            Input::from_arg("x.csv").format(Some(InputFormat::Line)),
            InputFormat::Line
        );
        assert_eq!(Input::from_arg("-").path, None);
    }
}
