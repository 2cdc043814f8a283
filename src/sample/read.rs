//! Reading `sample`'s inputs: tables of rated rows (CSV, JSON lines, Parquet) whose fields are
//! written back unchanged, or plain puzzle files (any format the other commands read) whose
//! values are computed on the fly.
//!
//! An input is opened, and its kind and columns decided, before the run starts, so that inputs
//! that do not fit together are refused before anything is read (stdin is opened once, and the
//! opened reader is what the run reads). The reader thread hands rows to the workers as cheaply
//! as it can: a CSV record as its bytes, a JSON line as its text (parsed by the worker), a
//! Parquet row as its fields. A worker turns an item into a decision ([`Decode::judge`]) and
//! builds the row's values only for a row that may be kept.
//!
//! A table's `band` column (a sample's own output, sampled again) is dropped on reading and
//! written anew, so a sample of samples has the columns of a sample.

use std::collections::HashMap;
use std::io::{self, BufRead};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::reader::RowIter;
use parquet::record::Field;

use super::json::object_fields;
use super::judge::{self, Bands, By, Judged, Skip};
use super::Value;
use crate::grid::{Grid, ParseError};
use crate::input::{self, is_skippable, Input, InputFormat, LineReader, Record, Records, Table};

/// The column `sample` adds (and drops from its inputs).
pub const BAND: &str = "band";

/// An input's format (`--input-format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Plain puzzles, one per line.
    Line,
    /// Plain puzzles as 9×9 blocks.
    Block,
    /// Plain puzzles as JSON boards.
    Json,
    /// CSV with a header: rated rows when the `--by` column is there, else puzzles.
    Csv,
    /// JSON lines of rated rows (one object per line).
    Jsonl,
    /// A Parquet file of rated rows.
    Parquet,
}

/// One row as the reader hands it over.
pub struct Item {
    /// The 1-based line where it starts (a Parquet file's row number).
    pub line: u64,
    pub body: Body,
}

pub enum Body {
    Csv(csv::ByteRecord),
    /// A JSON line, parsed by the worker.
    Json(Vec<u8>),
    /// A Parquet row's fields, in the output's column order.
    Values(Vec<Value>),
    /// A row that could not be read.
    Bad,
    /// A puzzle of a plain puzzle file.
    Puzzle(Record),
}

/// Where the fields a row is judged on lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub puzzle: usize,
    pub value: usize,
    pub status: Option<usize>,
}

/// How a worker reads one input's items.
#[derive(Clone, Debug)]
pub enum Decode {
    /// CSV records: `at` indexes the record's fields, `keep` the fields written, in order.
    Csv { at: Layout, keep: Vec<usize> },
    /// JSON lines: each field goes to the column of its name; `at` indexes the columns.
    Json {
        names: HashMap<String, usize>,
        at: Layout,
    },
    /// Parquet rows, already in column order.
    Values { at: Layout },
    /// Plain puzzles: the value is computed.
    Puzzles,
}

/// What a row that may be kept still needs to be written.
pub enum Pending {
    Csv(csv::ByteRecord),
    Values(Vec<Value>),
    Puzzle,
}

impl Decode {
    /// The row's band and priority, or why it has none.
    pub fn judge(&self, bands: &Bands, seed: u64, body: Body) -> Result<(Judged, Pending), Skip> {
        let field = |values: &[Value], i: usize| -> Vec<u8> {
            values
                .get(i)
                .and_then(Value::text)
                .map(|s| s.as_bytes().to_vec())
                .unwrap_or_default()
        };
        let rated = |values: &[Value], at: &Layout| {
            judge::rated(
                bands,
                seed,
                at.status.map(|s| field(values, s)).as_deref(),
                &field(values, at.value),
                &field(values, at.puzzle),
            )
        };
        match (self, body) {
            (_, Body::Bad) => Err(Skip::BadRow),
            (Decode::Csv { at, .. }, Body::Csv(rec)) => {
                if std::str::from_utf8(rec.as_slice()).is_err() {
                    return Err(Skip::BadRow);
                }
                let get = |i: usize| rec.get(i).unwrap_or_default();
                let j = judge::rated(
                    bands,
                    seed,
                    at.status.map(get),
                    get(at.value),
                    get(at.puzzle),
                )?;
                Ok((j, Pending::Csv(rec)))
            }
            (Decode::Json { names, at }, Body::Json(line)) => {
                let values = json_row(&line, names).ok_or(Skip::BadRow)?;
                let j = rated(&values, at)?;
                Ok((j, Pending::Values(values)))
            }
            (Decode::Values { at }, Body::Values(values)) => {
                let j = rated(&values, at)?;
                Ok((j, Pending::Values(values)))
            }
            (Decode::Puzzles, Body::Puzzle(rec)) => {
                let j = judge::computed(bands, seed, &rec.puzzle, rec.candidates.is_some())?;
                Ok((j, Pending::Puzzle))
            }
            _ => Err(Skip::BadRow),
        }
    }

