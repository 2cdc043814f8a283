//! Output files that never look complete before they are: `-o FILE` is written as
//! `FILE.partial` and renamed to `FILE` only when the run ends normally, and `--resume` picks a
//! `.partial` file up again.
//!
//! Where to go on needs no side file: rows are written in input order and each row names its
//! line (and its input, with several), so the last complete row of the partial file says exactly
//! where to go on. A run killed with SIGKILL may leave a cut last row; [`repair`] keeps only the
//! complete, well-formed rows — each must parse, carry every column and follow the row before it
//! in input order — truncates the file after them, and reports the point to resume from.
//!
//! Whether to go on does: rows alone cannot tell that `solve B -o out.csv --resume` is about to
//! continue a file of A's rows. So beside `FILE.partial` a run writes `FILE.partial.run`, its
//! [`RunId`] — the command, every option that shapes the rows, each input's name and a hash of
//! its first bytes — and `--resume` compares it with its own before touching anything: on any
//! difference it refuses, naming it, and the partial file stays exactly as it was. The record
//! goes when the run completes.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

pub use super::files::{cannot_create, partial_path};
use super::{Columns, Error, OutputFormat, ResumePoint, Settings, Status, Summary};
use crate::input::Input;
pub use crate::provenance::RunId;

/// The output buffer. Smaller than a chunk's rows (about 190 KB for 1,024 `solve` rows), so a
/// whole chunk is written straight through without a copy into the buffer; small writes (the
/// header, the short chunks of interactive input) are still gathered.
const OUT_BUFFER: usize = 64 * 1024;

/// Whether writing `out` would overwrite one of `inputs` (both exist and are the same file once
/// links and relative parts are resolved).
pub fn overwrites_input<'a>(out: &Path, inputs: impl IntoIterator<Item = &'a Path>) -> bool {
    let Ok(out) = out.canonicalize() else {
        return false;
    };
    inputs
        .into_iter()
        .any(|p| p.canonicalize().is_ok_and(|p| p == out))
}

/// Whether `path` exists and is not a regular file (a device such as /dev/null, a FIFO, a
/// terminal): such an output is written directly, never through a `.partial` file and a rename,
/// which would replace it.
pub fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file())
}

/// What a partial output file held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resume {
    /// Complete rows kept.
    pub rows: u64,
    /// Bytes of the file that were dropped (a cut or damaged tail).
    pub dropped_bytes: u64,
    /// Where to go on; `None` when no row was kept.
    pub after: Option<ResumePoint>,
    /// Whether the kept part starts with the header (CSV only).
    pub has_header: bool,
}

