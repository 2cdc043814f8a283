//! The command line: argument definitions (clap derive), the help text that teaches the tool,
//! and the mapping from outcomes to exit codes.
//!
//! This module only translates: flags become a [`pipeline::Config`], inputs become
//! [`Input`]s, errors become one line on stderr and an exit code. The exit codes are a contract:
//! 0 for a completed run (invalid or unsolvable puzzles are data, not failures), 1 for `--strict`
//! when any puzzle was invalid, unsolvable or given up, 2 for usage and I/O errors. A closed stdout
//! (`| head`) is the reader's choice, not an error: the run ends quietly with 0.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand, ValueEnum};

use std::time::Duration;

use crate::bench;
use crate::bench_run;
use crate::export::Dest;
use crate::input::{Input, InputFormat};
use crate::output;
use crate::pipeline::{self, Config, Shard};
use crate::report::{OutputFormat, Status, Summary};
use crate::verify;

/// Exit code of a completed run.
pub const EXIT_OK: i32 = 0;
/// Exit code of a `--strict` run that met an invalid, unsolvable or given-up puzzle.
pub const EXIT_STRICT: i32 = 1;
/// Exit code of a usage or I/O error.
pub const EXIT_ERROR: i32 = 2;
/// Exit code of a run stopped by SIGINT or SIGTERM (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: i32 = 130;

const EXIT_CODES: &str = "\
Exit status:
  0  the run completed (invalid and unsolvable puzzles are reported in the output, not errors);
     also when the reader of stdout closes it early, e.g. `| head`
  1  with --strict: some puzzle was invalid, unsolvable or given up (--max-guesses)
  2  usage error, or an input or output could not be opened, read or written
  130  stopped by SIGINT or SIGTERM after writing every row read so far (see --resume)";

