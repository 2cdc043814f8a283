//! Parquet output (`--format parquet -o FILE`): the rows every command formats as CSV, turned
//! into typed Parquet columns on their way to the file.
//!
//! Why a transcoder and not a second row writer: every command already writes its rows through
//! [`RowWriter`](super::RowWriter) as CSV, in input order, through one `Write`. A [`ParquetSink`]
//! is that `Write`: it parses the CSV stream back (csv-core, incrementally, so a row may arrive in
//! pieces) and appends each field to a typed column buffer — the column's [`Kind`] comes from its
//! name, the same name in every command — so Parquet gets exactly the columns, values and row
//! order of the CSV, for every command, with no per-command code to keep in step.
//!
//! The per-puzzle commands (`solve`, `rate`, `canon`, …: everything [`super::run`] drives) skip
//! the text: their workers write each row into a [`RowWriter::columnar`](super::RowWriter)
//! instead, which fills a [`Batch`] of the same typed columns, and the ordered writer hands the
//! batch to the encoder through a [`RowSender`]. A field takes the same conversion either way, so
//! the file is byte for byte the one the CSV would make (a test holds them equal); the encoder
//! only appends the batch's values to its row group. On `solve` of easy puzzles, where output
//! dominates, parsing CSV back was half the extra cost of Parquet (docs/speed.md). Commands that
//! write rows another way (`verify -o`, `split`) still go through the CSV transcoder.
//!
//! The buffers hold each value as Parquet's plain encoding lays it out (a text value as its
//! length and its bytes), so a row group's pages are slices of them: `pages` writes the pages,
//! the file's metadata and footer itself, with the crate's metadata types and codecs.
//!
//! Memory stays bounded whatever the input: a row group is written as soon as it holds
//! [`GROUP_ROWS`] rows or [`GROUP_BYTES`] bytes of text, and only one is held at a time. The
//! parsing and encoding run on a thread of their own, fed through a short bounded queue, so the
//! thread that writes rows in order hands a chunk over and goes back to waiting on the workers.
//!
//! Empty CSV fields are nulls (as JSON lines writes them). Strings are UTF-8 byte arrays;
//! dictionary encoding is on only for the low-cardinality word columns (status, class, …), where
//! it pays; on puzzles and solutions it would only cost time.

mod pages;

use std::io::{self, Write};
use std::ops::Range;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use parquet::basic::{Compression as Codec, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::format::KeyValue;
use parquet::schema::types::{SchemaDescriptor, Type};

/// Rows per row group at most. Small enough that a group of grids (about 3 MB) stays in the
/// cache while it is gathered and written: with 65,536 rows a group, every copy went through
/// memory and slowed the workers beside it (Parquet took 1.11-1.16x CSV's time on easy puzzles,
/// against 1.0-1.08x now; docs/speed.md).
pub const GROUP_ROWS: usize = 1 << 14;
/// Bytes of text buffered per row group at most (explain's steps can be kilobytes a row).
pub const GROUP_BYTES: usize = 16 << 20;
/// Chunks of CSV waiting for the encoder at most: the queue that bounds memory between the
/// ordered writer and the encoding thread.
const QUEUE: usize = 4;

/// A column's Parquet type, told from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 64-bit signed integer (line numbers, counts, nanoseconds).
    Int,
    /// Double (ratings).
    Float,
    /// Boolean (`singles`).
    Bool,
    /// UTF-8 text (grids, statuses, messages).
    Text,
}

/// The type of the column called `name` in any command's output.
pub fn kind_of(name: &str) -> Kind {
    match name {
        "line" | "index" | "solutions" | "clues" | "guesses" | "solve_ns" | "copy"
        | "automorphisms" | "duplicate_of_line" | "line_a" | "line_b" => Kind::Int,
        "rating" | "er" | "ep" | "ed" => Kind::Float,
        "singles" => Kind::Bool,
        _ => Kind::Text,
    }
}

/// Text columns with few distinct values, worth a dictionary.
fn is_word_column(name: &str) -> bool {
    matches!(
        name,
        "status"
            | "class"
            | "symmetry"
            | "split"
            | "verdict"
            | "er_technique"
            | "file"
            | "file_a"
            | "file_b"
            | "kind"
    )
}

/// The compression of a Parquet file's pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Compression {
    /// None: the fastest to write (on easy puzzles compressing costs more than solving), about
    /// the size of the CSV.
    #[default]
    None,
    /// Snappy: what most Parquet writers use by default.
    Snappy,
    /// LZ4 (raw blocks).
    Lz4,
    /// Zstandard, level 1: the smallest files, the slowest to write.
    Zstd,
}

impl Compression {
    pub fn as_str(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Snappy => "snappy",
            Compression::Lz4 => "lz4",
            Compression::Zstd => "zstd",
        }
    }

    fn codec(self) -> Codec {
        match self {
            Compression::None => Codec::UNCOMPRESSED,
            Compression::Snappy => Codec::SNAPPY,
            Compression::Lz4 => Codec::LZ4_RAW,
            // Level 1 is always a valid level.
            Compression::Zstd => Codec::ZSTD(ZstdLevel::try_new(1).unwrap_or_default()),
        }
    }
}

