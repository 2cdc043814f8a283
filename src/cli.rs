//! The command line: argument definitions (clap derive), the help text that teaches the tool,
//! and the mapping from outcomes to exit codes.
//!
//! This module only translates: flags become a [`pipeline::Config`], inputs become
//! [`Input`]s, errors become one line on stderr and an exit code. The exit codes are a contract:
//! 0 for a completed run (invalid or unsolvable puzzles are data, not failures), 1 for `--strict`
//! when any puzzle was invalid or unsolvable, 2 for usage and I/O errors. A closed stdout
//! (`| head`) is the reader's choice, not an error: the run ends quietly with 0.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use std::time::Duration;

use crate::bench;
use crate::input::{Input, InputFormat};
use crate::pipeline::{self, Config};
use crate::report::{OutputFormat, Status};

/// Exit code of a completed run.
pub const EXIT_OK: i32 = 0;
/// Exit code of a `--strict` run that met an invalid or unsolvable puzzle.
pub const EXIT_STRICT: i32 = 1;
/// Exit code of a usage or I/O error.
pub const EXIT_ERROR: i32 = 2;

const EXIT_CODES: &str = "\
Exit status:
  0  the run completed (invalid and unsolvable puzzles are reported in the output, not errors);
     also when the reader of stdout closes it early, e.g. `| head`
  1  with --strict: some puzzle was invalid or unsolvable
  2  usage error, or an input or output could not be opened, read or written";

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
unsolvable (none), invalid (not a puzzle, or givens that break a rule).",
        after_help = "Examples:\n  \
sudoku-batch solve corpus.txt -o solutions.csv\n  \
cat corpus.txt | sudoku-batch solve --first\n  \
sudoku-batch solve --input-format block exercises.txt\n  \
sudoku-batch solve kaggle.csv --column quizzes --format jsonl -j 2\n\n\
Exit status: 0 completed (also when stdout is closed early), 1 --strict found invalid or \
unsolvable puzzles, 2 usage or I/O error."
    )]
    Solve(SolveArgs),

    /// Time the engine on corpora loaded into memory: puzzles/s, µs/puzzle, % solved without
    /// guessing, guesses per puzzle.
    #[command(
        long_about = "Time the engine on corpora loaded into memory, the way tdoku's \
run_benchmark does: each file is read first (lines that are not usable puzzles are skipped and \
counted), then solved in whole passes, first for --warmup seconds, then until --time seconds \
have passed. Reading and writing are not timed; `solve -o /dev/null` measures the whole \
pipeline.\n\n\
Columns: puzzles/s, µs/puzzle (wall time per puzzle; with -j N > 1 the aggregate over N \
threads), no-guess (% of puzzles solved by propagation alone), guesses (per puzzle).",
        after_help = "Examples:\n  \
sudoku-batch bench ../shared/data/top1465.txt\n  \
sudoku-batch bench --mode first --time 0.5 a.txt b.txt\n  \
sudoku-batch bench -j 2 --json corpus.txt > result.jsonl"
    )]
    Bench(BenchArgs),
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Corpora to time (line format, or CSV for .csv files).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,

    /// `first` stops at the first solution; `unique` counts to two, proving uniqueness.
    #[arg(long, value_enum, default_value = "unique")]
    mode: ModeArg,

    /// Threads solving the in-memory set; the rate reported is the aggregate.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: u64,

    /// Seconds of warm-up passes before timing (fractions allowed).
    #[arg(long, value_name = "SECS", default_value_t = 1.0, value_parser = seconds)]
    warmup: f64,

    /// Seconds to time at least; whole passes are run until this is reached.
    #[arg(long, value_name = "SECS", default_value_t = 3.0, value_parser = seconds)]
    time: f64,

    /// One JSON object per file per line instead of the table.
    #[arg(long)]
    json: bool,
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

    /// Write 0 in solve_ns, so that two runs give byte-identical output.
    #[arg(long)]
    no_timing: bool,

    /// Worker threads [default: one per core].
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        default_value_t = 0,
        hide_default_value = true
    )]
    threads: usize,

    /// No progress bar and no summary on stderr.
    #[arg(short, long)]
    quiet: bool,

    /// Exit with status 1 when any puzzle is invalid or unsolvable.
    #[arg(long)]
    strict: bool,

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
    }
}

