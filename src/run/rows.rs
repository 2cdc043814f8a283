//! Output rows, formatted by hand as CSV or JSON lines for every per-puzzle command.
//!
//! A command names its columns once ([`Columns`]) and then writes each row field by field into a
//! [`RowWriter`], which owns the format: CSV quoting (exactly the `csv` crate's "quote when
//! necessary" rule, so files stay byte-identical to what earlier versions wrote), JSON escaping,
//! and the `null` that an empty field becomes in JSON lines. Rows are formatted by the worker that
//! produced them, into its chunk's own buffer, so formatting runs on every core and the single
//! writer thread only copies finished bytes out in order.
//!
//! Why by hand: the csv crate's writer checks and copies every field through a general state
//! machine; on easy corpora formatting was a visible share of `solve`'s time, and the fields here
//! are mostly numbers and 81-cell grids that never need quoting.

use super::parquet::Batch;
use crate::grid::Grid;

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// Comma-separated values with a header row.
    #[default]
    Csv,
    /// One JSON object per line, same fields; empty fields are `null`.
    Jsonl,
    /// A Parquet file with typed columns (see [`super::parquet`]): the rows are formatted as CSV
    /// without a header and turned into columns on their way to the file.
    Parquet(super::parquet::Compression),
}

/// A command's output columns. With several inputs a `file` column follows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Columns {
    /// The column names, in order. The first is the row's key (`line`, or `index` for
    /// `generate`), which `--resume` reads back.
    pub names: &'static [&'static str],
    /// The column holding the row's status, if any (`--resume` checks it is a known word).
    pub status: Option<usize>,
    /// Rows carry no key (`generate`'s bare puzzle lines): `--resume` counts complete rows, and
    /// the resume point's `line` is how many there are.
    pub counted: bool,
}

impl Columns {
    /// The header line (CSV only; JSON lines name their fields in every row).
    pub fn write_header(&self, out: &mut Vec<u8>, format: OutputFormat, with_file: bool) {
        if format == OutputFormat::Csv {
            out.extend_from_slice(self.names.join(",").as_bytes());
            if with_file {
                out.extend_from_slice(b",file");
            }
            out.push(b'\n');
        }
    }
}

/// "00" to "99", for formatting numbers two digits at a time.
static DIGIT_PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// Formats rows into one byte buffer (a chunk's worth).
pub struct RowWriter {
    format: OutputFormat,
    columns: &'static [&'static str],
    out: Vec<u8>,
    /// Rows going to a Parquet file as typed columns ([`RowWriter::columnar`]): every field
    /// goes here instead of `out`.
    batch: Option<Box<Batch>>,
    /// Fields written in the current row.
    field: usize,
}

impl RowWriter {
    /// A writer for rows of `columns`, into a fresh buffer of `capacity` bytes.
    pub fn new(format: OutputFormat, columns: &Columns, capacity: usize) -> RowWriter {
        RowWriter {
            // Parquet is written through CSV rows (see `run::parquet`).
            format: match format {
                OutputFormat::Parquet(_) => OutputFormat::Csv,
                f => f,
            },
            columns: columns.names,
            out: Vec::with_capacity(capacity),
            batch: None,
            field: 0,
        }
    }

    /// A writer that gathers rows of `columns` (then `file` when `with_file`) straight into
    /// typed Parquet columns, with room for `rows` rows: what a run writing Parquet uses, so
    /// its rows are never formatted as CSV and parsed back (see [`Batch`]).
    pub fn columnar(columns: &Columns, with_file: bool, rows: usize) -> RowWriter {
        RowWriter {
            format: OutputFormat::Csv,
            columns: columns.names,
            out: Vec::new(),
            batch: Some(Box::new(Batch::new(columns.names, with_file, rows))),
            field: 0,
        }
    }

    /// The typed columns, when this writer gathers them: field `field` of the current row is
    /// next.
    #[inline(always)]
    fn typed(&mut self) -> Option<(&mut Batch, usize)> {
        let field = self.field;
        match &mut self.batch {
            Some(b) => {
                self.field += 1;
                Some((b, field))
            }
            None => None,
        }
    }

