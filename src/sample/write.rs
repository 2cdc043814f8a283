//! Writing a sample: the kept rows, unchanged and in input order, with their `band` last — CSV,
//! JSON lines or Parquet, on stdout or through `FILE.partial` with its provenance like every
//! other command's rows ([`RowsFile`]) — and the per-band summary on stderr.
//!
//! A field is written as it was read: a CSV field as its text, a JSON value as its JSON. Where
//! the format changes, JSON lines write the columns every command types (`line`, `clues`,
//! `rating`, `er`, `singles`, … : [`kind_of`]) as numbers and booleans when their text is one, and
//! everything else as strings; Parquet types them by name the same way, as every command's
//! Parquet output does.

use std::io::{self, Write};
use std::path::PathBuf;

use super::{collect, read::BAND, Request, Sample, Value};
use crate::human::group;
use crate::input::Input;
use crate::run::files::{cannot_create, partial_path};
use crate::run::output::{overwrites_input, RowsFile};
use crate::run::parquet::{kind_of, Kind};
use crate::run::rows::csv_field;
use crate::run::{self, OutputFormat};

/// Where and how a sample is written.
#[derive(Clone, Debug)]
pub struct Output {
    /// `-o FILE`, or `None` for stdout.
    pub path: Option<PathBuf>,
    pub format: OutputFormat,
    /// The provenance record of `path` (none: stdout or `--no-provenance`).
    pub provenance: Option<String>,
    /// No summary on stderr.
    pub quiet: bool,
}

/// How a run that did not fail ended.
#[derive(Debug)]
pub enum Ended {
    /// Written; the sample says which bands were short.
    Done(Sample),
    /// The reader of stdout closed it (`| head`): not a failure.
    ClosedPipe,
    /// Stopped by SIGINT / SIGTERM before the input was read: nothing written.
    Interrupted,
}

/// Runs `sample`: reads `inputs`, writes the sample to `out` and its summary to stderr.
pub fn execute(inputs: &[Input], req: &Request, out: &Output) -> Result<Ended, run::Error> {
    check(inputs, out)?;
    let sample = collect(inputs, req)?;
    if sample.interrupted {
        eprintln!("sudoku-batch: sample: interrupted before the input was read; nothing written");
        return Ok(Ended::Interrupted);
    }
    match write(&sample, out) {
        Ok(()) => {}
        Err(e) if e.is_broken_pipe() => return Ok(Ended::ClosedPipe),
        Err(e) => return Err(e),
    }
    if !out.quiet {
        let _ = report(&sample, &mut io::stderr());
    }
    Ok(Ended::Done(sample))
}

/// Refuses an output that cannot be written, before anything is read: `-o` naming an input, a
/// missing or unwritable folder, Parquet on stdout.
pub fn check(inputs: &[Input], out: &Output) -> Result<(), run::Error> {
    if let Some(path) = &out.path {
        if overwrites_input(path, inputs.iter().filter_map(|i| i.path.as_deref())) {
            return Err(run::Error::OutputFile(format!(
                "{}: the output file is also an input; writing it would destroy the input",
                path.display()
            )));
        }
        // The rows are written at the end: a folder that is missing or not writable is found
        // now, not after a long read.
        let partial = partial_path(path);
        std::fs::File::create(&partial)
            .map_err(|e| run::Error::OutputFile(cannot_create(path, &e)))?;
        let _ = std::fs::remove_file(&partial);
    } else if let OutputFormat::Parquet(_) = out.format {
        return Err(run::Error::OutputFile(
            "--format parquet needs -o FILE: a Parquet file is binary and only readable once \
             its footer is written at the end"
                .into(),
        ));
    }
    Ok(())
}

/// Writes the rows of `sample` to `out.path` (or stdout), header first for CSV.
pub fn write(sample: &Sample, out: &Output) -> Result<(), run::Error> {
    let names = names(sample);
    let mut file = match &out.path {
        None => RowsFile::stdout_named(&names, out.format).map_err(run::Error::Output)?,
        Some(path) => {
            RowsFile::create_named(path, names.clone(), out.format, out.provenance.clone())
                .map_err(run::Error::OutputFile)?
        }
    };
    let mut buf = Vec::with_capacity(512);
    for row in &sample.rows {
        buf.clear();
        let band = Value::Text(sample.label(row).to_string());
        let fields = row.values.iter().chain(std::iter::once(&band));
        match out.format {
            OutputFormat::Jsonl => json_row(&mut buf, &names, fields),
            _ => csv_row(&mut buf, fields),
        }
        file.write_all(&buf).map_err(run::Error::Output)?;
    }
    file.flush().map_err(run::Error::Output)?;
    file.finish().map_err(run::Error::OutputFile)
}

