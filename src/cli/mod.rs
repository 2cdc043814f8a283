//! The command line: parse the arguments ([`args`]), call the library, and map what came back to
//! an exit code ([`exit`], every code in one place). Nothing here reads inputs, writes rows or
//! manages files: that is the library's work, so the binary and the library behave alike.

pub mod args;
pub mod exit;

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use clap::{CommandFactory, Parser};

use crate::bench;
use crate::input::Input;
use crate::run::output::{Ended, RunId, Target};
use crate::run::{self, Status, Summary};
use crate::{audit, augment, canon, dedup, generate, rate, solve, split, verify};
use args::{BatchArgs, Cli, Command};

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
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let mut cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version come here too, with exit code 0.
            let _ = e.print();
            return e.exit_code();
        }
    };
    cli.command.dash_output_is_stdout();
    let id = run_id(&args);
    let id = &id;
    let invocation = crate::provenance::Invocation {
        args: args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
    };
    let run = Run {
        id,
        invocation: &invocation,
    };
    let id = &run;
    match cli.command {
        Command::Solve(a) => batch(id, &a.batch, |inputs, target, settings| {
            solve::execute(inputs, target, settings, &a.options())
        }),
        Command::Rate(a) => batch(id, &a.batch, |inputs, target, mut settings| {
            if a.se {
                se_chunks(&mut settings, &a.batch);
            }
            let job = rate::command::RateJob {
                samples: a.samples,
                seed: a.seed,
                se: a.se.then_some(a.se_budget),
            };
            run::execute(inputs, target, settings, job)
        }),
        Command::Explain(mut a) => {
            a.batch.format.get_or_insert(args::OutputFormatArg::Jsonl);
            batch(id, &a.batch, |inputs, target, mut settings| {
                se_chunks(&mut settings, &a.batch);
                let job = crate::explain::command::ExplainJob {
                    budget: a.se_budget,
                    text: a.batch.format() == args::OutputFormatArg::Text,
                };
                run::execute(inputs, target, settings, job)
            })
        }
        Command::Augment(a) => batch(id, &a.batch, |inputs, target, settings| {
            let job = augment::AugmentJob {
                copies: a.copies,
                seed: a.seed,
            };
            augment::execute(inputs, target, settings, job)
        }),
        Command::Generate(a) => generate(&a, id),
        Command::Export(a) => export(&a, &run),
        Command::Provenance { file } => match crate::provenance::read(&file) {
            Ok(text) => {
                println!("{text}");
                exit::OK
            }
            Err(e) => error(e),
        },
        Command::Minimize(a) => batch(id, &a.batch, |inputs, target, settings| {
            let job = generate::command::MinimizeJob { seed: a.seed };
            run::execute(inputs, target, settings, job)
        }),
        Command::Canon(a) => batch(id, &a.batch, |inputs, target, settings| {
            let job = canon::command::CanonJob {
                transform: a.transform,
            };
            run::execute(inputs, target, settings, job)
        }),
        Command::Dedup(a) => match inputs(&a.files) {
            Err(code) => code,
            Ok(inputs) => match dedup::execute(&inputs, &a.request()) {
                Ok(_) => exit::OK,
                Err(e) => error(e),
            },
        },
        Command::Audit(a) => match inputs(&a.files) {
            Err(code) => code,
            Ok(inputs) => {
                match provenance(&run, a.output.is_some() && !a.file.no_provenance, &inputs)
                    .and_then(|p| {
                        let mut req = a.request();
                        req.provenance = p;
                        audit::execute(&inputs, &req)
                    }) {
                    Ok(audit::Ended::Done(c)) if c.leaks() => exit::FOUND,
                    Ok(_) => exit::OK,
                    Err(e) => error(e),
                }
            }
        },
        Command::Split(a) => match inputs(&a.files) {
            Err(code) => code,
            Ok(inputs) => {
                match provenance(&run, a.output.is_some() && !a.file.no_provenance, &inputs)
                    .and_then(|p| {
                        let mut req = a.request();
                        req.provenance = p;
                        split::execute(&inputs, &req)
                    }) {
                    Ok(_) => exit::OK,
                    Err(e) => error(e),
                }
            }
        },
        Command::Sample(a) => sample(&a, &run),
        Command::Bench(a) => match bench::run::run(&a.request()) {
            bench::run::Outcome::Done | bench::run::Outcome::ClosedStdout => exit::OK,
            bench::run::Outcome::ExternalFailed => exit::FOUND,
            bench::run::Outcome::Error(e) => error(e),
        },
        Command::Verify(a) => {
            let inputs = match inputs(&a.files) {
                Ok(i) => i,
                Err(code) => return code,
            };
            let to_file = a.output.as_deref().is_some_and(|o| o != "-");
            let mut req = a.request();
            req.provenance = match provenance(&run, to_file && !a.file.no_provenance, &inputs) {
                Ok(p) => p,
                Err(e) => return error(e),
            };
            match verify::execute(&inputs, &req) {
                Ok(verify::Ended::Checked(s)) if s.all_right() => exit::OK,
                Ok(verify::Ended::Checked(_)) => exit::FOUND,
                Ok(verify::Ended::ClosedPipe) => exit::OK,
                Err(e) => error(e),
            }
        }
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            clap_complete::generate(shell, &mut cmd, "sudoku-batch", &mut io::stdout());
            exit::OK
        }
        Command::Manpage { command, dir } => manpage(command.as_deref(), dir.as_deref()),
    }
}