/// The key of the provenance record in a Parquet file's key-value metadata.
pub const PROVENANCE_KEY: &str = "sudoku_batch.provenance";

/// The schema of `names` typed by `kinds` (all columns optional: an empty CSV field is a null).
fn schema(names: &[String], kinds: &[Kind]) -> parquet::errors::Result<Type> {
    let mut fields = Vec::with_capacity(names.len());
    for (name, &kind) in names.iter().zip(kinds) {
        let (physical, logical) = match kind {
            Kind::Int => (Physical::INT64, None),
            Kind::Float => (Physical::DOUBLE, None),
            Kind::Bool => (Physical::BOOLEAN, None),
            Kind::Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
        };
        let field = Type::primitive_type_builder(name, physical)
            .with_repetition(Repetition::OPTIONAL)
            .with_logical_type(logical)
            .build()?;
        fields.push(Arc::new(field));
    }
    Type::group_type_builder("sudoku_batch")
        .with_fields(fields)
        .build()
}

/// One column's values for the row group being gathered (or for a [`Batch`]).
enum Column {
    Int(Vec<i64>),
    Float(Vec<f64>),
    Bool(Vec<bool>),
    Text(Text),
}

/// A text column's values in Parquet's plain layout (see [`pages::Values::Text`]).
#[derive(Default)]
struct Text {
    data: Vec<u8>,
    ends: Vec<usize>,
}

impl Text {
    #[inline]
    fn push(&mut self, field: &[u8]) {
        pages::push_text(&mut self.data, &mut self.ends, field);
    }
}

struct Buffer {
    values: Column,
    /// Per row: 1 when the value is there, 0 for null.
    defs: Vec<u8>,
}

impl Buffer {
    fn new(kind: Kind) -> Buffer {
        let values = match kind {
            Kind::Int => Column::Int(Vec::new()),
            Kind::Float => Column::Float(Vec::new()),
            Kind::Bool => Column::Bool(Vec::new()),
            Kind::Text => Column::Text(Text::default()),
        };
        Buffer {
            values,
            defs: Vec::new(),
        }
    }

    /// Appends one CSV field; a field that does not parse as the column's type is an error.
    fn push(&mut self, field: &[u8]) -> Result<(), String> {
        if field.is_empty() {
            self.defs.push(0);
            return Ok(());
        }
        let text = || std::str::from_utf8(field).map_err(|_| "not UTF-8".to_string());
        match &mut self.values {
            Column::Int(v) => v.push(parse_int(field).ok_or_else(|| {
                format!("'{}' is not an integer", String::from_utf8_lossy(field))
            })?),
            Column::Float(v) => v.push(
                text()?
                    .parse()
                    .map_err(|_| format!("'{}' is not a number", String::from_utf8_lossy(field)))?,
            ),
            Column::Bool(v) => v.push(match field {
                b"true" => true,
                b"false" => false,
                _ => return Err(format!("'{}' is not a boolean", text()?)),
            }),
            Column::Text(t) => {
                text()?;
                t.push(field);
            }
        }
        self.defs.push(1);
        Ok(())
    }

    /// Appends a value known to be UTF-8 (it comes from a `&str`, or is ASCII): a text column
    /// takes it without a check, any other column parses it as [`Buffer::push`] does.
    #[inline]
    fn push_str(&mut self, field: &[u8]) -> Result<(), String> {
        match &mut self.values {
            Column::Text(t) if !field.is_empty() => {
                t.push(field);
                self.defs.push(1);
                Ok(())
            }
            _ => self.push(field),
        }
    }

    /// Appends an unsigned number: as it is to an integer column, else as its decimal digits
    /// (what [`Buffer::push`] makes of them, so a value too large for an `i64` is the same
    /// error as in CSV).
    #[inline]
    fn push_int(&mut self, v: u64) -> Result<(), String> {
        match (&mut self.values, i64::try_from(v)) {
            (Column::Int(values), Ok(v)) => {
                values.push(v);
                self.defs.push(1);
                Ok(())
            }
            _ => self.push(v.to_string().as_bytes()),
        }
    }

    /// Moves rows `rows` of `from` (a buffer of the same kind) here; their first value is
    /// value number `*value` of `from`, and `*value` moves past them. Text values are moved,
    /// copied as they are: they are already in the page layout.
    fn take_rows(&mut self, from: &mut Buffer, rows: Range<usize>, value: &mut usize) {
        let defs = &from.defs[rows];
        let n = defs.iter().filter(|&&d| d == 1).count();
        let values = *value..*value + n;
        *value += n;
        self.defs.extend_from_slice(defs);
        match (&mut self.values, &mut from.values) {
            (Column::Int(to), Column::Int(v)) => to.extend_from_slice(&v[values]),
            (Column::Float(to), Column::Float(v)) => to.extend_from_slice(&v[values]),
            (Column::Bool(to), Column::Bool(v)) => to.extend_from_slice(&v[values]),
            (Column::Text(to), Column::Text(t)) => {
                let start = pages::text_offset(&t.ends, values.start);
                let end = pages::text_offset(&t.ends, values.end);
                let base = to.data.len();
                to.data.extend_from_slice(&t.data[start..end]);
                to.ends
                    .extend(t.ends[values].iter().map(|&e| e - start + base));
            }
            _ => {}
        }
    }

