//! The `bench` command end to end: every file at every thread count of `-j 1,2,4`, the human
//! table, `--json` lines, the exports (`--export-json`, `--export-csv`, `--export-markdown`),
//! the `--histogram` picture, and `--external` refereeing. [`crate::cli`] only turns flags into
//! a [`Request`] and the returned [`Outcome`] into an exit code.
//!
//! Streams: at most one requested output may be stdout (`-`). The human table goes to stdout,
//! or to stderr when a requested output has stdout, and nowhere with `--quiet` or `--json`
//! (which replaces it). Notes (skipped lines, wrong answers of an external solver) go to stderr
//! unless `--quiet`. Errors always go to stderr.

use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use super::export::svg as histogram;
use super::export::{self, Column, Dest, Fields, Style};
use super::external;
use super::machine::Machine;
use super::{self as bench, Corpus, Mode, Settings};
use crate::human::group;
use crate::input::Input;

/// What `bench` was asked to do.
#[derive(Clone, Debug)]
pub struct Request {
    pub files: Vec<String>,
    pub mode: Mode,
    /// Thread counts, in the order given.
    pub threads: Vec<usize>,
    pub warmup: Duration,
    pub time: Duration,
    /// One JSON object per result per line on stdout instead of the table.
    pub json: bool,
    pub export_json: Option<Dest>,
    pub export_csv: Option<Dest>,
    pub export_markdown: Option<Dest>,
    pub histogram: Option<Dest>,
    pub quiet: bool,
    /// Referee this shell command instead of timing only our engine.
    pub external: Option<String>,
    pub timeout: Duration,
}

/// How a bench run ended.
#[derive(Debug)]
pub enum Outcome {
    /// Everything was measured and written (and, with `--external`, every answer was right).
    Done,
    /// `--external`: some answer was wrong or missing, or the solver crashed or timed out.
    ExternalFailed,
    /// A usage or I/O problem, as one message naming the file.
    Error(String),
    /// Stdout was closed by its reader: stop quietly.
    ClosedStdout,
}

fn is_pipe(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}

/// An opened output and where it goes.
struct Out {
    dest: Dest,
    w: Box<dyn Write>,
}

impl Out {
    fn open(dest: &Option<Dest>) -> Result<Option<Out>, String> {
        let Some(dest) = dest else { return Ok(None) };
        match dest.open() {
            Ok(w) => Ok(Some(Out {
                dest: dest.clone(),
                w,
            })),
            Err(e) => Err(match dest {
                Dest::File(p) => crate::run::output::cannot_create(p, &e),
                Dest::Stdout => format!("{}: {e}", dest.name()),
            }),
        }
    }

    /// Maps a write error to the outcome: a closed stdout ends quietly, anything else names
    /// the file.
    fn fail(&self, e: io::Error) -> Outcome {
        if self.dest == Dest::Stdout && is_pipe(&e) {
            Outcome::ClosedStdout
        } else {
            Outcome::Error(format!("{}: {e}", self.dest.name()))
        }
    }
}

/// Checks the request before anything runs: every input there and text, stdout used at most
/// once, no output overwriting an input, no thread list with `--external`.
pub fn check(req: &Request) -> Result<(), String> {
    crate::input::Input::all_from_args(&req.files)?;
    let outputs = [
        ("--export-json", &req.export_json),
        ("--export-csv", &req.export_csv),
        ("--export-markdown", &req.export_markdown),
        ("--histogram", &req.histogram),
    ];
    let mut to_stdout: Vec<&str> = outputs
        .iter()
        .filter(|(_, d)| **d == Some(Dest::Stdout))
        .map(|(n, _)| *n)
        .collect();
    if req.json {
        to_stdout.push("--json");
    }
    if to_stdout.len() > 1 {
        return Err(format!(
            "{} all write to stdout; send all but one to files",
            to_stdout.join(", ")
        ));
    }
    for (flag, dest) in outputs {
        if let Some(Dest::File(p)) = dest {
            if crate::run::output::overwrites_input(p, req.files.iter().map(Path::new)) {
                return Err(format!(
                    "{}: the {flag} file is also an input; writing it would destroy the input",
                    p.display()
                ));
            }
        }
    }
    if req.external.is_some() && req.threads.len() > 1 {
        return Err("--external takes a single -j count (the threads of our own figures)".into());
    }
    Ok(())
}

