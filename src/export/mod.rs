//! `sudoku-batch export`: turn a train, a test and optionally a valid file into the folder a
//! training program reads as it is — a Hugging Face dataset ([`hf`]: Parquet shards per split
//! and a dataset card) or the layout of HRM's and TRM's sudoku builder ([`hrm`]: NumPy arrays
//! and `dataset.json` per split).
//!
//! Every exported puzzle has exactly one solution, proven by the engine, and that solution is
//! its label: a record that is not a usable puzzle, has no solution or several, or whose
//! solution column disagrees with the unique solution is never exported. It is reported on
//! stderr with its file and line, counted per split and reason ([`Reason`]), listed in
//! `left_out.csv` and, in a dataset card, summed up per split — nothing disappears silently.
//!
//! The shape is the same for both layouts: each split's input is read as rows ([`read`]) on a
//! reader thread, solved on every core through the ordered map every streaming command uses
//! ([`crate::run::ordered`]), and handed in input order to the layout's writer (a [`Sink`]), so
//! the output is the same bytes whatever `-j` (the arrays, the rows; a Parquet file's metadata
//! also records when it was made). Memory stays bounded: nothing holds a split in memory (the
//! `.npy` arrays are streamed, their headers written last; Parquet rows go out in row groups).
//!
//! The folder is written as `DIR.partial` and renamed to `DIR` when complete. An existing `DIR`
//! is refused unless `--force`, and even then only replaced when it holds nothing but what an
//! export writes, so `--force` cannot delete anything else.

mod card;
pub mod hf;
pub mod hrm;
pub mod npy;
pub mod read;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::augment::AugmentJob;
use crate::engine;
use crate::grid::Grid;
use crate::human::group;
use crate::input::{Input, InputFormat};
use crate::run::ordered::{self, Event};
use crate::run::parquet::Compression;
use crate::run::{self, Status, Summary};
use read::{Column, Row, Source};

/// Which layout to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// A Hugging Face dataset folder ([`hf`]).
    Hf,
    /// HRM's (and TRM's) sudoku dataset folder ([`hrm`]).
    Hrm,
}

impl Layout {
    pub fn as_str(self) -> &'static str {
        match self {
            Layout::Hf => "hf",
            Layout::Hrm => "hrm",
        }
    }
}

/// A split of the dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    Train,
    Test,
    Valid,
}

impl Split {
    /// Its folder in either layout.
    pub fn dir(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Test => "test",
            Split::Valid => "valid",
        }
    }

    /// Its name in a Hugging Face dataset (the library's `validation` for valid; its own
    /// folder detection maps `valid/` to that name too).
    pub fn hf_name(self) -> &'static str {
        match self {
            Split::Valid => "validation",
            s => s.dir(),
        }
    }
}

/// Why a record was left out of the dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Not a usable puzzle: unreadable, not 81 cells, or givens that break a rule.
    Invalid,
    /// Two or more solutions.
    Multiple,
    /// No solution.
    Unsolvable,
    /// The row's solution column holds something other than the puzzle's unique solution.
    WrongSolution,
}

impl Reason {
    pub const ALL: [Reason; 4] = [
        Reason::Invalid,
        Reason::Multiple,
        Reason::Unsolvable,
        Reason::WrongSolution,
    ];

    /// The word in `left_out.csv`, `export.json` and the report.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Invalid => "invalid",
            Reason::Multiple => "multiple",
            Reason::Unsolvable => "unsolvable",
            Reason::WrongSolution => "wrong-solution",
        }
    }

    /// What it means, for the dataset card.
    pub fn meaning(self) -> &'static str {
        match self {
            Reason::Invalid => "not a usable puzzle (unreadable, or givens that break a rule)",
            Reason::Multiple => "more than one solution",
            Reason::Unsolvable => "no solution",
            Reason::WrongSolution => "its solution column is not the puzzle's unique solution",
        }
    }
}

/// The default number of rows per Parquet file of a Hugging Face export.
pub const DEFAULT_ROWS_PER_FILE: usize = 1_000_000;

/// Records per chunk handed to a worker.
const CHUNK: usize = 1024;