    fn kind(&self) -> Kind {
        match &self.values {
            Column::Int(_) => Kind::Int,
            Column::Float(_) => Kind::Float,
            Column::Bool(_) => Kind::Bool,
            Column::Text(_) => Kind::Text,
        }
    }

    fn text_bytes(&self) -> usize {
        match &self.values {
            Column::Text(t) => t.data.len(),
            _ => 0,
        }
    }

    /// Writes the gathered values as the next column chunk of `file`'s row group, and
    /// empties the buffer (keeping its memory).
    fn write<W: Write>(
        &mut self,
        file: &mut pages::FileWriter<W>,
        words: bool,
    ) -> parquet::errors::Result<()> {
        let values = match &self.values {
            Column::Int(v) => pages::Values::Int(v),
            Column::Float(v) => pages::Values::Float(v),
            Column::Bool(v) => pages::Values::Bool(v),
            Column::Text(t) => pages::Values::Text {
                data: &t.data,
                ends: &t.ends,
            },
        };
        file.column(words, &self.defs, values)?;
        match &mut self.values {
            Column::Int(v) => v.clear(),
            Column::Float(v) => v.clear(),
            Column::Bool(v) => v.clear(),
            Column::Text(t) => {
                t.data.clear();
                t.ends.clear();
            }
        }
        self.defs.clear();
        Ok(())
    }
}

/// An `i64` written in decimal with an optional `-` (what an integer column accepts).
pub(crate) fn parse_int(field: &[u8]) -> Option<i64> {
    let (neg, digits) = match field.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, field),
    };
    if digits.is_empty() || digits.len() > 19 {
        return None;
    }
    let mut v: i64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(i64::from(b - b'0'))?;
    }
    Some(if neg { -v } else { v })
}

/// What went wrong with a row of a [`Batch`].
#[derive(Debug)]
enum RowError {
    /// A field that does not fit its column's type.
    Field { column: usize, why: String },
    /// A row of this many fields, not one a column.
    Width(usize),
    /// Bytes outside any row ([`RowWriter::raw`](super::RowWriter::raw)), which have no
    /// columns.
    Raw,
}

/// Rows already split into typed columns, by the worker that made them: what a command's
/// [`RowWriter`](super::RowWriter) gathers instead of CSV text when its rows go to a Parquet
/// file through [`RowSender`], so the encoder thread only appends them to its row group — no
/// CSV formatting on the workers, no parsing, UTF-8 check or number parsing on the encoder.
/// The values are exactly those the CSV of the same rows parses to: a field takes the same
/// conversion from text, only skipping the round trip where it cannot change the value.
pub struct Batch {
    names: &'static [&'static str],
    columns: Vec<Buffer>,
    rows: usize,
    /// The first row that could not be made columns, by its index in the batch.
    error: Option<(usize, RowError)>,
}

impl Batch {
    /// An empty batch for rows of `names`, then `file` when `with_file`, with room for `rows`.
    pub fn new(names: &'static [&'static str], with_file: bool, rows: usize) -> Batch {
        let columns = names
            .iter()
            .copied()
            .chain(with_file.then_some("file"))
            .map(|name| {
                let mut b = Buffer::new(kind_of(name));
                b.defs.reserve(rows);
                match &mut b.values {
                    Column::Int(v) => v.reserve(rows),
                    // Most text values are grids: 81 bytes.
                    Column::Text(t) => {
                        t.data.reserve(rows * 85);
                        t.ends.reserve(rows);
                    }
                    _ => {}
                }
                b
            })
            .collect();
        Batch {
            names,
            columns,
            rows: 0,
            error: None,
        }
    }

    fn fail(&mut self, error: RowError) {
        if self.error.is_none() {
            self.error = Some((self.rows, error));
        }
    }

    /// Field number `field` of the current row, given to `push`; a field past the last column
    /// is counted by [`Batch::end_row`].
    #[inline]
    fn field(&mut self, field: usize, push: impl FnOnce(&mut Buffer) -> Result<(), String>) {
        if let Some(col) = self.columns.get_mut(field) {
            if let Err(why) = push(col) {
                self.fail(RowError::Field { column: field, why });
            }
        }
    }

    /// An unsigned number.
    #[inline]
    pub fn int(&mut self, field: usize, v: u64) {
        self.field(field, |c| c.push_int(v));
    }

    /// Text (empty is null, as an empty CSV field is).
    #[inline]
    pub fn text(&mut self, field: usize, s: &str) {
        self.field(field, |c| c.push_str(s.as_bytes()));
    }

    /// ASCII text (a grid's characters): no UTF-8 check needed.
    #[inline]
    pub fn ascii(&mut self, field: usize, s: &[u8]) {
        debug_assert!(s.is_ascii());
        if s.is_ascii() {
            self.field(field, |c| c.push_str(s));
        } else {
            self.bytes(field, s);
        }
    }

    /// Bytes of a field as CSV would hold them (checked to be UTF-8 for a text column).
    #[inline]
    pub fn bytes(&mut self, field: usize, s: &[u8]) {
        self.field(field, |c| c.push(s));
    }

    /// A null (an empty CSV field).
    #[inline]
    pub fn null(&mut self, field: usize) {
        self.field(field, |c| c.push(b""));
    }

    /// Bytes outside any row: an error, as they have no columns.
    pub fn raw(&mut self) {
        self.fail(RowError::Raw);
    }

    /// Ends a row of `fields` fields.
    #[inline]
    pub fn end_row(&mut self, fields: usize) {
        if fields != self.columns.len() {
            // The width is the row's error, even when one of its fields failed first (as the
            // CSV of the row reports it).
            if matches!(self.error, Some((row, _)) if row == self.rows) {
                self.error = None;
            }
            self.fail(RowError::Width(fields));
        }
        self.rows += 1;
    }
}