/// Runs the request.
pub fn run(req: &Request) -> Outcome {
    if let Err(e) = check(req) {
        return Outcome::Error(e);
    }
    let open = |dest| Out::open(dest);
    let opened = (|| {
        Ok::<_, String>([
            open(&req.export_json)?,
            open(&req.export_csv)?,
            open(&req.export_markdown)?,
            open(&req.histogram)?,
        ])
    })();
    let [json_out, csv_out, md_out, svg_out] = match opened {
        Ok(a) => a,
        Err(e) => return Outcome::Error(e),
    };
    let stdout_taken = req.json
        || [&json_out, &csv_out, &md_out, &svg_out]
            .iter()
            .any(|o| o.as_ref().is_some_and(|o| o.dest == Dest::Stdout));
    let mut table: Option<Out> = if req.quiet || req.json {
        None
    } else if stdout_taken {
        Some(Out {
            dest: Dest::File("<stderr>".into()),
            w: Box::new(io::stderr()),
        })
    } else {
        Some(Out {
            dest: Dest::Stdout,
            w: Box::new(io::stdout()),
        })
    };
    let machine = Machine::detect();
    let mut ctx = Ctx {
        req,
        table: &mut table,
        json_lines: req.json.then(|| Out {
            dest: Dest::Stdout,
            w: Box::new(io::stdout()),
        }),
    };
    let (results, failed, columns): (Vec<Fields>, bool, Vec<Column>) = match &req.external {
        Some(cmd) => match ctx.external(cmd) {
            Ok((r, failed)) => (r, failed, external_columns()),
            Err(o) => return o,
        },
        None => match ctx.engine(svg_out.is_some()) {
            Ok((r, times)) => {
                if let Some(mut svg) = svg_out {
                    let series: Vec<histogram::Series> = times
                        .iter()
                        .map(|(label, t)| histogram::Series {
                            label: label.clone(),
                            times_ns: t,
                        })
                        .collect();
                    let doc = match histogram::render_svg(&series) {
                        Ok(d) => d,
                        Err(e) => {
                            return Outcome::Error(format!("{}: {e}", svg.dest.name()));
                        }
                    };
                    if let Err(e) = svg.w.write_all(doc.as_bytes()).and_then(|_| svg.w.flush()) {
                        return svg.fail(e);
                    }
                }
                (r, false, bench::markdown_columns(req.threads.len() > 1))
            }
            Err(o) => return o,
        },
    };

    let settings = json!({
        "mode": if req.external.is_some() { "external" } else { req.mode.as_str() },
        "threads": req.threads,
        "warmup_s": req.warmup.as_secs_f64(),
        "time_s": req.time.as_secs_f64(),
        "sample_passes_max": bench::SAMPLE_PASSES,
        "external": req.external,
        "timeout_s": req.external.as_ref().map(|_| req.timeout.as_secs_f64()),
    });
    if let Some(mut o) = json_out {
        let r = export::write_json(&mut *o.w, machine.to_json(), settings, &results);
        if let Err(e) = r {
            return o.fail(e);
        }
    }
    if let Some(mut o) = csv_out {
        if let Err(e) = export::write_csv(&mut *o.w, &results) {
            return o.fail(e);
        }
    }
    if let Some(mut o) = md_out {
        let r = export::write_markdown(&mut *o.w, &columns, &results, &machine.summary());
        if let Err(e) = r {
            return o.fail(e);
        }
    }
    if failed {
        Outcome::ExternalFailed
    } else {
        Outcome::Done
    }
}

struct Ctx<'a> {
    req: &'a Request,
    table: &'a mut Option<Out>,
    json_lines: Option<Out>,
}

/// Per-puzzle times of one result, with its histogram label.
type Times = (String, Vec<u64>);

