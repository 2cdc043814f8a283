//! The streaming machinery every per-puzzle command shares (`solve`, `rate`, `canon`,
//! `minimize`; `verify` uses its reader and ordered map): read chunks, work on them on every
//! core, write them back in input order.
//!
//! Three roles, run by [`ordered`]:
//!
//! 1. **Reader** (one thread, [`feed`]): reads items from each input in turn — skipping what a
//!    shard or a resumed run leaves out — and cuts them into chunks ([`Settings::chunk_size`]
//!    items, or fewer when the input would make it wait, so interactive use stays responsive).
//! 2. **Workers** (the rayon pool, `-j` threads): turn a chunk's records into rows with the
//!    command's [`PuzzleJob`], formatting them into a byte buffer of its own.
//! 3. **Writer** (the calling thread): takes finished chunks in input order, writes their bytes,
//!    counts the summary and moves the progress bar.
//!
//! Memory is bounded whatever the input size (at most `4 × threads` chunks exist at once), rows
//! come out in input order whatever the thread count, and an input error is reported after every
//! row read before it. A raised stop flag (SIGINT, SIGTERM) ends the reading; what was read is
//! still worked on and written, so the output is a clean prefix that `--resume` continues
//! ([`output`] owns the `-o FILE` lifecycle; [`parquet`] turns the rows into a Parquet file).

pub mod files;
pub mod ordered;
pub mod output;
pub mod parquet;
pub mod progress;
pub mod rows;
pub mod summary;

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::input::{self, Input, InputFormat, Lined, Record, Records, Source};
use ordered::{Event, Feeder, StartError};
pub use rows::{Columns, OutputFormat, RowWriter};
pub use summary::{Status, Summary, TimeHistogram};

/// How a run reads its inputs, spreads the work and writes rows: what every per-puzzle command
/// shares. Each command adds its own options next to these.
#[derive(Clone, Debug)]
pub struct Settings {
    /// CSV or JSON lines.
    pub output: OutputFormat,
    /// The input format for every input, or `None` to choose by file name.
    pub input_format: Option<InputFormat>,
    /// The CSV column holding the puzzle, or `None` for the defaults.
    pub column: Option<String>,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Records per chunk.
    pub chunk_size: usize,
    /// Show a progress bar on stderr (only ever drawn when stderr is a terminal).
    pub progress: bool,
    /// Process only the puzzles whose line falls in this shard.
    pub shard: Option<Shard>,
    /// Skip everything up to and including this point (a resumed run): inputs before
    /// `input` entirely, and lines up to `line` of `input`.
    pub resume_after: Option<ResumePoint>,
    /// Write the header first (a resumed run appends to a file that has one).
    pub header: bool,
    /// When this flag is raised (SIGINT, SIGTERM) reading stops; the chunks already read are
    /// finished and written in order, and the summary says the run was interrupted.
    pub stop: Option<Arc<AtomicBool>>,
    /// With `--format parquet`: where the writer sends the workers' rows as typed columns
    /// ([`parquet::Batch`]) instead of writing them as CSV text to the output, which would
    /// parse them back. Set by [`output::deliver`] for the run's own Parquet sink.
    pub parquet_rows: Option<parquet::RowSender>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            output: OutputFormat::Csv,
            input_format: None,
            column: None,
            threads: 0,
            chunk_size: 1024,
            progress: false,
            shard: None,
            resume_after: None,
            header: true,
            stop: None,
            parquet_rows: None,
        }
    }
}

/// The worker threads a run uses: `requested`, or one per core when it is 0.
pub fn threads(requested: usize) -> usize {
    if requested == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        requested
    }
}

/// Shard `index` of `count` (1-based): the puzzles whose 1-based line number `l` satisfies
/// `(l - 1) % count == index - 1`. The shards of a file are disjoint and cover it, whatever
/// the format (a block puzzle belongs to the shard of the line it starts on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` with `1 <= K <= N`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("'{s}' is not K/N (for example 3/8)"))?;
        let index: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("'{k}' is not a shard number"))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("'{n}' is not a shard count"))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {index}/{count}: need 1 <= K <= N"));
        }
        Ok(Shard { index, count })
    }

    /// Whether the item numbered `n` (a line, or `generate`'s index) belongs to this shard.
    pub fn contains(&self, n: u64) -> bool {
        n.wrapping_sub(1) % self.count == self.index - 1
    }
}

