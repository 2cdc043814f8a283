//! The `generate` and `minimize` commands on top of the generator core.
//!
//! `generate` runs the indices of its slice (`--start`, `--shard`) in chunks on the worker pool
//! and writes the puzzles in index order through the `-o` lifecycle every command shares, so a
//! run is resumable and its output is a function of the arguments and the seed alone. A class or
//! rating target is a filter over tries ([`super::generate_one`]'s `accept`); an index that finds
//! no puzzle within `--max-tries` tries ends the run (exit 1) after the puzzles before it.

use std::io::{IsTerminal, Write};
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{generate_one, minimize, Generated, Options, Why};
use crate::engine;
use crate::human::group;
use crate::input::Record;
use crate::rate::{self, Class};
use crate::run::{
    self, ordered, output, Columns, Outcome, OutputFormat, PuzzleJob, RowWriter, Settings, Status,
    Summary,
};
use crate::solve::usable_or_invalid;

/// The `--format csv|jsonl` columns.
pub static COLUMNS: Columns = Columns {
    names: &[
        "index", "puzzle", "solution", "clues", "rating", "singles", "class", "symmetry",
    ],
    status: None,
    counted: false,
};

/// The `--format csv|jsonl` columns with Sudoku Explainer targets.
pub static SE_COLUMNS: Columns = Columns {
    names: &[
        "index", "puzzle", "solution", "clues", "rating", "singles", "class", "symmetry", "er",
        "ep", "ed",
    ],
    status: None,
    counted: false,
};

/// The default format: one puzzle per line, 81 characters, `.` for blanks, no header.
pub static LINES: Columns = Columns {
    names: &["puzzle"],
    status: None,
    counted: true,
};

/// A whole `generate` run.
#[derive(Clone, Debug)]
pub struct Request {
    /// How many puzzles the whole set has (indices `start .. start + count`).
    pub count: u64,
    /// The first index.
    pub start: u64,
    pub opts: Options,
    /// Keep only puzzles of these classes.
    pub class: Option<Vec<Class>>,
    /// Keep only puzzles whose rating lies in `lo..=hi`.
    pub rating: Option<(f64, f64)>,
    /// Transforms a rating averages over.
    pub samples: u32,
    /// Bare lines (`None`) or CSV / JSON lines with every field.
    pub format: Option<OutputFormat>,
    /// Keep only puzzles whose Sudoku Explainer ratings lie in these bands.
    pub se: Option<SeTarget>,
}

impl Request {
    /// The columns the run writes.
    pub fn columns(&self) -> &'static Columns {
        match (self.format, self.se) {
            (None, _) => &LINES,
            (Some(_), None) => &COLUMNS,
            (Some(_), Some(_)) => &SE_COLUMNS,
        }
    }
}

/// Sudoku Explainer targets: each an inclusive `lo..=hi` band of ratings (one decimal, as SE
/// prints them), and the work budget of one rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeTarget {
    pub er: Option<(f64, f64)>,
    pub ep: Option<(f64, f64)>,
    pub ed: Option<(f64, f64)>,
    pub budget: u64,
}

impl SeTarget {
    /// Whether a rating meets every band.
    pub fn accepts(&self, r: &crate::explain::Rating) -> bool {
        let inside = |band: Option<(f64, f64)>, t: crate::explain::Tenths| {
            band.is_none_or(|(lo, hi)| {
                let v = f64::from(t.0) / 10.0;
                // Compare in tenths, as SE prints them: 9.0..9.4 holds 9.4.
                let (lo, hi, v) = ((lo * 10.0).round(), (hi * 10.0).round(), (v * 10.0).round());
                lo <= v && v <= hi
            })
        };
        inside(self.er, r.er) && inside(self.ep, r.ep) && inside(self.ed, r.ed)
    }
}

/// How a generate run that did not fail ended.
#[derive(Debug)]
pub enum Ended {
    /// Every puzzle of the slice was written.
    Complete,
    /// An index found no puzzle within `--max-tries` tries: the puzzles before it were written.
    Exhausted { index: u64, written: u64 },
    /// A signal stopped the run after writing every puzzle before it.
    Interrupted,
    /// The reader of stdout closed it.
    ClosedPipe,
    /// `--resume` found the output already complete.
    AlreadyComplete,
}

struct Row {
    index: u64,
    found: Option<Generated>,
    tries: u64,
}