#[derive(Parser, Debug)]
#[command(
    name = "sudoku-batch",
    version,
    about = "Solve sudoku corpora of any size on every core, streaming, into an ordered CSV.",
    after_help = EXIT_CODES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve every puzzle of the inputs and write one row per puzzle, in input order.
    #[command(
        long_about = "Solve every puzzle of the inputs and write one row per puzzle, in input \
order.\n\n\
By default each puzzle's solutions are counted up to 2, so `solved` proves the solution is \
unique. Every non-blank, non-comment input line (or block, or CSV row) gives exactly one row; \
a line that is not a usable puzzle gets status `invalid` and a reason in `error`.\n\n\
Output columns: line,puzzle,status,solutions,solution,guesses,solve_ns,error \
(then `file` when there are several inputs).\n\
Statuses: solved (exactly one solution; with --first, at least one), multiple (two or more), \
unsolvable (none), invalid (not a puzzle, or givens that break a rule), gave-up (--max-guesses ran out first).",
        after_help = "Examples:\n  \
sudoku-batch solve corpus.txt -o solutions.csv\n  \
cat corpus.txt | sudoku-batch solve --first\n  \
sudoku-batch solve --input-format block exercises.txt\n  \
sudoku-batch solve kaggle.csv --column quizzes --format jsonl -j 2\n\n\
Exit status: 0 completed (also when stdout is closed early), 1 --strict found invalid or \
unsolvable puzzles, 2 usage or I/O error."
    )]
    Solve(SolveArgs),

    /// Time the engine on corpora loaded into memory: puzzles/s, µs/puzzle, solve-time
    /// percentiles, % solved without guessing, guesses per puzzle; exports, a histogram, thread
    /// scaling, and refereeing of other solvers (--external).
    #[command(
        long_about = "Time the engine on corpora loaded into memory, the way tdoku's \
run_benchmark does: each file is read first (lines that are not usable puzzles are skipped and \
counted), then solved in whole passes, first for --warmup seconds, then until --time seconds \
have passed. Reading and writing are not timed; `solve -o /dev/null` measures the whole \
pipeline.\n\n\
Columns: puzzles/s and µs/puzzle (wall time per puzzle; with -j N > 1 the aggregate over N \
threads), from passes with no clock inside; p50/p90/p99/max µs, the per-puzzle solve time \
percentiles, from separate sampling passes that time every solve (each puzzle keeps its fastest \
of up to 5 passes, within a quarter of --time); no-guess (% of puzzles solved by propagation \
alone); guesses (per puzzle). With -j 1,2,4 every file is timed at each count, and speed-up \
(against the first count) and efficiency (speed-up / thread ratio) are added.\n\n\
Exports go to a file or `-` (stdout; at most one output may use it, and the table then goes to \
stderr): --export-json (an object with `machine` and `results`), --export-csv (one row per file \
and thread count), --export-markdown (the table, for a README), --histogram (an SVG of the \
solve-time distributions, log time axis, one line per file).\n\n\
--external \"CMD\" runs CMD under `sh -c`, feeds it every usable puzzle of each file on stdin \
(81 chars, '.' blanks, one per line), reads one answer line per puzzle from its stdout, times \
the whole run and checks every answer: right (a valid solution keeping the givens; any \
solution of a puzzle with several; for a puzzle with no solution, anything but a complete \
grid), wrong, or missing. A solver still running after --timeout seconds is killed with its \
whole process group.",
        after_help = "Examples:\n  \
sudoku-batch bench ../shared/data/top1465.txt\n  \
sudoku-batch bench --mode first --time 0.5 a.txt b.txt\n  \
sudoku-batch bench -j 2 --json corpus.txt > result.jsonl\n  \
sudoku-batch bench -j 1,2 --export-json out.json --export-markdown - --histogram times.svg a.txt\n  \
sudoku-batch bench --external \"./my-solver\" --timeout 60 top95.txt\n\n\
Exit status: 0 done (with --external: every answer right and a clean exit), 1 --external found \
wrong or missing answers or the solver crashed or timed out, 2 usage or I/O error."
    )]
    Bench(BenchArgs),

    /// Check a reference-solution file: every row's solution must be the unique solution of its
    /// puzzle.
    #[command(
        long_about = "Check a file that pairs puzzles with claimed solutions. Each row's \
puzzle must be readable with no conflicting givens and have exactly one solution, and the \
claimed solution must be a complete grid that breaks no rule and keeps every given.\n\n\
Formats (told apart by the first line that is not blank or a # comment, or chosen with \
--input-format): lines `puzzle:solution` or `puzzle,solution` (any separator solve accepts; \
anything after the second field is ignored), or CSV with a header, where the columns are found \
by name: the puzzle in the first of quizzes, puzzle, puzzles, the solution in the first of \
solution, solutions (Kaggle's quizzes,solutions, Radcliffe's puzzle,solution,… and this tool's \
own solve output all work as they are); --puzzle-column/--solution-column choose others.\n\n\
Verdicts: right; wrong (the puzzle is unique but the solution is missing, unreadable, \
incomplete, breaks a rule or changes a given); not_unique (the puzzle has two or more \
solutions); unsolvable (none); invalid (the puzzle is unreadable or its givens conflict). \
Every row that is not right is reported as FILE:LINE: VERDICT: what is wrong, then a summary \
(on stdout; on stderr when -o -). It streams with bounded memory and checks on every core; \
rows are reported in input order.\n\n\
-o FILE writes one CSV row per input row: line,puzzle,solution,verdict,error,expected (the \
puzzle's unique solution, when the claim is wrong), then file with several inputs.",
        after_help = "Examples:\n  \
sudoku-batch verify kaggle.csv\n  \
sudoku-batch verify --solution-column answer -o verdicts.csv mine.csv\n  \
sudoku-batch solve corpus.txt -o out.csv && sudoku-batch verify out.csv\n\n\
Exit status: 0 every row is right, 1 some row is not, 2 usage or I/O error."
    )]
    Verify(VerifyArgs),
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Corpora to time (line format, or CSV for .csv files).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,

    /// `first` stops at the first solution; `unique` counts to two, proving uniqueness.
    #[arg(long, value_enum, default_value = "unique")]
    mode: ModeArg,

    /// Threads solving the in-memory set; the rate reported is the aggregate. A list (1,2,4)
    /// times every file at each count and adds speed-up and efficiency.
    #[arg(short = 'j', long, value_name = "N[,N...]", default_value = "1",
          value_delimiter = ',',
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Vec<u64>,

    /// Seconds of warm-up passes before timing (fractions allowed).
    #[arg(long, value_name = "SECS", default_value_t = 1.0, value_parser = seconds)]
    warmup: f64,

    /// Seconds to time at least; whole passes are run until this is reached.
    #[arg(long, value_name = "SECS", default_value_t = 3.0, value_parser = seconds)]
    time: f64,

    /// One JSON object per result per line on stdout instead of the table.
    #[arg(long)]
    json: bool,

    /// Write a JSON object with `machine` and `results` to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    export_json: Option<String>,

    /// Write the results as CSV, one row per file and thread count, to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    export_csv: Option<String>,

    /// Write the results as a markdown table to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    export_markdown: Option<String>,

    /// Draw the per-puzzle solve-time distributions (log time axis, one line per file) as SVG.
    #[arg(long, value_name = "FILE.svg", conflicts_with = "external")]
    histogram: Option<String>,

    /// Print only the requested outputs: no table, no notes.
    #[arg(short, long)]
    quiet: bool,

    /// Referee another solver: run CMD under `sh -c`, feed it the puzzles on stdin, check its
    /// answer lines.
    #[arg(long, value_name = "CMD")]
    external: Option<String>,

    /// With --external: kill the solver after this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = 600.0, value_parser = seconds,
          requires = "external")]
    timeout: f64,
}

