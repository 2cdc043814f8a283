//! `sudoku-batch sample`: reproducible stratified subsets of a rated dataset — per band of a
//! value (Sudoku Explainer's ER/EP/ED, `rate`'s rating, clues, or class), up to `--per-band`
//! rows, the same rows on any machine, with any `-j`, in any input order, from shards or whole.
//!
//! **How rows are chosen** ([`reservoir`]): every row gets a priority, a hash of `--seed` and its
//! puzzle's 81 cells ([`judge::priority`]); each band keeps the `per_band` rows of smallest
//! priority (bottom-k). That is a uniform sample without replacement of the band's rows, and a
//! function of the set of rows and the seed alone: threads, chunking, input order and shards
//! cannot change it, and the sample of the union of shard samples is the sample of the whole.
//! Equal puzzles get equal priorities, so duplicates are kept or dropped together (dedup first
//! to sample distinct puzzles).
//!
//! **Streaming** ([`read`]): the input is read once, in chunks, by the machinery every command
//! shares ([`crate::run::ordered`]); workers judge rows and build only those that may still be
//! kept (each band's current bound is shared with them), so memory is `per_band × bands` rows
//! whatever the input's size. The kept rows are written at the end, in input order, unchanged,
//! with a `band` column ([`write`]).
//!
//! **Rows without a value** — not `solved`, an empty or unreadable value, an unreadable puzzle
//! or row — are counted per reason ([`judge::Skip`]) and reported, never sampled.
//!
//! **Plain puzzle files** are sampled on values computed as `rate` computes them
//! ([`judge::computed`]); the kept puzzles are then written as the rows `rate` (`rate --se` for
//! er/ep/ed) writes for them, so sampling puzzles and sampling their `rate` output agree.

pub mod json;
pub mod judge;
pub mod read;
pub mod reservoir;
pub mod write;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::explain::command::SE_CHUNK;
use crate::grid::Grid;
use crate::input::{Input, Record};
use crate::rate::command::RateJob;
use crate::run::{self, ordered, Chunk, OutputFormat, PuzzleJob, RowWriter, Shard};

pub use judge::{Bands, By, Skip};
pub use read::Format;
use read::{Decode, Opened, Reader, Rows};
use reservoir::{Entry, Reservoir, Row};
pub use write::{execute, Ended, Output};

/// One field of a kept row, as read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// An empty CSV field, a JSON or Parquet null.
    Null,
    /// Text (a CSV field, a JSON string, a Parquet value in the CSV's form).
    Text(String),
    /// A JSON value that is not a string, as written (`9.0`, `true`, `[…]`).
    Json(String),
}

impl Value {
    /// The field's text (`None` for null).
    pub fn text(&self) -> Option<&str> {
        match self {
            Value::Null => None,
            Value::Text(s) | Value::Json(s) => Some(s),
        }
    }
}

/// What is sampled and how.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The bands (and with them the value they are cut on).
    pub bands: Bands,
    /// Rows kept per band at most (at least 1).
    pub per_band: usize,
    pub seed: u64,
}

/// A whole `sample` run but its output.
#[derive(Clone, Debug)]
pub struct Request {
    pub spec: Spec,
    /// Every input's format, or `None` to tell it by name and content.
    pub format: Option<Format>,
    /// The puzzle column of tables [default: the first of quizzes, puzzle, puzzles].
    pub column: Option<String>,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// Only the rows on lines `l` with `(l-1) mod N = K-1` (a Parquet file's row numbers).
    pub shard: Option<Shard>,
    /// A progress bar on stderr (when it is a terminal).
    pub progress: bool,
    /// Raised by SIGINT / SIGTERM: reading stops and nothing is written.
    pub stop: Option<Arc<AtomicBool>>,
}

/// One band's tally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BandCount {
    pub label: String,
    /// Rows whose value falls in the band.
    pub seen: u64,
    /// Rows kept: `min(seen, per_band)`.
    pub kept: u64,
}

/// A kept row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The input it came from (0-based) and the line where it starts.
    pub input: usize,
    pub line: u64,
    pub band: usize,
    /// Its fields, in [`Sample::columns`] order.
    pub values: Vec<Value>,
}

/// A finished sample.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The columns of the rows (the `band` column follows them in the output).
    pub columns: Vec<String>,
    /// The kept rows, in input order.
    pub rows: Vec<Kept>,
    pub bands: Vec<BandCount>,
    /// Rows without a value, per reason (as [`Skip::label`] words it), in a fixed order.
    pub skipped: Vec<(String, u64)>,
    /// Rows read (in the shard).
    pub read: u64,
    pub per_band: usize,
    pub by: By,
    /// The run was stopped (SIGINT, SIGTERM): the sample is of a part of the input only.
    pub interrupted: bool,
}