    /// The values a row that may be kept writes.
    pub fn row(&self, pending: Pending) -> super::reservoir::Row {
        use super::reservoir::Row;
        match (self, pending) {
            (Decode::Csv { keep, .. }, Pending::Csv(rec)) => Row::Fields(
                keep.iter()
                    .map(|&i| match rec.get(i) {
                        None | Some(b"") => Value::Null,
                        Some(b) => Value::Text(String::from_utf8_lossy(b).into_owned()),
                    })
                    .collect(),
            ),
            (_, Pending::Values(v)) => Row::Fields(v),
            _ => Row::Puzzle,
        }
    }
}

/// The inputs named on a command line (none: stdin), checked as the other commands check them;
/// a Parquet file is binary, so it is only checked to be there.
pub fn inputs(args: &[String]) -> Result<Vec<Input>, String> {
    if args.is_empty() {
        return Input::all_from_args(args);
    }
    let mut out = Vec::with_capacity(args.len());
    for arg in args {
        let input = Input::from_arg(arg);
        match &input.path {
            Some(p) if is_parquet(p) => match std::fs::metadata(p) {
                Ok(m) if m.is_dir() => {
                    return Err(format!("cannot read {arg}: it is a folder"));
                }
                Ok(_) => out.push(input),
                Err(e) => return Err(format!("cannot read {arg}: {}", input::io_reason(&e))),
            },
            _ => out.extend(Input::all_from_args(std::slice::from_ref(arg))?),
        }
    }
    Ok(out)
}

/// A Parquet file: named `.parquet`, or starting with Parquet's magic bytes.
pub fn is_parquet(path: &Path) -> bool {
    if has_extension(path, "parquet") {
        return true;
    }
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| io::Read::read_exact(&mut f, &mut head))
        .is_ok_and(|()| &head == b"PAR1")
}

fn has_extension(p: &Path, ext: &str) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// The name without a `.gz` / `.zst` ending.
fn inner_name(p: &Path) -> PathBuf {
    if has_extension(p, "gz") || has_extension(p, "zst") {
        p.with_extension("")
    } else {
        p.to_path_buf()
    }
}

/// An input, opened.
pub struct Opened {
    /// A table's columns as written (its `band` column dropped); `None` for plain puzzles.
    pub columns: Option<Vec<String>>,
    pub decode: Decode,
    pub reader: Reader,
}

/// What the reader thread reads.
pub enum Reader {
    Stream(Box<dyn Records<Item>>),
    /// A Parquet file, opened on the reader thread (its row reader stays there).
    Parquet {
        path: PathBuf,
        band: Option<usize>,
        bytes: u64,
    },
}