#[derive(Args, Debug)]
struct VerifyArgs {
    /// Files of puzzle/solution pairs; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// `pairs` (puzzle:solution or puzzle,solution lines) or `csv` (with a header)
    /// [default: told from the first line].
    #[arg(long, value_enum, value_name = "FORMAT")]
    input_format: Option<PairFormatArg>,

    /// The CSV column holding the puzzles [default: the first of quizzes, puzzle, puzzles].
    #[arg(long, value_name = "NAME")]
    puzzle_column: Option<String>,

    /// The CSV column holding the solutions [default: the first of solution, solutions].
    #[arg(long, value_name = "NAME")]
    solution_column: Option<String>,

    /// Write every row's verdict as CSV to FILE (`-`: stdout, and the report goes to stderr).
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,

    #[command(flatten)]
    workers: Workers,

    /// No report and no summary: only the exit code (and -o).
    #[arg(short, long)]
    quiet: bool,

    /// Rows per chunk (the unit of parallel work and of ordering).
    #[arg(long, default_value_t = 1024, hide = true,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    chunk_size: u64,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum PairFormatArg {
    Pairs,
    Csv,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ModeArg {
    First,
    Unique,
}

fn seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if v.is_finite() && (0.0..=86_400.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("'{s}' must be between 0 and 86400 seconds"))
    }
}