/// Scans the partial output at `path`, written in `format` for `inputs` (with a header when
/// `header`), keeps its complete rows, truncates the rest, and says where to resume. An error is
/// a message for the user.
pub fn repair(
    path: &Path,
    columns: &Columns,
    format: OutputFormat,
    inputs: &[Input],
    header: bool,
) -> Result<Resume, String> {
    let with_file = inputs.len() > 1;
    let mut expected_header = Vec::new();
    if header {
        columns.write_header(&mut expected_header, format, with_file);
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let total = file
        .metadata()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    let mut kept = 0u64;
    let mut rows = 0u64;
    let mut has_header = false;
    let mut after: Option<ResumePoint> = None;
    let read_line = |reader: &mut BufReader<std::fs::File>, line: &mut Vec<u8>| {
        line.clear();
        reader.read_until(b'\n', line)
    };
    if !expected_header.is_empty() {
        let n =
            read_line(&mut reader, &mut line).map_err(|e| format!("{}: {e}", path.display()))?;
        if n > 0 && line == expected_header {
            has_header = true;
            kept = n as u64;
        } else if n > 0 && line.ends_with(b"\n") {
            return Err(format!(
                "{}: its first line is not the header this run writes; was it written with \
                 other options (--format, number of inputs)?",
                path.display()
            ));
        }
    }
    if has_header || expected_header.is_empty() {
        loop {
            let n = read_line(&mut reader, &mut line)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if n == 0 || !line.ends_with(b"\n") {
                break;
            }
            let point = if columns.counted {
                // A bare row: whole when it has as many fields as columns and no header.
                let fields = line.trim_ascii_end().split(|&b| b == b',').count();
                (fields == columns.names.len()).then_some(ResumePoint {
                    input: 0,
                    line: rows + 1,
                })
            } else {
                parse_row(&line, columns, format, inputs)
            };
            let Some(point) = point else {
                break;
            };
            let in_order = after.is_none_or(|a| (point.input, point.line) > (a.input, a.line));
            if !in_order {
                break;
            }
            after = Some(point);
            rows += 1;
            kept += n as u64;
        }
    }
    let f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    f.set_len(kept)
        .map_err(|e| format!("{}: cannot truncate: {e}", path.display()))?;
    Ok(Resume {
        rows,
        dropped_bytes: total - kept.min(total),
        after,
        has_header,
    })
}

/// The (input, line) of one complete output row, or `None` when it is not a whole row.
fn parse_row(
    line: &[u8],
    columns: &Columns,
    format: OutputFormat,
    inputs: &[Input],
) -> Option<ResumePoint> {
    let with_file = inputs.len() > 1;
    let n = columns.names.len();
    let (key, status, file): (u64, Option<String>, Option<String>) = match format {
        // Parquet is never resumed (refused in `deliver`).
        OutputFormat::Parquet(_) => return None,
        OutputFormat::Csv => {
            let mut rdr = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(line);
            let rec = rdr.records().next()?.ok()?;
            if rec.len() != n + usize::from(with_file) {
                return None;
            }
            (
                rec.get(0)?.parse().ok()?,
                columns.status.and_then(|i| rec.get(i)).map(str::to_string),
                rec.get(n).map(str::to_string),
            )
        }
        OutputFormat::Jsonl => {
            let v: serde_json::Value = serde_json::from_slice(line).ok()?;
            let obj = v.as_object()?;
            if columns.names.iter().any(|c| !obj.contains_key(*c)) {
                return None;
            }
            (
                obj.get(columns.names[0])?.as_u64()?,
                columns
                    .status
                    .and_then(|i| obj.get(columns.names[i]))
                    .and_then(|s| s.as_str())
                    .map(str::to_string),
                obj.get("file").and_then(|f| f.as_str()).map(str::to_string),
            )
        }
    };
    if columns.status.is_some()
        && !status.is_some_and(|status| Status::ALL.iter().any(|s| s.as_str() == status))
    {
        return None;
    }
    let input = match (with_file, file) {
        (false, _) => 0,
        (true, Some(name)) => inputs.iter().position(|i| i.name == name)?,
        (true, None) => return None,
    };
    Some(ResumePoint { input, line: key })
}

/// How many leading bytes of each input the run record hashes.
const HASHED_BYTES: usize = 64 * 1024;

/// The record of a run over `inputs`, as written beside its partial output.
fn record_text(id: &RunId, inputs: &[Input]) -> String {
    let mut text = String::from(
        "# sudoku-batch run record: what made the .partial file beside it. --resume continues \
         that file only for the same command, options and inputs.\n",
    );
    text.push_str(&format!("command {}\n", id.command));
    for (name, value) in &id.options {
        text.push_str(&format!("option {name} {value}\n"));
    }
    for input in inputs {
        text.push_str(&format!("input {} {}\n", input_hash(input), input.name));
    }
    text
}

/// A hash of the first bytes of an input (`stdin` for stdin, which cannot be looked at twice).
fn input_hash(input: &Input) -> String {
    use std::io::Read;
    let Some(path) = &input.path else {
        return "stdin".into();
    };
    let mut head = Vec::with_capacity(HASHED_BYTES);
    match File::open(path).and_then(|f| f.take(HASHED_BYTES as u64).read_to_end(&mut head)) {
        Ok(_) => format!("{:016x}", crate::rng::hash_bytes(&head)),
        Err(_) => "unreadable".into(),
    }
}

/// How the record `was` differs from `now`, in words; `None` when they agree.
fn record_difference(was: &str, now: &str) -> Option<String> {
    let fields = |text: &str, kind: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.strip_prefix(kind).map(str::to_string))
            .collect()
    };
    let mut why = Vec::new();
    let (c0, c1) = (fields(was, "command "), fields(now, "command "));
    if c0 != c1 {
        why.push(format!(
            "it was made by `{}`, this is `{}`",
            c0.join(" "),
            c1.join(" ")
        ));
    }
    let option = |line: &str| {
        let (name, value) = line.split_once(' ').unwrap_or((line, ""));
        (name.to_string(), value.to_string())
    };
    let (o0, o1): (Vec<_>, Vec<_>) = (
        fields(was, "option ").iter().map(|l| option(l)).collect(),
        fields(now, "option ").iter().map(|l| option(l)).collect(),
    );
    for (name, value) in &o1 {
        match o0.iter().find(|(n, _)| n == name) {
            Some((_, old)) if old != value => {
                why.push(format!("{name} was {old} there, {value} here"))
            }
            None => why.push(format!("{name} {value} is new here")),
            _ => {}
        }
    }
    for (name, old) in &o0 {
        if !o1.iter().any(|(n, _)| n == name) {
            why.push(format!("{name} {old} is missing here"));
        }
    }
    let (i0, i1) = (fields(was, "input "), fields(now, "input "));
    if i0 != i1 {
        let names = |v: &[String]| {
            v.iter()
                .map(|l| l.split_once(' ').map_or(l.as_str(), |(_, n)| n))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if names(&i0) == names(&i1) {
            why.push(format!(
                "the inputs changed since (their first bytes differ): {}",
                names(&i1)
            ));
        } else {
            why.push(format!(
                "it was made from {}, this run reads {}",
                names(&i0),
                names(&i1)
            ));
        }
    }
    (!why.is_empty() || was != now).then(|| {
        if why.is_empty() {
            "its run record differs from this run's".into()
        } else {
            why.join("; ")
        }
    })
}