/// Opens `input` and decides what it holds: rated rows with the `--by` column, or puzzles.
/// `counter` counts the bytes read (for the progress bar). An error is a message for the user.
pub fn open(
    input: &Input,
    format: Option<Format>,
    column: Option<&str>,
    by: By,
    counter: Arc<AtomicU64>,
) -> Result<Opened, String> {
    let parquet = match (format, &input.path) {
        (Some(f), _) => f == Format::Parquet,
        (None, Some(p)) => is_parquet(p),
        (None, None) => false,
    };
    if parquet {
        return open_parquet(input, column, by);
    }
    let mut source = input.open(counter).map_err(|e| input::io_reason(&e))?;
    let format = match format {
        Some(f) => f,
        None => {
            let name = input.path.as_deref().map(inner_name);
            match name {
                Some(n) if has_extension(&n, "csv") => Format::Csv,
                Some(n) if has_extension(&n, "jsonl") || has_extension(&n, "ndjson") => {
                    Format::Jsonl
                }
                _ if starts_with_object(source.fill_buf().map_err(|e| e.to_string())?) => {
                    Format::Jsonl
                }
                // A CSV header naming the value's column: rows piped in (`rate … | sample`).
                _ if is_header_with(source.fill_buf().map_err(|e| e.to_string())?, by) => {
                    Format::Csv
                }
                _ => {
                    // Lines, blocks or JSON boards, told from the first line as everywhere.
                    let records = input::records(source, InputFormat::Detect, column)?;
                    return Ok(puzzles(records));
                }
            }
        }
    };
    let plain = |f: InputFormat, source| input::records(source, f, column).map(puzzles);
    match format {
        Format::Line => plain(InputFormat::Line, source),
        Format::Block => plain(InputFormat::Block, source),
        Format::Json => plain(InputFormat::Json, source),
        Format::Csv => open_csv(Table::new(source)?, column, by),
        Format::Jsonl => open_jsonl(LineReader::new(source), column, by),
        Format::Parquet => open_parquet(input, column, by),
    }
}

/// Whether the first line that is not blank or a `#` comment starts a JSON object.
fn starts_with_object(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    head.split(|&b| b == b'\n')
        .find(|l| !is_skippable(l))
        .and_then(|l| l.iter().find(|b| !b.is_ascii_whitespace()))
        == Some(&b'{')
}

/// Whether the first line that is not blank or a `#` comment is a CSV header with the `--by`
/// column among its fields.
fn is_header_with(head: &[u8], by: By) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    head.split(|&b| b == b'\n')
        .find(|l| !is_skippable(l))
        .is_some_and(|l| {
            l.split(|&b| b == b',')
                .any(|f| f.trim_ascii() == by.column().as_bytes())
        })
}

fn puzzles(records: Box<dyn Records<Record>>) -> Opened {
    Opened {
        columns: None,
        decode: Decode::Puzzles,
        reader: Reader::Stream(Box::new(Puzzles(records))),
    }
}

/// The layout of a table with columns `names`, or why it cannot be sampled `by`.
fn layout(names: &[String], column: Option<&str>, by: By) -> Result<Option<Layout>, String> {
    let find = |n: &str| names.iter().position(|c| c == n);
    let Some(value) = find(by.column()) else {
        return Ok(None);
    };
    let wanted: Vec<&str> = match column {
        Some(c) => vec![c],
        None => input::DEFAULT_COLUMNS.to_vec(),
    };
    let puzzle = wanted.iter().find_map(|w| find(w)).ok_or_else(|| {
        format!(
            "no puzzle column named {} (columns: {}); choose one with --column",
            wanted
                .iter()
                .map(|w| format!("'{w}'"))
                .collect::<Vec<_>>()
                .join(" or "),
            names.join(", ")
        )
    })?;
    Ok(Some(Layout {
        puzzle,
        value,
        status: find("status"),
    }))
}

/// The error of a table of rows without the `--by` column.
fn no_value_column(names: &[String], by: By) -> String {
    let rate = if by.se() { "rate --se" } else { "rate" };
    format!(
        "no '{}' column (columns: {}): sample a file that `sudoku-batch {rate}` wrote, or the \
         puzzles themselves (then the values are computed)",
        by.column(),
        names.join(", ")
    )
}

/// The written columns of a table (its `band` dropped) and the indices they come from.
fn kept_columns(names: &[String]) -> (Vec<String>, Vec<usize>) {
    let band = names.iter().position(|n| n == BAND);
    let keep: Vec<usize> = (0..names.len()).filter(|&i| Some(i) != band).collect();
    (keep.iter().map(|&i| names[i].clone()).collect(), keep)
}

