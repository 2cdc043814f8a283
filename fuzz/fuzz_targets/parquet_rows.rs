//! The Parquet writer's row path (`--format parquet`, `src/run/parquet/`) on arbitrary rows.
//!
//! What it covers: rows of a real command's columns (solve, rate, rate --se, explain) or of a
//! set with every column type, each field any of the kinds a command writes — counts up to
//! `u64::MAX`, words, free text of arbitrary UTF-8 (quotes, commas, CR and LF included), bytes
//! that may not be UTF-8, floats with NaN and infinities, booleans, grids, nulls — and now and
//! then a row of the wrong width. The rows go to a [`ParquetSink`] twice: as typed batches
//! through [`RowWriter::columnar`] and the sink's [`RowSender`] (what `solve/rate/explain
//! --format parquet` do), and as CSV text cut into arbitrary pieces through the sink's `Write`
//! (what `verify -o` and `split` do).
//!
//! Why: the writer lays out Parquet pages by hand (`pages.rs`) and parses CSV back
//! incrementally, two places where arbitrary text and values could go wrong without a panic.
//! What must hold: the two routes give the same file byte for byte, or the same error; a field
//! that does not fit its column's type is an error, never a panic, and any other set of rows is
//! a file the `parquet` crate reads back to exactly the values written, nulls included.
#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use sudoku_batch::run::parquet::{kind_of, Compression, Kind, ParquetSink};
use sudoku_batch::run::{Columns, OutputFormat, RowWriter};
use sudoku_batch::Grid;

/// Every column type, each once or more.
static EVERY_KIND: Columns = Columns {
    names: &[
        "line", "puzzle", "status", "rating", "singles", "er", "solve_ns", "class", "error",
    ],
    status: Some(2),
    counted: false,
};

static SETS: [&Columns; 5] = [
    &sudoku_batch::solve::COLUMNS,
    &sudoku_batch::rate::command::COLUMNS,
    &sudoku_batch::explain::command::RATE_COLUMNS,
    &sudoku_batch::explain::command::COLUMNS,
    &EVERY_KIND,
];

const WORDS: [&str; 12] = [
    "solved",
    "invalid",
    "unsolvable",
    "multiple",
    "gave-up",
    "true",
    "false",
    "NaN",
    "-0",
    "12",
    "+5",
    "1e5",
];

/// Reads the fuzzer's bytes; past the end every read is 0.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn take(&mut self, n: usize) -> &[u8] {
        let n = n.min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head
    }

    fn u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        let t = self.take(8);
        b[..t.len()].copy_from_slice(t);
        u64::from_le_bytes(b)
    }

    fn done(&self) -> bool {
        self.0.is_empty()
    }
}

/// One field as a command writes it.
#[derive(Clone, Debug)]
enum Value {
    Null,
    Int(u64),
    Word(&'static str),
    Text(String),
    Float(Option<f64>, usize),
    Number(Option<f64>),
    Bool(Option<bool>),
    /// Bytes that need no CSV quoting (what `RowWriter::cells` takes), UTF-8 or not.
    Cells(Vec<u8>),
    Grid(Grid),
}

impl Value {
    fn read(b: &mut Bytes) -> Value {
        match b.byte() % 9 {
            0 => Value::Null,
            1 => Value::Int(match b.byte() % 3 {
                0 => u64::from(b.byte()),
                1 => b.u64(),
                _ => i64::MAX as u64 + u64::from(b.byte() % 3),
            }),
            2 => Value::Word(WORDS[usize::from(b.byte()) % WORDS.len()]),
            3 => {
                let n = usize::from(b.byte() % 64);
                Value::Text(String::from_utf8_lossy(b.take(n)).into_owned())
            }
            4 => Value::Float(float(b), usize::from(b.byte() % 4)),
            5 => Value::Number(float(b)),
            6 => Value::Bool(match b.byte() % 3 {
                0 => None,
                1 => Some(true),
                _ => Some(false),
            }),
            7 => {
                let n = usize::from(b.byte() % 32);
                let bytes = b
                    .take(n)
                    .iter()
                    .copied()
                    .filter(|c| !matches!(c, b',' | b'"' | b'\n' | b'\r'))
                    .collect();
                Value::Cells(bytes)
            }
            _ => {
                let mut cells = [0u8; 81];
                for c in &mut cells {
                    *c = b.byte() % 10;
                }
                Value::Grid(Grid::from_cells(cells).expect("cells 0..=9 make a grid"))
            }
        }
    }

