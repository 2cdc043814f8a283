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
use crate::run::{self, output::Ended, Status, Summary};
use crate::{augment, canon, dedup, generate, rate, solve, split, verify};
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
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version come here too, with exit code 0.
            let _ = e.print();
            return e.exit_code();
        }
    };
    match cli.command {
        Command::Solve(a) => batch(&a.batch, |inputs, target, settings| {
            solve::execute(inputs, target, settings, &a.options())
        }),
        Command::Rate(a) => batch(&a.batch, |inputs, target, settings| {
            let job = rate::command::RateJob {
                samples: a.samples,
                seed: a.seed,
            };
            run::execute(inputs, target, settings, job)
        }),
        Command::Augment(a) => batch(&a.batch, |inputs, target, settings| {
            let job = augment::AugmentJob {
                copies: a.copies,
                seed: a.seed,
            };
            augment::execute(inputs, target, settings, job)
        }),
        Command::Generate(a) => generate(&a),
        Command::Minimize(a) => batch(&a.batch, |inputs, target, settings| {
            let job = generate::command::MinimizeJob { seed: a.seed };
            run::execute(inputs, target, settings, job)
        }),
        Command::Canon(a) => batch(&a.batch, |inputs, target, settings| {
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
        Command::Split(a) => match inputs(&a.files) {
            Err(code) => code,
            Ok(inputs) => match split::execute(&inputs, &a.request()) {
                Ok(_) => exit::OK,
                Err(e) => error(e),
            },
        },
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
            match verify::execute(&inputs, &a.request()) {
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
        Command::Manpage => {
            let page = clap_mangen::Man::new(Cli::command());
            match page.render(&mut io::stdout()) {
                Ok(()) => exit::OK,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::OK,
                Err(e) => error(e),
            }
        }
    }
}

/// A per-puzzle command: inputs checked, stop signals installed, the run done by `work`, its
/// ending mapped to an exit code.
fn batch(
    a: &BatchArgs,
    work: impl FnOnce(&[Input], run::output::Target<'_>, run::Settings) -> Result<Ended, run::Error>,
) -> i32 {
    let inputs = match inputs(&a.files) {
        Ok(i) => i,
        Err(code) => return code,
    };
    // SIGINT and SIGTERM raise this flag; the run then stops reading and finishes cleanly.
    let stop = Arc::new(AtomicBool::new(false));
    install_stop_signals(&stop);
    match work(&inputs, a.target(), a.settings(stop)) {
        Ok(Ended::Complete(summary)) if a.strict && has_failures(&summary) => exit::FOUND,
        Ok(Ended::Complete(_) | Ended::ClosedPipe | Ended::AlreadyComplete) => exit::OK,
        Ok(Ended::Interrupted(_)) => exit::INTERRUPTED,
        Err(e) => error(e),
    }
}

/// `generate`: the seed drawn and shown when none was given, the run's ending mapped to a code.
fn generate(a: &args::GenerateArgs) -> i32 {
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
    match generate::command::execute(&req, a.target(), a.settings(stop)) {
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
