//! `sudoku_batch.sample`: the CLI's `sample` from Python — a file of rated rows or plain puzzles
//! read through the CLI's own readers ([`sample::collect`]), or puzzles held in an array or a
//! list of strings ([`sample::collect_grids`], their values computed as `rate` computes them).
//! Both give the kept rows as the CLI writes them (text fields, in input order, with their
//! band) and the per-band counts; the file form can also write the CLI's output file.

use std::path::PathBuf;

use numpy::IntoPyArray;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use sudoku_batch::input::Input;
use sudoku_batch::run::OutputFormat;
use sudoku_batch::sample::{self, Bands, By, Format, Request, Sample, Spec};

/// The spec of a call: `by`, its bands (`None`: the default, for er/ep/ed), rows per band, seed.
fn spec(by: &str, bands: Option<Vec<String>>, per_band: i64, seed: u64) -> PyResult<Spec> {
    let by = match by {
        "er" => By::Er,
        "ep" => By::Ep,
        "ed" => By::Ed,
        "rating" => By::Rating,
        "clues" => By::Clues,
        "class" => By::Class,
        b => {
            return Err(PyValueError::new_err(format!(
                "by must be 'er', 'ep', 'ed', 'rating', 'clues' or 'class'; got {b:?}"
            )))
        }
    };
    let bands = Bands::new(by, bands.as_deref()).map_err(|e| {
        // The CLI's words name its flags; here they are arguments.
        PyValueError::new_err(e.replace("--bands", "bands").replace("--by ", "by="))
    })?;
    let per_band = usize::try_from(crate::positive("per_band", per_band)?)
        .map_err(|_| PyValueError::new_err(format!("per_band is too large: {per_band}")))?;
    Ok(Spec {
        bands,
        per_band,
        seed,
    })
}

/// A sample as a dict: the output's columns and rows (text, `None` for empty), each row's line
/// and band code, the band names, per band the rows seen and kept, the skipped rows by reason.
fn sample_dict<'py>(py: Python<'py>, s: &Sample) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("columns", sample::write::names(s))?;
    let rows: Vec<Vec<Option<&str>>> = s
        .rows
        .iter()
        .map(|r| {
            r.values
                .iter()
                .map(|v| v.text())
                .chain(std::iter::once(Some(s.label(r))))
                .collect()
        })
        .collect();
    out.set_item("rows", rows)?;
    let lines: Vec<u64> = s.rows.iter().map(|r| r.line).collect();
    out.set_item("lines", lines.into_pyarray(py))?;
    let band: Vec<i16> = s.rows.iter().map(|r| r.band as i16).collect();
    out.set_item("band", band.into_pyarray(py))?;
    let names: Vec<&str> = s.bands.iter().map(|b| b.label.as_str()).collect();
    out.set_item("band_names", names)?;
    let seen: Vec<u64> = s.bands.iter().map(|b| b.seen).collect();
    out.set_item("seen", seen.into_pyarray(py))?;
    let kept: Vec<u64> = s.bands.iter().map(|b| b.kept).collect();
    out.set_item("kept", kept.into_pyarray(py))?;
    let skipped = PyDict::new(py);
    for (why, n) in &s.skipped {
        skipped.set_item(why, n)?;
    }
    out.set_item("skipped", skipped)?;
    out.set_item("read", s.read)?;
    out.set_item("per_band", s.per_band)?;
    Ok(out)
}

/// Samples puzzles held in memory. See `sudoku_batch.sample` for the contract.
#[pyfunction]
#[pyo3(signature = (puzzles, *, by, per_band, bands=None, seed=0, threads=None))]
pub fn sample_puzzles<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    by: &str,
    per_band: i64,
    bands: Option<Vec<String>>,
    seed: u64,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = spec(by, bands, per_band, seed)?;
    let threads = crate::thread_count(threads)?.unwrap_or(0);
    let mut held = crate::take_puzzles(puzzles)?;
    let rows = held.puzzles()?;
    let n = rows.len();
    let s = py
        .detach(|| sample::collect_grids(n, |i| rows.get(i), &spec, threads))
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    sample_dict(py, &s)
}

/// Samples a file (`sudoku-batch sample PATH`), writing `out` as `-o OUT` does when given. See
/// `sudoku_batch.sample` for the contract.
#[pyfunction]
#[pyo3(signature = (path, *, by, per_band, bands=None, seed=0, threads=None, format=None,
                    column=None, out=None, output="csv"))]
#[allow(clippy::too_many_arguments)]
pub fn sample_file<'py>(
    py: Python<'py>,
    path: &str,
    by: &str,
    per_band: i64,
    bands: Option<Vec<String>>,
    seed: u64,
    threads: Option<i64>,
    format: Option<&str>,
    column: Option<&str>,
    out: Option<&str>,
    output: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = spec(by, bands, per_band, seed)?;
    let format = match format {
        None => None,
        Some("line") => Some(Format::Line),
        Some("block") => Some(Format::Block),
        Some("json") => Some(Format::Json),
        Some("csv") => Some(Format::Csv),
        Some("jsonl") => Some(Format::Jsonl),
        Some("parquet") => Some(Format::Parquet),
        Some(f) => {
            return Err(PyValueError::new_err(format!(
                "format must be 'line', 'block', 'json', 'csv', 'jsonl', 'parquet' or None (told \
                 from the file); got {f:?}"
            )))
        }
    };
    let output = match output {
        "csv" => OutputFormat::Csv,
        "jsonl" => OutputFormat::Jsonl,
        "parquet" => OutputFormat::Parquet(Default::default()),
        o => {
            return Err(PyValueError::new_err(format!(
                "output must be 'csv', 'jsonl' or 'parquet'; got {o:?}"
            )))
        }
    };
    let inputs: Vec<Input> =
        sample::read::inputs(&[path.to_string()]).map_err(PyOSError::new_err)?;
    let req = Request {
        spec,
        format,
        column: column.map(str::to_string),
        threads: crate::thread_count(threads)?.unwrap_or(0),
        shard: None,
        progress: false,
        stop: None,
    };
    let to = out.map(|o| sample::Output {
        path: Some(PathBuf::from(o)),
        format: output,
        provenance: None,
        quiet: true,
    });
    let s = py
        .detach(|| -> Result<Sample, sudoku_batch::run::Error> {
            if let Some(to) = &to {
                sample::write::check(&inputs, to)?;
            }
            let s = sample::collect(&inputs, &req)?;
            if let Some(to) = &to {
                sample::write::write(&s, to)?;
            }
            Ok(s)
        })
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    sample_dict(py, &s)
}