impl Ctx<'_> {
    fn load(&mut self, name: &str) -> Result<Corpus, Outcome> {
        let corpus = bench::load(&Input::from_arg(name))
            .map_err(|e| Outcome::Error(format!("{name}: {e}")))?;
        if corpus.skipped > 0 && !self.req.quiet {
            let _ = writeln!(
                io::stderr(),
                "sudoku-batch: {name}: {} lines skipped (not usable puzzles: unreadable or \
                 conflicting givens)",
                group(corpus.skipped)
            );
        }
        Ok(corpus)
    }

    fn settings(&self, threads: usize) -> Settings {
        Settings {
            mode: self.req.mode,
            threads,
            warmup: self.req.warmup,
            time: self.req.time,
        }
    }

    fn write_table(
        &mut self,
        f: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<(), Outcome> {
        if let Some(t) = self.table.as_mut() {
            if let Err(e) = f(&mut *t.w).and_then(|_| t.w.flush()) {
                return Err(t.fail(e));
            }
        }
        Ok(())
    }

    fn json_line(&mut self, v: &Value) -> Result<(), Outcome> {
        if let Some(o) = self.json_lines.as_mut() {
            if let Err(e) = writeln!(o.w, "{v}").and_then(|_| o.w.flush()) {
                return Err(o.fail(e));
            }
        }
        Ok(())
    }

    /// Times our engine on every file at every thread count.
    fn engine(&mut self, keep_times: bool) -> Result<(Vec<Fields>, Vec<Times>), Outcome> {
        let scaling = self.req.threads.len() > 1;
        self.write_table(|w| bench::write_table_header(w, scaling))?;
        let mut fields = Vec::new();
        let mut times = Vec::new();
        for name in &self.req.files {
            let corpus = self.load(name)?;
            let mut results: Vec<bench::Measurement> = Vec::new();
            for &t in &self.req.threads {
                let r = bench::run(&corpus, &self.settings(t))
                    .map_err(|e| Outcome::Error(format!("cannot start worker threads: {e}")))?;
                results.push(r);
                bench::compute_scaling(&mut results);
                let Some(r) = results.last_mut() else {
                    continue;
                };
                let row = r.fields();
                self.json_line(&export::object(&row))?;
                let shown = &*r;
                self.write_table(|w| bench::write_table_row(w, shown, scaling))?;
                fields.push(row);
                if keep_times {
                    let base = Path::new(name)
                        .file_name()
                        .map_or_else(|| name.clone(), |b| b.to_string_lossy().into_owned());
                    let label = if scaling {
                        format!("{base} -j {t}")
                    } else {
                        base
                    };
                    times.push((label, std::mem::take(&mut r.times_ns)));
                } else {
                    r.times_ns = Vec::new();
                }
            }
        }
        Ok((fields, times))
    }

    /// Referees the external command on every file, next to our own figures.
    fn external(&mut self, cmd: &str) -> Result<(Vec<Fields>, bool), Outcome> {
        let threads = self.req.threads.first().copied().unwrap_or(1);
        self.write_table(|w| {
            writeln!(
                w,
                "{:<32} {:<8} {:>9} {:>12} {:>10} {:>9} {:>7} {:>8}  status",
                "file", "solver", "puzzles", "puzzles/s", "µs/puzzle", "right", "wrong", "missing"
            )
        })?;
        let mut all = Vec::new();
        let mut failed = false;
        for name in &self.req.files {
            let corpus = self.load(name)?;
            if !corpus.candidates.is_empty() {
                return Err(Outcome::Error(format!(
                    "{name}: --external feeds solvers 81-cell puzzles; this file holds pencilmark lines"
                )));
            }
            let ours = bench::run(&corpus, &self.settings(threads))
                .map_err(|e| Outcome::Error(format!("cannot start worker threads: {e}")))?;
            let ext = external::run(cmd, &corpus, self.req.timeout)
                .map_err(|e| Outcome::Error(format!("cannot run `sh -c {cmd:?}`: {e}")))?;
            failed |=
                !ext.wrong.is_empty() || ext.missing > 0 || ext.exit != external::Exit::Code(0);
            let row = external_fields(name, &ours, &ext);
            self.json_line(&export::object(&row))?;
            self.write_table(|w| {
                writeln!(
                    w,
                    "{:<32} {:<8} {:>9} {:>12} {:>10.2} {:>9} {:>7} {:>8}  -j {}",
                    name,
                    "ours",
                    group(ours.puzzles as u64),
                    group(ours.puzzles_per_sec.round() as u64),
                    ours.us_per_puzzle,
                    "-",
                    "-",
                    "-",
                    ours.threads
                )?;
                writeln!(
                    w,
                    "{:<32} {:<8} {:>9} {:>12} {:>10.2} {:>9} {:>7} {:>8}  {}",
                    "",
                    "external",
                    group(ext.puzzles as u64),
                    group(ext.puzzles_per_sec.round() as u64),
                    us_per(&ext),
                    group(ext.right as u64),
                    group(ext.wrong.len() as u64),
                    group(ext.missing as u64),
                    ext.exit.describe()
                )
            })?;
            if !self.req.quiet {
                report_problems(name, &ext);
            }
            all.push(row);
        }
        Ok((all, failed))
    }
}