/// The run record's name beside a partial output: `FILE.partial.run`.
pub fn record_path(partial: &Path) -> PathBuf {
    let mut name = partial.as_os_str().to_owned();
    name.push(".run");
    PathBuf::from(name)
}

/// Where a run's rows go and how: stdout or `-o FILE`, resumed or not.
#[derive(Clone, Copy, Debug)]
pub struct Target<'a> {
    /// `-o FILE`; `None` for stdout.
    pub path: Option<&'a Path>,
    /// `--resume`: continue `FILE.partial`.
    pub resume: bool,
    /// `--quiet`: no summary or notices on stderr (errors are still the caller's to print).
    pub quiet: bool,
    /// What identifies the run, recorded beside `FILE.partial` and checked by `--resume`;
    /// `None` records nothing (a library caller that resumes on the rows' own evidence).
    pub id: Option<&'a RunId>,
    /// Record provenance with `-o FILE` (in a Parquet file's metadata, else in
    /// `FILE.provenance.json`); `None` records none (`--no-provenance`). Seeds come from `id`.
    pub provenance: Option<&'a crate::provenance::Invocation>,
}

/// How a run that did not fail ended.
#[derive(Debug)]
pub enum Ended {
    /// Every input was read to its end and every row written (and `FILE.partial` renamed).
    Complete(Summary),
    /// A signal stopped the reading; every row read before it was written.
    Interrupted(Summary),
    /// The reader of stdout closed it (`| head`): not a failure.
    ClosedPipe,
    /// `--resume` found `FILE` already complete: nothing was done.
    AlreadyComplete,
}