/// A whole export.
#[derive(Clone, Debug)]
pub struct Request {
    pub layout: Layout,
    pub train: Input,
    pub test: Input,
    pub valid: Option<Input>,
    /// The folder to write.
    pub output: PathBuf,
    /// Replace an existing export folder.
    pub force: bool,
    /// HRM: equivalent copies added to each training puzzle's group.
    pub augment: u32,
    /// HRM: the seed of the copies' transforms (with each puzzle itself).
    pub seed: u64,
    /// The format of every input that is not Parquet (`None`: told from each).
    pub input_format: Option<InputFormat>,
    /// A table's puzzle column [default: the first of quizzes, puzzle, puzzles].
    pub column: Option<String>,
    /// A table's solution column [default: the first of solution, solutions, if any].
    pub solution_column: Option<String>,
    /// Hugging Face: the Parquet files' compression.
    pub compression: Compression,
    /// Hugging Face: rows per Parquet file at most.
    pub rows_per_file: usize,
    /// The provenance record (JSON), written into the card, `export.json` and Parquet files.
    pub provenance: Option<String>,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// No per-record notes, no progress and no summary on stderr.
    pub quiet: bool,
}

impl Request {
    /// The splits with their inputs, in the order they are written.
    pub fn splits(&self) -> Vec<(Split, &Input)> {
        let mut s = vec![(Split::Train, &self.train), (Split::Test, &self.test)];
        if let Some(v) = &self.valid {
            s.push((Split::Valid, v));
        }
        s
    }

    /// The augmentation of `split`'s puzzles: the training split only, as HRM's builder does.
    fn augmentation(&self, split: Split) -> Option<AugmentJob> {
        (split == Split::Train && self.augment > 0).then_some(AugmentJob {
            copies: self.augment,
            seed: self.seed,
        })
    }
}

/// What an export did with one split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitReport {
    pub split: Split,
    /// The input's name as given.
    pub input: String,
    /// Records read.
    pub read: u64,
    /// Puzzles exported.
    pub puzzles: u64,
    /// Rows written: the puzzles, and with `--augment` their copies.
    pub examples: u64,
    /// Records left out, by [`Reason::ALL`].
    pub left_out: [u64; 4],
}

impl SplitReport {
    fn new(split: Split, input: &str) -> SplitReport {
        SplitReport {
            split,
            input: input.to_string(),
            read: 0,
            puzzles: 0,
            examples: 0,
            left_out: [0; 4],
        }
    }

    pub fn left_out_total(&self) -> u64 {
        self.left_out.iter().sum()
    }
}

/// What an export did.
#[derive(Clone, Debug)]
pub struct Report {
    pub layout: Layout,
    /// The folder written.
    pub dir: PathBuf,
    pub splits: Vec<SplitReport>,
    /// The columns of a Hugging Face export's rows (empty for HRM).
    pub columns: Vec<Column>,
    pub wall: Duration,
}

impl Report {
    pub fn left_out_total(&self) -> u64 {
        self.splits.iter().map(SplitReport::left_out_total).sum()
    }

    /// Rows written, over all splits.
    pub fn examples(&self) -> u64 {
        self.splits.iter().map(|s| s.examples).sum()
    }
}

/// A puzzle that goes into the dataset, with what goes along with it.
#[derive(Clone, Debug)]
pub struct Kept {
    pub line: u64,
    pub puzzle: Grid,
    pub solution: Grid,
    /// The carried fields, in the dataset's column order.
    pub fields: Vec<Option<String>>,
    /// HRM: the puzzle and its augmented copies as the writer takes them, made on a worker.
    pub examples: Option<hrm::Examples>,
}

/// What a worker makes of a kept puzzle for HRM: the split's augmentation and input name.
#[derive(Clone, Debug)]
struct HrmWork {
    augment: Option<AugmentJob>,
    /// The input's name as a CSV field.
    source: Vec<u8>,
}

/// What became of one record.
enum Decision {
    Kept(Box<Kept>),
    LeftOut {
        line: u64,
        reason: Reason,
        why: String,
    },
}