/// The provenance record of this run over `inputs`, when `wanted`.
fn provenance(run: &Run<'_>, wanted: bool, inputs: &[Input]) -> Result<Option<String>, run::Error> {
    if !wanted {
        return Ok(None);
    }
    crate::provenance::record(run.invocation, Some(run.id), inputs)
        .map(Some)
        .map_err(|e| run::Error::OutputFile(format!("cannot record provenance: {e}")))
}

/// What this command line is: its run identity (for `--resume`) and its arguments (for the
/// provenance record).
struct Run<'a> {
    id: &'a RunId,
    invocation: &'a crate::provenance::Invocation,
}

/// Sudoku Explainer ratings go out in small chunks, so that a few slow puzzles do not leave the
/// other threads idle (unless `--chunk-size` was given).
fn se_chunks(settings: &mut run::Settings, a: &BatchArgs) {
    if a.chunk_size.is_none() {
        settings.chunk_size = crate::explain::command::SE_CHUNK;
    }
}

/// A per-puzzle command: inputs checked, stop signals installed, the run done by `work`, its
/// ending mapped to an exit code.
fn batch(
    run: &Run<'_>,
    a: &BatchArgs,
    work: impl FnOnce(&[Input], run::output::Target<'_>, run::Settings) -> Result<Ended, run::Error>,
) -> i32 {
    let id = run.id;
    if let Err(e) = a.check(&id.command) {
        return error(e);
    }
    let inputs = match inputs(&a.files) {
        Ok(i) => i,
        Err(code) => return code,
    };
    // SIGINT and SIGTERM raise this flag; the run then stops reading and finishes cleanly.
    let stop = Arc::new(AtomicBool::new(false));
    install_stop_signals(&stop);
    let target = Target {
        id: Some(id),
        provenance: (!a.file.no_provenance).then_some(run.invocation),
        ..a.target()
    };
    match work(&inputs, target, a.settings(stop)) {
        Ok(Ended::Complete(summary)) if a.strict && has_failures(&summary) => exit::FOUND,
        Ok(Ended::Complete(_) | Ended::ClosedPipe | Ended::AlreadyComplete) => exit::OK,
        Ok(Ended::Interrupted(_)) => exit::INTERRUPTED,
        Err(e) => error(e),
    }
}

/// `generate`: the seed drawn and shown when none was given, the run's ending mapped to a code.
fn generate(a: &args::GenerateArgs, run: &Run<'_>) -> i32 {
    let id = run.id;
    use generate::command::Ended;
    // Impossible targets are refused before anything is drawn or written.
    if let Err(e) = a
        .request(0)
        .and_then(|r| generate::check_targets(&r.opts).map(|()| r))
    {
        return error(e);
    }
    let seed = a.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let seed = crate::rng::mix64(t ^ u64::from(std::process::id()));
        eprintln!("sudoku-batch: generate: --seed {seed}");
        seed
    });
    let req = match a.request(seed) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    if let Err(e) = generate::check_targets(&req.opts) {
        return error(e);
    }
    let stop = Arc::new(AtomicBool::new(false));
    install_stop_signals(&stop);
    // The seed drawn when none was given is part of what the run is.
    let mut id = id.clone();
    id.options.retain(|(name, _)| name != "--seed");
    id.options.push(("--seed".into(), seed.to_string()));
    let target = Target {
        id: Some(&id),
        provenance: (!a.file.no_provenance).then_some(run.invocation),
        ..a.target()
    };
    match generate::command::execute(&req, target, a.settings(stop)) {
        Ok(Ended::Complete | Ended::ClosedPipe | Ended::AlreadyComplete) => exit::OK,
        Ok(Ended::Interrupted) => exit::INTERRUPTED,
        Ok(Ended::Exhausted { index, written }) => {
            eprintln!(
                "sudoku-batch: generate: puzzle {index} found no try meeting the targets in \
                 --max-tries {} tries; {written} puzzles were written before it",
                a.max_tries
            );
            exit::FOUND
        }
        Err(e) => error(e),
    }
}

