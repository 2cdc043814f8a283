//! Report writers: one output row per puzzle as CSV or JSON lines, and the run summary.
//!
//! Rows are formatted by the worker that solved them, into that chunk's own byte buffer, so
//! formatting runs on every core and the single writer thread only copies finished bytes out in
//! order. The column set is a contract with downstream tools: [`COLUMNS`] may grow at the end,
//! never be renamed or reordered.
//!
//! The summary keeps solve times in a fixed-size log-linear histogram ([`TimeHistogram`]) rather
//! than a list, so a run over a billion puzzles still reports a median in constant memory.

use std::fmt;
use std::io::{self, Write};
use std::time::Duration;

use crate::grid::Grid;

/// The output columns, in order. With several input files a `file` column follows.
pub const COLUMNS: [&str; 8] = [
    "line",
    "puzzle",
    "status",
    "solutions",
    "solution",
    "guesses",
    "solve_ns",
    "error",
];

/// What became of one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Exactly one solution (with `--first`: at least one).
    Solved,
    /// At least two solutions.
    Multiple,
    /// No solution.
    Unsolvable,
    /// Not a puzzle, or givens that break a rule.
    Invalid,
    /// The guess budget (`--max-guesses`) ran out first; `solutions` counts what was found.
    GaveUp,
}

impl Status {
    /// All statuses, in the order summaries list them.
    pub const ALL: [Status; 5] = [
        Status::Solved,
        Status::Multiple,
        Status::Unsolvable,
        Status::Invalid,
        Status::GaveUp,
    ];

    /// The status for a solution count.
    pub fn from_count(solutions: u32) -> Status {
        match solutions {
            0 => Status::Unsolvable,
            1 => Status::Solved,
            _ => Status::Multiple,
        }
    }

    /// The word written in the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Multiple => "multiple",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::GaveUp => "gave-up",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// Comma-separated values with a header row.
    #[default]
    Csv,
    /// One JSON object per line, same fields; empty fields are `null`.
    Jsonl,
}

/// One output row.
#[derive(Clone, Debug)]
pub struct Row<'a> {
    pub line: u64,
    /// The normalized puzzle, when the line could be read as one.
    pub puzzle: Option<&'a Grid>,
    pub status: Status,
    pub solutions: u32,
    pub solution: Option<&'a Grid>,
    pub guesses: u64,
    pub solve_ns: u64,
    /// Why the puzzle is invalid.
    pub error: Option<&'a str>,
    /// The input's name, when the run has several inputs.
    pub file: Option<&'a str>,
}

/// Writes the header (CSV only; JSON lines carry their names in every row).
pub fn write_header(out: &mut Vec<u8>, format: OutputFormat, with_file: bool) {
    if format == OutputFormat::Csv {
        out.extend_from_slice(COLUMNS.join(",").as_bytes());
        if with_file {
            out.extend_from_slice(b",file");
        }
        out.push(b'\n');
    }
}

/// Formats rows into one byte buffer (a chunk's worth), in the chosen format.
pub struct RowWriter {
    inner: RowSink,
}

enum RowSink {
    Csv(Box<csv::Writer<Vec<u8>>>),
    Jsonl(Vec<u8>),
}

impl RowWriter {
    /// A writer into a fresh buffer of `capacity` bytes.
    pub fn new(format: OutputFormat, capacity: usize) -> RowWriter {
        let buf = Vec::with_capacity(capacity);
        let inner = match format {
            OutputFormat::Csv => RowSink::Csv(Box::new(
                csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(buf),
            )),
            OutputFormat::Jsonl => RowSink::Jsonl(buf),
        };
        RowWriter { inner }
    }

    /// Appends one row.
    pub fn write(&mut self, row: &Row<'_>) {
        let mut puzzle = [0u8; 81];
        let mut solution = [0u8; 81];
        let puzzle: &[u8] = match row.puzzle {
            Some(g) => {
                g.write_line(&mut puzzle);
                &puzzle
            }
            None => b"",
        };
        let solution: &[u8] = match row.solution {
            Some(g) => {
                g.write_line(&mut solution);
                &solution
            }
            None => b"",
        };
        match &mut self.inner {
            RowSink::Csv(w) => write_csv_row(w, row, puzzle, solution),
            RowSink::Jsonl(out) => write_json_row(out, row, puzzle, solution),
        }
    }

    /// The formatted bytes.
    pub fn finish(self) -> Vec<u8> {
        match self.inner {
            // The sink is a Vec, which never fails, so into_inner only hands the buffer back.
            RowSink::Csv(w) => w.into_inner().unwrap_or_default(),
            RowSink::Jsonl(out) => out,
        }
    }
}

