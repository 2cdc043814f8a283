//! `export_hf` and `export_hrm`: the CLI's `export --to hf|hrm`, the same library call
//! ([`export::execute`]) with the same options, run with the GIL released. They return the
//! export's report as a dict (per split: the input, records read, puzzles and rows written,
//! records left out by reason) and record their provenance as the CLI does, with the call in
//! place of a command line.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use sudoku_batch::export::{self, Layout, Reason, Report, Request};
use sudoku_batch::input::Input;
use sudoku_batch::provenance::{self, Invocation, RunId};
use sudoku_batch::run::parquet::Compression;

/// The options both functions share.
struct Common<'a> {
    train: &'a str,
    test: &'a str,
    out: &'a str,
    valid: Option<&'a str>,
    force: bool,
    threads: Option<i64>,
    format: Option<&'a str>,
    column: Option<&'a str>,
    solution_column: Option<&'a str>,
    quiet: bool,
}

/// An input named from Python: present and not a folder (a Parquet file is not text, so the
/// CLI's text check waits for the export, which tells the formats apart).
fn input(path: &str) -> PyResult<Input> {
    let input = Input::from_arg(path);
    if let Some(p) = &input.path {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => {
                return Err(PyOSError::new_err(format!(
                    "cannot read {path}: it is a folder"
                )))
            }
            Ok(_) => {}
            Err(e) => {
                return Err(PyOSError::new_err(format!(
                    "cannot read {path}: {}",
                    sudoku_batch::input::io_reason(&e)
                )))
            }
        }
    }
    Ok(input)
}

fn compression(name: &str) -> PyResult<Compression> {
    Ok(match name {
        "none" => Compression::None,
        "snappy" => Compression::Snappy,
        "lz4" => Compression::Lz4,
        "zstd" => Compression::Zstd,
        c => {
            return Err(PyValueError::new_err(format!(
                "compression must be 'none', 'snappy', 'lz4' or 'zstd'; got {c:?}"
            )))
        }
    })
}

/// Runs the export `req` (its provenance made here, naming `call`) and returns its report.
fn run<'py>(py: Python<'py>, mut req: Request, call: Vec<String>) -> PyResult<Bound<'py, PyDict>> {
    let inputs: Vec<Input> = req.splits().into_iter().map(|(_, i)| i.clone()).collect();
    let id = RunId {
        command: "export".into(),
        options: vec![("--seed".into(), req.seed.to_string())],
    };
    req.provenance = Some(
        provenance::record(&Invocation { args: call }, Some(&id), &inputs)
            .map_err(PyOSError::new_err)?,
    );
    let report = py
        .detach(|| export::execute(&req))
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    report_dict(py, &report)
}

fn report_dict<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("dir", report.dir.to_string_lossy().into_owned())?;
    out.set_item("layout", report.layout.as_str())?;
    let splits = PyDict::new(py);
    for s in &report.splits {
        let d = PyDict::new(py);
        d.set_item("input", &s.input)?;
        d.set_item("read", s.read)?;
        d.set_item("puzzles", s.puzzles)?;
        d.set_item("examples", s.examples)?;
        let left = PyDict::new(py);
        for r in Reason::ALL {
            left.set_item(r.as_str(), s.left_out[r as usize])?;
        }
        d.set_item("left_out", left)?;
        splits.set_item(s.split.dir(), d)?;
    }
    out.set_item("splits", splits)?;
    out.set_item("seconds", report.wall.as_secs_f64())?;
    Ok(out)
}

/// The request of `c` for `layout`, Hugging Face options at their defaults.
fn request(layout: Layout, c: &Common<'_>) -> PyResult<Request> {
    Ok(Request {
        layout,
        train: input(c.train)?,
        test: input(c.test)?,
        valid: c.valid.map(input).transpose()?,
        output: c.out.into(),
        force: c.force,
        augment: 0,
        seed: 0,
        input_format: super::input_format(c.format)?,
        column: c.column.map(str::to_string),
        solution_column: c.solution_column.map(str::to_string),
        compression: Compression::Zstd,
        rows_per_file: export::DEFAULT_ROWS_PER_FILE,
        provenance: None,
        threads: super::thread_count(c.threads)?.unwrap_or(0),
        quiet: c.quiet,
    })
}

/// The call as the provenance records it: the function and its arguments.
fn call(name: &str, c: &Common<'_>, extra: &[(&str, String)]) -> Vec<String> {
    let mut args = vec![
        format!("sudoku_batch.{name}"),
        format!("train={}", c.train),
        format!("test={}", c.test),
        format!("out={}", c.out),
    ];
    if let Some(v) = c.valid {
        args.push(format!("valid={v}"));
    }
    for (k, v) in extra {
        args.push(format!("{k}={v}"));
    }
    args
}

/// `sudoku-batch export --to hf`. See `sudoku_batch.export_hf` for the contract.
#[pyfunction]
#[pyo3(signature = (train, test, out, *, valid=None, force=false, threads=None, format=None,
                    column=None, solution_column=None, compression="zstd",
                    rows_per_file=export::DEFAULT_ROWS_PER_FILE as i64, quiet=true))]
#[allow(clippy::too_many_arguments)]
pub fn export_hf<'py>(
    py: Python<'py>,
    train: &str,
    test: &str,
    out: &str,
    valid: Option<&str>,
    force: bool,
    threads: Option<i64>,
    format: Option<&str>,
    column: Option<&str>,
    solution_column: Option<&str>,
    compression: &str,
    rows_per_file: i64,
    quiet: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let c = Common {
        train,
        test,
        out,
        valid,
        force,
        threads,
        format,
        column,
        solution_column,
        quiet,
    };
    let mut req = request(Layout::Hf, &c)?;
    req.compression = self::compression(compression)?;
    req.rows_per_file =
        usize::try_from(super::positive("rows_per_file", rows_per_file)?).unwrap_or(usize::MAX);
    let call = call(
        "export_hf",
        &c,
        &[
            ("compression", compression.to_string()),
            ("rows_per_file", rows_per_file.to_string()),
        ],
    );
    run(py, req, call)
}

/// `sudoku-batch export --to hrm`. See `sudoku_batch.export_hrm` for the contract.
#[pyfunction]
#[pyo3(signature = (train, test, out, *, valid=None, augment=0, seed=0, force=false, threads=None,
                    format=None, column=None, solution_column=None, quiet=true))]
#[allow(clippy::too_many_arguments)]
pub fn export_hrm<'py>(
    py: Python<'py>,
    train: &str,
    test: &str,
    out: &str,
    valid: Option<&str>,
    augment: i64,
    seed: u64,
    force: bool,
    threads: Option<i64>,
    format: Option<&str>,
    column: Option<&str>,
    solution_column: Option<&str>,
    quiet: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let augment = u32::try_from(augment)
        .ok()
        .filter(|&a| a <= 100_000)
        .ok_or_else(|| {
            PyValueError::new_err(format!("augment must be 0 to 100000; got {augment}"))
        })?;
    let c = Common {
        train,
        test,
        out,
        valid,
        force,
        threads,
        format,
        column,
        solution_column,
        quiet,
    };
    let mut req = request(Layout::Hrm, &c)?;
    req.augment = augment;
    req.seed = seed;
    let call = call(
        "export_hrm",
        &c,
        &[("augment", augment.to_string()), ("seed", seed.to_string())],
    );
    run(py, req, call)
}