/// `export`: the request with its provenance, the report mapped to a code.
fn export(a: &args::ExportArgs, run: &Run<'_>) -> i32 {
    let mut req = match a.request() {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    let inputs: Vec<Input> = req.splits().into_iter().map(|(_, i)| i.clone()).collect();
    req.provenance = match provenance(run, !a.no_provenance, &inputs) {
        Ok(p) => p,
        Err(e) => return error(e),
    };
    match crate::export::execute(&req) {
        Ok(report) if a.strict && report.left_out_total() > 0 => exit::FOUND,
        Ok(_) => exit::OK,
        Err(e) => error(e),
    }
}

/// `sample`: inputs (Parquet files among them) checked, the run done, a short band mapped to 1
/// under `--strict`.
fn sample(a: &args::SampleArgs, run: &Run<'_>) -> i32 {
    let stop = Arc::new(AtomicBool::new(false));
    let req = match a.request(Arc::clone(&stop)) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    let inputs = match crate::sample::read::inputs(&a.files) {
        Ok(i) => i,
        Err(e) => return error(e),
    };
    let wanted = a.output.is_some() && !a.file.no_provenance;
    let out = match provenance(run, wanted, &inputs) {
        Ok(p) => a.output(p),
        Err(e) => return error(e),
    };
    install_stop_signals(&stop);
    match crate::sample::execute(&inputs, &req, &out) {
        Ok(crate::sample::Ended::Done(s)) if a.strict && s.short().next().is_some() => exit::FOUND,
        Ok(crate::sample::Ended::Done(_) | crate::sample::Ended::ClosedPipe) => exit::OK,
        Ok(crate::sample::Ended::Interrupted) => exit::INTERRUPTED,
        Err(e) => error(e),
    }
}

/// Options that do not change what a run writes: left out of its [`RunId`], so a run resumed
/// with another `-j`, quietly, or with `-o` spelled otherwise is still the same run. The inputs
/// are recorded with a hash of their first bytes instead.
const NOT_IN_RUN_ID: [&str; 9] = [
    "files",
    "compression",
    "no_provenance",
    "output",
    "threads",
    "quiet",
    "resume",
    "chunk_size",
    "strict",
];

/// What identifies this command line's run for `--resume`: the subcommand and every option
/// that shapes its rows, as given or defaulted.
fn run_id(args: &[std::ffi::OsString]) -> RunId {
    let Ok(matches) = Cli::command().try_get_matches_from(args) else {
        return RunId::default();
    };
    let Some((command, sub)) = matches.subcommand() else {
        return RunId::default();
    };
    let mut options: Vec<(String, String)> = sub
        .ids()
        .map(|id| id.as_str())
        .filter(|id| !NOT_IN_RUN_ID.contains(id) && id.starts_with(|c: char| c.is_lowercase()))
        .filter_map(|id| {
            let values = sub.try_get_raw(id).ok()??;
            let values: Vec<String> = values.map(|v| v.to_string_lossy().into_owned()).collect();
            Some((format!("--{}", id.replace('_', "-")), values.join(",")))
        })
        .collect();
    // `--format` has a default per command (explain's is jsonl): record the one in force.
    let has_format = Cli::command()
        .find_subcommand(command)
        .is_some_and(|c| c.get_arguments().any(|a| a.get_id() == "format"));
    if has_format && !options.iter().any(|(name, _)| name == "--format") {
        let default = if command == "explain" { "jsonl" } else { "csv" };
        options.push(("--format".into(), default.into()));
    }
    options.sort();
    RunId {
        command: command.to_string(),
        options,
    }
}

/// `manpage`: the main page or one command's on stdout, or every page into a folder.
fn manpage(command: Option<&str>, dir: Option<&std::path::Path>) -> i32 {
    // Built, so every subcommand knows its full name (`sudoku-batch-solve`) and usage.
    let mut cli = Cli::command().disable_help_subcommand(true);
    cli.build();
    if let Some(dir) = dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return error(run::output::cannot_create(dir, &e));
        }
        let pages = std::iter::once(cli.clone()).chain(cli.get_subcommands().cloned());
        for page in pages {
            if let Err(e) = man(page).generate_to(dir) {
                return error(format!(
                    "cannot write the man pages into {}: {}",
                    dir.display(),
                    crate::input::io_reason(&e)
                ));
            }
        }
        return exit::OK;
    }
    let page = match command {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
                return error(format!(
                    "no command '{name}': there are pages for {}",
                    names.join(", ")
                ));
            }
        },
    };
    match man(page).render(&mut io::stdout()) {
        Ok(()) => exit::OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::OK,
        Err(e) => error(e),
    }
}