/// The decision on `row`: exported with its unique solution (and, for HRM, its examples), or
/// left out with the reason.
fn decide(row: Row, hrm: Option<&HrmWork>) -> Decision {
    let left = |reason, why: String| Decision::LeftOut {
        line: row.line,
        reason,
        why,
    };
    let grid = match &row.puzzle {
        Ok(g) => *g,
        Err(why) => return left(Reason::Invalid, why.clone()),
    };
    if let Err(conflict) = grid.check_givens() {
        return left(Reason::Invalid, conflict.to_string());
    }
    let found = engine::solve(&grid, 2);
    let solution = match (found.solutions, found.first) {
        (1, Some(s)) => s,
        (0, _) => return left(Reason::Unsolvable, "the puzzle has no solution".into()),
        (1, None) => return left(Reason::Unsolvable, "the solver found no solution".into()),
        _ => {
            return left(
                Reason::Multiple,
                "the puzzle has more than one solution".into(),
            )
        }
    };
    match &row.claim {
        Some(Err(why)) => {
            return left(
                Reason::WrongSolution,
                format!("its solution field is not a grid: {why}"),
            )
        }
        Some(Ok(claim)) if *claim != solution => {
            return left(
                Reason::WrongSolution,
                format!(
                    "its solution field is not the puzzle's unique solution {}",
                    solution.to_line()
                ),
            )
        }
        _ => {}
    }
    let examples = hrm.map(|h| {
        let copies = h.augment.iter().flat_map(|a| a.transforms(&grid));
        hrm::examples(&grid, &solution, row.line, &h.source, copies)
    });
    Decision::Kept(Box::new(Kept {
        line: row.line,
        puzzle: grid,
        solution,
        fields: row.fields,
        examples,
    }))
}

/// A layout's writer: handed each split's kept puzzles in input order.
pub trait Sink {
    /// A split starts; `input` is its input's name.
    fn begin(&mut self, split: Split, input: &str) -> Result<(), String>;
    /// One exported puzzle; returns the rows it became.
    fn row(&mut self, kept: &Kept) -> Result<u64, String>;
    /// A chunk of rows has been handed over (a good moment to pass buffered rows on).
    fn chunk_done(&mut self) -> Result<(), String> {
        Ok(())
    }
    /// The split ends.
    fn end(&mut self, report: &SplitReport) -> Result<(), String>;
    /// The export ends: everything that needs every split's counts.
    fn finish(&mut self, report: &Report, context: &Context<'_>) -> Result<(), String>;
}

/// What a sink's last files say about the whole export.
pub struct Context<'a> {
    pub request: &'a Request,
    /// The provenance record, parsed.
    pub provenance: Option<serde_json::Value>,
}

/// The names an export writes at the top of its folder: a folder holding only these (or
/// nothing) may be replaced with `--force`.
const OWN_ENTRIES: [&str; 8] = [
    "train",
    "test",
    "valid",
    "README.md",
    "export.json",
    "left_out.csv",
    "identifiers.json",
    STDIN_SPOOL,
];

/// Where stdin is kept while it is read (it is read twice for a CSV schema).
const STDIN_SPOOL: &str = ".stdin";

/// Whether `dir` holds nothing but what an export writes.
fn holds_only_an_export(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.into_iter().all(|e| {
            e.is_ok_and(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|n| OWN_ENTRIES.contains(&n))
            })
        })
    })
}

/// The output folder while it is written (`DIR.partial`) and once done (`DIR`).
struct OutDir {
    path: PathBuf,
    partial: PathBuf,
}

impl OutDir {
    /// Checks `path` (refused when it exists, unless `force` and it holds only an export) and
    /// creates `path.partial` afresh (a folder left by an interrupted export is replaced).
    fn prepare(path: &Path, force: bool, inputs: &[&Input]) -> Result<OutDir, String> {
        // `out/` and `out` are the same folder.
        let path: PathBuf = path.components().collect();
        if path.as_os_str().is_empty() || path.file_name().is_none() {
            return Err(format!(
                "-o {}: name a folder to create (DIR)",
                path.display()
            ));
        }
        let shown = path.display();
        if let Ok(meta) = std::fs::symlink_metadata(&path) {
            if !meta.is_dir() {
                return Err(format!("{shown} exists and is not a folder"));
            }
            if !force {
                return Err(format!(
                    "{shown} exists: choose another -o, or replace it with --force"
                ));
            }
            if !holds_only_an_export(&path) {
                return Err(format!(
                    "{shown} holds files an export does not write: --force replaces only an \
                     earlier export; remove it yourself or choose another -o"
                ));
            }
            let dir = std::fs::canonicalize(&path).map_err(|e| format!("{shown}: {e}"))?;
            for input in inputs {
                let inside = input
                    .path
                    .as_deref()
                    .and_then(|p| std::fs::canonicalize(p).ok())
                    .is_some_and(|p| p.starts_with(&dir));
                if inside {
                    return Err(format!(
                        "{}: the input is inside {shown}, which --force would replace",
                        input.name
                    ));
                }
            }
        }
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        if std::fs::symlink_metadata(&partial).is_ok() {
            if !partial.is_dir() || !holds_only_an_export(&partial) {
                return Err(format!(
                    "{} exists and is not an unfinished export: remove it or choose another -o",
                    partial.display()
                ));
            }
            std::fs::remove_dir_all(&partial)
                .map_err(|e| format!("cannot remove {}: {e}", partial.display()))?;
        }
        std::fs::create_dir_all(&partial).map_err(|e| run::output::cannot_create(&partial, &e))?;
        Ok(OutDir { path, partial })
    }

