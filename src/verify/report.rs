//! What `verify` shows a user: a `FILE:LINE: verdict: why` line for every row that is not right,
//! the summary, and with `-o` one CSV row per input row.
//!
//! The report goes to stdout, or to stderr when the CSV takes stdout (`-o -`). Both are written
//! in input order as verdicts arrive, so a huge file reports as it goes.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use super::{Summary, Verdict};
use crate::input::{Input, PairOptions};
use crate::run::output::RowsFile;
use crate::run::{self, rows, Columns, OutputFormat, RowWriter};

/// The `-o` CSV columns (a `file` column follows with several inputs).
pub static COLUMNS: Columns = Columns {
    names: &["line", "puzzle", "solution", "verdict", "error", "expected"],
    status: None,
    counted: false,
};

/// A whole `verify` run.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub pairs: PairOptions,
    /// `-o`: `None` none, `Some(None)` stdout (`-`), `Some(Some(path))` a file.
    pub output: Option<Option<PathBuf>>,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// Rows per chunk.
    pub chunk_size: usize,
    /// No report and no summary.
    pub quiet: bool,
    /// The `-o` rows' format (CSV, or Parquet with a file).
    pub format: OutputFormat,
    /// The provenance record of an `-o FILE` (none: `--no-provenance`).
    pub provenance: Option<String>,
}

/// How a run that did not fail ended.
#[derive(Debug)]
pub enum Ended {
    /// Every row was checked; the summary says whether all were right.
    Checked(Summary),
    /// The reader of stdout closed it (`| head`): not a failure.
    ClosedPipe,
}

/// Runs `verify` on `inputs`: report, summary and `-o` CSV as [`Request`] asks.
pub fn execute(inputs: &[Input], req: &Request) -> Result<Ended, run::Error> {
    let csv_to_stdout = matches!(req.output, Some(None));
    let with_file = inputs.len() > 1;
    let mut csv_out: Option<RowsFile> = match &req.output {
        None => None,
        Some(None) => Some(
            RowsFile::stdout(&COLUMNS, req.format, with_file)
                .map_err(|e| run::Error::OutputFile(e.to_string()))?,
        ),
        Some(Some(path)) => {
            if crate::run::output::overwrites_input(
                path,
                inputs.iter().filter_map(|i| i.path.as_deref()),
            ) {
                return Err(run::Error::OutputFile(format!(
                    "{}: the output file is also an input; writing it would destroy the input",
                    path.display()
                )));
            }
            Some(
                RowsFile::create(
                    path,
                    &COLUMNS,
                    req.format,
                    with_file,
                    req.provenance.clone(),
                )
                .map_err(run::Error::OutputFile)?,
            )
        }
    };
    let csv_name = match &req.output {
        Some(Some(p)) => p.display().to_string(),
        _ => "-".to_string(),
    };
    let csv_error = |e: io::Error| {
        if e.kind() == io::ErrorKind::BrokenPipe && csv_to_stdout {
            run::Error::Output(e)
        } else {
            run::Error::OutputFile(format!("{csv_name}: {e}"))
        }
    };
    let mut report: Box<dyn Write> = if csv_to_stdout {
        Box::new(io::stderr())
    } else {
        Box::new(BufWriter::new(io::stdout()))
    };
    let started = Instant::now();
    let mut csv_failed: Option<io::Error> = None;
    let result = super::run(
        inputs,
        &req.pairs,
        req.threads,
        req.chunk_size.max(1),
        &mut |file, row| {
            let name = &inputs[file].name;
            if row.verdict != Verdict::Right && !req.quiet {
                writeln!(
                    report,
                    "{name}:{}: {}: {}",
                    row.line,
                    row.verdict.as_str(),
                    row.error.as_deref().unwrap_or("")
                )?;
            }
            if let Some(w) = csv_out.as_mut() {
                let mut r = RowWriter::new(OutputFormat::Csv, &COLUMNS, 400);
                r.int(row.line)
                    .grid(row.puzzle.as_ref())
                    .grid(row.solution.as_ref())
                    .word(row.verdict.as_str())
                    .text(row.error.as_deref())
                    .grid(row.expected.as_ref());
                if with_file {
                    r.text(Some(name));
                }
                r.end();
                rows::write_row(w, r, &mut csv_failed)?;
            }
            Ok(())
        },
    );
    let flushed = csv_out.as_mut().map_or(Ok(()), |w| w.flush());
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            let _ = report.flush();
            if let Some(e) = csv_failed {
                return closed(csv_error(e));
            }
            return closed(e);
        }
    };
    if let Err(e) = flushed {
        return closed(csv_error(e));
    }
    if let Some(out) = csv_out {
        out.finish().map_err(run::Error::OutputFile)?;
    }
    if !req.quiet {
        let r = writeln!(
            report,
            "sudoku-batch: verify: {} in {:.3} s",
            summary.line(),
            started.elapsed().as_secs_f64()
        )
        .and_then(|()| report.flush());
        if let Err(e) = r {
            return closed(run::Error::Output(e));
        }
    }
    Ok(Ended::Checked(summary))
}

/// A closed stdout is the reader's choice, not a failure.
fn closed(e: run::Error) -> Result<Ended, run::Error> {
    e.unless_closed(Ended::ClosedPipe)
}