/// What reaches the encoder thread: a piece of the CSV stream, or rows already in columns.
enum Piece {
    Csv(Vec<u8>),
    Rows(Box<Batch>),
}

/// The way to a [`ParquetSink`] for [`Batch`]es, in stream order with its CSV: what the thread
/// that writes rows in order uses instead of the sink's `Write`. It stops accepting when the
/// sink is finished (so a clone left somewhere cannot keep the encoder waiting).
#[derive(Clone)]
pub struct RowSender(Arc<Mutex<Option<SyncSender<Piece>>>>);

impl RowSender {
    /// Hands `batch` to the encoder; `false` when it has stopped (its error comes back from
    /// [`ParquetSink::finish`]).
    pub fn send(&self, batch: Box<Batch>) -> bool {
        let queue = self.0.lock().ok().and_then(|q| q.clone());
        queue.is_some_and(|q| q.send(Piece::Rows(batch)).is_ok())
    }

    fn close(&self) {
        if let Ok(mut q) = self.0.lock() {
            *q = None;
        }
    }
}

impl std::fmt::Debug for RowSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RowSender")
    }
}

/// The encoder: parses CSV into column buffers and writes row groups into `out`.
struct Encoder<W: Write + Send> {
    writer: pages::FileWriter<W>,
    /// Per column, whether it holds words (dictionary-encoded).
    words: Vec<bool>,
    names: Vec<String>,
    columns: Vec<Buffer>,
    rows: usize,
    csv: csv_core::Reader,
    /// The current record's fields, and where each ends (kept across input pieces).
    field_bytes: Vec<u8>,
    field_len: usize,
    ends: Vec<usize>,
    nends: usize,
    /// Whether csv-core is between records (so whole lines may bypass it).
    at_start: bool,
    /// Complete rows written so far, for error messages.
    written: u64,
    /// Per column, the next value of the batch being gathered.
    cursors: Vec<usize>,
}

impl<W: Write + Send> Encoder<W> {
    fn new(
        out: W,
        names: Vec<String>,
        kinds: Vec<Kind>,
        compression: Compression,
        provenance: Option<String>,
    ) -> parquet::errors::Result<Self> {
        let writer = pages::FileWriter::new(
            out,
            Arc::new(SchemaDescriptor::new(Arc::new(schema(&names, &kinds)?))),
            compression.codec(),
            format!("sudoku-batch {}", env!("CARGO_PKG_VERSION")),
            provenance.map(|p| vec![KeyValue::new(PROVENANCE_KEY.into(), p)]),
        )?;
        let columns = kinds.iter().map(|&k| Buffer::new(k)).collect();
        let words = names.iter().map(|n| is_word_column(n)).collect();
        Ok(Encoder {
            writer,
            words,
            names,
            columns,
            rows: 0,
            csv: csv_core::Reader::new(),
            field_bytes: vec![0; 4096],
            field_len: 0,
            ends: vec![0; 64],
            nends: 0,
            at_start: true,
            written: 0,
            cursors: Vec::new(),
        })
    }

    /// Parses `input` (any piece of the CSV stream) and gathers its complete rows.
    ///
    /// Whole lines without a quote (nearly all: grids, numbers, words) are split at their commas
    /// directly; a line with a quoted field, or a line cut between two pieces, goes through
    /// csv-core, which keeps its state across pieces.
    fn feed(&mut self, mut input: &[u8]) -> io::Result<()> {
        use csv_core::ReadRecordResult as R;
        loop {
            if self.at_start {
                while let Some(nl) = memchr::memchr(b'\n', input) {
                    let line = &input[..nl];
                    if memchr::memchr(b'"', line).is_some() {
                        break;
                    }
                    self.simple_row(line)?;
                    input = &input[nl + 1..];
                }
                if input.is_empty() {
                    return Ok(());
                }
            }
            let (result, nin, nout, nend) = self.csv.read_record(
                input,
                &mut self.field_bytes[self.field_len..],
                &mut self.ends[self.nends..],
            );
            input = &input[nin..];
            self.field_len += nout;
            self.nends += nend;
            self.at_start = false;
            match result {
                R::InputEmpty | R::End => return Ok(()),
                R::OutputFull => {
                    let n = self.field_bytes.len();
                    self.field_bytes.resize(n * 2, 0);
                }
                R::OutputEndsFull => {
                    let n = self.ends.len();
                    self.ends.resize(n * 2, 0);
                }
                R::Record => {
                    self.record()?;
                    self.field_len = 0;
                    self.nends = 0;
                    self.at_start = true;
                }
            }
        }
    }