/// The worker-thread option that `solve` and `verify` share.
#[derive(Args, Debug)]
struct Workers {
    /// Worker threads [default: one per core].
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        default_value_t = 0,
        hide_default_value = true
    )]
    threads: usize,
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// Input files, read in order; `-` or no file at all reads stdin. Files ending in .csv are
    /// read as CSV unless --input-format says otherwise.
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// Write the rows to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// How puzzles are written in the inputs: `line` (81 cells per line, `.`/`0`/`*`/`_` for
    /// blanks, anything after a separator ignored), `block` (9 rows of 9 cells), `csv` (a header
    /// row and a puzzle column). Default: csv for .csv files, line otherwise.
    #[arg(long, value_enum, value_name = "FORMAT")]
    input_format: Option<InputFormatArg>,

    /// The CSV column holding the puzzles [default: the first of quizzes, puzzle, puzzles].
    #[arg(long, value_name = "NAME")]
    column: Option<String>,

    /// Output format: CSV with a header, or JSON lines with the same fields (empty ones null).
    #[arg(long, value_enum, default_value = "csv", value_name = "FORMAT")]
    format: OutputFormatArg,

    /// Stop at the first solution (faster; `solved` then means "at least one").
    #[arg(long, conflicts_with = "limit")]
    first: bool,

    /// Count solutions up to N; 2 (the default) proves uniqueness.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..))]
    limit: u32,

    /// Give a puzzle up after N guesses: its row gets status `gave-up` (with the solutions
    /// found so far) instead of holding the batch up. Default: no limit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_guesses: Option<u64>,

    /// Write 0 in solve_ns, so that two runs give byte-identical output.
    #[arg(long)]
    no_timing: bool,

    #[command(flatten)]
    workers: Workers,

    /// No progress bar and no summary on stderr.
    #[arg(short, long)]
    quiet: bool,

    /// Exit with status 1 when any puzzle is invalid, unsolvable or given up.
    #[arg(long)]
    strict: bool,

    /// Process only shard K of N (1-based): the puzzles on lines l with (l-1) mod N = K-1.
    /// N machines or array tasks running 1/N … N/N cover the input exactly once.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,

    /// Write no CSV header: for use as a line filter (Spark's pipe, Hadoop Streaming, GNU
    /// parallel), where every piece of the input would otherwise bring its own header.
    #[arg(long)]
    no_header: bool,

    /// With -o FILE: continue the FILE.partial that an interrupted or killed run left, keeping
    /// its complete rows and skipping the input lines they cover. Give the same inputs and
    /// options as the first run.
    #[arg(long)]
    resume: bool,

    /// Records per chunk (the unit of parallel work and of ordering).
    #[arg(long, default_value_t = 1024, hide = true,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    chunk_size: u64,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum InputFormatArg {
    Line,
    Block,
    Csv,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum OutputFormatArg {
    Csv,
    Jsonl,
}

/// Runs the command line given to this process and returns the exit code.
pub fn main() -> i32 {
    run_with_args(std::env::args_os())
}

/// Runs a command line (program name first) and returns the exit code.
pub fn run_with_args<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version come here too, with exit code 0.
            let _ = e.print();
            return e.exit_code();
        }
    };
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Bench(args) => bench(args),
        Command::Verify(args) => verify(args),
    }
}

fn error(message: impl std::fmt::Display) -> i32 {
    let _ = writeln!(io::stderr(), "sudoku-batch: error: {message}");
    EXIT_ERROR
}

/// The inputs named on the command line (none means stdin), each checked before anything is
/// written, so that a plainly missing one fails at once; the error's exit code otherwise.
fn inputs_of(files: &[String]) -> Result<Vec<Input>, i32> {
    let mut inputs: Vec<Input> = files.iter().map(|f| Input::from_arg(f)).collect();
    if inputs.is_empty() {
        inputs.push(Input::from_arg("-"));
    }
    for input in &inputs {
        if let Some(path) = &input.path {
            match std::fs::metadata(path) {
                Ok(m) if m.is_dir() => {
                    return Err(error(format!("{}: is a directory", input.name)))
                }
                Ok(_) => {}
                Err(e) => return Err(error(format!("{}: {e}", input.name))),
            }
        }
    }
    Ok(inputs)
}

/// An error (and its exit code) when `-o` names one of the inputs.
fn refuse_overwriting_inputs(out: &Path, inputs: &[Input]) -> Result<(), i32> {
    if output::overwrites_input(out, inputs.iter().filter_map(|i| i.path.as_deref())) {
        return Err(error(format!(
            "{}: the output file is also an input; writing it would destroy the input",
            out.display()
        )));
    }
    Ok(())
}