    fn write(&self, w: &mut RowWriter) {
        match self {
            Value::Null => {
                w.null();
            }
            Value::Int(v) => {
                w.int(*v);
            }
            Value::Word(s) => {
                w.word(s);
            }
            Value::Text(s) => {
                w.text(Some(s));
            }
            Value::Float(v, d) => {
                w.float(*v, *d);
            }
            Value::Number(v) => {
                w.number(*v);
            }
            Value::Bool(v) => {
                w.boolean(*v);
            }
            Value::Cells(c) => {
                w.cells(c);
            }
            Value::Grid(g) => {
                w.grid(Some(g));
            }
        }
    }

    /// The field's bytes as a CSV reader gets them back (empty: null).
    fn text(&self) -> Vec<u8> {
        match self {
            Value::Null => Vec::new(),
            Value::Int(v) => v.to_string().into_bytes(),
            Value::Word(s) => s.as_bytes().to_vec(),
            Value::Text(s) => s.as_bytes().to_vec(),
            Value::Float(Some(v), d) if v.is_finite() => format!("{v:.d$}").into_bytes(),
            Value::Number(Some(v)) if v.is_finite() => format!("{v}").into_bytes(),
            Value::Float(..) | Value::Number(_) | Value::Bool(None) => Vec::new(),
            Value::Bool(Some(b)) => b.to_string().into_bytes(),
            Value::Cells(c) => c.clone(),
            Value::Grid(g) => g.to_line().into_bytes(),
        }
    }
}

fn float(b: &mut Bytes) -> Option<f64> {
    match b.byte() % 6 {
        0 => None,
        1 => Some(f64::NAN),
        2 => Some(f64::INFINITY),
        3 => Some(f64::from(b.byte()) / 10.0),
        _ => Some(f64::from_bits(b.u64())),
    }
}

/// The writer's integer rule: an optional `-`, 1 to 19 digits, within `i64`.
fn int_of(t: &[u8]) -> Option<i64> {
    let (neg, digits) = match t.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, t),
    };
    if digits.is_empty() || digits.len() > 19 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut v: i64 = 0;
    for &d in digits {
        v = v.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
    }
    Some(if neg { -v } else { v })
}

/// What a field of `kind` holding `t` reads back as; `None` when it does not fit the column.
fn expected(kind: Kind, t: &[u8]) -> Option<Field> {
    if t.is_empty() {
        return Some(Field::Null);
    }
    let s = std::str::from_utf8(t).ok();
    match kind {
        Kind::Int => int_of(t).map(Field::Long),
        Kind::Float => s?.parse().ok().map(Field::Double),
        Kind::Bool => match t {
            b"true" => Some(Field::Bool(true)),
            b"false" => Some(Field::Bool(false)),
            _ => None,
        },
        Kind::Text => s.map(|s| Field::Str(s.to_string())),
    }
}