/// `at` for the columns after `band` is dropped.
fn without_band(at: Layout, names: &[String]) -> Layout {
    let band = names.iter().position(|n| n == BAND);
    let shift = |i: usize| {
        if band.is_some_and(|b| b < i) {
            i - 1
        } else {
            i
        }
    };
    Layout {
        puzzle: shift(at.puzzle),
        value: shift(at.value),
        status: at.status.map(shift),
    }
}

fn open_csv(table: Table, column: Option<&str>, by: By) -> Result<Opened, String> {
    let names = table.names.clone();
    match layout(&names, column, by)? {
        Some(at) => {
            let (columns, keep) = kept_columns(&names);
            Ok(Opened {
                columns: Some(columns),
                decode: Decode::Csv { at, keep },
                reader: Reader::Stream(Box::new(CsvRows(table))),
            })
        }
        // A table of rows another command wrote, without the value: not puzzles to rate.
        None if names.iter().any(|n| n == "status") => Err(no_value_column(&names, by)),
        None => {
            let index = table.column(column, &input::DEFAULT_COLUMNS, "", "--column")?;
            let name = names[index].clone();
            Ok(Opened {
                columns: None,
                decode: Decode::Puzzles,
                reader: Reader::Stream(Box::new(CsvPuzzles { table, index, name })),
            })
        }
    }
}

fn open_jsonl(mut lines: LineReader, column: Option<&str>, by: By) -> Result<Opened, String> {
    let first = loop {
        match lines.next_line().map_err(|e| e.to_string())? {
            None => return Err("no rows: an empty JSON lines file has no columns".into()),
            Some(l) if is_skippable(l.text) => continue,
            Some(l) => break (l.number, l.text.to_vec()),
        }
    };
    let fields = object_fields(&first.1).map_err(|e| format!("line {}: {e}", first.0))?;
    let names: Vec<String> = fields.into_iter().map(|(k, _)| k).collect();
    let at = layout(&names, column, by)?.ok_or_else(|| no_value_column(&names, by))?;
    let (columns, _) = kept_columns(&names);
    let index = columns
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i))
        .collect();
    Ok(Opened {
        columns: Some(columns),
        decode: Decode::Json {
            names: index,
            at: without_band(at, &names),
        },
        reader: Reader::Stream(Box::new(JsonRows {
            lines,
            first: Some(Item {
                line: first.0,
                body: Body::Json(first.1),
            }),
        })),
    })
}

fn open_parquet(input: &Input, column: Option<&str>, by: By) -> Result<Opened, String> {
    let Some(path) = &input.path else {
        return Err(
            "Parquet cannot be read from stdin (a reader needs its footer first): name \
                    the file"
                .into(),
        );
    };
    let reader = parquet_reader(path)?;
    let names: Vec<String> = reader
        .metadata()
        .file_metadata()
        .schema()
        .get_fields()
        .iter()
        .map(|f| f.name().to_string())
        .collect();
    let at = layout(&names, column, by)?.ok_or_else(|| no_value_column(&names, by))?;
    let (columns, _) = kept_columns(&names);
    Ok(Opened {
        columns: Some(columns),
        decode: Decode::Values {
            at: without_band(at, &names),
        },
        reader: Reader::Parquet {
            path: path.clone(),
            band: names.iter().position(|n| n == BAND),
            bytes: input.size().unwrap_or(0),
        },
    })
}

fn parquet_reader(path: &Path) -> Result<SerializedFileReader<std::fs::File>, String> {
    let file = std::fs::File::open(path).map_err(|e| input::io_reason(&e))?;
    SerializedFileReader::new(file).map_err(|e| format!("not a readable Parquet file: {e}"))
}

/// A source of items on the reader thread.
pub trait Rows {
    fn next(&mut self) -> io::Result<Option<Item>>;
    /// The line reading has reached (for error messages).
    fn line_number(&self) -> u64;
}

impl Rows for Box<dyn Records<Item>> {
    fn next(&mut self) -> io::Result<Option<Item>> {
        Records::next(self.as_mut())
    }

    fn line_number(&self) -> u64 {
        Records::line_number(self.as_ref())
    }
}