impl Sample {
    /// The bands with fewer rows than asked.
    pub fn short(&self) -> impl Iterator<Item = &BandCount> {
        self.bands.iter().filter(|b| b.kept < self.per_band as u64)
    }

    /// The label of `row`'s band.
    pub fn label(&self, row: &Kept) -> &str {
        self.bands.get(row.band).map_or("", |b| b.label.as_str())
    }
}

/// What a worker made of a chunk.
struct Done {
    entries: Vec<Entry>,
    seen: Vec<u64>,
    skipped: BTreeMap<Skip, u64>,
    rows: u64,
    bytes: u64,
}

/// Judges `items` of input `input`, keeping the entries that may still be kept under `bounds`.
fn judge_chunk(
    spec: &Spec,
    decode: &Decode,
    bounds: &[AtomicU64],
    input: usize,
    items: Vec<read::Item>,
) -> (Vec<Entry>, Vec<u64>, BTreeMap<Skip, u64>) {
    let mut entries = Vec::new();
    let mut seen = vec![0u64; spec.bands.len()];
    let mut skipped = BTreeMap::new();
    for item in items {
        let line = item.line;
        match decode.judge(&spec.bands, spec.seed, item.body) {
            Err(why) => *skipped.entry(why).or_insert(0) += 1,
            Ok((j, pending)) => {
                seen[j.band] += 1;
                // Above the band's bound it can never be kept (bounds only fall).
                if j.priority > bounds[j.band].load(Ordering::Relaxed) {
                    continue;
                }
                entries.push(Entry {
                    priority: j.priority,
                    cells: j.cells,
                    row: decode.row(pending),
                    band: j.band,
                    input,
                    line,
                });
            }
        }
    }
    (entries, seen, skipped)
}

/// The tallies a run adds up, and the reservoir.
struct Tally {
    reservoir: Reservoir,
    seen: Vec<u64>,
    skipped: BTreeMap<Skip, u64>,
    read: u64,
}

impl Tally {
    fn new(spec: &Spec) -> Tally {
        Tally {
            reservoir: Reservoir::new(spec.bands.len(), spec.per_band),
            seen: vec![0; spec.bands.len()],
            skipped: BTreeMap::new(),
            read: 0,
        }
    }

    fn add(&mut self, entries: Vec<Entry>, seen: &[u64], skipped: BTreeMap<Skip, u64>) {
        for e in entries {
            self.reservoir.offer(e);
        }
        for (t, s) in self.seen.iter_mut().zip(seen) {
            *t += s;
        }
        for (why, n) in skipped {
            *self.skipped.entry(why).or_insert(0) += n;
        }
    }
}