/// Runs `body` with the run's writer and settings, owning the whole `-o` lifecycle: refuses to
/// overwrite an input; writes stdout and non-regular files (a device, a FIFO) directly; writes
/// a regular file as `FILE.partial` and renames it when the run completes; with `--resume`,
/// repairs the partial file and tells `body` where to pick up (through
/// [`Settings::resume_after`] and [`Settings::header`]). Prints the summary and the notices
/// (resuming, interrupted) on stderr unless quiet.
pub fn deliver(
    inputs: &[Input],
    target: Target<'_>,
    columns: &Columns,
    mut settings: Settings,
    body: impl FnOnce(&mut dyn Write, &Settings) -> Result<Summary, Error>,
) -> Result<Ended, Error> {
    let parquet = match settings.output {
        OutputFormat::Parquet(c) => Some(c),
        _ => None,
    };
    if parquet.is_some() {
        if target.path.is_none() {
            return Err(Error::OutputFile(
                "--format parquet needs -o FILE: a Parquet file is binary and only readable once \
                 its footer is written at the end"
                    .into(),
            ));
        }
        if target.resume {
            return Err(Error::OutputFile(
                "--resume does not work with --format parquet: a Parquet file is readable only \
                 once its footer is written at the end, so an interrupted run leaves no rows to \
                 go on from; run the command again without --resume"
                    .into(),
            ));
        }
        // The schema names the columns; rows come as bare CSV.
        settings.header = false;
    }
    let Some(path) = target.path else {
        if target.resume {
            return Err(Error::OutputFile(
                "--resume needs -o FILE: it continues FILE.partial left by an earlier run".into(),
            ));
        }
        let mut out = BufWriter::with_capacity(OUT_BUFFER, io::stdout().lock());
        return finish_direct(body(&mut out, &settings), target, None, true);
    };
    if overwrites_input(path, inputs.iter().filter_map(|i| i.path.as_deref())) {
        return Err(Error::OutputFile(format!(
            "{}: the output file is also an input; writing it would destroy the input",
            path.display()
        )));
    }
    let provenance = match target.provenance {
        Some(inv) => Some(
            crate::provenance::record(inv, target.id, inputs)
                .map_err(|e| Error::OutputFile(format!("cannot record provenance: {e}")))?,
        ),
        None => None,
    };
    let with_file = inputs.len() > 1;
    let sink = parquet.map(|c| ParquetPlan {
        compression: c,
        names: columns
            .names
            .iter()
            .map(|n| n.to_string())
            .chain(with_file.then(|| "file".to_string()))
            .collect(),
        provenance: provenance.clone(),
    });
    // A device or FIFO is written in place: renaming a `.partial` file over it would replace it.
    if is_special(path) {
        if target.resume {
            return Err(Error::OutputFile(format!(
                "{}: --resume needs -o to name a regular file",
                path.display()
            )));
        }
        let f = OpenOptions::new().write(true).open(path).map_err(|e| {
            Error::OutputFile(format!(
                "cannot write {}: {}",
                path.display(),
                crate::input::io_reason(&e)
            ))
        })?;
        let (result, flushed) = write_through(f, sink, &settings, body);
        let result = flushed
            .map_err(Error::Output)
            .and(result)
            .map_err(|e| match e {
                Error::Output(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                    Error::OutputFile(format!(
                        "cannot write {}: {}",
                        path.display(),
                        crate::input::io_reason(&e)
                    ))
                }
                e => e,
            });
        return finish_direct(result, target, None, parquet.is_none());
    }
    let partial = partial_path(path);
    let record = record_path(&partial);
    let our_record = target.id.map(|id| record_text(id, inputs));
    let file = if target.resume && partial.exists() {
        // The record is checked before the partial file is touched: a refusal leaves it whole.
        match (&our_record, std::fs::read_to_string(&record)) {
            (Some(ours), Ok(theirs)) => {
                if let Some(why) = record_difference(&theirs, ours) {
                    return Err(Error::OutputFile(format!(
                        "cannot resume {}: {why}. Its rows are left as they are; run the command \
                         that made it with --resume, or this one without --resume to start over",
                        partial.display()
                    )));
                }
            }
            (Some(ours), Err(_)) => {
                if !target.quiet {
                    eprintln!(
                        "sudoku-batch: {} has no run record ({} is missing): its rows are taken \
                         as this run's",
                        partial.display(),
                        record.display()
                    );
                }
                std::fs::write(&record, ours)
                    .map_err(|e| Error::OutputFile(cannot_create(&record, &e)))?;
            }
            (None, _) => {}
        }
        let resumed = repair(&partial, columns, settings.output, inputs, settings.header)
            .map_err(|e| Error::OutputFile(format!("cannot resume: {e}")))?;
        settings.header = settings.header && !resumed.has_header;
        settings.resume_after = resumed.after;
        if !target.quiet {
            let dropped = if resumed.dropped_bytes > 0 {
                format!(
                    ", a cut last row of {} bytes dropped",
                    resumed.dropped_bytes
                )
            } else {
                String::new()
            };
            eprintln!(
                "sudoku-batch: resuming {}: {} complete rows kept{dropped}",
                partial.display(),
                resumed.rows,
            );
        }
        OpenOptions::new().append(true).open(&partial)
    } else if target.resume && path.exists() {
        if !target.quiet {
            eprintln!(
                "sudoku-batch: nothing to resume: {} is complete (no {} beside it)",
                path.display(),
                partial.display()
            );
        }
        return Ok(Ended::AlreadyComplete);
    } else {
        let created = File::create(&partial);
        if created.is_ok() {
            match &our_record {
                Some(text) => std::fs::write(&record, text)
                    .map_err(|e| Error::OutputFile(cannot_create(&record, &e)))?,
                None => {
                    let _ = std::fs::remove_file(&record);
                }
            }
        }
        created
    };
    let file = file.map_err(|e| Error::OutputFile(cannot_create(path, &e)))?;
    let (result, flushed) = write_through(file, sink, &settings, body);
    let result = match (result, flushed) {
        (Err(Error::Output(e)), _) | (Ok(_), Err(e)) => Err(Error::OutputFile(format!(
            "cannot write {} (as {} until the run ends): {}",
            path.display(),
            partial.display(),
            crate::input::io_reason(&e)
        ))),
        (r, _) => r,
    };
    match finish_direct(result, target, Some(&partial), parquet.is_none())? {
        Ended::Complete(summary) => {
            std::fs::rename(&partial, path).map_err(|e| {
                Error::OutputFile(format!(
                    "cannot rename {} to {}: {e}",
                    partial.display(),
                    path.display()
                ))
            })?;
            let _ = std::fs::remove_file(&record);
            if let (Some(text), None) = (&provenance, parquet) {
                crate::provenance::write_sidecar(path, text).map_err(Error::OutputFile)?;
            }
            Ok(Ended::Complete(summary))
        }
        other => Ok(other),
    }
}