/// The rows of a Parquet file, read on the reader thread; `counter` advances by the file's size
/// in proportion to the rows read.
pub struct ParquetRows {
    rows: RowIter<'static>,
    band: Option<usize>,
    line: u64,
    total: u64,
    bytes: u64,
    counted: u64,
    counter: Arc<AtomicU64>,
}

impl ParquetRows {
    pub fn open(
        path: &Path,
        band: Option<usize>,
        bytes: u64,
        counter: Arc<AtomicU64>,
    ) -> Result<ParquetRows, String> {
        let reader = parquet_reader(path)?;
        let total = reader.metadata().file_metadata().num_rows().max(0) as u64;
        Ok(ParquetRows {
            rows: RowIter::from_file_into(Box::new(reader)),
            band,
            line: 0,
            total,
            bytes,
            counted: 0,
            counter,
        })
    }
}

impl Rows for ParquetRows {
    fn next(&mut self) -> io::Result<Option<Item>> {
        let row = match self.rows.next() {
            None => return Ok(None),
            Some(Err(e)) => return Err(io::Error::other(e.to_string())),
            Some(Ok(row)) => row,
        };
        self.line += 1;
        let share = u128::from(self.bytes) * u128::from(self.line.min(self.total));
        if let Some(reached) = share.checked_div(u128::from(self.total)) {
            let reached = u64::try_from(reached).unwrap_or(self.bytes);
            self.counter
                .fetch_add(reached.saturating_sub(self.counted), Ordering::Relaxed);
            self.counted = reached;
        }
        let values = row
            .get_column_iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != self.band)
            .map(|(_, (name, field))| parquet_value(name, field))
            .collect();
        Ok(Some(Item {
            line: self.line,
            body: Body::Values(values),
        }))
    }

    fn line_number(&self) -> u64 {
        self.line
    }
}

/// A Parquet field as the CSV of the same rows writes it: numbers in the writer's forms
/// (Sudoku Explainer's ratings with one decimal, other doubles in their shortest form), text as
/// it is.
fn parquet_value(name: &str, field: &Field) -> Value {
    match field {
        Field::Null => Value::Null,
        Field::Str(s) => Value::Text(s.clone()),
        Field::Bytes(b) => Value::Text(String::from_utf8_lossy(b.data()).into_owned()),
        Field::Double(d) => {
            let one = format!("{d:.1}");
            let se = matches!(name, "er" | "ep" | "ed");
            Value::Text(if se && one.parse::<f64>().ok() == Some(*d) {
                one
            } else {
                format!("{d}")
            })
        }
        Field::Float(f) => Value::Text(format!("{f}")),
        other => Value::Text(other.to_string()),
    }
}

struct Puzzles(Box<dyn Records<Record>>);

impl Records<Item> for Puzzles {
    fn next(&mut self) -> io::Result<Option<Item>> {
        Ok(self.0.next()?.map(|rec| Item {
            line: rec.line,
            body: Body::Puzzle(rec),
        }))
    }

    fn line_number(&self) -> u64 {
        self.0.line_number()
    }
}

/// The puzzles of a CSV file without the `--by` column (what `rate` reads from it).
struct CsvPuzzles {
    table: Table,
    index: usize,
    name: String,
}

impl Records<Item> for CsvPuzzles {
    fn next(&mut self) -> io::Result<Option<Item>> {
        let Some(row) = self.table.next_row()? else {
            return Ok(None);
        };
        let puzzle = match row.fields {
            Ok(rec) => match rec.get(self.index) {
                Some(field) => Grid::parse_cells(field),
                None => Err(ParseError::Other(format!(
                    "this row has no '{}' field",
                    self.name
                ))),
            },
            Err(msg) => Err(ParseError::Other(msg)),
        };
        Ok(Some(Item {
            line: row.line,
            body: Body::Puzzle(Record {
                line: row.line,
                puzzle,
                candidates: None,
            }),
        }))
    }

    fn line_number(&self) -> u64 {
        self.table.line_number()
    }
}

struct CsvRows(Table);