    /// Starts a field: the separator, and in JSON the field's name.
    #[inline(always)]
    fn open(&mut self) {
        match self.format {
            OutputFormat::Csv | OutputFormat::Parquet(_) => {
                if self.field > 0 {
                    self.out.push(b',');
                }
            }
            OutputFormat::Jsonl => {
                self.out
                    .extend_from_slice(if self.field == 0 { b"{\"" } else { b",\"" });
                let name = self.columns.get(self.field).copied().unwrap_or("file");
                self.out.extend_from_slice(name.as_bytes());
                self.out.extend_from_slice(b"\":");
            }
        }
        self.field += 1;
    }

    /// An unsigned number.
    #[inline(always)]
    pub fn int(&mut self, v: u64) -> &mut Self {
        if let Some((b, field)) = self.typed() {
            b.int(field, v);
            return self;
        }
        self.open();
        // The digits go into a fixed 20-byte block, which is appended whole (a copy of known
        // length: a few vector moves, where a copy of a few bytes of unknown length is a call to
        // memcpy) and cut back to the number's length. Two digits a step, from a table.
        let digits = v.checked_ilog10().map_or(1, |d| d as usize + 1);
        let mut buf = [0u8; 20];
        let mut i = digits;
        let mut v = v;
        while v >= 100 {
            let pair = 2 * (v % 100) as usize;
            v /= 100;
            i -= 2;
            buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        }
        if v >= 10 {
            let pair = 2 * v as usize;
            buf[..2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        } else {
            buf[0] = b'0' + v as u8;
        }
        let len = self.out.len();
        self.out.extend_from_slice(&buf);
        self.out.truncate(len + digits);
        self
    }

    /// A word from a fixed vocabulary (a status, a class): never needs quoting or escaping.
    #[inline]
    pub fn word(&mut self, w: &str) -> &mut Self {
        if let Some((b, field)) = self.typed() {
            b.text(field, w);
            return self;
        }
        self.open();
        let quote = self.format == OutputFormat::Jsonl;
        if quote {
            self.out.push(b'"');
        }
        // Byte by byte: the words are short, and a copy of unknown length calls memcpy.
        for &b in w.as_bytes() {
            self.out.push(b);
        }
        if quote {
            self.out.push(b'"');
        }
        self
    }

    /// A grid as 81 characters (`.` for blanks), or an empty field (`null`).
    #[inline]
    pub fn grid(&mut self, g: Option<&Grid>) -> &mut Self {
        match g {
            Some(g) => {
                let mut line = [0u8; 81];
                g.write_line(&mut line);
                if let Some((b, field)) = self.typed() {
                    b.ascii(field, &line);
                    return self;
                }
                // A copy of known length, which compiles to a few vector moves.
                self.open();
                let quote = self.format == OutputFormat::Jsonl;
                if quote {
                    self.out.push(b'"');
                }
                self.out.extend_from_slice(&line);
                if quote {
                    self.out.push(b'"');
                }
                self
            }
            None => self.null(),
        }
    }

    /// Characters that never need quoting or escaping (a grid in some notation, a transform).
    pub fn cells(&mut self, text: &[u8]) -> &mut Self {
        if let Some((b, field)) = self.typed() {
            b.bytes(field, text);
            return self;
        }
        self.open();
        if self.format == OutputFormat::Jsonl {
            self.out.push(b'"');
            self.out.extend_from_slice(text);
            self.out.push(b'"');
        } else {
            self.out.extend_from_slice(text);
        }
        self
    }

    /// Free text (an error message, a file name): quoted in CSV when it must be, escaped in JSON.
    pub fn text(&mut self, s: Option<&str>) -> &mut Self {
        let Some(s) = s else {
            return self.null();
        };
        if let Some((b, field)) = self.typed() {
            b.text(field, s);
            return self;
        }
        self.open();
        match self.format {
            OutputFormat::Csv | OutputFormat::Parquet(_) => csv_field(&mut self.out, s.as_bytes()),
            OutputFormat::Jsonl => {
                // Serializing a &str into a Vec cannot fail.
                let _ = serde_json::to_writer(&mut self.out, s);
            }
        }
        self
    }

    /// A number with up to `decimals` places (trailing zeros kept, so columns line up), or empty.
    pub fn float(&mut self, v: Option<f64>, decimals: usize) -> &mut Self {
        match v {
            Some(v) if v.is_finite() => {
                if let Some((b, field)) = self.typed() {
                    b.text(field, &format!("{v:.decimals$}"));
                    return self;
                }
                self.open();
                use std::io::Write;
                let _ = write!(self.out, "{v:.decimals$}");
                self
            }
            _ => self.null(),
        }
    }

    /// A number in its shortest exact decimal form (`2`, `57.375`), or empty.
    pub fn number(&mut self, v: Option<f64>) -> &mut Self {
        match v {
            Some(v) if v.is_finite() => {
                if let Some((b, field)) = self.typed() {
                    b.text(field, &format!("{v}"));
                    return self;
                }
                self.open();
                use std::io::Write;
                let _ = write!(self.out, "{v}");
                self
            }
            _ => self.null(),
        }
    }

    /// A JSON value already serialised: as it is in JSON lines, as a (quoted) text field in
    /// CSV.
    pub fn json(&mut self, json: &str) -> &mut Self {
        if let Some((b, field)) = self.typed() {
            b.text(field, json);
            return self;
        }
        self.open();
        match self.format {
            OutputFormat::Csv | OutputFormat::Parquet(_) => {
                csv_field(&mut self.out, json.as_bytes())
            }
            OutputFormat::Jsonl => self.out.extend_from_slice(json.as_bytes()),
        }
        self
    }

    /// `true` / `false`, or empty.
    pub fn boolean(&mut self, v: Option<bool>) -> &mut Self {
        match v {
            // Bare words in both formats: CSV needs no quotes, JSON has the literals.
            Some(b) => {
                let word = if b { "true" } else { "false" };
                if let Some((batch, field)) = self.typed() {
                    batch.text(field, word);
                    return self;
                }
                self.open();
                self.out.extend_from_slice(word.as_bytes());
                self
            }
            None => self.null(),
        }
    }

    /// Bytes written as they are, outside any row (a layout of its own, such as `solve
    /// --format grid`).
    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        if let Some(b) = &mut self.batch {
            b.raw();
            return self;
        }
        self.out.extend_from_slice(bytes);
        self
    }