fn us_per(ext: &external::Outcome) -> f64 {
    if ext.answers > 0 {
        ext.seconds * 1e6 / ext.answers as f64
    } else {
        0.0
    }
}

/// The most wrong answers listed one by one on stderr (all of them are in the JSON export).
const LISTED: usize = 20;

fn report_problems(name: &str, ext: &external::Outcome) {
    let mut e = io::stderr().lock();
    for w in ext.wrong.iter().take(LISTED) {
        let _ = writeln!(e, "{name}:{}: wrong answer: {}", w.line, w.reason);
    }
    if ext.wrong.len() > LISTED {
        let _ = writeln!(
            e,
            "{name}: … and {} more wrong answers (all are listed in --json and --export-json)",
            ext.wrong.len() - LISTED
        );
    }
    if let Some(line) = ext.first_missing_line {
        let _ = writeln!(
            e,
            "{name}:{line}: no answers from here on: {} missing ({})",
            group(ext.missing as u64),
            ext.exit.describe()
        );
    }
    if ext.extra > 0 {
        let _ = writeln!(
            e,
            "{name}: {} answer lines more than puzzles (ignored)",
            ext.extra
        );
    }
    if ext.exit != external::Exit::Code(0) {
        let _ = writeln!(
            e,
            "{name}: the external solver ended: {}{}",
            ext.exit.describe(),
            if ext.stderr_tail.is_empty() {
                String::new()
            } else {
                format!("; its stderr ended with:\n{}", ext.stderr_tail)
            }
        );
    }
}

/// One `--external` result: the external solver's figures and verdicts, then ours.
fn external_fields(name: &str, ours: &bench::Measurement, ext: &external::Outcome) -> Fields {
    let (code, signal) = match ext.exit {
        external::Exit::Code(c) => (Some(c), None),
        external::Exit::Signal(s) => (None, Some(s)),
        external::Exit::TimedOut => (None, None),
    };
    vec![
        ("file", json!(name)),
        ("command", json!(ext.command)),
        ("puzzles", json!(ext.puzzles)),
        ("puzzles_per_sec", json!(ext.puzzles_per_sec)),
        ("us_per_puzzle", json!(us_per(ext))),
        ("seconds", json!(ext.seconds)),
        ("right", json!(ext.right)),
        ("wrong", json!(ext.wrong.len())),
        ("missing", json!(ext.missing)),
        ("extra", json!(ext.extra)),
        ("status", json!(ext.exit.describe())),
        ("exit_code", json!(code)),
        ("signal", json!(signal)),
        ("timed_out", json!(ext.exit == external::Exit::TimedOut)),
        ("crashed", json!(ext.exit.crashed())),
        (
            "wrong_lines",
            json!(ext.wrong.iter().map(|w| w.line).collect::<Vec<_>>()),
        ),
        ("first_missing_line", json!(ext.first_missing_line)),
        ("ours_mode", json!(ours.mode.as_str())),
        ("ours_threads", json!(ours.threads)),
        ("ours_puzzles_per_sec", json!(ours.puzzles_per_sec)),
        ("ours_us_per_puzzle", json!(ours.us_per_puzzle)),
    ]
}

/// The markdown columns of an `--external` run.
pub fn external_columns() -> Vec<Column> {
    let c = |header, key, style| Column { header, key, style };
    vec![
        c("file", "file", Style::File),
        c("puzzles", "puzzles", Style::Int),
        c("external puzzles/s", "puzzles_per_sec", Style::Int),
        c("ours puzzles/s", "ours_puzzles_per_sec", Style::Int),
        c("right", "right", Style::Int),
        c("wrong", "wrong", Style::Int),
        c("missing", "missing", Style::Int),
        c("status", "status", Style::Text),
    ]
}