fn solve(args: SolveArgs) -> i32 {
    let inputs = match inputs_of(&args.files) {
        Ok(i) => i,
        Err(code) => return code,
    };
    if let Some(out) = &args.output {
        if let Err(code) = refuse_overwriting_inputs(out, &inputs) {
            return code;
        }
    }
    if args.resume && args.output.is_none() {
        return error("--resume needs -o FILE: it continues FILE.partial left by an earlier run");
    }
    // SIGINT and SIGTERM raise this flag; the pipeline then stops reading and finishes cleanly.
    let stop = Arc::new(AtomicBool::new(false));
    install_stop_signals(&stop);
    let mut cfg = Config {
        limit: if args.first { 1 } else { args.limit },
        max_guesses: args.max_guesses,
        timing: !args.no_timing,
        output: match args.format {
            OutputFormatArg::Csv => OutputFormat::Csv,
            OutputFormatArg::Jsonl => OutputFormat::Jsonl,
        },
        input_format: args.input_format.map(|f| match f {
            InputFormatArg::Line => InputFormat::Line,
            InputFormatArg::Block => InputFormat::Block,
            InputFormatArg::Csv => InputFormat::Csv,
        }),
        column: args.column.clone(),
        threads: args.workers.threads,
        chunk_size: usize::try_from(args.chunk_size).unwrap_or(1024),
        progress: !args.quiet,
        shard: args.shard,
        header: !args.no_header,
        stop: Some(stop),
        ..Config::default()
    };

    // Stdout, and an -o that is not a regular file (/dev/null, a FIFO, a terminal), are written
    // directly: renaming a `.partial` file over a device would replace the device.
    let direct: Option<Box<dyn Write>> = match &args.output {
        None => Some(Box::new(io::stdout().lock())),
        Some(p) if output::is_special(p) => {
            if args.resume {
                return error(format!(
                    "{}: --resume needs -o to name a regular file",
                    p.display()
                ));
            }
            match OpenOptions::new().write(true).open(p) {
                Ok(f) => Some(Box::new(f)),
                Err(e) => return error(format!("{}: {e}", p.display())),
            }
        }
        Some(_) => None,
    };
    if let Some(w) = direct {
        let mut out = BufWriter::with_capacity(256 * 1024, w);
        return match pipeline::run(&inputs, &mut out, &cfg) {
            Ok(summary) if summary.interrupted => {
                if !args.quiet {
                    let _ = summary.write_to(&mut io::stderr());
                }
                let _ = writeln!(
                    io::stderr(),
                    "sudoku-batch: interrupted after {} rows (every row before the stop was \
                     written); with -o FILE a run can be resumed with --resume",
                    summary.puzzles()
                );
                EXIT_INTERRUPTED
            }
            Ok(summary) => finish(&args, &summary),
            Err(e) if e.is_broken_pipe() => EXIT_OK,
            Err(e) => error(e),
        };
    }
    let Some(path) = args.output.clone() else {
        return EXIT_OK; // unreachable: without -o the output is direct
    };
    let partial = output::partial_path(&path);
    let file = if args.resume && partial.exists() {
        let resumed = match output::repair(&partial, cfg.output, &inputs, !args.no_header) {
            Ok(r) => r,
            Err(e) => return error(format!("cannot resume: {e}")),
        };
        cfg.header = !resumed.has_header && !args.no_header;
        cfg.resume_after = resumed.after;
        if !args.quiet {
            let _ = writeln!(
                io::stderr(),
                "sudoku-batch: resuming {}: {} complete rows kept{}",
                partial.display(),
                resumed.rows,
                if resumed.dropped_bytes > 0 {
                    format!(
                        ", a cut last row of {} bytes dropped",
                        resumed.dropped_bytes
                    )
                } else {
                    String::new()
                }
            );
        }
        OpenOptions::new().append(true).open(&partial)
    } else if args.resume && path.exists() {
        if !args.quiet {
            let _ = writeln!(
                io::stderr(),
                "sudoku-batch: nothing to resume: {} is complete (no {} beside it)",
                path.display(),
                partial.display()
            );
        }
        return EXIT_OK;
    } else {
        File::create(&partial)
    };
    let file = match file {
        Ok(f) => f,
        Err(e) => return error(format!("{}: {e}", partial.display())),
    };
    let mut out = BufWriter::with_capacity(256 * 1024, file);
    let result = pipeline::run(&inputs, &mut out, &cfg);
    drop(out);
    match result {
        Ok(summary) if summary.interrupted => {
            if !args.quiet {
                let _ = summary.write_to(&mut io::stderr());
            }
            let _ = writeln!(
                io::stderr(),
                "sudoku-batch: interrupted; the rows so far are in {}. To go on, run the same \
                 command again with --resume.",
                partial.display()
            );
            EXIT_INTERRUPTED
        }
        Ok(summary) => match output::finish(&partial, &path) {
            Ok(()) => finish(&args, &summary),
            Err(e) => error(format!(
                "cannot rename {} to {}: {e}",
                partial.display(),
                path.display()
            )),
        },
        Err(pipeline::Error::Output(e)) => error(format!("{}: {e}", partial.display())),
        Err(e) => error(e),
    }
}