fn write_csv_row(w: &mut csv::Writer<Vec<u8>>, row: &Row<'_>, puzzle: &[u8], solution: &[u8]) {
    let mut n1 = Num::new();
    let mut n2 = Num::new();
    let mut n3 = Num::new();
    let mut n4 = Num::new();
    let fields: [&[u8]; 8] = [
        n1.fmt(row.line),
        puzzle,
        row.status.as_str().as_bytes(),
        n2.fmt(u64::from(row.solutions)),
        solution,
        n3.fmt(row.guesses),
        n4.fmt(row.solve_ns),
        row.error.unwrap_or("").as_bytes(),
    ];
    // The sink is a Vec: writing cannot fail.
    let _ = match row.file {
        Some(file) => w.write_record(fields.iter().copied().chain([file.as_bytes()])),
        None => w.write_record(fields),
    };
}

fn write_json_row(out: &mut Vec<u8>, row: &Row<'_>, puzzle: &[u8], solution: &[u8]) {
    fn opt_str(out: &mut Vec<u8>, s: &[u8]) {
        if s.is_empty() {
            out.extend_from_slice(b"null");
        } else {
            out.push(b'"');
            out.extend_from_slice(s);
            out.push(b'"');
        }
    }
    fn text(out: &mut Vec<u8>, s: Option<&str>) {
        match s {
            // Serializing a &str into a Vec cannot fail.
            Some(s) => {
                let _ = serde_json::to_writer(&mut *out, s);
            }
            None => out.extend_from_slice(b"null"),
        }
    }
    let mut n = Num::new();
    out.extend_from_slice(b"{\"line\":");
    out.extend_from_slice(n.fmt(row.line));
    out.extend_from_slice(b",\"puzzle\":");
    opt_str(out, puzzle);
    out.extend_from_slice(b",\"status\":\"");
    out.extend_from_slice(row.status.as_str().as_bytes());
    out.extend_from_slice(b"\",\"solutions\":");
    out.extend_from_slice(n.fmt(u64::from(row.solutions)));
    out.extend_from_slice(b",\"solution\":");
    opt_str(out, solution);
    out.extend_from_slice(b",\"guesses\":");
    out.extend_from_slice(n.fmt(row.guesses));
    out.extend_from_slice(b",\"solve_ns\":");
    out.extend_from_slice(n.fmt(row.solve_ns));
    out.extend_from_slice(b",\"error\":");
    text(out, row.error);
    if row.file.is_some() {
        out.extend_from_slice(b",\"file\":");
        text(out, row.file);
    }
    out.extend_from_slice(b"}\n");
}

/// A decimal rendering of a `u64` on the stack (the hot path formats four numbers per row).
struct Num([u8; 20]);

impl Num {
    fn new() -> Num {
        Num([0; 20])
    }
    fn fmt(&mut self, mut v: u64) -> &[u8] {
        let mut i = self.0.len();
        loop {
            i -= 1;
            self.0[i] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                return &self.0[i..];
            }
        }
    }
}

/// Solve times in log-linear buckets: 32 per power of two, so any quantile it reports is
/// within about 2 % of the true value, in constant memory.
#[derive(Clone)]
pub struct TimeHistogram {
    counts: Box<[u64; HIST_BUCKETS]>,
    total: u64,
    sum_ns: u128,
}

const SUB_BITS: u32 = 5;
const HIST_BUCKETS: usize = (64 << SUB_BITS) as usize;

impl Default for TimeHistogram {
    fn default() -> Self {
        TimeHistogram {
            counts: Box::new([0; HIST_BUCKETS]),
            total: 0,
            sum_ns: 0,
        }
    }
}

impl TimeHistogram {
    fn bucket(ns: u64) -> usize {
        if ns < (1 << SUB_BITS) {
            return ns as usize;
        }
        let exp = 63 - ns.leading_zeros(); // >= SUB_BITS
        let mantissa = (ns >> (exp - SUB_BITS)) as usize & ((1 << SUB_BITS) - 1);
        (((exp - SUB_BITS + 1) as usize) << SUB_BITS) | mantissa
    }

    /// The middle of a bucket's range, in nanoseconds.
    fn value(bucket: usize) -> f64 {
        let group = bucket >> SUB_BITS;
        let mantissa = (bucket & ((1 << SUB_BITS) - 1)) as f64;
        if group == 0 {
            return mantissa;
        }
        let exp = group as i32 - 1 + SUB_BITS as i32;
        let width = 2f64.powi(exp - SUB_BITS as i32);
        2f64.powi(exp) + mantissa * width + width / 2.0
    }

    /// Records one time.
    pub fn add(&mut self, ns: u64) {
        self.counts[Self::bucket(ns)] += 1;
        self.total += 1;
        self.sum_ns += u128::from(ns);
    }

    /// How many times were recorded.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The mean, exact.
    pub fn mean_ns(&self) -> Option<f64> {
        (self.total > 0).then(|| self.sum_ns as f64 / self.total as f64)
    }

    /// The `q`-quantile (0.5 = median), approximate as described on the type.
    pub fn quantile_ns(&self, q: f64) -> Option<f64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Some(Self::value(i));
            }
        }
        None
    }
}