/// The rows output of a command that writes outside [`deliver`] (`verify -o`, `split --label`):
/// stdout, or `-o FILE` as CSV, JSON lines or Parquet, written as `FILE.partial` and renamed by
/// [`RowsFile::finish`], which also writes the provenance side file of a CSV or JSON lines file.
pub enum RowsFile {
    Stdout(BufWriter<io::Stdout>),
    File {
        path: PathBuf,
        partial: PathBuf,
        out: FileOut,
        /// The provenance record, for the side file (a Parquet file holds its own).
        sidecar: Option<String>,
    },
}

/// How a [`RowsFile`] reaches its file.
pub enum FileOut {
    Plain(BufWriter<File>),
    Parquet(super::parquet::ParquetSink<BufWriter<File>>),
}

impl RowsFile {
    /// Rows of `columns` on stdout, header first (CSV only).
    pub fn stdout(columns: &Columns, format: OutputFormat, with_file: bool) -> io::Result<Self> {
        Self::stdout_named(&names_of(columns, with_file), format)
    }

    /// Rows of the columns `names` on stdout, header first (CSV only): for a command whose
    /// columns are known only once its inputs are open (`sample`).
    pub fn stdout_named(names: &[String], format: OutputFormat) -> io::Result<Self> {
        if let OutputFormat::Parquet(_) = format {
            return Err(io::Error::other(
                "--format parquet needs -o FILE: a Parquet file is binary and only readable \
                 once its footer is written at the end",
            ));
        }
        let mut out = BufWriter::with_capacity(OUT_BUFFER, io::stdout());
        out.write_all(&header_of(names, format))?;
        Ok(RowsFile::Stdout(out))
    }

