//! The streaming pipeline of `solve`: read chunks, solve them on every core, write them back in
//! order.
//!
//! Three roles, run by [`crate::ordered`] (which `verify` shares):
//!
//! 1. **Reader** (one thread): reads records from each input in turn — skipping what a shard or
//!    a resumed run leaves out — and cuts them into chunks ([`Config::chunk_size`] records, or
//!    fewer when the input would make it wait, so interactive use stays responsive).
//! 2. **Workers** (the rayon pool, `-j` threads): check givens, solve, and format the chunk's
//!    rows into a byte buffer of its own, so formatting is parallel too.
//! 3. **Writer** (the calling thread): takes finished chunks in input order, writes their bytes,
//!    counts the summary and moves the progress bar.
//!
//! Memory is bounded whatever the input size (at most `4 × threads` chunks exist at once), rows
//! come out in input order whatever the thread count, and an input error is reported after
//! every row read before it. A raised stop flag (SIGINT, SIGTERM) ends the reading; what was
//! read is still solved and written, so the output is a clean prefix that `--resume` continues.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine;
use crate::input::{self, Input, InputFormat, Record};
use crate::ordered::{self, Event, Feeder, StartError};
use crate::report::{self, OutputFormat, Row, RowWriter, Status, Summary};

/// How a run is done.
#[derive(Clone, Debug)]
pub struct Config {
    /// Count solutions up to this many (2 proves uniqueness, 1 is `--first`).
    pub limit: u32,
    /// Give a puzzle up (status `gave-up`) after this many guesses.
    pub max_guesses: Option<u64>,
    /// Measure each solve (`false` writes 0 in `solve_ns`, for byte-identical reruns).
    pub timing: bool,
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
    /// solved and written in order, and the summary says the run was interrupted.
    pub stop: Option<Arc<AtomicBool>>,
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

    /// Whether the puzzle starting on `line` belongs to this shard.
    pub fn contains(&self, line: u64) -> bool {
        line.wrapping_sub(1) % self.count == self.index - 1
    }
}

/// Where a resumed run picks up: after `line` of input number `input` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResumePoint {
    pub input: usize,
    pub line: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            limit: 2,
            max_guesses: None,
            timing: true,
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
        }
    }
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
    /// The worker threads could not be started.
    Threads(String),
}

impl Error {
    /// Whether the reader of our output went away (`| head`): not a failure, just the end.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(e) if e.kind() == io::ErrorKind::BrokenPipe)
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
            Error::Threads(e) => write!(f, "cannot start worker threads: {e}"),
        }
    }
}

impl std::error::Error for Error {}

struct Chunk {
    file: usize,
    records: Vec<Record>,
    /// Input bytes read when the chunk was cut, over all inputs so far (for the progress bar).
    bytes: u64,
}

struct Done {
    rows: Vec<u8>,
    counts: [u64; Status::ALL.len()],
    times: Vec<u64>,
    bytes: u64,
}

/// What a worker needs to turn a chunk into rows.
struct Job {
    limit: u32,
    max_guesses: u64,
    timing: bool,
    output: OutputFormat,
    /// Input names, when the rows carry a `file` column.
    files: Option<Vec<String>>,
}

impl Job {
    fn process(&self, chunk: Chunk) -> Done {
        let mut w = RowWriter::new(self.output, chunk.records.len() * 200);
        let mut counts = [0u64; Status::ALL.len()];
        let mut times = Vec::with_capacity(if self.timing { chunk.records.len() } else { 0 });
        let file = self.files.as_ref().map(|f| f[chunk.file].as_str());
        for rec in &chunk.records {
            let invalid = |w: &mut RowWriter, puzzle, error: &str| {
                w.write(&Row {
                    line: rec.line,
                    puzzle,
                    status: Status::Invalid,
                    solutions: 0,
                    solution: None,
                    guesses: 0,
                    solve_ns: 0,
                    error: Some(error),
                    file,
                })
            };
            let grid = match &rec.puzzle {
                Ok(g) => g,
                Err(e) => {
                    invalid(&mut w, None, &e.to_string());
                    counts[Status::Invalid as usize] += 1;
                    continue;
                }
            };
            if let Err(conflict) = grid.check_givens() {
                invalid(&mut w, Some(grid), &conflict.to_string());
                counts[Status::Invalid as usize] += 1;
                continue;
            }
            let (found, ns) = if self.timing {
                let start = Instant::now();
                let found = engine::solve_with_budget(grid, self.limit, self.max_guesses);
                let ns = start.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64;
                times.push(ns);
                (found, ns)
            } else {
                (
                    engine::solve_with_budget(grid, self.limit, self.max_guesses),
                    0,
                )
            };
            let status = if found.gave_up {
                Status::GaveUp
            } else {
                Status::from_count(found.solutions)
            };
            counts[status as usize] += 1;
            w.write(&Row {
                line: rec.line,
                puzzle: Some(grid),
                status,
                solutions: found.solutions,
                solution: found.first.as_ref(),
                guesses: found.guesses,
                solve_ns: ns,
                error: None,
                file,
            });
        }
        Done {
            rows: w.finish(),
            counts,
            times,
            bytes: chunk.bytes,
        }
    }
}