    /// An empty field (`null` in JSON).
    #[inline]
    pub fn null(&mut self) -> &mut Self {
        if let Some((b, field)) = self.typed() {
            b.null(field);
            return self;
        }
        self.open();
        if self.format == OutputFormat::Jsonl {
            self.out.extend_from_slice(b"null");
        }
        self
    }

    /// Ends the row.
    #[inline]
    pub fn end(&mut self) {
        if let Some(b) = &mut self.batch {
            b.end_row(self.field);
            self.field = 0;
            return;
        }
        if self.format == OutputFormat::Jsonl {
            self.out.push(b'}');
        }
        self.out.push(b'\n');
        self.field = 0;
    }

    /// The formatted bytes (none from a [`RowWriter::columnar`] writer).
    pub fn finish(self) -> Vec<u8> {
        self.out
    }

    /// The formatted bytes, and the typed columns of a [`RowWriter::columnar`] writer.
    pub fn finish_rows(self) -> (Vec<u8>, Option<Box<Batch>>) {
        (self.out, self.batch)
    }
}

/// Writes a finished row to `w`. On failure the error is kept in `failed` (so the caller can
/// name the output that failed) and a stand-in of the same kind is returned, which stops a run
/// the way the original would.
pub fn write_row(
    w: &mut dyn std::io::Write,
    row: RowWriter,
    failed: &mut Option<std::io::Error>,
) -> std::io::Result<()> {
    w.write_all(&row.finish()).map_err(|e| {
        let kind = e.kind();
        *failed = Some(e);
        std::io::Error::new(kind, "an output failed")
    })
}