    /// Rows of `columns` into `path` (as `path.partial` until [`RowsFile::finish`]), with
    /// `provenance` in the file or beside it. An error is a message for the user.
    pub fn create(
        path: &Path,
        columns: &Columns,
        format: OutputFormat,
        with_file: bool,
        provenance: Option<String>,
    ) -> Result<Self, String> {
        Self::create_named(path, names_of(columns, with_file), format, provenance)
    }

    /// Rows of the columns `names` into `path`, as [`RowsFile::create`] writes them: for a
    /// command whose columns are known only once its inputs are open (`sample`).
    pub fn create_named(
        path: &Path,
        names: Vec<String>,
        format: OutputFormat,
        provenance: Option<String>,
    ) -> Result<Self, String> {
        // A device or FIFO (`-o /dev/null`) is written in place: a rename would replace it, and
        // a side file beside it has no place.
        let special = is_special(path);
        let partial = if special {
            path.to_path_buf()
        } else {
            partial_path(path)
        };
        let provenance = provenance.filter(|_| !special);
        let f = File::create(&partial).map_err(|e| cannot_create(path, &e))?;
        let mut buf = BufWriter::with_capacity(OUT_BUFFER, f);
        let (out, sidecar) = match format {
            OutputFormat::Parquet(c) => {
                let sink = super::parquet::ParquetSink::new(buf, names, c, provenance)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                (FileOut::Parquet(sink), None)
            }
            _ => {
                buf.write_all(&header_of(&names, format))
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                (FileOut::Plain(buf), provenance)
            }
        };
        Ok(RowsFile::File {
            path: path.to_path_buf(),
            partial,
            out,
            sidecar,
        })
    }

    /// Ends the output: flushed (and a Parquet footer written), `FILE.partial` renamed to
    /// `FILE`, the provenance side file written.
    pub fn finish(self) -> Result<(), String> {
        match self {
            RowsFile::Stdout(mut out) => out.flush().map_err(|e| e.to_string()),
            RowsFile::File {
                path,
                partial,
                out,
                sidecar,
            } => {
                let ended = match out {
                    FileOut::Plain(mut w) => w.flush(),
                    FileOut::Parquet(sink) => sink.finish().and_then(|mut w| w.flush()),
                };
                ended.map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                if partial == path {
                    return Ok(());
                }
                std::fs::rename(&partial, &path).map_err(|e| {
                    format!(
                        "cannot rename {} to {}: {e}",
                        partial.display(),
                        path.display()
                    )
                })?;
                match sidecar {
                    Some(text) => crate::provenance::write_sidecar(&path, &text),
                    None => Ok(()),
                }
            }
        }
    }
}

/// The names of `columns`, then `file` when `with_file`.
fn names_of(columns: &Columns, with_file: bool) -> Vec<String> {
    columns
        .names
        .iter()
        .map(|n| n.to_string())
        .chain(with_file.then(|| "file".to_string()))
        .collect()
}

/// The header line of `names` (CSV only: JSON lines name their fields in every row).
fn header_of(names: &[String], format: OutputFormat) -> Vec<u8> {
    if format != OutputFormat::Csv {
        return Vec::new();
    }
    let mut header = names.join(",").into_bytes();
    header.push(b'\n');
    header
}

