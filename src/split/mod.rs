//! `sudoku-batch split`: send every input line to train, valid or test by a hash of its key (its
//! canonical form, or its exact givens) and the seed, so that equivalent puzzles always land on
//! the same side — no leak between train and test — with no memory and no coordination: N
//! machines splitting N shards of a corpus agree, line for line, with one machine splitting it
//! all.
//!
//! The side of a puzzle is a pure function of (key, seed, fractions): the key's hash mixed with
//! the seed gives a number `u` uniform in [0, 1); `u < test` is test, `u < test + valid` is valid,
//! anything else train. A line that is not a puzzle is sent to a side by a hash of its text (so it
//! is never lost), reported on stderr and counted.
//!
//! Keys: the exact givens, the canonical form, the unique solution's canonical form (streaming,
//! like the others), or the family ([`family`]: everything `audit` links, kept together; not
//! streaming). Every split that writes files records them in a manifest ([`manifest`]).

pub mod family;
pub mod manifest;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use crate::dedup::keys::{self, By};
use crate::human::group;
use crate::input::Input;
use crate::rng::{hash_bytes, mix64};
use crate::run::output::RowsFile;
use crate::run::{self, Columns, OutputFormat, RowWriter};

/// The sides, in the order files and summaries list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Train,
    Valid,
    Test,
}

impl Side {
    pub const ALL: [Side; 3] = [Side::Train, Side::Valid, Side::Test];

    pub fn as_str(self) -> &'static str {
        match self {
            Side::Train => "train",
            Side::Valid => "valid",
            Side::Test => "test",
        }
    }
}

/// What keeps puzzles on one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitBy {
    /// A per-puzzle key: the side is a pure function of it (streaming).
    Key(By),
    /// The puzzle's family (see [`family`]).
    Family,
}

impl SplitBy {
    pub fn as_str(self) -> &'static str {
        match self {
            SplitBy::Key(b) => b.as_str(),
            SplitBy::Family => "family",
        }
    }
}

/// A whole `split` run.
#[derive(Clone, Debug)]
pub struct Request {
    pub by: SplitBy,
    /// The share of puzzles sent to test, in [0, 1].
    pub test: f64,
    /// The share sent to valid; `test + valid <= 1`.
    pub valid: f64,
    pub seed: u64,
    /// `OUT`: the files are `OUT.train.txt`, `OUT.test.txt` and, with a valid share,
    /// `OUT.valid.txt`. Ignored with `label`.
    pub prefix: Option<PathBuf>,
    /// Write every line once on stdout (or `output`) as a row `line,puzzle,split` instead of
    /// files.
    pub label: bool,
    /// With `label`: the rows' file instead of stdout.
    pub output: Option<PathBuf>,
    /// With `label`: the rows' format.
    pub format: OutputFormat,
    /// The provenance record of `output` (none: `--no-provenance`).
    pub provenance: Option<String>,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    pub quiet: bool,
}

/// Lines per side, and lines that were not puzzles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub sides: [u64; 3],
    pub unreadable: u64,
}

/// How a run that did not fail ended.
#[derive(Debug)]
pub enum Ended {
    Done(Counts),
    /// The reader of stdout closed it (`| head`, with `--label`): not a failure.
    ClosedPipe,
}

/// The `--label` columns (`file` follows with several inputs).
pub static LABEL_COLUMNS: Columns = Columns {
    names: &["line", "puzzle", "split"],
    status: None,
    counted: false,
};