    /// Gathers one line with no quoted field: its fields are what lies between the commas.
    fn simple_row(&mut self, line: &[u8]) -> io::Result<()> {
        let n = self.columns.len();
        let mut start = 0;
        for (i, col) in self.columns.iter_mut().enumerate() {
            let rest = &line[start.min(line.len())..];
            let end = match memchr::memchr(b',', rest) {
                Some(p) if i + 1 < n => start + p,
                None if i + 1 == n && start <= line.len() => line.len(),
                _ => {
                    let fields = line.split(|&b| b == b',').count();
                    return Err(self.wrong_width(fields));
                }
            };
            if let Err(e) = col.push(&line[start..end]) {
                // A row of the wrong width is that error whatever its fields hold, as csv-core's
                // records and typed rows report it.
                let fields = line.split(|&b| b == b',').count();
                if fields != n {
                    return Err(self.wrong_width(fields));
                }
                return Err(io::Error::other(format!(
                    "row {}, column {}: {e}",
                    self.written + 1,
                    self.names[i]
                )));
            }
            start = end + 1;
        }
        self.row_done()
    }

    fn wrong_width(&self, fields: usize) -> io::Error {
        io::Error::other(format!(
            "row {} has {fields} fields, not the {} columns {}",
            self.written + 1,
            self.columns.len(),
            self.names.join(",")
        ))
    }

    /// Gathers the record csv-core just parsed.
    fn record(&mut self) -> io::Result<()> {
        if self.nends != self.columns.len() {
            return Err(self.wrong_width(self.nends));
        }
        let mut start = 0;
        for (i, col) in self.columns.iter_mut().enumerate() {
            let end = self.ends[i];
            col.push(&self.field_bytes[start..end]).map_err(|e| {
                io::Error::other(format!(
                    "row {}, column {}: {e}",
                    self.written + 1,
                    self.names[i]
                ))
            })?;
            start = end;
        }
        self.row_done()
    }

    /// Gathers the rows of `batch`, writing row groups exactly where row-by-row gathering would
    /// ([`Encoder::row_done`]'s checks fall at multiples of 256 rows, so the batch is appended in
    /// runs that end at each).
    fn add(&mut self, batch: &mut Batch) -> io::Result<()> {
        if !self.at_start {
            return Err(io::Error::other("typed rows arrived inside a CSV row"));
        }
        let same = batch.columns.len() == self.columns.len()
            && batch
                .columns
                .iter()
                .zip(&self.columns)
                .all(|(a, b)| a.kind() == b.kind());
        if !same {
            return Err(io::Error::other(
                "typed rows do not have the file's columns",
            ));
        }
        if let Some((row, error)) = &batch.error {
            let n = self.written + *row as u64 + 1;
            return Err(match error {
                RowError::Field { column, why } => io::Error::other(format!(
                    "row {n}, column {}: {why}",
                    batch.names.get(*column).copied().unwrap_or("file")
                )),
                RowError::Width(fields) => io::Error::other(format!(
                    "row {n} has {fields} fields, not the {} columns {}",
                    self.columns.len(),
                    self.names.join(",")
                )),
                RowError::Raw => io::Error::other(format!(
                    "row {n}: bytes outside the columns cannot go into a Parquet file"
                )),
            });
        }
        self.cursors.clear();
        self.cursors.resize(self.columns.len(), 0);
        let mut done = 0;
        while done < batch.rows {
            let n = (batch.rows - done)
                .min(256 - self.rows % 256)
                .min(GROUP_ROWS.saturating_sub(self.rows).max(1));
            for ((col, from), value) in self
                .columns
                .iter_mut()
                .zip(&mut batch.columns)
                .zip(&mut self.cursors)
            {
                col.take_rows(from, done..done + n, value);
            }
            done += n;
            self.rows += n;
            self.written += n as u64;
            if self.group_full() {
                self.flush_group()?;
            }
        }
        Ok(())
    }

    /// Whether the row group is full. The text size is checked every 256 rows: rows are at
    /// most a few kilobytes.
    fn group_full(&self) -> bool {
        self.rows >= GROUP_ROWS
            || (self.rows % 256 == 0
                && self.columns.iter().map(Buffer::text_bytes).sum::<usize>() >= GROUP_BYTES)
    }

    /// Counts a gathered row; writes the row group when it is full.
    fn row_done(&mut self) -> io::Result<()> {
        self.rows += 1;
        self.written += 1;
        if self.group_full() {
            self.flush_group()?;
        }
        Ok(())
    }

    /// Writes the gathered rows as one row group.
    fn flush_group(&mut self) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        for (col, &words) in self.columns.iter_mut().zip(&self.words) {
            col.write(&mut self.writer, words)
                .map_err(io::Error::other)?;
        }
        self.writer.end_group().map_err(io::Error::other)?;
        self.rows = 0;
        Ok(())
    }

    /// Ends the stream: a last row without its newline, the last row group, the footer.
    fn finish(mut self) -> io::Result<W> {
        self.feed(&[])?;
        self.flush_group()?;
        self.writer.finish().map_err(io::Error::other)
    }
}