/// Where a resumed run picks up: after `line` of input number `input` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResumePoint {
    pub input: usize,
    pub line: u64,
}

/// Why a run stopped early.
#[derive(Debug)]
pub enum Error {
    /// An input could not be opened or read. `line` is where reading stopped, when known.
    Input {
        name: String,
        line: Option<u64>,
        message: String,
    },
    /// The output could not be written (a closed pipe included: see [`Error::is_broken_pipe`]).
    Output(io::Error),
    /// The output file could not be opened, resumed or renamed; the message names it.
    OutputFile(String),
    /// The worker threads could not be started.
    Threads(String),
}

impl Error {
    /// Whether the reader of our output went away (`| head`): not a failure, just the end.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }

    /// `closed` when the reader of our output went away, else this error.
    pub fn unless_closed<T>(self, closed: T) -> Result<T, Error> {
        if self.is_broken_pipe() {
            Ok(closed)
        } else {
            Err(self)
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Input {
                name,
                line: Some(line),
                message,
            } => write!(f, "{name}:{line}: {message}"),
            Error::Input { name, message, .. } => write!(f, "{name}: {message}"),
            Error::Output(e) => write!(f, "writing the output: {e}"),
            Error::OutputFile(e) => f.write_str(e),
            Error::Threads(e) => write!(f, "cannot start worker threads: {e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<StartError> for Error {
    fn from(e: StartError) -> Error {
        Error::Threads(e.0)
    }
}

/// What one row came to, for the summary.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    pub status: Status,
    /// The time the row's work took, when timed (it goes into the summary's histogram).
    pub ns: Option<u64>,
}

/// A per-puzzle command: one output row per input record.
pub trait PuzzleJob: Send + Sync + 'static {
    /// The output columns. The first must be `line`; the runner writes it, then calls
    /// [`PuzzleJob::row`] for the rest, then writes `file` when there are several inputs.
    fn columns(&self) -> &'static Columns;
    /// Writes the fields after `line` for `rec` and says what the row came to.
    fn row(&self, rec: &Record, w: &mut RowWriter) -> Outcome;

    /// Writes every row of `rec`: by default the one row `line`, [`PuzzleJob::row`], then
    /// `file` (the input's name, when there are several). A command that writes several rows
    /// per record (`augment`) writes them all here, each beginning with the line.
    fn rows(&self, rec: &Record, w: &mut RowWriter, file: Option<&str>) -> Outcome {
        one_row(self, rec, w, file)
    }

    /// The command's name, for the summary's words ([`Summary::write_to`]).
    fn command(&self) -> &'static str {
        ""
    }

    /// Bytes to drop from the very start of the output (a layout that puts a separator before
    /// every record, and none before the first).
    fn leading_bytes_to_drop(&self) -> usize {
        0
    }
}

/// The one row of `rec`: `line`, [`PuzzleJob::row`], then `file` (the input's name, when there
/// are several). What [`PuzzleJob::rows`] does unless a command says otherwise.
#[inline(always)]
pub fn one_row<J: PuzzleJob + ?Sized>(
    job: &J,
    rec: &Record,
    w: &mut RowWriter,
    file: Option<&str>,
) -> Outcome {
    w.int(rec.line);
    let outcome = job.row(rec, w);
    if let Some(name) = file {
        w.text(Some(name));
    }
    w.end();
    outcome
}

/// A chunk of items from one input.
pub struct Chunk<T> {
    /// The input's index.
    pub file: usize,
    pub items: Vec<T>,
    /// Input bytes read when the chunk was cut, over all inputs so far (for the progress bar).
    pub bytes: u64,
}