/// Solves every puzzle of `inputs` (read in order) and writes one row per puzzle to `out`, in
/// input order, header first. Returns the summary; progress goes to stderr when asked for and
/// stderr is a terminal.
pub fn run(inputs: &[Input], out: &mut dyn Write, cfg: &Config) -> Result<Summary, Error> {
    let started = Instant::now();
    let threads = if cfg.threads == 0 {
        thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        cfg.threads
    };
    let with_file = inputs.len() > 1;
    let job = Job {
        limit: cfg.limit,
        max_guesses: cfg.max_guesses.unwrap_or(u64::MAX),
        timing: cfg.timing,
        output: cfg.output,
        files: with_file.then(|| inputs.iter().map(|i| i.name.clone()).collect()),
    };
    if cfg.header {
        let mut header = Vec::new();
        report::write_header(&mut header, cfg.output, with_file);
        out.write_all(&header).map_err(Error::Output)?;
    }
    let progress = (cfg.progress && io::stderr().is_terminal()).then(|| progress_bar(inputs));
    let mut summary = Summary::default();
    let result = {
        let (inputs, read_cfg) = (inputs.to_vec(), cfg.clone());
        ordered::run(
            threads,
            "sudoku",
            move |feeder| read_inputs(&inputs, &read_cfg, feeder),
            move |chunk| job.process(chunk),
            |event| match event {
                // Nothing ready: let what was written so far through before waiting.
                Event::Idle => out.flush().map_err(Error::Output),
                Event::Failed(e) => {
                    out.flush().map_err(Error::Output)?;
                    Err(e)
                }
                Event::Done(done) => {
                    out.write_all(&done.rows).map_err(Error::Output)?;
                    for (&s, &n) in Status::ALL.iter().zip(done.counts.iter()) {
                        summary.add(s, n);
                    }
                    for &ns in &done.times {
                        summary.times.add(ns);
                    }
                    if let Some(pb) = &progress {
                        update_progress(pb, &summary, done.bytes, started.elapsed());
                    }
                    Ok(())
                }
            },
        )
    };
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    result?;
    out.flush().map_err(Error::Output)?;
    summary.wall = started.elapsed();
    summary.interrupted = cfg.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst));
    Ok(summary)
}

impl From<StartError> for Error {
    fn from(e: StartError) -> Error {
        Error::Threads(e.0)
    }
}

/// The reader thread: every input in turn, cut into chunks and handed to the pool.
fn read_inputs(inputs: &[Input], cfg: &Config, feeder: &mut Feeder<Chunk, Done, Error>) {
    let counter = Arc::new(AtomicU64::new(0));
    let chunk_size = cfg.chunk_size.max(1);
    let stopped = || cfg.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    for (file, input) in inputs.iter().enumerate() {
        let skip_to = match cfg.resume_after {
            Some(p) if p.input > file => continue,
            Some(p) if p.input == file => p.line,
            _ => 0,
        };
        let wanted = |line: u64| line > skip_to && cfg.shard.is_none_or(|s| s.contains(line));
        let fail = |feeder: &mut Feeder<Chunk, Done, Error>, line, message: String| {
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
        let format = input.format(cfg.input_format);
        let mut records = match input::records(source, format, cfg.column.as_deref()) {
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
                match records.next_record() {
                    Ok(Some(r)) => {
                        if wanted(r.line) {
                            batch.push(r);
                        }
                        if records.would_wait() && !batch.is_empty() {
                            break;
                        }
                    }
                    Ok(None) => {
                        done = true;
                        break;
                    }
                    Err(e) => {
                        error = Some((records.line_number() + 1, e));
                        break;
                    }
                }
            }
            if !batch.is_empty() {
                let chunk = Chunk {
                    file,
                    records: batch,
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

fn progress_bar(inputs: &[Input]) -> ProgressBar {
    let sizes: Option<u64> = inputs.iter().map(|i| i.size()).sum();
    let pb = match sizes {
        Some(total) => {
            let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            pb.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {percent:>3}% ETA {eta} {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            pb
        }
        None => {
            let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            pb.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            pb
        }
    };
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}

fn update_progress(pb: &ProgressBar, summary: &Summary, bytes: u64, elapsed: Duration) {
    let n = summary.puzzles();
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { n as f64 / secs } else { 0.0 };
    if pb.length().is_some() {
        pb.set_position(bytes);
    }
    pb.set_message(format!(
        "{} puzzles, {}/s",
        report::group(n),
        report::group(rate as u64)
    ));
}