/// A `Write` that takes a CSV stream without a header (rows of `names`, then `file` when a run
/// has several inputs) and writes it as a Parquet file into `W`. Call [`ParquetSink::finish`]
/// to write the footer: a sink dropped without it leaves a file no reader accepts.
pub struct ParquetSink<W: Write + Send + 'static> {
    queue: Option<SyncSender<Piece>>,
    /// The same queue, for [`Batch`]es ([`ParquetSink::rows`]); emptied at the end.
    rows: RowSender,
    encoder: Option<JoinHandle<io::Result<W>>>,
}

impl<W: Write + Send + 'static> ParquetSink<W> {
    /// A sink for rows of `names` into `out`, with `provenance` (JSON) in the file's metadata.
    pub fn new(
        out: W,
        names: Vec<String>,
        compression: Compression,
        provenance: Option<String>,
    ) -> io::Result<Self> {
        let kinds = names.iter().map(|n| kind_of(n)).collect();
        Self::with_kinds(out, names, kinds, compression, provenance)
    }

    /// [`ParquetSink::new`] with each column's type given (`kinds`, one per name) instead of
    /// told from its name: for rows whose columns come from the input (`export`).
    pub fn with_kinds(
        out: W,
        names: Vec<String>,
        kinds: Vec<Kind>,
        compression: Compression,
        provenance: Option<String>,
    ) -> io::Result<Self> {
        if kinds.len() != names.len() {
            return Err(io::Error::other("a Parquet column without a type"));
        }
        let mut encoder =
            Encoder::new(out, names, kinds, compression, provenance).map_err(io::Error::other)?;
        let (tx, rx): (SyncSender<Piece>, Receiver<Piece>) = sync_channel(QUEUE);
        let handle = std::thread::Builder::new()
            .name("parquet".into())
            .spawn(move || {
                for piece in rx {
                    match piece {
                        Piece::Csv(bytes) => encoder.feed(&bytes)?,
                        Piece::Rows(mut batch) => encoder.add(&mut batch)?,
                    }
                }
                encoder.finish()
            })?;
        Ok(ParquetSink {
            rows: RowSender(Arc::new(Mutex::new(Some(tx.clone())))),
            queue: Some(tx),
            encoder: Some(handle),
        })
    }

    /// Where to send rows already in columns, in order with what is written to the sink.
    pub fn rows(&self) -> RowSender {
        self.rows.clone()
    }

    /// The encoder's error, once it has stopped early.
    fn stopped(&mut self) -> io::Error {
        self.queue = None;
        self.rows.close();
        match self.encoder.take().map(JoinHandle::join) {
            Some(Ok(Err(e))) => e,
            Some(Err(_)) => io::Error::other("the Parquet encoder failed"),
            _ => io::Error::other("the Parquet encoder has stopped"),
        }
    }

    /// Writes the last row group and the footer, and returns the underlying writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.queue = None;
        self.rows.close();
        match self.encoder.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io::Error::other("the Parquet encoder failed")),
            None => Err(io::Error::other("the Parquet encoder has stopped")),
        }
    }
}

impl<W: Write + Send + 'static> Drop for ParquetSink<W> {
    /// A sink dropped unfinished lets its encoder thread end (without a footer).
    fn drop(&mut self) {
        self.rows.close();
    }
}