impl Write for RowsFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            RowsFile::Stdout(w) => w.write(buf),
            RowsFile::File {
                out: FileOut::Plain(w),
                ..
            } => w.write(buf),
            RowsFile::File {
                out: FileOut::Parquet(w),
                ..
            } => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            RowsFile::Stdout(w) => w.flush(),
            RowsFile::File {
                out: FileOut::Plain(w),
                ..
            } => w.flush(),
            RowsFile::File {
                out: FileOut::Parquet(w),
                ..
            } => w.flush(),
        }
    }
}

/// How a Parquet output is written (see [`super::parquet`]).
struct ParquetPlan {
    compression: super::parquet::Compression,
    /// The columns, `file` included when there are several inputs.
    names: Vec<String>,
    /// The provenance record, for the file's metadata.
    provenance: Option<String>,
}

/// Runs `body` with `file` as its output: buffered, or through a Parquet encoder when `parquet`
/// says so. Returns the run's result and whether everything reached `file` (flushed, and for
/// Parquet the footer written).
fn write_through<F: Write + Send + 'static>(
    file: F,
    parquet: Option<ParquetPlan>,
    settings: &Settings,
    body: impl FnOnce(&mut dyn Write, &Settings) -> Result<Summary, Error>,
) -> (Result<Summary, Error>, io::Result<()>) {
    let out = BufWriter::with_capacity(OUT_BUFFER, file);
    let Some(plan) = parquet else {
        let mut out = out;
        let result = body(&mut out, settings);
        return (result, out.flush());
    };
    let mut sink = match super::parquet::ParquetSink::new(
        out,
        plan.names,
        plan.compression,
        plan.provenance,
    ) {
        Ok(s) => s,
        Err(e) => {
            return (
                Err(Error::Output(io::Error::new(e.kind(), e.to_string()))),
                Err(e),
            )
        }
    };
    // A run's rows reach the sink as typed columns, not as CSV text (see `Settings`).
    let mut settings = settings.clone();
    settings.parquet_rows = Some(sink.rows());
    let result = body(&mut sink, &settings);
    // Even a run that failed or was interrupted gets its footer: its rows stay readable.
    let flushed = sink.finish().and_then(|mut out| out.flush());
    // Rows that stopped at a failed encoder say why only here: report its error.
    let result = match (result, &flushed) {
        (Err(Error::Output(_)), Err(e)) => {
            Err(Error::Output(io::Error::new(e.kind(), e.to_string())))
        }
        (result, _) => result,
    };
    (result, flushed)
}