struct Done {
    rows: Vec<u8>,
    /// The rows as typed columns, when they go to a Parquet file (then `rows` is empty).
    batch: Option<Box<parquet::Batch>>,
    /// Every record of the chunk was worked on (`false`: a stop cut it short, and nothing after
    /// it may be written).
    complete: bool,
    counts: [u64; Status::ALL.len()],
    times: Vec<u64>,
    bytes: u64,
}

fn work<J: PuzzleJob>(
    job: &J,
    files: Option<&[String]>,
    format: OutputFormat,
    typed: bool,
    stop: Option<&AtomicBool>,
    chunk: Chunk<Record>,
) -> Done {
    let mut w = if typed {
        RowWriter::columnar(job.columns(), files.is_some(), chunk.items.len())
    } else {
        RowWriter::new(format, job.columns(), chunk.items.len() * 200)
    };
    let mut counts = [0u64; Status::ALL.len()];
    let mut times = Vec::new();
    let file = files.map(|f| f[chunk.file].as_str());
    let mut complete = true;
    for rec in &chunk.items {
        // A stop ends the chunk at once (whatever -j, the run ends within a record's work);
        // the rows before it are written, nothing after.
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            complete = false;
            break;
        }
        let outcome = job.rows(rec, &mut w, file);
        counts[outcome.status as usize] += 1;
        if let Some(ns) = outcome.ns {
            times.push(ns);
        }
    }
    let (rows, batch) = w.finish_rows();
    Done {
        rows,
        batch,
        complete,
        counts,
        times,
        bytes: chunk.bytes,
    }
}

/// Runs `job` on every record of `inputs` (read in order) and writes one row per record to
/// `out`, in input order, header first. Returns the summary; progress goes to stderr when asked
/// for and stderr is a terminal.
pub fn run<J: PuzzleJob>(
    inputs: &[Input],
    out: &mut dyn Write,
    settings: &Settings,
    job: J,
) -> Result<Summary, Error> {
    let started = Instant::now();
    let with_file = inputs.len() > 1;
    let files: Option<Vec<String>> =
        with_file.then(|| inputs.iter().map(|i| i.name.clone()).collect());
    if settings.header {
        let mut header = Vec::new();
        job.columns()
            .write_header(&mut header, settings.output, with_file);
        out.write_all(&header).map_err(Error::Output)?;
    }
    let progress =
        (settings.progress && io::stderr().is_terminal()).then(|| progress::Bar::new(inputs));
    let mut summary = Summary::default();
    summary.command = job.command();
    let format = settings.output;
    // Bytes still to drop from the start of the output (a layout's first separator).
    let mut drop_first = job.leading_bytes_to_drop();
    // A chunk cut short by a stop was written: nothing after it may be.
    let mut cut = false;
    // Rows for a Parquet file go to it as typed columns (not for a layout of its own, whose
    // leading bytes are dropped: such a layout has no columns).
    let typed_rows = match (format, &settings.parquet_rows) {
        (OutputFormat::Parquet(_), Some(rows)) if drop_first == 0 => Some(rows.clone()),
        _ => None,
    };
    let typed = typed_rows.is_some();
    let result = {
        let (inputs, read_settings) = (inputs.to_vec(), settings.clone());
        let stop = settings.stop.clone();
        ordered::run_until(
            settings.stop.clone(),
            threads(settings.threads),
            "sudoku",
            move |feeder| {
                feed(&inputs, &read_settings, feeder, |src, input| {
                    let format = input.format(read_settings.input_format);
                    input::records(src, format, read_settings.column.as_deref())
                })
            },
            move |chunk| {
                work(
                    &job,
                    files.as_deref(),
                    format,
                    typed,
                    stop.as_deref(),
                    chunk,
                )
            },
            |event| match event {
                // Nothing ready: let what was written so far through before waiting.
                Event::Idle => out.flush().map_err(Error::Output),
                Event::Failed(e) => {
                    out.flush().map_err(Error::Output)?;
                    Err(e)
                }
                Event::Done(_) if cut => Ok(()),
                Event::Done(mut done) => {
                    cut = !done.complete;
                    match (done.batch.take(), &typed_rows) {
                        (Some(batch), Some(rows)) => {
                            if !rows.send(batch) {
                                // The sink's own error comes back when it is finished.
                                return Err(Error::Output(io::Error::other(
                                    "the Parquet encoder has stopped",
                                )));
                            }
                        }
                        _ => {
                            let skip = drop_first.min(done.rows.len());
                            drop_first -= skip;
                            out.write_all(&done.rows[skip..]).map_err(Error::Output)?;
                        }
                    }
                    for (&s, &n) in Status::ALL.iter().zip(done.counts.iter()) {
                        summary.add(s, n);
                    }
                    for &ns in &done.times {
                        summary.times.add(ns);
                    }
                    if let Some(pb) = &progress {
                        pb.update(&summary, done.bytes, started.elapsed());
                    }
                    Ok(())
                }
            },
        )
    };
    if let Some(pb) = &progress {
        pb.finish();
    }
    result?;
    out.flush().map_err(Error::Output)?;
    summary.wall = started.elapsed();
    summary.interrupted = settings
        .stop
        .as_ref()
        .is_some_and(|s| s.load(Ordering::SeqCst));
    Ok(summary)
}