/// The side of a key: a pure function of key, seed and shares.
pub fn side_of(key: u128, seed: u64, test: f64, valid: f64) -> Side {
    let h = mix64((key as u64) ^ mix64((key >> 64) as u64 ^ mix64(seed)));
    let u = (h >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
    if u < test {
        Side::Test
    } else if u < test + valid {
        Side::Valid
    } else {
        Side::Train
    }
}

/// Checks the shares: each in [0, 1], together at most 1.
pub fn check_shares(test: f64, valid: f64) -> Result<(), String> {
    let ok = |v: f64| v.is_finite() && (0.0..=1.0).contains(&v);
    if !ok(test) || !ok(valid) || test + valid > 1.0 {
        return Err(format!(
            "--test {test} and --valid {valid}: each must be in [0, 1] and together at most 1"
        ));
    }
    Ok(())
}

/// Runs `split` on `inputs`.
pub fn execute(inputs: &[Input], req: &Request) -> Result<Ended, run::Error> {
    check_shares(req.test, req.valid).map_err(run::Error::OutputFile)?;
    let with_file = inputs.len() > 1;
    let mut files: Vec<Option<(PathBuf, BufWriter<std::fs::File>)>> = Vec::new();
    let mut label_out = None;
    if req.label {
        label_out = Some(match &req.output {
            None => match RowsFile::stdout(&LABEL_COLUMNS, req.format, with_file) {
                Ok(w) => w,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                    return closed(run::Error::Output(e))
                }
                Err(e) => return Err(run::Error::OutputFile(e.to_string())),
            },
            Some(path) => {
                if run::output::overwrites_input(
                    path,
                    inputs.iter().filter_map(|i| i.path.as_deref()),
                ) {
                    return Err(run::Error::OutputFile(format!(
                        "{}: the output file is also an input; writing it would destroy the input",
                        path.display()
                    )));
                }
                RowsFile::create(
                    path,
                    &LABEL_COLUMNS,
                    req.format,
                    with_file,
                    req.provenance.clone(),
                )
                .map_err(run::Error::OutputFile)?
            }
        });
    } else {
        let Some(prefix) = &req.prefix else {
            return Err(run::Error::OutputFile(
                "split needs --prefix OUT (files OUT.train.txt, OUT.test.txt, …) or --label".into(),
            ));
        };
        for side in Side::ALL {
            if side == Side::Valid && req.valid == 0.0 {
                files.push(None);
                continue;
            }
            let mut name = prefix.as_os_str().to_owned();
            name.push(format!(".{}.txt", side.as_str()));
            let path = PathBuf::from(name);
            if run::output::overwrites_input(&path, inputs.iter().filter_map(|i| i.path.as_deref()))
            {
                return Err(run::Error::OutputFile(format!(
                    "{}: the output file is also an input; writing it would destroy the input",
                    path.display()
                )));
            }
            let f = std::fs::File::create(&path)
                .map_err(|e| run::Error::OutputFile(run::output::cannot_create(&path, &e)))?;
            files.push(Some((path, BufWriter::with_capacity(256 * 1024, f))));
        }
    }
    let families = match req.by {
        SplitBy::Family => Some(family::families(inputs, req.threads, req.quiet)?),
        SplitBy::Key(_) => None,
    };
    let mut next = 0usize;
    let by = match req.by {
        SplitBy::Key(b) => b,
        SplitBy::Family => By::Exact,
    };
    let mut counts = Counts::default();
    let mut failed: Option<(usize, io::Error)> = None;
    let result = keys::scan(inputs, by, req.threads, &mut |file, rec, key| {
        let key = match (&families, key) {
            (Some(f), Some(_)) if f.place.get(next) == Some(&(file as u32, rec.line)) => {
                next += 1;
                Some(u128::from(f.key[next - 1]))
            }
            (Some(_), _) => None,
            (None, k) => k,
        };
        let key = match key {
            Some(k) => k,
            None => {
                counts.unreadable += 1;
                if !req.quiet {
                    eprintln!(
                        "sudoku-batch: {}:{}: not a valid puzzle, split by its text: {}",
                        inputs[file].name,
                        rec.line,
                        keys::why(rec)
                    );
                }
                u128::from(hash_bytes(&rec.text))
            }
        };
        let side = side_of(key, req.seed, req.test, req.valid);
        counts.sides[side as usize] += 1;
        if let Some(w) = label_out.as_mut() {
            let mut r = RowWriter::new(OutputFormat::Csv, &LABEL_COLUMNS, 128);
            r.int(rec.line)
                .grid(rec.puzzle.as_ref().ok())
                .word(side.as_str());
            if with_file {
                r.text(Some(&inputs[file].name));
            }
            r.end();
            return w.write_all(&r.finish());
        }
        if let Some(Some((_, w))) = files.get_mut(side as usize) {
            let r = w.write_all(&rec.text).and_then(|()| w.write_all(b"\n"));
            if let Err(e) = r {
                let kind = e.kind();
                failed = Some((side as usize, e));
                return Err(io::Error::new(kind, "a split file failed"));
            }
        }
        Ok(())
    });
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            f.as_ref()
                .map(|(p, _)| p.display().to_string())
                .unwrap_or_default()
        })
        .collect();
    let file_error = |i: usize, e: io::Error| run::Error::OutputFile(format!("{}: {e}", names[i]));
    if let Some((i, e)) = failed {
        return Err(file_error(i, e));
    }
    if let Err(e) = result {
        return closed(e);
    }
    if let Some(mut w) = label_out {
        if let Err(e) = w.flush() {
            return closed(run::Error::Output(e));
        }
        w.finish().map_err(run::Error::OutputFile)?;
    }
    for (i, f) in files.iter_mut().enumerate() {
        if let Some((_, w)) = f.as_mut() {
            if let Err(e) = w.flush() {
                return Err(file_error(i, e));
            }
        }
    }
    // No manifest beside a device or FIFO (`--label -o /dev/null`).
    let manifest_base = if req.label {
        req.output.clone().filter(|p| !run::output::is_special(p))
    } else {
        req.prefix.clone()
    };
    if let Some(base) = manifest_base {
        let outputs: Vec<manifest::Output> = if req.label {
            vec![manifest::Output {
                side: "labels",
                path: base.clone(),
                lines: counts.sides.iter().sum(),
            }]
        } else {
            files
                .iter()
                .zip(Side::ALL)
                .filter_map(|(f, side)| {
                    f.as_ref().map(|(p, _)| manifest::Output {
                        side: side.as_str(),
                        path: p.clone(),
                        lines: counts.sides[side as usize],
                    })
                })
                .collect()
        };
        let names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
        manifest::write(
            &manifest::path_for(&base),
            req.by.as_str(),
            req.seed,
            (req.test, req.valid),
            counts.sides,
            counts.unreadable,
            &names,
            &outputs,
            families.as_ref().map(|f| (f.count, f.largest)),
        )
        .map_err(run::Error::OutputFile)?;
    }
    if !req.quiet {
        eprintln!(
            "sudoku-batch: split --by {}: {} train, {} valid, {} test ({} not puzzles)",
            req.by.as_str(),
            group(counts.sides[0]),
            group(counts.sides[1]),
            group(counts.sides[2]),
            group(counts.unreadable)
        );
    }
    Ok(Ended::Done(counts))
}