/// The ending of a run, with its summary and notices printed.
fn finish_direct(
    result: Result<Summary, Error>,
    target: Target<'_>,
    partial: Option<&Path>,
    resumable: bool,
) -> Result<Ended, Error> {
    let summary = match result {
        Ok(s) => s,
        Err(e) if e.is_broken_pipe() => return Ok(Ended::ClosedPipe),
        Err(e) => return Err(e),
    };
    if !target.quiet {
        let _ = summary.write_to(&mut io::stderr());
    }
    if !summary.interrupted {
        return Ok(Ended::Complete(summary));
    }
    match partial {
        Some(p) if !resumable => eprintln!(
            "sudoku-batch: interrupted; the rows so far are in {}, a complete Parquet file. A \
             Parquet run cannot be resumed: run the command again to write the whole output.",
            p.display()
        ),
        Some(p) => eprintln!(
            "sudoku-batch: interrupted; the rows so far are in {}. To go on, run the same \
             command again with --resume.",
            p.display()
        ),
        None => eprintln!(
            "sudoku-batch: interrupted after {} rows (every row before the stop was written); \
             with -o FILE a run can be resumed with --resume",
            summary.puzzles()
        ),
    }
    Ok(Ended::Interrupted(summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "line,puzzle,status,solutions,solution,guesses,solve_ns,error\n";

    fn tmp(name: &str, text: &str) -> PathBuf {
        let p =
            std::env::temp_dir().join(format!("sudoku-batch-out-{}-{name}", std::process::id()));
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn keeps_complete_rows_and_cuts_the_rest() {
        let inputs = [Input::from_arg("a.txt")];
        let text = format!("{HEADER}3,p,solved,1,s,0,5,\n7,,invalid,0,,0,0,\"bad, row\"\n9,p,sol");
        let p = tmp("cut.csv", &text);
        let r = repair(&p, &crate::solve::COLUMNS, OutputFormat::Csv, &inputs, true).unwrap();
        assert_eq!(r.rows, 2);
        assert_eq!(r.after, Some(ResumePoint { input: 0, line: 7 }));
        assert!(r.has_header);
        assert_eq!(r.dropped_bytes, "9,p,sol".len() as u64);
        let kept = std::fs::read_to_string(&p).unwrap();
        assert!(kept.ends_with("row\"\n") && !kept.contains("sol\n"));
        // A row out of order, or with a missing column, ends the kept part.
        let p = tmp(
            "order.csv",
            &format!("{HEADER}3,p,solved,1,s,0,5,\n2,p,solved,1,s,0,5,\n"),
        );
        assert_eq!(
            repair(&p, &crate::solve::COLUMNS, OutputFormat::Csv, &inputs, true)
                .unwrap()
                .rows,
            1
        );
        let p = tmp("short.csv", &format!("{HEADER}3,p,solved,1,s,0,5\n"));
        let r = repair(&p, &crate::solve::COLUMNS, OutputFormat::Csv, &inputs, true).unwrap();
        assert_eq!((r.rows, r.after), (0, None));
        assert_eq!(std::fs::read_to_string(&p).unwrap(), HEADER);
    }

    #[test]
    fn header_and_inputs() {
        let inputs = [Input::from_arg("a.txt"), Input::from_arg("b.txt")];
        let header = HEADER.replace('\n', ",file\n");
        let p = tmp(
            "multi.csv",
            &format!("{header}5,p,solved,1,s,0,5,,a.txt\n2,p,solved,1,s,0,5,,b.txt\n"),
        );
        let r = repair(&p, &crate::solve::COLUMNS, OutputFormat::Csv, &inputs, true).unwrap();
        assert_eq!(r.after, Some(ResumePoint { input: 1, line: 2 }));
        // A cut header is dropped whole; a different header is refused.
        let p = tmp("cuthead.csv", "line,puz");
        let r = repair(&p, &crate::solve::COLUMNS, OutputFormat::Csv, &inputs, true).unwrap();
        assert_eq!((r.has_header, r.rows), (false, 0));
        assert_eq!(std::fs::read(&p).unwrap(), b"");
        let p = tmp("other.csv", HEADER);
        assert!(repair(&p, &crate::solve::COLUMNS, OutputFormat::Csv, &inputs, true).is_err());
        // Without a header (--no-header) rows start at once.
        let p = tmp("nohead.csv", "5,p,solved,1,s,0,5,,a.txt\n6,p,sol");
        let r = repair(
            &p,
            &crate::solve::COLUMNS,
            OutputFormat::Csv,
            &inputs,
            false,
        )
        .unwrap();
        assert_eq!((r.rows, r.has_header), (1, false));
        assert_eq!(r.after, Some(ResumePoint { input: 0, line: 5 }));
    }

    #[test]
    fn json_lines() {
        let inputs = [Input::from_arg("-")];
        let row = r#"{"line":4,"puzzle":null,"status":"invalid","solutions":0,"solution":null,"guesses":0,"solve_ns":0,"error":"x"}"#;
        let p = tmp("rows.jsonl", &format!("{row}\n{row}\n{{\"line\":9"));
        let r = repair(
            &p,
            &crate::solve::COLUMNS,
            OutputFormat::Jsonl,
            &inputs,
            true,
        )
        .unwrap();
        // The second row repeats line 4: not in order, so it is dropped with the cut tail.
        assert_eq!(r.rows, 1);
        assert_eq!(r.after, Some(ResumePoint { input: 0, line: 4 }));
        assert_eq!(
            partial_path(Path::new("x/out.csv")),
            Path::new("x/out.csv.partial")
        );
    }
}