/// The summary and the exit code of a run that reached the end of its input.
fn finish(args: &SolveArgs, summary: &Summary) -> i32 {
    if !args.quiet {
        let _ = summary.write_to(&mut io::stderr());
    }
    let bad = summary.count(Status::Invalid)
        + summary.count(Status::Unsolvable)
        + summary.count(Status::GaveUp);
    if args.strict && bad > 0 {
        EXIT_STRICT
    } else {
        EXIT_OK
    }
}

/// SIGINT and SIGTERM raise `stop`: reading ends, what was read is written, and the run exits
/// with 130. A second SIGINT while stopping ends the process at once.
fn install_stop_signals(stop: &Arc<AtomicBool>) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    // Without handlers the default (immediate exit) stays: the run still works, it just cannot
    // stop cleanly, so a failure here is not worth refusing to run over.
    let _ = flag::register_conditional_shutdown(SIGINT, EXIT_INTERRUPTED, Arc::clone(stop));
    let _ = flag::register(SIGINT, Arc::clone(stop));
    let _ = flag::register(SIGTERM, Arc::clone(stop));
}

fn bench(args: BenchArgs) -> i32 {
    let req = bench_run::Request {
        files: args.files,
        mode: match args.mode {
            ModeArg::First => bench::Mode::First,
            ModeArg::Unique => bench::Mode::Unique,
        },
        threads: args
            .threads
            .iter()
            .map(|&t| usize::try_from(t).unwrap_or(1))
            .collect(),
        warmup: Duration::from_secs_f64(args.warmup),
        time: Duration::from_secs_f64(args.time),
        json: args.json,
        export_json: args.export_json.as_deref().map(Dest::from_arg),
        export_csv: args.export_csv.as_deref().map(Dest::from_arg),
        export_markdown: args.export_markdown.as_deref().map(Dest::from_arg),
        histogram: args.histogram.as_deref().map(Dest::from_arg),
        quiet: args.quiet,
        external: args.external,
        timeout: Duration::from_secs_f64(args.timeout),
    };
    match bench_run::run(&req) {
        bench_run::Outcome::Done => EXIT_OK,
        bench_run::Outcome::ExternalFailed => 1,
        // A closed stdout ends the run quietly, as with solve.
        bench_run::Outcome::ClosedStdout => EXIT_OK,
        bench_run::Outcome::Error(e) => error(e),
    }
}

/// Exit code of `verify` when some row is not right.
pub const EXIT_VERIFY_WRONG: i32 = 1;