/// One man page, its footer naming this version.
fn man(page: clap::Command) -> clap_mangen::Man {
    clap_mangen::Man::new(page).source(format!("sudoku-batch {}", env!("CARGO_PKG_VERSION")))
}

/// The inputs named on the command line, or the exit code of the error naming a bad one.
fn inputs(files: &[String]) -> Result<Vec<Input>, i32> {
    Input::all_from_args(files).map_err(error)
}

/// What `--strict` counts as failure: invalid, unsolvable or given-up puzzles.
fn has_failures(summary: &Summary) -> bool {
    [Status::Invalid, Status::Unsolvable, Status::GaveUp]
        .iter()
        .any(|&s| summary.count(s) > 0)
}

fn error(message: impl std::fmt::Display) -> i32 {
    let _ = writeln!(io::stderr(), "sudoku-batch: error: {message}");
    exit::ERROR
}

/// SIGINT and SIGTERM raise `stop`: reading ends, what was read is written, and the run exits
/// with 130. A second SIGINT while stopping ends the process at once.
fn install_stop_signals(stop: &Arc<AtomicBool>) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    // Without handlers the default (immediate exit) stays: the run still works, it just cannot
    // stop cleanly, so a failure here is not worth refusing to run over.
    let _ = flag::register_conditional_shutdown(SIGINT, exit::INTERRUPTED, Arc::clone(stop));
    let _ = flag::register(SIGINT, Arc::clone(stop));
    let _ = flag::register(SIGTERM, Arc::clone(stop));
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
