//! `sudoku-batch audit`: every pair of puzzles, inside one input or across inputs, from which a
//! model could learn one by seeing the other — `exact` (the same givens), `equivalent` (the
//! same minlex canonical form: relabelled, transposed, band/row/stack/column permuted),
//! `neighbour` (one clue added, removed or replaced, up to equivalence) and `same-solution`
//! (different puzzles whose unique solutions are equivalent grids) — so that a train/test split
//! can be certified free of leaks, and a pipeline can gate on it (exit 1 on a pair across
//! inputs).
//!
//! Shaped as keys, not puzzles: one streaming pass on every core keeps per puzzle its givens in
//! 41 bytes and three 64-bit keys ([`keys`]); neighbour detection adds one key per clue — the
//! canonical form of the puzzle without that clue — computed once per class of equivalent
//! puzzles, and optionally a partition at a time (`--passes`) to bound memory. Sorting brings
//! equal keys together; every candidate pair is then checked on the puzzles and given the
//! transform that shows it ([`pairs`]). Why deletion keys find every neighbour: puzzles A and B
//! are one clue edit apart up to equivalence exactly when A minus a clue is equivalent to B (a
//! clue added or removed), or A minus a clue is equivalent to B minus a clue (a clue replaced);
//! both are equalities of canonical forms.

pub mod keys;
pub mod pairs;

use std::io::{self, Write};
use std::path::PathBuf;

use crate::human::group;
use crate::input::{Input, InputFormat};
use crate::run::output::RowsFile;
use crate::run::{self, Columns, OutputFormat, RowWriter};
pub use keys::Store;
pub use pairs::{Edit, Kind, Options, Pair};

/// The columns of `audit`'s rows.
pub static COLUMNS: Columns = Columns {
    names: &[
        "file_a",
        "line_a",
        "file_b",
        "line_b",
        "kind",
        "transform",
        "edit",
    ],
    status: None,
    counted: false,
};

/// A whole `audit` run.
#[derive(Clone, Debug)]
pub struct Request {
    pub options: Options,
    pub input_format: Option<InputFormat>,
    pub column: Option<String>,
    /// The rows' file; `None` for stdout.
    pub output: Option<PathBuf>,
    pub format: OutputFormat,
    /// The provenance record of `output` (none: `--no-provenance`).
    pub provenance: Option<String>,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// No summary and no note per record that is not a puzzle.
    pub quiet: bool,
}

/// What a run found, for the summary and the exit code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Puzzles per input.
    pub puzzles: Vec<u64>,
    /// Records per input that are not puzzles (reported, never paired).
    pub unreadable: Vec<u64>,
    /// Pairs per kind ([`Kind::ALL`] order).
    pub pairs: [u64; 4],
    /// Pairs per kind whose puzzles come from two different inputs.
    pub across: [u64; 4],
}

impl Counts {
    /// Whether any pair spans two inputs: a leak between them.
    pub fn leaks(&self) -> bool {
        self.across.iter().any(|&n| n > 0)
    }
}

/// How a run that did not fail ended.
#[derive(Debug)]
pub enum Ended {
    Done(Counts),
    /// The reader of stdout closed it (`| head`): not a failure.
    ClosedPipe,
}

/// Reads `inputs` and finds their pairs: the library's whole audit, without output. Each record
/// that is not a puzzle goes to `not_puzzle` (input index, line, why).
pub fn find(
    inputs: &[Input],
    req: &Request,
    not_puzzle: &mut dyn FnMut(usize, u64, &str),
) -> Result<(Store, Vec<Pair>), run::Error> {
    let store = keys::read(
        inputs,
        req.input_format,
        req.column.as_deref(),
        req.threads,
        !req.quiet,
        not_puzzle,
    )?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run::threads(req.threads))
        .build()
        .map_err(|e| run::Error::OutputFile(format!("cannot start worker threads: {e}")))?;
    let pairs = pool.install(|| pairs::find(&store, &req.options));
    Ok((store, pairs))
}

/// Audits puzzles held in memory, one group an input: only pairs across groups, of every kind.
pub fn across_groups(groups: &[Vec<keys::Packed>], threads: usize) -> Result<Counts, String> {
    let store = Store::from_groups(groups);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run::threads(threads))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let opts = Options {
        kinds: 0b1111,
        across: true,
        passes: 1,
    };
    let pairs = pool.install(|| pairs::find(&store, &opts));
    Ok(count(&store, &pairs))
}