/// Samples `inputs`. A plain puzzle file's kept puzzles are rated on `threads` workers.
pub fn collect(inputs: &[Input], req: &Request) -> Result<Sample, run::Error> {
    let spec = &req.spec;
    let by = spec.bands.by();
    let counter = Arc::new(AtomicU64::new(0));
    // Every input opened first: inputs that do not fit together are refused before reading.
    let mut decodes = Vec::with_capacity(inputs.len());
    let mut readers = Vec::with_capacity(inputs.len());
    let mut columns: Option<Option<Vec<String>>> = None;
    for input in inputs {
        let failed = |message: String| run::Error::Input {
            name: input.name.clone(),
            line: None,
            message,
        };
        let Opened {
            columns: cols,
            decode,
            reader,
        } = read::open(
            input,
            req.format,
            req.column.as_deref(),
            by,
            Arc::clone(&counter),
        )
        .map_err(failed)?;
        match &columns {
            None => columns = Some(cols),
            Some(first) if *first == cols => {}
            Some(first) => {
                let what = |c: &Option<Vec<String>>| match c {
                    Some(names) => format!("columns {}", names.join(",")),
                    None => "puzzles".to_string(),
                };
                return Err(failed(format!(
                    "holds {}, but {} holds {}: the inputs of one sample must have the same \
                     columns",
                    what(&cols),
                    inputs[0].name,
                    what(first)
                )));
            }
        }
        decodes.push(decode);
        readers.push(reader);
    }
    let columns = columns.flatten();
    let plain = columns.is_none();
    let threads = run::threads(req.threads);
    // Sudoku Explainer ratings take milliseconds to seconds a row: small chunks keep every
    // worker busy (as `rate --se` does).
    let chunk_size = if plain && by.se() { SE_CHUNK } else { 1024 };
    let bounds: Arc<Vec<AtomicU64>> = Arc::new(
        (0..spec.bands.len())
            .map(|_| AtomicU64::new(u64::MAX))
            .collect(),
    );
    let mut tally = Tally::new(spec);
    let started = Instant::now();
    let progress =
        (req.progress && std::io::stderr().is_terminal()).then(|| run::progress::Bar::new(inputs));
    let mut shown = run::Summary::default();
    let result = {
        let (names, shard, stop) = (
            inputs.iter().map(|i| i.name.clone()).collect::<Vec<_>>(),
            req.shard,
            req.stop.clone(),
        );
        let counter = Arc::clone(&counter);
        let (spec, bounds_w, decodes) = (spec.clone(), Arc::clone(&bounds), Arc::new(decodes));
        ordered::run_until(
            req.stop.clone(),
            threads,
            "sample",
            move |feeder| feed(readers, &names, shard, chunk_size, stop, counter, feeder),
            move |chunk: Chunk<read::Item>| {
                let rows = chunk.items.len() as u64;
                let (entries, seen, skipped) = judge_chunk(
                    &spec,
                    &decodes[chunk.file],
                    &bounds_w,
                    chunk.file,
                    chunk.items,
                );
                Done {
                    entries,
                    seen,
                    skipped,
                    rows,
                    bytes: chunk.bytes,
                }
            },
            |event| match event {
                ordered::Event::Idle => Ok(()),
                ordered::Event::Failed(e) => Err(e),
                ordered::Event::Done(done) => {
                    tally.read += done.rows;
                    tally.add(done.entries, &done.seen, done.skipped);
                    for (b, bound) in bounds.iter().enumerate() {
                        if let Some(p) = tally.reservoir.bound(b) {
                            bound.store(p, Ordering::Relaxed);
                        }
                    }
                    if let Some(pb) = &progress {
                        shown.add(run::Status::Solved, done.rows);
                        pb.update(&shown, done.bytes, started.elapsed());
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
    let columns = match columns {
        Some(c) => c,
        None => rate_columns(by, inputs.len() > 1),
    };
    if req.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst)) {
        // A sample of part of the input is no sample: the counts so far, no rows (and no
        // puzzle rated for its row).
        let (bands, skipped) = counts(spec, &tally);
        return Ok(Sample {
            columns,
            rows: Vec::new(),
            bands,
            skipped,
            read: tally.read,
            per_band: spec.per_band,
            by,
            interrupted: true,
        });
    }
    let names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
    finish(spec, tally, columns, &names, threads)
}

/// Samples puzzles held in memory (the Python module's arrays): puzzle `i` is `grid(i)` (or why
/// it is not one), read as line `i + 1` of one input, and the kept ones get their `rate` rows.
pub fn collect_grids(
    n: usize,
    grid: impl Fn(usize) -> Result<Grid, String> + Sync,
    spec: &Spec,
    threads: usize,
) -> Result<Sample, run::Error> {
    let pool = pool(threads)?;
    let bounds: Vec<AtomicU64> = (0..spec.bands.len())
        .map(|_| AtomicU64::new(u64::MAX))
        .collect();
    let per_task = if spec.bands.by().se() { 1 } else { 256 };
    let parts: Vec<_> = pool.install(|| {
        (0..n.div_ceil(per_task))
            .into_par_iter()
            .map(|t| {
                let items = (t * per_task..((t + 1) * per_task).min(n))
                    .map(|i| {
                        let line = i as u64 + 1;
                        let puzzle = grid(i).map_err(crate::grid::ParseError::Other);
                        read::Item {
                            line,
                            body: read::Body::Puzzle(Record {
                                line,
                                puzzle,
                                candidates: None,
                            }),
                        }
                    })
                    .collect();
                judge_chunk(spec, &Decode::Puzzles, &bounds, 0, items)
            })
            .collect()
    });
    let mut tally = Tally::new(spec);
    tally.read = n as u64;
    for (entries, seen, skipped) in parts {
        tally.add(entries, &seen, skipped);
    }
    let columns = rate_columns(spec.bands.by(), false);
    finish(spec, tally, columns, &["-".to_string()], threads)
}

fn pool(threads: usize) -> Result<rayon::ThreadPool, run::Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(run::threads(threads))
        .thread_name(|i| format!("sample-worker-{i}"))
        .build()
        .map_err(|e| run::Error::Threads(e.to_string()))
}

/// What `rate` writes for a puzzle file sampled `by` (`rate --se` for er/ep/ed).
fn rate_job(by: By) -> RateJob {
    RateJob {
        samples: crate::rate::DEFAULT_SAMPLES,
        seed: 0,
        se: by.se().then_some(crate::explain::DEFAULT_BUDGET),
    }
}

/// The columns of `rate_job(by)`'s rows (then `file` with several inputs).
fn rate_columns(by: By, with_file: bool) -> Vec<String> {
    rate_job(by)
        .columns()
        .names
        .iter()
        .map(|n| n.to_string())
        .chain(with_file.then(|| "file".to_string()))
        .collect()
}

/// The `rate` row of a kept puzzle, as fields.
fn rate_row(job: &RateJob, e: &Entry, file: Option<&str>) -> Vec<Value> {
    let rec = Record {
        line: e.line,
        puzzle: Ok(Grid::from_cells(e.cells).unwrap_or(Grid::EMPTY)),
        candidates: None,
    };
    let mut w = RowWriter::new(OutputFormat::Csv, job.columns(), 256);
    job.rows(&rec, &mut w, file);
    let bytes = w.finish();
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&bytes[..]);
    let mut record = csv::StringRecord::new();
    match rdr.read_record(&mut record) {
        Ok(true) => record
            .iter()
            .map(|f| match f {
                "" => Value::Null,
                f => Value::Text(f.to_string()),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The per-band counts and the skipped rows by reason of `tally`.
fn counts(spec: &Spec, tally: &Tally) -> (Vec<BandCount>, Vec<(String, u64)>) {
    let bands = (0..spec.bands.len())
        .map(|b| BandCount {
            label: spec.bands.label(b).to_string(),
            seen: tally.seen[b],
            kept: tally.reservoir.kept(b) as u64,
        })
        .collect();
    let by = spec.bands.by();
    let skipped = tally
        .skipped
        .iter()
        .map(|(why, &n)| (why.label(by), n))
        .collect();
    (bands, skipped)
}

/// The sample of `tally`: kept rows in input order (plain puzzles given their `rate` rows), and
/// the counts.
fn finish(
    spec: &Spec,
    tally: Tally,
    columns: Vec<String>,
    inputs: &[String],
    threads: usize,
) -> Result<Sample, run::Error> {
    let (bands, skipped) = counts(spec, &tally);
    let by = spec.bands.by();
    let mut entries = tally.reservoir.into_entries();
    entries.sort_by_key(|e| (e.input, e.line));
    let job = rate_job(by);
    let with_file = inputs.len() > 1;
    let make = |e: &Entry| -> Kept {
        let values = match &e.row {
            Row::Fields(v) => v.clone(),
            Row::Puzzle => rate_row(&job, e, with_file.then(|| inputs[e.input].as_str())),
        };
        Kept {
            input: e.input,
            line: e.line,
            band: e.band,
            values,
        }
    };
    let rows: Vec<Kept> = if entries.iter().any(|e| e.row == Row::Puzzle) {
        let pool = pool(threads)?;
        pool.install(|| entries.par_iter().with_min_len(1).map(make).collect())
    } else {
        entries.iter().map(make).collect()
    };
    Ok(Sample {
        columns,
        rows,
        bands,
        skipped,
        read: tally.read,
        per_band: spec.per_band,
        by,
        interrupted: false,
    })
}

/// The reader thread: every input in turn, its rows filtered by shard and cut into chunks.
fn feed(
    readers: Vec<Reader>,
    names: &[String],
    shard: Option<Shard>,
    chunk_size: usize,
    stop: Option<Arc<AtomicBool>>,
    counter: Arc<AtomicU64>,
    feeder: &mut ordered::Feeder<Chunk<read::Item>, Done, run::Error>,
) {
    let stopped = || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    for (file, reader) in readers.into_iter().enumerate() {
        let fail = |feeder: &mut ordered::Feeder<_, _, _>, line, message: String| {
            feeder.fail(run::Error::Input {
                name: names[file].clone(),
                line,
                message,
            })
        };
        let mut rows: Box<dyn Rows> = match reader {
            Reader::Stream(s) => Box::new(s),
            Reader::Parquet { path, band, bytes } => {
                match read::ParquetRows::open(&path, band, bytes, Arc::clone(&counter)) {
                    Ok(r) => Box::new(r),
                    Err(e) => return fail(feeder, None, e),
                }
            }
        };
        let mut done = false;
        while !done {
            if stopped() {
                return;
            }
            let mut items = Vec::with_capacity(chunk_size);
            let mut error = None;
            while items.len() < chunk_size {
                match rows.next() {
                    Ok(Some(item)) => {
                        if shard.is_none_or(|s| s.contains(item.line)) {
                            items.push(item);
                        }
                    }
                    Ok(None) => {
                        done = true;
                        break;
                    }
                    Err(e) => {
                        error = Some((rows.line_number() + 1, e));
                        break;
                    }
                }
            }
            if !items.is_empty() {
                let chunk = Chunk {
                    file,
                    items,
                    bytes: counter.load(Ordering::Relaxed),
                };
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