/// Runs `generate`: the indices of the slice in order, written through `target`.
pub fn execute(
    req: &Request,
    target: output::Target<'_>,
    settings: Settings,
) -> Result<Ended, run::Error> {
    super::check_targets(&req.opts).map_err(run::Error::OutputFile)?;
    let columns = req.columns();
    let mut outcome = Ended::Complete;
    let ended = output::deliver(&[], target, columns, settings.clone(), |out, settings| {
        let (summary, end) = generate_into(req, out, settings, &target)?;
        outcome = end;
        Ok(summary)
    })?;
    Ok(match ended {
        output::Ended::Complete(_) => outcome,
        output::Ended::Interrupted(_) => Ended::Interrupted,
        output::Ended::ClosedPipe => Ended::ClosedPipe,
        output::Ended::AlreadyComplete => Ended::AlreadyComplete,
    })
}

/// The indices of the slice after the resume point, in order.
fn indices(req: &Request, settings: &Settings) -> Vec<u64> {
    let all = (req.start..req.start.saturating_add(req.count))
        .filter(|i| settings.shard.is_none_or(|s| s.contains(i + 1)));
    match settings.resume_after {
        None => all.collect(),
        // Bare lines count rows; keyed rows name the last index written.
        Some(p) if req.format.is_none() => all.skip(p.line as usize).collect(),
        Some(p) => all.filter(|&i| i > p.line).collect(),
    }
}

fn generate_into(
    req: &Request,
    out: &mut dyn Write,
    settings: &Settings,
    target: &output::Target<'_>,
) -> Result<(Summary, Ended), run::Error> {
    let started = Instant::now();
    if settings.header && req.format == Some(OutputFormat::Csv) {
        let mut h = Vec::new();
        req.columns().write_header(&mut h, OutputFormat::Csv, false);
        out.write_all(&h).map_err(run::Error::Output)?;
    }
    let todo = indices(req, settings);
    let chunk = 16usize;
    let stop = settings.stop.clone();
    let job = req.clone();
    let work_req = req.clone();
    let show = !target.quiet && std::io::stderr().is_terminal();
    let mut summary = Summary::default();
    summary.command = "generate";
    let (mut tries, mut written) = (0u64, 0u64);
    let mut end = Ended::Complete;
    let work_stop = settings.stop.clone();
    // A chunk cut short by a stop was written: nothing after it may be.
    let mut cut = false;
    let result = ordered::run_until(
        settings.stop.clone(),
        run::threads(settings.threads),
        "generate",
        move |feeder: &mut ordered::Feeder<Vec<u64>, (Vec<Row>, bool), run::Error>| {
            for c in todo.chunks(chunk) {
                if stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
                    return;
                }
                if !feeder.send(c.to_vec()) {
                    return;
                }
            }
        },
        move |indices: Vec<u64>| {
            let mut rows = Vec::with_capacity(indices.len());
            for index in indices {
                // A stop ends the chunk at once; the puzzles before it are kept.
                if work_stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed))
                {
                    return (rows, false);
                }
                let a = attempt(&work_req, index);
                rows.push(Row {
                    index,
                    found: a.found,
                    tries: a.tries,
                });
            }
            (rows, true)
        },
        |event| match event {
            ordered::Event::Idle => out.flush().map_err(run::Error::Output),
            ordered::Event::Failed(e) => Err(e),
            ordered::Event::Done(_) if cut => Ok(()),
            ordered::Event::Done((rows, complete)) => {
                cut = !complete;
                for row in rows {
                    tries += row.tries;
                    let Some(g) = row.found else {
                        end = Ended::Exhausted {
                            index: row.index,
                            written,
                        };
                        return Err(run::Error::Threads(String::new()));
                    };
                    let mut w =
                        RowWriter::new(job.format.unwrap_or(OutputFormat::Csv), job.columns(), 256);
                    write_row(&job, &mut w, row.index, &g);
                    out.write_all(&w.finish()).map_err(run::Error::Output)?;
                    written += 1;
                    summary.add(Status::Ok, 1);
                }
                if show {
                    eprint!(
                        "\rsudoku-batch: generate: {} puzzles, {} tries ({:.1}% accepted)  ",
                        group(written),
                        group(tries),
                        100.0 * written as f64 / tries.max(1) as f64
                    );
                }
                Ok(())
            }
        },
    );
    if show {
        eprintln!();
    }
    match result {
        Ok(()) => {}
        // The consumer stopped the run on an exhausted index: not an error.
        Err(run::Error::Threads(m)) if m.is_empty() => {}
        Err(e) => return Err(e),
    }
    out.flush().map_err(run::Error::Output)?;
    summary.wall = started.elapsed();
    summary.interrupted = settings
        .stop
        .as_ref()
        .is_some_and(|s| s.load(Ordering::SeqCst));
    if !target.quiet {
        eprintln!(
            "sudoku-batch: generate: {} puzzles generated in {:.3} s, from {} tries ({:.2}% \
             accepted)",
            group(written),
            summary.wall.as_secs_f64(),
            group(tries),
            100.0 * written as f64 / tries.max(1) as f64
        );
    }
    Ok((summary, end))
}