fn verify(args: VerifyArgs) -> i32 {
    let inputs = match inputs_of(&args.files) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let dest = args.output.as_deref().map(Dest::from_arg);
    if let Some(Dest::File(out)) = &dest {
        if let Err(code) = refuse_overwriting_inputs(out, &inputs) {
            return code;
        }
    }
    let mut csv_out = match &dest {
        None => None,
        Some(d) => match d.open() {
            Ok(w) => Some(csv::Writer::from_writer(w)),
            Err(e) => return error(format!("{}: {e}", d.name())),
        },
    };
    let with_file = inputs.len() > 1;
    if let Some(w) = csv_out.as_mut() {
        let mut header = vec!["line", "puzzle", "solution", "verdict", "error", "expected"];
        if with_file {
            header.push("file");
        }
        if let Err(e) = w.write_record(&header) {
            return verify_write_error(&dest, e.into());
        }
    }
    let mut report: Box<dyn Write> = if dest == Some(Dest::Stdout) {
        Box::new(io::stderr())
    } else {
        Box::new(BufWriter::new(io::stdout()))
    };
    let opts = verify::Options {
        format: args.input_format.map(|f| match f {
            PairFormatArg::Pairs => verify::PairFormat::Lines,
            PairFormatArg::Csv => verify::PairFormat::Csv,
        }),
        puzzle_column: args.puzzle_column,
        solution_column: args.solution_column,
        threads: args.workers.threads,
        chunk_size: usize::try_from(args.chunk_size).unwrap_or(1024),
    };
    let started = std::time::Instant::now();
    let quiet = args.quiet;
    let mut bad_seen = false;
    let mut csv_failed: Option<io::Error> = None;
    let result = verify::run(&inputs, &opts, &mut |file, row| {
        let name = &inputs[file].name;
        if row.verdict != verify::Verdict::Right {
            bad_seen = true;
            if !quiet {
                writeln!(
                    report,
                    "{name}:{}: {}: {}",
                    row.line,
                    row.verdict.as_str(),
                    row.error.as_deref().unwrap_or("")
                )?;
            }
        }
        if let Some(w) = csv_out.as_mut() {
            let line = row.line.to_string();
            let grid = |g: &Option<crate::Grid>| g.map(|g| g.to_line()).unwrap_or_default();
            let mut rec = vec![
                line,
                grid(&row.puzzle),
                grid(&row.solution),
                row.verdict.as_str().to_string(),
                row.error.clone().unwrap_or_default(),
                grid(&row.expected),
            ];
            if with_file {
                rec.push(name.clone());
            }
            if let Err(e) = w.write_record(&rec) {
                let e: io::Error = e.into();
                let kind = e.kind();
                csv_failed = Some(e);
                return Err(io::Error::new(kind, "the -o output failed"));
            }
        }
        Ok(())
    });
    let flushed = csv_out.as_mut().map_or(Ok(()), |w| w.flush());
    let summary = match result {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => {
            let _ = report.flush();
            return error(e);
        }
        Err(e) => {
            if let Some(e) = csv_failed {
                return verify_write_error(&dest, e);
            }
            if e.kind() == io::ErrorKind::BrokenPipe {
                // The reader of the report went away: end quietly, with what was seen so far.
                return if bad_seen {
                    EXIT_VERIFY_WRONG
                } else {
                    EXIT_ERROR
                };
            }
            return error(format!("writing the report: {e}"));
        }
    };
    if let Err(e) = flushed {
        return verify_write_error(&dest, e);
    }
    if !quiet {
        let _ = writeln!(
            report,
            "sudoku-batch: verify: {} in {:.3} s",
            summary.line(),
            started.elapsed().as_secs_f64()
        );
    }
    let _ = report.flush();
    if summary.all_right() {
        EXIT_OK
    } else {
        EXIT_VERIFY_WRONG
    }
}

fn verify_write_error(dest: &Option<Dest>, e: io::Error) -> i32 {
    match dest {
        Some(Dest::Stdout) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_ERROR,
        Some(d) => error(format!("{}: {e}", d.name())),
        None => error(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn usage_errors_exit_2() {
        assert_eq!(run_with_args(["sudoku-batch", "solve", "--limit", "0"]), 2);
        assert_eq!(
            run_with_args(["sudoku-batch", "solve", "--first", "--limit", "3"]),
            2
        );
        assert_eq!(run_with_args(["sudoku-batch", "frobnicate"]), 2);
        assert_eq!(
            run_with_args(["sudoku-batch", "solve", "/nonexistent/corpus.txt"]),
            2
        );
    }
}