    /// `DIR.partial` becomes `DIR` (an earlier export there is removed first).
    fn commit(&self) -> Result<(), String> {
        if self.path.is_dir() {
            std::fs::remove_dir_all(&self.path)
                .map_err(|e| format!("cannot replace {}: {e}", self.path.display()))?;
        }
        std::fs::rename(&self.partial, &self.path).map_err(|e| {
            format!(
                "cannot rename {} to {}: {e}",
                self.partial.display(),
                self.path.display()
            )
        })
    }
}

/// Copies stdin into `dir` (it may have to be read twice) and gives the input that reads it
/// there, under its name `-`.
fn spool_stdin(dir: &Path) -> Result<Input, String> {
    let path = dir.join(STDIN_SPOOL);
    let mut f = std::fs::File::create(&path).map_err(|e| run::output::cannot_create(&path, &e))?;
    io::copy(&mut io::stdin().lock(), &mut f).map_err(|e| format!("reading stdin: {e}"))?;
    Ok(Input {
        name: "-".into(),
        path: Some(path),
    })
}

/// `left_out.csv`: one row per record left out.
struct LeftOutFile {
    out: BufWriter<std::fs::File>,
    path: PathBuf,
}

impl LeftOutFile {
    const HEADER: &'static [u8] = b"split,source,line,reason,detail\n";

    fn create(dir: &Path) -> Result<LeftOutFile, String> {
        let path = dir.join("left_out.csv");
        let f = std::fs::File::create(&path).map_err(|e| run::output::cannot_create(&path, &e))?;
        let mut out = BufWriter::new(f);
        out.write_all(Self::HEADER)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(LeftOutFile { out, path })
    }

    fn row(
        &mut self,
        split: Split,
        source: &str,
        line: u64,
        reason: Reason,
        why: &str,
    ) -> Result<(), String> {
        let mut row = Vec::with_capacity(128);
        row.extend_from_slice(split.dir().as_bytes());
        row.push(b',');
        run::rows::csv_field(&mut row, source.as_bytes());
        row.extend_from_slice(format!(",{line},{},", reason.as_str()).as_bytes());
        run::rows::csv_field(&mut row, why.as_bytes());
        row.push(b'\n');
        self.out
            .write_all(&row)
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }

    fn finish(mut self) -> Result<(), String> {
        self.out
            .flush()
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// A chunk of rows read from one split's input.
struct Chunk {
    rows: Vec<Row>,
    /// Input bytes read so far, over every input (for the progress bar).
    bytes: u64,
}

struct Done {
    decisions: Vec<Decision>,
    bytes: u64,
}

/// Runs an export.
pub fn execute(req: &Request) -> Result<Report, run::Error> {
    let started = Instant::now();
    let fail = run::Error::OutputFile;
    if req.layout == Layout::Hf && req.augment > 0 {
        return Err(fail(
            "--augment is for --to hrm (HRM's groups of equivalent copies)".into(),
        ));
    }
    if req.rows_per_file == 0 {
        return Err(fail("--rows-per-file must be at least 1".into()));
    }
    let splits = req.splits();
    if splits.iter().filter(|(_, i)| i.path.is_none()).count() > 1 {
        return Err(fail("stdin (-) can be the input of one split only".into()));
    }
    let inputs: Vec<&Input> = splits.iter().map(|(_, i)| *i).collect();
    let out = OutDir::prepare(&req.output, req.force, &inputs).map_err(fail)?;
    let result = export_into(req, &out.partial, started);
    match result {
        Ok(report) => {
            let _ = std::fs::remove_file(out.partial.join(STDIN_SPOOL));
            out.commit().map_err(fail)?;
            let report = Report {
                dir: out.path.clone(),
                ..report
            };
            if !req.quiet {
                summary(&report);
            }
            Ok(report)
        }
        Err(e) => {
            // An unfinished folder is of no use; the next export would replace it anyway.
            let _ = std::fs::remove_dir_all(&out.partial);
            Err(e)
        }
    }
}

/// The export itself, into the folder `dir`.
fn export_into(req: &Request, dir: &Path, started: Instant) -> Result<Report, run::Error> {
    let fail = run::Error::OutputFile;
    let opts = read::Options {
        column: req.column.clone(),
        solution_column: req.solution_column.clone(),
        input_format: req.input_format,
    };
    let mut sources: Vec<(Split, Source)> = Vec::new();
    for (split, input) in req.splits() {
        let input = match input.path {
            None => spool_stdin(dir).map_err(fail)?,
            Some(_) => input.clone(),
        };
        let source = Source::new(input, req.input_format).map_err(fail)?;
        sources.push((split, source));
    }
    // The carried columns (Hugging Face only: HRM's arrays hold grids alone).
    let columns = match req.layout {
        Layout::Hf => {
            let mut per_input = Vec::new();
            for (_, s) in &sources {
                per_input.push(read::scan(s, &opts).map_err(fail)?);
            }
            read::union(&per_input)
        }
        Layout::Hrm => Vec::new(),
    };
    // Every input opens (its columns found) before anything is written.
    for (_, s) in &sources {
        read::open(s, &opts, &columns, Arc::new(AtomicU64::new(0))).map_err(fail)?;
    }
    let mut sink: Box<dyn Sink> = match req.layout {
        Layout::Hf => Box::new(hf::HfWriter::new(
            dir,
            &columns,
            req.compression,
            req.rows_per_file,
            req.provenance.clone(),
        )),
        Layout::Hrm => Box::new(hrm::HrmWriter::new(dir)),
    };
    let mut left_out = LeftOutFile::create(dir).map_err(fail)?;
    let all_inputs: Vec<Input> = sources.iter().map(|(_, s)| s.input.clone()).collect();
    let progress =
        (!req.quiet && io::stderr().is_terminal()).then(|| run::progress::Bar::new(&all_inputs));
    let counter = Arc::new(AtomicU64::new(0));
    let mut done_rows = Summary::default();
    let mut reports = Vec::new();
    for (split, source) in &sources {
        let name = source.input.name.clone();
        sink.begin(*split, &name).map_err(fail)?;
        let mut report = SplitReport::new(*split, &name);
        let reader = {
            let (source, opts, columns) = (source.clone(), opts.clone(), columns.clone());
            let counter = Arc::clone(&counter);
            move |feeder: &mut ordered::Feeder<Chunk, Done, run::Error>| {
                read_split(&source, &opts, &columns, counter, feeder)
            }
        };
        let hrm = (req.layout == Layout::Hrm).then(|| {
            let mut source = Vec::new();
            run::rows::csv_field(&mut source, name.as_bytes());
            HrmWork {
                augment: req.augmentation(*split),
                source,
            }
        });
        let work = move |chunk: Chunk| Done {
            decisions: chunk
                .rows
                .into_iter()
                .map(|r| decide(r, hrm.as_ref()))
                .collect(),
            bytes: chunk.bytes,
        };
        ordered::run(
            run::threads(req.threads),
            "export",
            reader,
            work,
            |event| match event {
                Event::Idle => Ok(()),
                Event::Failed(e) => Err(e),
                Event::Done(done) => {
                    for d in done.decisions {
                        report.read += 1;
                        match d {
                            Decision::Kept(k) => {
                                report.puzzles += 1;
                                report.examples += sink.row(&k).map_err(fail)?;
                            }
                            Decision::LeftOut { line, reason, why } => {
                                report.left_out[reason as usize] += 1;
                                if !req.quiet {
                                    eprintln!(
                                        "sudoku-batch: {name}:{line}: left out of {} ({}): {why}",
                                        split.dir(),
                                        reason.as_str()
                                    );
                                }
                                left_out
                                    .row(*split, &name, line, reason, &why)
                                    .map_err(fail)?;
                            }
                        }
                    }
                    sink.chunk_done().map_err(fail)?;
                    if let Some(pb) = &progress {
                        done_rows = Summary::default();
                        let so_far: u64 =
                            reports.iter().map(|r: &SplitReport| r.read).sum::<u64>() + report.read;
                        done_rows.add(Status::Solved, so_far);
                        pb.update(&done_rows, done.bytes, started.elapsed());
                    }
                    Ok(())
                }
            },
        )?;
        sink.end(&report).map_err(fail)?;
        reports.push(report);
    }
    if let Some(pb) = &progress {
        pb.finish();
    }
    left_out.finish().map_err(fail)?;
    let report = Report {
        layout: req.layout,
        dir: dir.to_path_buf(),
        splits: reports,
        columns,
        wall: started.elapsed(),
    };
    let context = Context {
        request: req,
        provenance: req
            .provenance
            .as_deref()
            .and_then(|p| serde_json::from_str(p).ok()),
    };
    sink.finish(&report, &context).map_err(fail)?;
    write_manifest(dir, &report, &context).map_err(fail)?;
    Ok(report)
}

/// The reader thread of one split: rows in chunks, an input error after the rows before it.
fn read_split(
    source: &Source,
    opts: &read::Options,
    columns: &[Column],
    counter: Arc<AtomicU64>,
    feeder: &mut ordered::Feeder<Chunk, Done, run::Error>,
) {
    let name = source.input.name.clone();
    let mut rows = match read::open(source, opts, columns, Arc::clone(&counter)) {
        Ok(r) => r,
        Err(message) => {
            return feeder.fail(run::Error::Input {
                name,
                line: None,
                message,
            })
        }
    };
    loop {
        let mut chunk = Vec::with_capacity(CHUNK);
        let mut error = None;
        let mut end = false;
        while chunk.len() < CHUNK {
            match rows.next() {
                Ok(Some(r)) => chunk.push(r),
                Ok(None) => {
                    end = true;
                    break;
                }
                Err(e) => {
                    error = Some((rows.line_number() + 1, e));
                    break;
                }
            }
        }
        if !chunk.is_empty() {
            let bytes = counter.load(Ordering::Relaxed);
            if !feeder.send(Chunk { rows: chunk, bytes }) {
                return;
            }
        }
        if let Some((line, e)) = error {
            return feeder.fail(run::Error::Input {
                name,
                line: Some(line),
                message: e.to_string(),
            });
        }
        if end {
            return;
        }
    }
}

/// `export.json`: the layout, each split's counts and reasons, the columns, the options that
/// shaped the rows and the provenance — what a script reads instead of the card.
fn write_manifest(dir: &Path, report: &Report, context: &Context<'_>) -> Result<(), String> {
    let req = context.request;
    let splits: serde_json::Map<String, serde_json::Value> = report
        .splits
        .iter()
        .map(|s| {
            let left: serde_json::Map<String, serde_json::Value> = Reason::ALL
                .iter()
                .map(|r| (r.as_str().to_string(), s.left_out[*r as usize].into()))
                .collect();
            (
                s.split.dir().to_string(),
                serde_json::json!({
                    "input": s.input,
                    "read": s.read,
                    "puzzles": s.puzzles,
                    "examples": s.examples,
                    "left_out": left,
                }),
            )
        })
        .collect();
    let columns: Vec<serde_json::Value> = report
        .columns
        .iter()
        .map(|c| serde_json::json!({"name": c.name, "dtype": hf::dtype(c.kind)}))
        .collect();
    let value = serde_json::json!({
        "layout": req.layout.as_str(),
        "splits": splits,
        "columns": columns,
        "augment": req.augment,
        "seed": req.seed,
        "provenance": context.provenance,
    });
    let path = dir.join("export.json");
    let text = serde_json::to_string_pretty(&value).unwrap_or_default();
    std::fs::write(&path, format!("{text}\n")).map_err(|e| run::output::cannot_create(&path, &e))
}

/// The summary on stderr.
fn summary(report: &Report) {
    let splits: Vec<String> = report
        .splits
        .iter()
        .map(|s| {
            let mut text = format!("{} {} puzzles", s.split.dir(), group(s.puzzles));
            if s.examples != s.puzzles {
                text.push_str(&format!(" ({} examples)", group(s.examples)));
            }
            text
        })
        .collect();
    let mut reasons = Vec::new();
    for r in Reason::ALL {
        let n: u64 = report.splits.iter().map(|s| s.left_out[r as usize]).sum();
        if n > 0 {
            reasons.push(format!("{} {}", r.as_str(), group(n)));
        }
    }
    let left = match reasons.is_empty() {
        true => "none left out".to_string(),
        false => format!(
            "{} left out ({}; listed in left_out.csv)",
            group(report.left_out_total()),
            reasons.join(", ")
        ),
    };
    let read: u64 = report.splits.iter().map(|s| s.read).sum();
    let secs = report.wall.as_secs_f64();
    let rate = if secs > 0.0 { read as f64 / secs } else { 0.0 };
    eprintln!(
        "sudoku-batch: export --to {} into {}: {}; {left}; {} records in {:.2} s ({}/s)",
        report.layout.as_str(),
        report.dir.display(),
        splits.join(", "),
        group(read),
        secs,
        group(rate as u64)
    );
}
