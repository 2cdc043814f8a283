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
//! Memory stays bounded whatever the input: a row group is written as soon as it holds
//! [`GROUP_ROWS`] rows or [`GROUP_BYTES`] bytes of text, and only one is held at a time. The
//! parsing and encoding run on a thread of their own, fed through a short bounded queue, so the
//! thread that writes rows in order hands a chunk over and goes back to waiting on the workers.
//!
//! Empty CSV fields are nulls (as JSON lines writes them). Strings are UTF-8 byte arrays;
//! dictionary encoding is on only for the low-cardinality word columns (status, class, …), where
//! it pays; on puzzles and solutions it would only cost time.

use std::io::{self, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use parquet::basic::{Compression as Codec, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::format::KeyValue;
use parquet::schema::types::{ColumnPath, Type};

/// Rows per row group at most.
pub const GROUP_ROWS: usize = 1 << 16;
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
        | "automorphisms" | "duplicate_of_line" => Kind::Int,
        "rating" | "er" | "ep" | "ed" => Kind::Float,
        "singles" => Kind::Bool,
        _ => Kind::Text,
    }
}

/// Text columns with few distinct values, worth a dictionary.
fn is_word_column(name: &str) -> bool {
    matches!(
        name,
        "status" | "class" | "symmetry" | "split" | "verdict" | "er_technique" | "file"
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

/// The schema of `names` (all columns optional: an empty CSV field is a null).
fn schema(names: &[String]) -> parquet::errors::Result<Type> {
    let mut fields = Vec::with_capacity(names.len());
    for name in names {
        let (physical, logical) = match kind_of(name) {
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

/// One column's values for the row group being gathered.
enum Column {
    Int(Vec<i64>),
    Float(Vec<f64>),
    Bool(Vec<bool>),
    /// All the values' bytes, and where each ends.
    Text(Vec<u8>, Vec<usize>),
}

struct Buffer {
    values: Column,
    /// Per row: 1 when the value is there, 0 for null.
    defs: Vec<i16>,
}

impl Buffer {
    fn new(kind: Kind) -> Buffer {
        let values = match kind {
            Kind::Int => Column::Int(Vec::new()),
            Kind::Float => Column::Float(Vec::new()),
            Kind::Bool => Column::Bool(Vec::new()),
            Kind::Text => Column::Text(Vec::new(), Vec::new()),
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
            Column::Text(bytes, ends) => {
                text()?;
                bytes.extend_from_slice(field);
                ends.push(bytes.len());
            }
        }
        self.defs.push(1);
        Ok(())
    }

    fn text_bytes(&self) -> usize {
        match &self.values {
            Column::Text(b, _) => b.len(),
            _ => 0,
        }
    }

    /// Writes the gathered values into `w` and empties the buffer.
    fn write(
        &mut self,
        w: &mut parquet::file::writer::SerializedColumnWriter<'_>,
    ) -> parquet::errors::Result<()> {
        let defs = Some(&self.defs[..]);
        match &mut self.values {
            Column::Int(v) => {
                w.typed::<Int64Type>().write_batch(v, defs, None)?;
                v.clear();
            }
            Column::Float(v) => {
                w.typed::<DoubleType>().write_batch(v, defs, None)?;
                v.clear();
            }
            Column::Bool(v) => {
                w.typed::<BoolType>().write_batch(v, defs, None)?;
                v.clear();
            }
            Column::Text(bytes, ends) => {
                // One shared buffer, sliced: no allocation per value.
                let all = bytes::Bytes::from(std::mem::take(bytes));
                let mut start = 0;
                let values: Vec<ByteArray> = ends
                    .iter()
                    .map(|&end| {
                        let v = ByteArray::from(all.slice(start..end));
                        start = end;
                        v
                    })
                    .collect();
                w.typed::<ByteArrayType>()
                    .write_batch(&values, defs, None)?;
                ends.clear();
            }
        }
        self.defs.clear();
        Ok(())
    }
}

/// A non-negative or negative decimal integer, or `None`.
fn parse_int(field: &[u8]) -> Option<i64> {
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

/// The encoder: parses CSV into column buffers and writes row groups into `out`.
struct Encoder<W: Write + Send> {
    writer: SerializedFileWriter<W>,
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
}

impl<W: Write + Send> Encoder<W> {
    fn new(
        out: W,
        names: Vec<String>,
        compression: Compression,
        provenance: Option<String>,
    ) -> parquet::errors::Result<Self> {
        let mut props = WriterProperties::builder()
            .set_compression(compression.codec())
            .set_dictionary_enabled(false)
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_created_by(format!("sudoku-batch {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(
                provenance.map(|p| vec![KeyValue::new(PROVENANCE_KEY.into(), p)]),
            );
        for name in &names {
            if is_word_column(name) {
                props = props.set_column_dictionary_enabled(ColumnPath::from(name.as_str()), true);
            } else if kind_of(name) == Kind::Text {
                // Min/max of 81-character grids say nothing useful and cost a comparison a row.
                props = props.set_column_statistics_enabled(
                    ColumnPath::from(name.as_str()),
                    EnabledStatistics::None,
                );
            }
        }
        let writer =
            SerializedFileWriter::new(out, Arc::new(schema(&names)?), Arc::new(props.build()))?;
        let columns = names.iter().map(|n| Buffer::new(kind_of(n))).collect();
        Ok(Encoder {
            writer,
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
            let written = self.written;
            col.push(&line[start..end]).map_err(|e| {
                io::Error::other(format!(
                    "row {}, column {}: {e}",
                    written + 1,
                    self.names[i]
                ))
            })?;
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

    /// Counts a gathered row; writes the row group when it is full.
    fn row_done(&mut self) -> io::Result<()> {
        self.rows += 1;
        self.written += 1;
        // The text size is checked every 256 rows: rows are at most a few kilobytes.
        if self.rows >= GROUP_ROWS
            || (self.rows % 256 == 0
                && self.columns.iter().map(Buffer::text_bytes).sum::<usize>() >= GROUP_BYTES)
        {
            self.flush_group()?;
        }
        Ok(())
    }

    /// Writes the gathered rows as one row group.
    fn flush_group(&mut self) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let mut group = self.writer.next_row_group().map_err(io::Error::other)?;
        for col in &mut self.columns {
            let mut w = group
                .next_column()
                .map_err(io::Error::other)?
                .ok_or_else(|| io::Error::other("the schema has fewer columns than the rows"))?;
            col.write(&mut w).map_err(io::Error::other)?;
            w.close().map_err(io::Error::other)?;
        }
        group.close().map_err(io::Error::other)?;
        self.rows = 0;
        Ok(())
    }

    /// Ends the stream: a last row without its newline, the last row group, the footer.
    fn finish(mut self) -> io::Result<W> {
        self.feed(&[])?;
        self.flush_group()?;
        self.writer.into_inner().map_err(io::Error::other)
    }
}

/// A `Write` that takes a CSV stream without a header (rows of `names`, then `file` when a run
/// has several inputs) and writes it as a Parquet file into `W`. Call [`ParquetSink::finish`]
/// to write the footer: a sink dropped without it leaves a file no reader accepts.
pub struct ParquetSink<W: Write + Send + 'static> {
    queue: Option<SyncSender<Vec<u8>>>,
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
        let mut encoder =
            Encoder::new(out, names, compression, provenance).map_err(io::Error::other)?;
        let (tx, rx): (SyncSender<Vec<u8>>, Receiver<Vec<u8>>) = sync_channel(QUEUE);
        let handle = std::thread::Builder::new()
            .name("parquet".into())
            .spawn(move || {
                for piece in rx {
                    encoder.feed(&piece)?;
                }
                encoder.finish()
            })?;
        Ok(ParquetSink {
            queue: Some(tx),
            encoder: Some(handle),
        })
    }

    /// The encoder's error, once it has stopped early.
    fn stopped(&mut self) -> io::Error {
        self.queue = None;
        match self.encoder.take().map(JoinHandle::join) {
            Some(Ok(Err(e))) => e,
            Some(Err(_)) => io::Error::other("the Parquet encoder failed"),
            _ => io::Error::other("the Parquet encoder has stopped"),
        }
    }

    /// Writes the last row group and the footer, and returns the underlying writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.queue = None;
        match self.encoder.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io::Error::other("the Parquet encoder failed")),
            None => Err(io::Error::other("the Parquet encoder has stopped")),
        }
    }
}

impl<W: Write + Send + 'static> Write for ParquetSink<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let sent = match &self.queue {
            Some(q) => q.send(buf.to_vec()).is_ok(),
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
        let mut sink = ParquetSink::new(
            Vec::new(),
            names(&["line", "puzzle"]),
            Compression::Zstd,
            None,
        )
        .unwrap();
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

    #[test]
    fn a_bad_field_is_an_error_not_a_crash() {
        let mut sink =
            ParquetSink::new(Vec::new(), names(&["line"]), Compression::None, None).unwrap();
        sink.write_all(b"x\n").unwrap();
        // The error comes back at the latest when the stream ends.
        let e = sink.finish().unwrap_err();
        assert!(e.to_string().contains("not an integer"), "{e}");
        assert_eq!(parse_int(b"-12"), Some(-12));
        assert_eq!(parse_int(b"99999999999999999999"), None);
        assert_eq!(kind_of("solve_ns"), Kind::Int);
    }
}