/// The output's columns: the rows', then `band`.
pub fn names(sample: &Sample) -> Vec<String> {
    sample
        .columns
        .iter()
        .cloned()
        .chain(std::iter::once(BAND.to_string()))
        .collect()
}

fn csv_row<'a>(out: &mut Vec<u8>, fields: impl Iterator<Item = &'a Value>) {
    for (i, v) in fields.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if let Some(text) = v.text() {
            csv_field(out, text.as_bytes());
        }
    }
    out.push(b'\n');
}

fn json_row<'a>(out: &mut Vec<u8>, names: &[String], fields: impl Iterator<Item = &'a Value>) {
    out.push(b'{');
    for (i, (name, v)) in names.iter().zip(fields).enumerate() {
        if i > 0 {
            out.push(b',');
        }
        // Serialising a string into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, name);
        out.push(b':');
        match v {
            Value::Null => out.extend_from_slice(b"null"),
            Value::Json(raw) => out.extend_from_slice(raw.as_bytes()),
            Value::Text(s) => {
                let bare = match kind_of(name) {
                    Kind::Int | Kind::Float => matches!(
                        serde_json::from_str::<serde_json::Value>(s),
                        Ok(serde_json::Value::Number(_))
                    ),
                    Kind::Bool => s == "true" || s == "false",
                    Kind::Text => false,
                };
                if bare {
                    out.extend_from_slice(s.as_bytes());
                } else {
                    let _ = serde_json::to_writer(&mut *out, s);
                }
            }
        }
    }
    out.extend_from_slice(b"}\n");
}

/// The summary: rows read, then per band the rows seen and kept (and "short" where fewer than
/// asked), then the rows without a value by reason.
pub fn report(sample: &Sample, w: &mut dyn Write) -> io::Result<()> {
    let skipped: u64 = sample.skipped.iter().map(|(_, n)| n).sum();
    writeln!(
        w,
        "sudoku-batch: sample --by {}: {} rows read, {} with a value, {} per band asked",
        sample.by.column(),
        group(sample.read),
        group(sample.read - skipped),
        group(sample.per_band as u64)
    )?;
    let width = sample
        .bands
        .iter()
        .map(|b| b.label.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let seen_width = sample
        .bands
        .iter()
        .map(|b| group(b.seen).len())
        .max()
        .unwrap_or(0)
        .max(4);
    let kept_width = group(sample.per_band as u64).len().max(4);
    writeln!(
        w,
        "  {:<width$}  {:>seen_width$}  {:>kept_width$}",
        "band", "seen", "kept"
    )?;
    for b in &sample.bands {
        write!(
            w,
            "  {:<width$}  {:>seen_width$}  {:>kept_width$}",
            b.label,
            group(b.seen),
            group(b.kept)
        )?;
        if b.kept < sample.per_band as u64 {
            write!(
                w,
                "  short: asked {}, only {}",
                group(sample.per_band as u64),
                group(b.kept)
            )?;
        }
        writeln!(w)?;
    }
    if skipped > 0 {
        let reasons: Vec<String> = sample
            .skipped
            .iter()
            .map(|(why, n)| format!("{} {why}", group(*n)))
            .collect();
        writeln!(
            w,
            "  skipped {} rows without a value: {}",
            group(skipped),
            reasons.join(", ")
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_their_fields_in_either_format() {
        let names: Vec<String> = ["line", "er", "steps", "error", "singles", "band"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let values = [
            Value::Text("12".into()),
            Value::Text("9.0".into()),
            Value::Json("[1,2]".into()),
            Value::Text("a, \"b\"".into()),
            Value::Null,
            Value::Text("[1.2,2.0)".into()),
        ];
        let mut csv = Vec::new();
        csv_row(&mut csv, values.iter());
        assert_eq!(
            String::from_utf8(csv).unwrap(),
            "12,9.0,\"[1,2]\",\"a, \"\"b\"\"\",,\"[1.2,2.0)\"\n"
        );
        let mut json = Vec::new();
        json_row(&mut json, &names, values.iter());
        assert_eq!(
            String::from_utf8(json).unwrap(),
            "{\"line\":12,\"er\":9.0,\"steps\":[1,2],\"error\":\"a, \\\"b\\\"\",\"singles\":null,\
             \"band\":\"[1.2,2.0)\"}\n"
        );
        // A typed column whose text is not of its type stays a string.
        let mut json = Vec::new();
        json_row(&mut json, &names[..1], [Value::Text("x1".into())].iter());
        assert_eq!(String::from_utf8(json).unwrap(), "{\"line\":\"x1\"}\n");
    }
}