impl<W: Write + Send + 'static> Write for ParquetSink<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let sent = match &self.queue {
            Some(q) => q.send(Piece::Csv(buf.to_vec())).is_ok(),
            None => false,
        };
        if sent {
            Ok(buf.len())
        } else {
            Err(self.stopped())
        }
    }

    /// Nothing to do: rows become readable only with the footer, at [`ParquetSink::finish`].
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    /// A sink for rows of `n` into memory, with no provenance.
    fn plain(n: &[&str], compression: Compression) -> ParquetSink<Vec<u8>> {
        ParquetSink::new(Vec::new(), names(n), compression, None).unwrap()
    }

    fn read(bytes: Vec<u8>) -> Vec<Vec<Field>> {
        let r = SerializedFileReader::new(bytes::Bytes::from(bytes)).unwrap();
        r.get_row_iter(None)
            .unwrap()
            .map(|row| {
                row.unwrap()
                    .get_column_iter()
                    .map(|(_, f)| f.clone())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn typed_columns_nulls_and_pieces() {
        let csv = b"3,abc,solved,1.5,true,\n4,,invalid,,,\"bad, \"\"row\"\"\nwith newline\"\n5,x,solved,2,false,e";
        let mut sink = ParquetSink::new(
            Vec::new(),
            names(&["line", "puzzle", "status", "rating", "singles", "error"]),
            Compression::Lz4,
            Some("{\"a\":1}".into()),
        )
        .unwrap();
        // Byte by byte: rows may arrive in any pieces.
        for b in csv {
            sink.write_all(&[*b]).unwrap();
        }
        let bytes = sink.finish().unwrap();
        let rows = read(bytes.clone());
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0][0], Field::Long(3));
        assert_eq!(rows[0][1], Field::Str("abc".into()));
        assert_eq!(rows[0][3], Field::Double(1.5));
        assert_eq!(rows[0][4], Field::Bool(true));
        assert_eq!(rows[0][5], Field::Null);
        assert_eq!(rows[1][1], Field::Null);
        assert_eq!(rows[1][5], Field::Str("bad, \"row\"\nwith newline".into()));
        assert_eq!(rows[2][5], Field::Str("e".into()));
        let r = SerializedFileReader::new(bytes::Bytes::from(bytes)).unwrap();
        let kv = r.metadata().file_metadata().key_value_metadata().unwrap();
        assert_eq!(kv[0].key, PROVENANCE_KEY);
        assert_eq!(kv[0].value.as_deref(), Some("{\"a\":1}"));
    }

    #[test]
    fn many_rows_make_many_groups() {
        let mut sink = plain(&["line", "puzzle"], Compression::Zstd);
        let n = GROUP_ROWS * 2 + 7;
        for i in 0..n {
            writeln!(sink, "{i},p{i}").unwrap();
        }
        let bytes = sink.finish().unwrap();
        let r = SerializedFileReader::new(bytes::Bytes::from(bytes.clone())).unwrap();
        assert_eq!(r.metadata().num_row_groups(), 3);
        let rows = read(bytes);
        assert_eq!(rows.len(), n);
        assert_eq!(rows[n - 1][1], Field::Str(format!("p{}", n - 1)));
    }

    /// Row `i` of [`pages_read_back`]'s file, as CSV.
    fn page_row(i: usize) -> String {
        let or_null = |null: bool, v: String| if null { String::new() } else { v };
        let rating = if i % 23 == 5 {
            "NaN".into()
        } else {
            format!("{}", i as f64 / 4.0)
        };
        [
            or_null(i % 5 == 3, format!("{}", i as i64 - 1000)),
            or_null(i % 19 == 4, format!("p{i}")),
            or_null(
                i % 17 == 2,
                ["unique", "invalid", "solved"][(i / 1000) % 3].into(),
            ),
            or_null(i % 11 == 0, rating),
            or_null(i % 13 == 1, (i % 3 == 0).to_string()),
            or_null(i % 29 == 0, format!("f{i}")),
            String::new(),
        ]
        .join(",")
    }

    /// The hand-laid pages read back as written, through every codec: nulls anywhere (across
    /// page and row-group boundaries), every column type, NaN, dictionary-encoded words, a
    /// word column with too many values for a dictionary, one with none; and the chunks'
    /// statistics.
    #[test]
    fn pages_read_back() {
        let n = GROUP_ROWS + pages::PAGE_ROWS * 3 / 2 + 5;
        let cols = [
            "line", "puzzle", "status", "rating", "singles", "file", "class",
        ];
        for compression in [
            Compression::None,
            Compression::Snappy,
            Compression::Lz4,
            Compression::Zstd,
        ] {
            let mut sink = plain(&cols, compression);
            for i in 0..n {
                writeln!(sink, "{}", page_row(i)).unwrap();
            }
            let bytes = sink.finish().unwrap();
            let rows = read(bytes.clone());
            assert_eq!(rows.len(), n);
            for (i, row) in rows.iter().enumerate() {
                let text: Vec<String> = row
                    .iter()
                    .map(|f| match f {
                        Field::Null => String::new(),
                        Field::Str(s) => s.clone(),
                        Field::Long(v) => v.to_string(),
                        Field::Bool(b) => b.to_string(),
                        Field::Double(d) => format!("{d}"),
                        other => panic!("unexpected {other:?}"),
                    })
                    .collect();
                assert_eq!(text.join(","), page_row(i), "row {i}, {compression:?}");
            }
            let r = SerializedFileReader::new(bytes::Bytes::from(bytes)).unwrap();
            assert_eq!(r.metadata().num_row_groups(), 2);
            let group = r.metadata().row_group(1);
            let first = GROUP_ROWS;
            let lines = (first..n).filter(|i| i % 5 != 3).map(|i| i as i64 - 1000);
            let stats = group.column(0).statistics().unwrap();
            assert_eq!(
                stats.min_bytes_opt(),
                Some(&lines.clone().min().unwrap().to_le_bytes()[..])
            );
            assert_eq!(
                stats.max_bytes_opt(),
                Some(&lines.max().unwrap().to_le_bytes()[..])
            );
            let nulls = (first..n).filter(|i| i % 5 == 3).count() as u64;
            assert_eq!(stats.null_count_opt(), Some(nulls));
            let words = group.column(2).statistics().unwrap();
            assert_eq!(words.min_bytes_opt(), Some(&b"invalid"[..]));
            assert_eq!(words.max_bytes_opt(), Some(&b"unique"[..]));
            assert!(group.column(2).dictionary_page_offset().is_some());
            assert!(group.column(5).dictionary_page_offset().is_none());
            // A word column of nulls only: no dictionary, every row null.
            assert!(group.column(6).dictionary_page_offset().is_none());
            assert!(group.column(1).statistics().is_none());
        }
    }

    #[test]
    fn a_bad_field_is_an_error_not_a_crash() {
        let mut sink = plain(&["line"], Compression::None);
        sink.write_all(b"x\n").unwrap();
        // The error comes back at the latest when the stream ends.
        let e = sink.finish().unwrap_err();
        assert!(e.to_string().contains("not an integer"), "{e}");
        assert_eq!(parse_int(b"-12"), Some(-12));
        assert_eq!(parse_int(b"99999999999999999999"), None);
        assert_eq!(kind_of("solve_ns"), Kind::Int);
    }

    use crate::run::{Columns, OutputFormat, RowWriter};

    static COLS: Columns = Columns {
        names: &["line", "puzzle", "status", "rating", "singles", "error"],
        status: Some(2),
        counted: false,
    };

    /// Row `i`: every kind of field, nulls, text CSV must quote, a value for each column type.
    fn row(w: &mut RowWriter, i: u64) {
        let g: crate::grid::Grid = crate::testing::LEET.parse().unwrap();
        w.int(i);
        if i % 7 == 0 {
            w.null();
        } else {
            w.grid(Some(&g));
        }
        w.word(if i % 3 == 0 { "solved" } else { "invalid" });
        w.float((i % 5 != 0).then_some(i as f64 / 3.0), 2);
        w.boolean((i % 4 != 0).then_some(i % 2 == 0));
        w.text(match i % 6 {
            0 => None,
            1 => Some(""),
            2 => Some("a, \"quoted\"\r\nline"),
            _ => Some("ünï"),
        });
        w.text(Some(if i % 2 == 0 { "a.txt" } else { "b.txt" }));
        w.end();
    }

    fn sink() -> ParquetSink<Vec<u8>> {
        let names = COLS
            .names
            .iter()
            .map(|s| s.to_string())
            .chain(["file".to_string()])
            .collect();
        ParquetSink::new(Vec::new(), names, Compression::Snappy, Some("{}".into())).unwrap()
    }

    /// Rows sent as typed batches make the very file their CSV makes, byte for byte: the same
    /// values, pages and row groups (batches are split where a group ends), whatever the mix.
    #[test]
    fn typed_batches_write_the_file_csv_writes() {
        let n = GROUP_ROWS as u64 * 2 + 300;
        let mut csv = sink();
        for start in (0..n).step_by(1000) {
            let mut w = RowWriter::new(OutputFormat::Csv, &COLS, 0);
            (start..n.min(start + 1000)).for_each(|i| row(&mut w, i));
            csv.write_all(&w.finish()).unwrap();
        }
        let csv = csv.finish().unwrap();
        let mut typed = sink();
        let rows = typed.rows();
        for start in (0..n).step_by(1000) {
            let end = n.min(start + 1000);
            if start == 3000 {
                // A piece of CSV between batches keeps its place.
                let mut w = RowWriter::new(OutputFormat::Csv, &COLS, 0);
                (start..end).for_each(|i| row(&mut w, i));
                typed.write_all(&w.finish()).unwrap();
                continue;
            }
            let mut w = RowWriter::columnar(&COLS, true, 1000);
            (start..end).for_each(|i| row(&mut w, i));
            let (bytes, batch) = w.finish_rows();
            assert!(bytes.is_empty());
            assert!(rows.send(batch.unwrap()));
        }
        let typed = typed.finish().unwrap();
        assert_eq!(read(typed.clone()).len(), n as usize);
        assert!(csv == typed, "the typed rows wrote another file");
        // The sink is finished: its sender takes nothing more.
        let w = RowWriter::columnar(&COLS, true, 1);
        assert!(!rows.send(w.finish_rows().1.unwrap()));
    }

    /// A typed row that does not fit is the error its CSV gives, row number included.
    #[test]
    fn a_bad_typed_row_is_the_csv_error() {
        let errors = |write: &dyn Fn(&mut RowWriter)| {
            let mut csv = plain(&["line", "clues"], Compression::None);
            let mut w = RowWriter::new(OutputFormat::Csv, &COLS, 0);
            w.int(1).int(2);
            w.end();
            write(&mut w);
            csv.write_all(&w.finish()).unwrap();
            let typed = plain(&["line", "clues"], Compression::None);
            let mut w = RowWriter::columnar(&TWO, false, 2);
            w.int(1).int(2);
            w.end();
            write(&mut w);
            typed.rows().send(w.finish_rows().1.unwrap());
            (
                csv.finish().unwrap_err().to_string(),
                typed.finish().unwrap_err().to_string(),
            )
        };
        static TWO: Columns = Columns {
            names: &["line", "clues"],
            status: None,
            counted: false,
        };
        let (csv, typed) = errors(&|w| {
            w.int(2).int(u64::MAX);
            w.end();
        });
        assert!(
            csv.contains("row 2, column clues") && csv.contains("not an integer"),
            "{csv}"
        );
        assert_eq!(csv, typed);
        let (csv, typed) = errors(&|w| {
            w.int(2).int(3).int(4);
            w.end();
        });
        assert!(csv.contains("row 2 has 3 fields"), "{csv}");
        assert_eq!(csv, typed);
        // A row of the wrong width with a bad field is the width error on every route: typed,
        // a plain CSV line, a line with a quoted field (csv-core). Found by fuzzing
        // (`fuzz/fuzz_targets/parquet_rows.rs`): the routes named the field or the width.
        for (quoted, wide) in [(false, true), (true, true), (false, false), (true, false)] {
            let (csv, typed) = errors(&|w| {
                w.text(Some(if quoted { "x\"" } else { "x" }));
                if wide {
                    w.int(3).int(4);
                }
                w.end();
            });
            let want = if wide {
                "row 2 has 3 fields"
            } else {
                "row 2 has 1 fields"
            };
            assert!(csv.contains(want), "{csv}");
            assert_eq!(csv, typed);
        }
    }
}