/// Writes one CSV field: as it is, unless it holds a comma, a quote, CR or LF; then in quotes
/// with quotes doubled (the `csv` crate's `QuoteStyle::Necessary`).
pub(crate) fn csv_field(out: &mut Vec<u8>, field: &[u8]) {
    if !field
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        out.extend_from_slice(field);
        return;
    }
    out.push(b'"');
    for &b in field {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::LEET;

    const COLS: Columns = Columns {
        names: &["line", "puzzle", "status", "note", "score", "ok"],
        status: Some(2),
        counted: false,
    };

    fn row(w: &mut RowWriter, note: Option<&str>) {
        let g: Grid = LEET.parse().unwrap();
        w.int(7)
            .grid(Some(&g))
            .word("solved")
            .text(note)
            .float(Some(1.5), 2)
            .boolean(None);
        w.end();
    }

    /// Hand CSV equals the csv crate's output for awkward text.
    #[test]
    fn csv_matches_the_csv_crate() {
        for note in [
            "plain",
            "a, comma",
            "a \"quote\"",
            "line\nbreak",
            "cr\rhere",
            "",
            " spaced ",
            "#hash",
            "ünï ©",
            "\"",
        ] {
            let mut w = RowWriter::new(OutputFormat::Csv, &COLS, 64);
            row(&mut w, Some(note));
            let mut theirs = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new());
            theirs
                .write_record(["7", &LEET.replace('0', "."), "solved", note, "1.50", ""])
                .unwrap();
            assert_eq!(
                String::from_utf8(w.finish()).unwrap(),
                String::from_utf8(theirs.into_inner().unwrap()).unwrap(),
                "{note:?}"
            );
        }
    }

    #[test]
    fn jsonl_rows_are_json_with_nulls() {
        let mut w = RowWriter::new(OutputFormat::Jsonl, &COLS, 64);
        row(&mut w, Some("say \"hi\"\n"));
        row(&mut w, None);
        let text = String::from_utf8(w.finish()).unwrap();
        let rows: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows[0]["line"], 7);
        assert_eq!(rows[0]["puzzle"].as_str().unwrap(), LEET);
        assert_eq!(rows[0]["note"], "say \"hi\"\n");
        assert_eq!(rows[0]["score"], 1.5);
        assert!(rows[0]["ok"].is_null());
        let mut w = RowWriter::new(OutputFormat::Jsonl, &COLS, 64);
        w.int(1)
            .null()
            .word("x")
            .null()
            .number(Some(2.25))
            .boolean(Some(true));
        w.end();
        let v: serde_json::Value = serde_json::from_slice(&w.finish()).unwrap();
        assert_eq!(v["ok"], true);
        assert_eq!(v["score"], 2.25);
        assert!(rows[1]["note"].is_null());
    }

    #[test]
    fn numbers_match_to_string() {
        let mut values = vec![
            0,
            9,
            10,
            99,
            100,
            101,
            999,
            1000,
            65_536,
            u64::MAX,
            u64::MAX - 1,
        ];
        let mut x = 1u64;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            values.push(x >> (x % 64));
        }
        values.extend(0..1200);
        for v in values {
            let mut w = RowWriter::new(OutputFormat::Csv, &COLS, 32);
            w.int(v);
            assert_eq!(String::from_utf8(w.finish()).unwrap(), v.to_string());
        }
    }

    #[test]
    fn header_names_the_columns() {
        let mut h = Vec::new();
        COLS.write_header(&mut h, OutputFormat::Csv, true);
        assert_eq!(h, b"line,puzzle,status,note,score,ok,file\n");
        let mut h = Vec::new();
        COLS.write_header(&mut h, OutputFormat::Jsonl, true);
        assert!(h.is_empty());
    }
}