impl Records<Item> for CsvRows {
    fn next(&mut self) -> io::Result<Option<Item>> {
        let Some(row) = self.0.next_row()? else {
            return Ok(None);
        };
        Ok(Some(Item {
            line: row.line,
            body: match row.fields {
                Ok(rec) => Body::Csv(rec.clone()),
                Err(_) => Body::Bad,
            },
        }))
    }

    fn line_number(&self) -> u64 {
        self.0.line_number()
    }
}

struct JsonRows {
    lines: LineReader,
    first: Option<Item>,
}

impl Records<Item> for JsonRows {
    fn next(&mut self) -> io::Result<Option<Item>> {
        if let Some(first) = self.first.take() {
            return Ok(Some(first));
        }
        loop {
            let Some(line) = self.lines.next_line()? else {
                return Ok(None);
            };
            if is_skippable(line.text) {
                continue;
            }
            return Ok(Some(Item {
                line: line.number,
                body: if line.truncated {
                    Body::Bad
                } else {
                    Body::Json(line.text.to_vec())
                },
            }));
        }
    }

    fn line_number(&self) -> u64 {
        self.lines.line_number()
    }
}

/// A JSON line's fields in column order (`names`: column of each name; `band` is dropped), or
/// `None` when it is not an object of those columns. A column the line lacks is null.
fn json_row(line: &[u8], names: &HashMap<String, usize>) -> Option<Vec<Value>> {
    let mut values = vec![Value::Null; names.len()];
    for (key, value) in object_fields(line).ok()? {
        match names.get(&key) {
            Some(&i) => values[i] = value,
            None if key == BAND => {}
            None => return None,
        }
    }
    Some(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_and_objects_are_told_from_the_first_line() {
        let rated = b"# rows\nline,puzzle,status,er\n1,x,solved,2.0\n";
        assert!(is_header_with(rated, By::Er));
        assert!(!is_header_with(rated, By::Rating));
        assert!(!is_header_with(b"53..7....6..195\n", By::Er));
        assert!(starts_with_object(b"\n  {\"line\":1}\n"));
        assert!(!starts_with_object(b"[[\"5\"]]\n"));
    }

    #[test]
    fn json_rows_go_to_their_columns() {
        let names: HashMap<String, usize> = [("a".to_string(), 0), ("b".to_string(), 1)]
            .into_iter()
            .collect();
        assert_eq!(
            json_row(br#"{"b":"x","band":"<1","a":1}"#, &names),
            Some(vec![Value::Json("1".into()), Value::Text("x".into())])
        );
        assert_eq!(
            json_row(br#"{"a":1}"#, &names),
            Some(vec![Value::Json("1".into()), Value::Null])
        );
        assert_eq!(json_row(br#"{"c":1}"#, &names), None);
    }

    #[test]
    fn parquet_values_read_as_the_csv_writes_them() {
        assert_eq!(
            parquet_value("er", &Field::Double(9.0)),
            Value::Text("9.0".into())
        );
        assert_eq!(
            parquet_value("rating", &Field::Double(2.0)),
            Value::Text("2".into())
        );
        assert_eq!(
            parquet_value("rating", &Field::Double(57.375)),
            Value::Text("57.375".into())
        );
        assert_eq!(
            parquet_value("line", &Field::Long(12)),
            Value::Text("12".into())
        );
        assert_eq!(
            parquet_value("singles", &Field::Bool(true)),
            Value::Text("true".into())
        );
        assert_eq!(parquet_value("x", &Field::Null), Value::Null);
    }

    #[test]
    fn band_columns_are_dropped() {
        let names: Vec<String> = ["line", "band", "puzzle", "er"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (columns, keep) = kept_columns(&names);
        assert_eq!(columns, ["line", "puzzle", "er"]);
        assert_eq!(keep, [0, 2, 3]);
        let at = layout(&names, None, By::Er).unwrap().unwrap();
        assert_eq!(
            without_band(at, &names),
            Layout {
                puzzle: 1,
                value: 2,
                status: None
            }
        );
        assert_eq!(layout(&names, None, By::Rating).unwrap(), None);
        assert!(layout(&names, Some("quizzes"), By::Er).is_err());
    }
}