/// Counts what `find` found.
pub fn count(store: &Store, pairs: &[Pair]) -> Counts {
    let mut c = Counts {
        puzzles: store.per_file.clone(),
        unreadable: store.unreadable.clone(),
        ..Counts::default()
    };
    for p in pairs {
        c.pairs[p.kind as usize] += 1;
        if store.file[p.a as usize] != store.file[p.b as usize] {
            c.across[p.kind as usize] += 1;
        }
    }
    c
}

/// Runs `audit` on `inputs`: the rows, then the summary on stderr.
pub fn execute(inputs: &[Input], req: &Request) -> Result<Ended, run::Error> {
    let mut out = match &req.output {
        None => match RowsFile::stdout(&COLUMNS, req.format, false) {
            Ok(w) => w,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                return closed(run::Error::Output(e))
            }
            Err(e) => return Err(run::Error::OutputFile(e.to_string())),
        },
        Some(path) => {
            if run::output::overwrites_input(path, inputs.iter().filter_map(|i| i.path.as_deref()))
            {
                return Err(run::Error::OutputFile(format!(
                    "{}: the output file is also an input; writing it would destroy the input",
                    path.display()
                )));
            }
            RowsFile::create(path, &COLUMNS, req.format, false, req.provenance.clone())
                .map_err(run::Error::OutputFile)?
        }
    };
    let quiet = req.quiet;
    let (store, pairs) = find(inputs, req, &mut |file, line, why| {
        if !quiet {
            eprintln!(
                "sudoku-batch: {}:{line}: not a puzzle, left out of every pair: {why}",
                inputs[file].name
            );
        }
    })?;
    let row_format = match req.format {
        OutputFormat::Parquet(_) => OutputFormat::Csv,
        f => f,
    };
    for chunk in pairs.chunks(4096) {
        let mut w = RowWriter::new(row_format, &COLUMNS, chunk.len() * 96);
        for p in chunk {
            let (a, b) = (p.a as usize, p.b as usize);
            w.text(Some(&inputs[store.file[a] as usize].name))
                .int(store.line[a])
                .text(Some(&inputs[store.file[b] as usize].name))
                .int(store.line[b])
                .word(p.kind.as_str())
                .text(Some(&p.transform.to_string()))
                .text(p.edit.map(|e| e.to_string()).as_deref());
            w.end();
        }
        if let Err(e) = out.write_all(&w.finish()) {
            return closed(run::Error::Output(e));
        }
    }
    if let Err(e) = out.flush() {
        return closed(run::Error::Output(e));
    }
    out.finish().map_err(run::Error::OutputFile)?;
    let counts = count(&store, &pairs);
    if !req.quiet {
        eprintln!("{}", summary(inputs, &counts, &req.options));
    }
    Ok(Ended::Done(counts))
}

/// The summary: puzzles and records left out per input, pairs per kind (across inputs in
/// brackets), and the verdict.
pub fn summary(inputs: &[Input], c: &Counts, opts: &Options) -> String {
    let mut s = String::from("sudoku-batch: audit:");
    for (i, input) in inputs.iter().enumerate() {
        s.push_str(&format!(
            " {}: {} puzzles ({} not puzzles);",
            input.name,
            group(c.puzzles.get(i).copied().unwrap_or(0)),
            group(c.unreadable.get(i).copied().unwrap_or(0)),
        ));
    }
    s.push_str(" pairs:");
    let mut first = true;
    for k in Kind::ALL {
        if opts.kinds & k.bit() == 0 {
            continue;
        }
        s.push_str(&format!(
            "{} {} {}",
            if first { "" } else { "," },
            group(c.pairs[k as usize]),
            k.as_str()
        ));
        if inputs.len() > 1 {
            s.push_str(&format!(" ({} across)", group(c.across[k as usize])));
        }
        first = false;
    }
    if inputs.len() > 1 {
        s.push_str(if c.leaks() {
            "; verdict: LEAK, pairs span inputs"
        } else {
            "; verdict: clean, no pair spans inputs"
        });
    }
    s
}

fn closed(e: run::Error) -> Result<Ended, run::Error> {
    e.unless_closed(Ended::ClosedPipe)
}

/// Parses `--kinds`: a comma-separated list of kind names, or `all`.
pub fn parse_kinds(s: &str) -> Result<u8, String> {
    let mut bits = 0u8;
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if part == "all" {
            bits |= 0b1111;
            continue;
        }
        let k = Kind::ALL
            .into_iter()
            .find(|k| k.as_str() == part)
            .ok_or_else(|| {
                format!(
                    "'{part}' is not a kind: exact, equivalent, neighbour, same-solution or all"
                )
            })?;
        bits |= k.bit();
    }
    if bits == 0 {
        return Err("--kinds names no kind".into());
    }
    Ok(bits)
}