/// A whole per-puzzle command: `job` on every record of `inputs`, inside the `-o` lifecycle of
/// [`output::deliver`] (stdout or `FILE.partial`, `--resume`, the summary on stderr).
pub fn execute<J: PuzzleJob>(
    inputs: &[Input],
    target: output::Target<'_>,
    settings: Settings,
    job: J,
) -> Result<output::Ended, Error> {
    let columns = job.columns();
    output::deliver(inputs, target, columns, settings, |out, settings| {
        run(inputs, out, settings, job)
    })
}

/// The reader thread: every input in turn, opened, read as items by `open`, filtered by shard
/// and resume point, cut into chunks and handed to the pool. Shared by every streaming command.
pub fn feed<T, R>(
    inputs: &[Input],
    settings: &Settings,
    feeder: &mut Feeder<Chunk<T>, R, Error>,
    open: impl Fn(Source, &Input) -> Result<Box<dyn Records<T>>, String>,
) where
    T: Lined + Send + 'static,
    R: Send + 'static,
{
    let counter = Arc::new(AtomicU64::new(0));
    let chunk_size = settings.chunk_size.max(1);
    let stopped = || {
        settings
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    };
    for (file, input) in inputs.iter().enumerate() {
        let skip_to = match settings.resume_after {
            Some(p) if p.input > file => continue,
            Some(p) if p.input == file => p.line,
            _ => 0,
        };
        let wanted = |line: u64| line > skip_to && settings.shard.is_none_or(|s| s.contains(line));
        let fail = |feeder: &mut Feeder<Chunk<T>, R, Error>, line, message: String| {
            feeder.fail(Error::Input {
                name: input.name.clone(),
                line,
                message,
            });
        };
        let source = match input.open(Arc::clone(&counter)) {
            Ok(s) => s,
            Err(e) => return fail(feeder, None, e.to_string()),
        };
        let mut items = match open(source, input) {
            Ok(r) => r,
            Err(message) => return fail(feeder, Some(1), message),
        };
        let mut done = false;
        while !done {
            if stopped() {
                return;
            }
            let mut batch = Vec::with_capacity(chunk_size);
            let mut error = None;
            while batch.len() < chunk_size {
                match items.next() {
                    Ok(Some(r)) => {
                        if wanted(r.line()) {
                            batch.push(r);
                        }
                        if items.would_wait() && !batch.is_empty() {
                            break;
                        }
                    }
                    Ok(None) => {
                        done = true;
                        break;
                    }
                    Err(e) => {
                        error = Some((items.line_number() + 1, e));
                        break;
                    }
                }
            }
            if !batch.is_empty() {
                let chunk = Chunk {
                    file,
                    items: batch,
                    bytes: counter.load(Ordering::Relaxed),
                };
                // Refused means the writer has stopped: stop reading too.
                if !feeder.send(chunk) {
                    return;
                }
            }
            if let Some((line, e)) = error {
                return fail(feeder, Some(line), e.to_string());
            }
        }
    }
}