/// What a whole run did: counts by status, wall time, solve times.
#[derive(Clone, Default)]
pub struct Summary {
    counts: [u64; Status::ALL.len()],
    /// Solve times of the puzzles that were solved (all but `invalid`), when timed.
    pub times: TimeHistogram,
    /// Wall-clock time of the run.
    pub wall: Duration,
    /// Whether the run was stopped by a signal before the end of its input.
    pub interrupted: bool,
}

impl Summary {
    /// Counts `n` puzzles that got `status`.
    pub fn add(&mut self, status: Status, n: u64) {
        self.counts[status.index()] += n;
    }

    /// How many puzzles got `status`.
    pub fn count(&self, status: Status) -> u64 {
        self.counts[status.index()]
    }

    /// How many rows were written.
    pub fn puzzles(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Writes the human summary (what `--quiet` silences).
    pub fn write_to(&self, w: &mut dyn Write) -> io::Result<()> {
        let secs = self.wall.as_secs_f64();
        let n = self.puzzles();
        let rate = if secs > 0.0 { n as f64 / secs } else { 0.0 };
        let counts: Vec<String> = Status::ALL
            .iter()
            .filter(|&&s| s != Status::GaveUp || self.count(s) > 0)
            .map(|&s| format!("{} {}", group(self.count(s)), s))
            .collect();
        writeln!(
            w,
            "sudoku-batch: {} puzzles in {:.3} s ({}/s): {}",
            group(n),
            secs,
            group(rate.round() as u64),
            counts.join(", ")
        )?;
        if let (Some(mean), Some(median)) = (self.times.mean_ns(), self.times.quantile_ns(0.5)) {
            writeln!(
                w,
                "sudoku-batch: solve time per puzzle: mean {}, median ≈ {}",
                human_ns(mean),
                human_ns(median)
            )?;
        }
        Ok(())
    }
}

/// `1234567` as `1,234,567`.
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A duration in nanoseconds in the unit that reads best.
pub fn human_ns(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.1} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> Grid {
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .parse()
            .unwrap()
    }

    #[test]
    fn csv_rows_quote_what_needs_it() {
        let g = grid();
        let mut out = Vec::new();
        write_header(&mut out, OutputFormat::Csv, true);
        let mut w = RowWriter::new(OutputFormat::Csv, 0);
        w.write(&Row {
            line: 7,
            puzzle: Some(&g),
            status: Status::Invalid,
            solutions: 0,
            solution: None,
            guesses: 0,
            solve_ns: 0,
            error: Some("unexpected character '\"' at cell 3"),
            file: Some("a,b.txt"),
        });
        out.extend(w.finish());
        let text = String::from_utf8(out).unwrap();
        let mut rdr = csv::Reader::from_reader(text.as_bytes());
        let headers = rdr.headers().unwrap().clone();
        assert_eq!(
            headers.iter().collect::<Vec<_>>(),
            [COLUMNS.as_slice(), &["file"]].concat()
        );
        let rec = rdr.records().next().unwrap().unwrap();
        assert_eq!(&rec[0], "7");
        assert_eq!(&rec[1], g.to_line());
        assert_eq!(&rec[2], "invalid");
        assert_eq!(&rec[7], "unexpected character '\"' at cell 3");
        assert_eq!(&rec[8], "a,b.txt");
    }

    #[test]
    fn json_rows_parse_back() {
        let g = grid();
        let mut w = RowWriter::new(OutputFormat::Jsonl, 0);
        w.write(&Row {
            line: 12345678901,
            puzzle: Some(&g),
            status: Status::Solved,
            solutions: 1,
            solution: Some(&g),
            guesses: 3,
            solve_ns: 99,
            error: None,
            file: None,
        });
        let out = w.finish();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["line"], 12345678901u64);
        assert_eq!(v["status"], "solved");
        assert_eq!(v["solution"], g.to_line());
        assert_eq!(v["guesses"], 3);
        assert!(v["error"].is_null());
        assert!(v.get("file").is_none());
        assert_eq!(out.last(), Some(&b'\n'));
    }

    #[test]
    fn histogram_quantiles_are_close() {
        let mut h = TimeHistogram::default();
        for ns in 1..=100_000u64 {
            h.add(ns);
        }
        let median = h.quantile_ns(0.5).unwrap();
        assert!((median - 50_000.0).abs() / 50_000.0 < 0.03, "{median}");
        let p99 = h.quantile_ns(0.99).unwrap();
        assert!((p99 - 99_000.0).abs() / 99_000.0 < 0.03, "{p99}");
        assert_eq!(h.mean_ns(), Some(50_000.5));
        assert_eq!(h.quantile_ns(0.0), Some(1.0));
        h.add(u64::MAX);
        assert!(h.quantile_ns(1.0).unwrap() > 1e18);
    }

    #[test]
    fn grouping_and_units() {
        assert_eq!(group(0), "0");
        assert_eq!(group(1234567), "1,234,567");
        assert_eq!(group(123), "123");
        assert_eq!(human_ns(1500.0), "1.5 µs");
    }
}
