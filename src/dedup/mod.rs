//! `sudoku-batch dedup`: keep the first occurrence of every puzzle — exactly the same givens, or
//! (`--by canon`) the same puzzle up to equivalence — and write the kept input lines unchanged,
//! in input order.
//!
//! Keys are computed on every core by [`keys::scan`]; the in-order writer keeps one entry per
//! distinct puzzle: its 128-bit key and where it was first seen, packed in 24 bytes, in a hash
//! table (about 40–60 bytes per distinct puzzle with the table's spare room; the README gives the
//! measured figure). A line that is not a puzzle is kept, reported on stderr with its file and
//! line, and counted: nothing disappears silently. Corpora beyond one machine's memory go
//! through Spark (README, "Beyond one machine").

pub mod keys;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use crate::human::group;
use crate::input::Input;
use crate::run::{self, rows, Columns, OutputFormat, RowWriter};
use keys::why;
pub use keys::By;

/// A whole `dedup` run.
#[derive(Clone, Debug)]
pub struct Request {
    pub by: By,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// Where the kept lines go; `None` for stdout.
    pub output: Option<PathBuf>,
    /// Where one CSV row per dropped line goes.
    pub report: Option<PathBuf>,
    /// No summary on stderr (unreadable lines are still reported).
    pub quiet: bool,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Lines that were not blank or comments.
    pub lines: u64,
    /// Lines written (first occurrences and unreadable lines).
    pub kept: u64,
    /// Lines dropped as duplicates of an earlier one.
    pub dropped: u64,
    /// Lines that were not puzzles (kept, and reported).
    pub unreadable: u64,
    /// Distinct puzzles seen.
    pub distinct: u64,
}

/// How a run that did not fail ended.
#[derive(Debug)]
pub enum Ended {
    Done(Counts),
    /// The reader of stdout closed it (`| head`): not a failure.
    ClosedPipe,
}

/// The `--report` columns.
pub static REPORT_COLUMNS: Columns = Columns {
    names: &["file", "line", "duplicate_of_file", "duplicate_of_line"],
    status: None,
    counted: false,
};

/// Keys are already uniform hashes: the table uses their low bits as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u128(&mut self, v: u128) {
        self.0 = v as u64;
    }
}

/// Where a puzzle was first seen: input index (16 bits) and line (48 bits).
fn place(file: usize, line: u64) -> u64 {
    ((file as u64) << 48) | (line & ((1 << 48) - 1))
}

/// Runs `dedup` on `inputs`.
pub fn execute(inputs: &[Input], req: &Request) -> Result<Ended, run::Error> {
    let open = |p: &PathBuf| -> Result<BufWriter<std::fs::File>, run::Error> {
        if run::output::overwrites_input(p, inputs.iter().filter_map(|i| i.path.as_deref())) {
            return Err(run::Error::OutputFile(format!(
                "{}: the output file is also an input; writing it would destroy the input",
                p.display()
            )));
        }
        std::fs::File::create(p)
            .map(|f| BufWriter::with_capacity(256 * 1024, f))
            .map_err(|e| run::Error::OutputFile(run::output::cannot_create(p, &e)))
    };
    let mut out: Box<dyn Write> = match &req.output {
        None => Box::new(BufWriter::with_capacity(256 * 1024, io::stdout().lock())),
        Some(p) => Box::new(open(p)?),
    };
    let mut report = match &req.report {
        None => None,
        Some(p) => {
            let mut w = open(p)?;
            let mut header = Vec::new();
            REPORT_COLUMNS.write_header(&mut header, OutputFormat::Csv, false);
            w.write_all(&header)
                .map_err(|e| run::Error::OutputFile(format!("{}: {e}", p.display())))?;
            Some(w)
        }
    };
    let mut seen: HashMap<u128, u64, BuildHasherDefault<KeyHasher>> = HashMap::default();
    let mut counts = Counts::default();
    let mut report_failed: Option<io::Error> = None;
    let result = keys::scan(inputs, req.by, req.threads, &mut |file, rec, key| {
        counts.lines += 1;
        let Some(key) = key else {
            counts.unreadable += 1;
            counts.kept += 1;
            if !req.quiet {
                eprintln!(
                    "sudoku-batch: {}:{}: not a valid puzzle, kept as it is: {}",
                    inputs[file].name,
                    rec.line,
                    why(rec)
                );
            }
            out.write_all(&rec.text)?;
            return out.write_all(b"\n");
        };
        match seen.get(&key) {
            None => {
                seen.insert(key, place(file, rec.line));
                counts.kept += 1;
                out.write_all(&rec.text)?;
                out.write_all(b"\n")
            }
            Some(&first) => {
                counts.dropped += 1;
                if let Some(w) = report.as_mut() {
                    let mut r = RowWriter::new(OutputFormat::Csv, &REPORT_COLUMNS, 96);
                    r.text(Some(&inputs[file].name))
                        .int(rec.line)
                        .text(Some(&inputs[(first >> 48) as usize].name))
                        .int(first & ((1 << 48) - 1));
                    r.end();
                    return rows::write_row(w, r, &mut report_failed);
                }
                Ok(())
            }
        }
    });
    let result = result.and_then(|()| out.flush().map_err(run::Error::Output));
    if let Some(e) = report_failed {
        let name = req.report.as_ref().map(|p| p.display().to_string());
        return Err(run::Error::OutputFile(format!(
            "{}: {e}",
            name.unwrap_or_default()
        )));
    }
    if let Some(w) = report.as_mut() {
        w.flush().map_err(|e| {
            run::Error::OutputFile(format!(
                "{}: {e}",
                req.report
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            ))
        })?;
    }
    match result {
        Err(e) if e.is_broken_pipe() && req.output.is_none() => return Ok(Ended::ClosedPipe),
        Err(run::Error::Output(e)) => {
            let name = req
                .output
                .as_ref()
                .map_or("-".to_string(), |p| p.display().to_string());
            return Err(run::Error::OutputFile(format!("{name}: {e}")));
        }
        Err(e) => return Err(e),
        Ok(()) => {}
    }
    counts.distinct = seen.len() as u64;
    if !req.quiet {
        eprintln!(
            "sudoku-batch: dedup --by {}: {} lines: {} kept ({} distinct puzzles, {} not puzzles), {} duplicates dropped",
            req.by.as_str(),
            group(counts.lines),
            group(counts.kept),
            group(counts.distinct),
            group(counts.unreadable),
            group(counts.dropped)
        );
    }
    Ok(Ended::Done(counts))
}