/// Generates puzzle number `index` of the run `req` describes: [`generate_one`] with the
/// request's class and rating targets as its filter. The puzzle the CLI writes for `index`.
pub fn attempt(req: &Request, index: u64) -> super::Attempt {
    let accept = |p: &crate::Grid, _: &crate::Grid| accepts(req, p);
    generate_one(index, &req.opts, &accept)
}

/// The rated fields of a generated puzzle, as the `clues`, `rating`, `singles`, `class` and
/// `symmetry` columns give them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fields {
    pub clues: usize,
    /// Mean guesses over `req.samples` transforms drawn from the run's seed ([`rate::rating`]).
    pub rating: f64,
    pub singles: bool,
    pub class: Class,
    /// The symmetry used (the draw, for `any`).
    pub symmetry: super::Symmetry,
}

/// The fields of `g`, generated by the run `req`.
pub fn fields(req: &Request, g: &Generated) -> Fields {
    let grade = rate::grade(&g.puzzle);
    Fields {
        clues: g.puzzle.clues(),
        rating: rate::rating(&g.puzzle, req.samples, req.opts.seed),
        singles: grade.singles,
        class: grade.class,
        symmetry: g.symmetry,
    }
}

/// Whether a try meets the class and rating targets.
fn accepts(req: &Request, p: &crate::Grid) -> bool {
    if let Some(classes) = &req.class {
        if !classes.contains(&rate::grade(p).class) {
            return false;
        }
    }
    if let Some((lo, hi)) = req.rating {
        let r = rate::rating(p, req.samples, req.opts.seed);
        if r < lo || r > hi {
            return false;
        }
    }
    if let Some(t) = &req.se {
        // Last: the SE rating is the costly test. A try whose rating gives up is rejected.
        return crate::explain::rate(p, t.budget).is_ok_and(|r| t.accepts(&r));
    }
    true
}

fn write_row(req: &Request, w: &mut RowWriter, index: u64, g: &Generated) {
    if req.format.is_none() {
        w.grid(Some(&g.puzzle));
        w.end();
        return;
    }
    let f = fields(req, g);
    w.int(index)
        .grid(Some(&g.puzzle))
        .grid(Some(&g.solution))
        .int(f.clues as u64)
        .number(Some(f.rating))
        .boolean(Some(f.singles))
        .word(f.class.as_str())
        .word(f.symmetry.as_str());
    if let Some(t) = &req.se {
        match crate::explain::rate(&g.puzzle, t.budget) {
            Ok(r) => {
                for x in [r.er, r.ep, r.ed] {
                    w.float(Some(f64::from(x.0) / 10.0), 1);
                }
            }
            Err(_) => {
                w.null().null().null();
            }
        }
    }
    w.end();
}

/// The `minimize` columns (a `file` column follows with several inputs).
pub static MINIMIZE_COLUMNS: Columns = Columns {
    names: &[
        "line",
        "puzzle",
        "status",
        "solutions",
        "minimized",
        "clues",
        "error",
    ],
    status: Some(2),
    counted: false,
};

/// What `minimize` does to each puzzle: a unique puzzle becomes a minimal one with the same
/// solution; others are reported with their status and left as they are.
#[derive(Clone, Copy, Debug)]
pub struct MinimizeJob {
    pub seed: u64,
}

impl PuzzleJob for MinimizeJob {
    fn command(&self) -> &'static str {
        "minimize"
    }

    fn columns(&self) -> &'static Columns {
        &MINIMIZE_COLUMNS
    }

    fn row(&self, rec: &Record, w: &mut RowWriter) -> Outcome {
        let grid = match usable_or_invalid(rec, w, &MINIMIZE_COLUMNS.names[3..6]) {
            Ok(g) => g,
            Err(outcome) => return outcome,
        };
        match minimize(grid, self.seed) {
            Ok(m) => {
                w.grid(Some(grid))
                    .word(Status::Solved.as_str())
                    .int(1)
                    .grid(Some(&m))
                    .int(m.clues() as u64)
                    .null();
                Outcome {
                    status: Status::Solved,
                    ns: None,
                }
            }
            // A puzzle minimize leaves as it is is written unchanged in `minimized`; `error`
            // holds a reason only for an invalid one, as in every command.
            Err(why) => {
                let (status, n) = match why {
                    Why::Unsolvable => (Status::Unsolvable, 0),
                    Why::MultipleSolutions => (Status::Multiple, engine::solve(grid, 2).solutions),
                    Why::Invalid(_) => (Status::Invalid, 0),
                };
                w.grid(Some(grid)).word(status.as_str()).int(u64::from(n));
                if status == Status::Invalid {
                    w.null().null().text(Some(&why.to_string()));
                } else {
                    w.grid(Some(grid)).int(grid.clues() as u64).null();
                }
                Outcome { status, ns: None }
            }
        }
    }
}