fn closed(e: run::Error) -> Result<Ended, run::Error> {
    e.unless_closed(Ended::ClosedPipe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_follow_the_shares() {
        let mut n = [0u32; 3];
        for k in 0..30_000u128 {
            n[side_of(k * 0x9e37_79b9_7f4a_7c15, 7, 0.1, 0.2) as usize] += 1;
        }
        assert!((20_000..22_000).contains(&n[0]), "{n:?}");
        assert!((5_400..6_600).contains(&n[1]), "{n:?}");
        assert!((2_700..3_300).contains(&n[2]), "{n:?}");
        // Another seed moves puzzles between sides; the same seed never does.
        let moved = (0..1000u128)
            .filter(|&k| side_of(k, 7, 0.5, 0.0) != side_of(k, 8, 0.5, 0.0))
            .count();
        assert!((400..600).contains(&moved), "{moved}");
        assert!((0..1000u128).all(|k| side_of(k, 7, 0.5, 0.0) == side_of(k, 7, 0.5, 0.0)));
    }

    #[test]
    fn shares_are_checked() {
        assert!(check_shares(0.1, 0.1).is_ok());
        assert!(check_shares(1.0, 0.0).is_ok());
        assert!(check_shares(0.6, 0.5).is_err());
        assert!(check_shares(-0.1, 0.0).is_err());
        assert!(check_shares(f64::NAN, 0.0).is_err());
    }
}