fn error(message: impl std::fmt::Display) -> i32 {
    let _ = writeln!(io::stderr(), "sudoku-batch: error: {message}");
    EXIT_ERROR
}

fn solve(args: SolveArgs) -> i32 {
    let mut inputs: Vec<Input> = args.files.iter().map(|f| Input::from_arg(f)).collect();
    if inputs.is_empty() {
        inputs.push(Input::from_arg("-"));
    }
    // Fail before writing anything when an input is plainly missing.
    for input in &inputs {
        if let Some(path) = &input.path {
            match std::fs::metadata(path) {
                Ok(m) if m.is_dir() => return error(format!("{}: is a directory", input.name)),
                Ok(_) => {}
                Err(e) => return error(format!("{}: {e}", input.name)),
            }
        }
    }
    if let Some(out) = args.output.as_ref().and_then(|o| o.canonicalize().ok()) {
        let clash = inputs.iter().find(|i| {
            i.path
                .as_ref()
                .and_then(|p| p.canonicalize().ok())
                .is_some_and(|p| p == out)
        });
        if let Some(input) = clash {
            return error(format!(
                "{}: the output file is also an input; writing it would destroy the input",
                input.name
            ));
        }
    }
    let cfg = Config {
        limit: if args.first { 1 } else { args.limit },
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
        column: args.column,
        threads: args.threads,
        chunk_size: usize::try_from(args.chunk_size).unwrap_or(1024),
        progress: !args.quiet,
    };

    let result = match &args.output {
        Some(path) => match File::create(path) {
            Ok(f) => {
                let mut out = BufWriter::with_capacity(256 * 1024, f);
                pipeline::run(&inputs, &mut out, &cfg).map_err(|e| match e {
                    pipeline::Error::Output(io) => pipeline::Error::Output(io::Error::new(
                        io.kind(),
                        format!("{}: {io}", path.display()),
                    )),
                    e => e,
                })
            }
            Err(e) => return error(format!("{}: {e}", path.display())),
        },
        None => {
            let stdout = io::stdout();
            let mut out = BufWriter::with_capacity(256 * 1024, stdout.lock());
            pipeline::run(&inputs, &mut out, &cfg)
        }
    };
    let summary = match result {
        Ok(s) => s,
        Err(e) if e.is_broken_pipe() => return EXIT_OK,
        Err(e) => return error(e),
    };
    if !args.quiet {
        let _ = summary.write_to(&mut io::stderr());
    }
    let bad = summary.count(Status::Invalid) + summary.count(Status::Unsolvable);
    if args.strict && bad > 0 {
        EXIT_STRICT
    } else {
        EXIT_OK
    }
}

fn bench(args: BenchArgs) -> i32 {
    let settings = bench::Settings {
        mode: match args.mode {
            ModeArg::First => bench::Mode::First,
            ModeArg::Unique => bench::Mode::Unique,
        },
        threads: usize::try_from(args.threads).unwrap_or(1),
        warmup: Duration::from_secs_f64(args.warmup),
        time: Duration::from_secs_f64(args.time),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if !args.json && bench::write_table_header(&mut out).is_err() {
        return EXIT_OK;
    }
    for name in &args.files {
        let input = Input::from_arg(name);
        let corpus = match bench::load(&input) {
            Ok(c) => c,
            Err(e) => return error(format!("{name}: {e}")),
        };
        let result = match bench::run(&corpus, &settings) {
            Ok(r) => r,
            Err(e) => return error(format!("cannot start worker threads: {e}")),
        };
        let written = if args.json {
            writeln!(out, "{}", result.to_json())
        } else {
            bench::write_table_row(&mut out, &result)
        };
        if written.and_then(|_| out.flush()).is_err() {
            // A closed stdout ends the run quietly, as with solve.
            return EXIT_OK;
        }
    }
    EXIT_OK
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