fn same(a: &Field, b: &Field) -> bool {
    match (a, b) {
        (Field::Double(x), Field::Double(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

fn names(cols: &Columns, with_file: bool) -> Vec<String> {
    cols.names
        .iter()
        .map(|n| n.to_string())
        .chain(with_file.then(|| "file".to_string()))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let head = b.byte();
    let cols = SETS[usize::from(head % 5)];
    let with_file = head & 8 != 0;
    let compression = [
        Compression::None,
        Compression::Snappy,
        Compression::Lz4,
        Compression::Zstd,
    ][usize::from(head >> 4) % 4];
    let names = names(cols, with_file);
    let width = names.len();

    // The rows, each with the chunk it goes in (a new chunk when the flag says so).
    let mut rows: Vec<Vec<Value>> = Vec::new();
    let mut chunk_starts = vec![0];
    while !b.done() && rows.len() < 64 {
        let flags = b.byte();
        let n = if flags & 0x70 == 0x70 {
            // Now and then a row of another width (at least the line, as every command writes).
            1 + usize::from(b.byte()) % (width + 2)
        } else {
            width
        };
        let mut row = Vec::with_capacity(n);
        for _ in 0..n {
            row.push(Value::read(&mut b));
        }
        if flags & 1 != 0 && !rows.is_empty() {
            chunk_starts.push(rows.len());
        }
        rows.push(row);
    }
    chunk_starts.push(rows.len());

    // Route 1: typed batches, chunk by chunk.
    let typed = {
        let sink =
            ParquetSink::new(Vec::new(), names.clone(), compression, Some("{}".into())).unwrap();
        let sender = sink.rows();
        for w in chunk_starts.windows(2) {
            let (start, end) = (w[0], w[1]);
            if start == end {
                continue;
            }
            let mut rw = RowWriter::columnar(cols, with_file, end - start);
            for row in &rows[start..end] {
                for v in row {
                    v.write(&mut rw);
                }
                rw.end();
            }
            let (bytes, batch) = rw.finish_rows();
            assert!(bytes.is_empty());
            if !sender.send(batch.unwrap()) {
                break; // stopped: the error comes from finish
            }
        }
        sink.finish().map_err(|e| e.to_string())
    };

    // Route 2: the same rows as CSV, in pieces cut at arbitrary places.
    let csv = {
        let mut rw = RowWriter::new(OutputFormat::Parquet(compression), cols, 0);
        for row in &rows {
            for v in row {
                v.write(&mut rw);
            }
            rw.end();
        }
        let text = rw.finish();
        let mut sink =
            ParquetSink::new(Vec::new(), names.clone(), compression, Some("{}".into())).unwrap();
        let mut at = 0;
        let mut cut = usize::from(head.wrapping_mul(31)) + 1;
        let mut failed = None;
        while at < text.len() {
            let end = text.len().min(at + cut);
            if let Err(e) = sink.write_all(&text[at..end]) {
                failed = Some(e.to_string());
                break;
            }
            at = end;
            cut = cut * 7 % 113 + 1;
        }
        match failed {
            Some(e) => {
                drop(sink);
                Err(e)
            }
            None => sink.finish().map_err(|e| e.to_string()),
        }
    };

    // The same error either way: a row of the wrong width is that error, whatever its fields.
    assert_eq!(
        typed.as_ref().err(),
        csv.as_ref().err(),
        "the two routes disagree on the error"
    );
    let kinds: Vec<Kind> = names.iter().map(|n| kind_of(n)).collect();
    // What the rows must read back as, or that they cannot be written.
    let want: Option<Vec<Vec<Field>>> = rows
        .iter()
        .map(|row| {
            if row.len() != width {
                return None;
            }
            row.iter()
                .zip(&kinds)
                .map(|(v, &k)| expected(k, &v.text()))
                .collect()
        })
        .collect();
    match (typed, csv, want) {
        (Ok(t), Ok(c), Some(want)) => {
            assert!(t == c, "the two routes wrote different files");
            let reader = SerializedFileReader::new(bytes::Bytes::from(t)).expect("a valid file");
            let got: Vec<Vec<Field>> = reader
                .get_row_iter(None)
                .expect("rows")
                .map(|r| {
                    r.expect("a readable row")
                        .get_column_iter()
                        .map(|(_, f)| f.clone())
                        .collect()
                })
                .collect();
            assert_eq!(got.len(), want.len(), "row count");
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g.len(), w.len(), "row {i} width");
                for (j, (x, y)) in g.iter().zip(w).enumerate() {
                    assert!(same(x, y), "row {i} column {j}: read {x:?}, wrote {y:?}");
                }
            }
        }
        (Err(_), Err(_), None) => {}
        (t, c, want) => panic!(
            "typed ok {}, csv ok {}, rows fit {}",
            t.is_ok(),
            c.is_ok(),
            want.is_some()
        ),
    }
});
