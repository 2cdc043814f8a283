//! `sudoku_batch._native`: the library's engine, ratings (Sudoku Explainer's included), canonical
//! forms and streaming commands behind a NumPy-native Python interface. The pure-Python package
//! `sudoku_batch` wraps these functions into result objects with docstrings; everything that
//! computes is here.
//!
//! Why it is shaped this way:
//!
//! - **Zero copy in.** A C-contiguous `(N, 81)` `uint8` array is read in place through a
//!   read-only borrow of its buffer ([`Puzzles::Cells`]); only other layouts are copied once.
//!   A sequence of strings is parsed with the CLI's line rule ([`Grid::parse_line`]).
//! - **Zero copy out.** Results are filled into Rust vectors and handed to NumPy as the arrays'
//!   own buffers (`IntoPyArray`), never copied. `solve(..., out=)` writes into an earlier
//!   result's arrays instead, borrowed for writing through NumPy's borrow checker (which refuses
//!   arrays that share memory with the puzzles): a million-row result is 94 MB, and fresh pages
//!   cost the kernel 5 % of a call on the measuring VM.
//! - **All cores, GIL released.** The per-row work runs on rayon (the global pool, or a pool of
//!   `threads` workers) inside `Python::detach`, so other Python threads keep running. Every
//!   row's result depends on that row alone, so results are in input order and identical
//!   whatever the thread count.
//! - **One bad row is a status.** A row that is not a puzzle (a cell above 9, text that is not
//!   81 cells) or whose givens break a rule gets status `INVALID` and the CLI's reason text; only
//!   a wrong container (shape, dtype, item type) raises `ValueError`.
//! - **The CLI's definitions.** Fields and statuses are those of `sudoku-batch solve`, `rate`
//!   (`--se`), `canon` and `explain`: the same library calls, the same status order as
//!   [`Status::ALL`]. `rate(se=True)` and `explain_many` decide a row's status and reason with
//!   the functions `rate --se` and `explain` write their rows with
//!   ([`explain_command::se_rating`], [`explain_command::answer`]), so `gave-up` and its reason
//!   cannot drift from the CLI's. The file functions run the CLI's own streaming pipeline
//!   ([`solve::execute`] and friends).
//! - **Sudoku Explainer rows are slow rows.** An SE rating takes milliseconds to seconds where
//!   everything else takes microseconds, so those rows go to the workers one at a time rather
//!   than in runs of [`MIN_ROWS_PER_TASK`]. `explain_many`'s steps are nested Python objects
//!   (a list of dicts per puzzle, the CLI's JSON layout): the paths are found with the GIL
//!   released and only turned into dicts after.

mod export;

use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use rayon::prelude::*;

use sudoku_batch::canon::{self, command::CanonJob};
use sudoku_batch::explain::command::{self as explain_command, ExplainJob};
use sudoku_batch::explain::{self, Tenths};
use sudoku_batch::generate::command::{self as gen, Request as GenerateRequest};
use sudoku_batch::generate::{self, Options as GenerateOptions, Symmetry};
use sudoku_batch::input::{self, Input, InputFormat};
use sudoku_batch::rate::{self, command::RateJob};
use sudoku_batch::run::{self, output, OutputFormat, Settings, Status, Summary};
use sudoku_batch::{engine, solve, Grid};

mod sample;

/// Rows handed to one rayon task at least: a row is microseconds of work, so this keeps the
/// scheduling cost negligible while leaving plenty of tasks to balance hard rows.
const MIN_ROWS_PER_TASK: usize = 64;

/// The status code of `s`: its index in [`Status::ALL`] (the Python constants mirror it).
fn code(s: Status) -> i8 {
    Status::ALL.iter().position(|&x| x == s).unwrap_or(0) as i8
}

/// The puzzles of one call.
enum Puzzles<'a> {
    /// Row-major cells, 81 per puzzle, borrowed from the caller's array.
    Cells(&'a [u8]),
    /// Parsed strings: the grid, or why the text is not one.
    Parsed(Vec<Result<Grid, String>>),
}

impl Puzzles<'_> {
    fn len(&self) -> usize {
        match self {
            Puzzles::Cells(c) => c.len() / 81,
            Puzzles::Parsed(p) => p.len(),
        }
    }

    /// Row `i` as a usable puzzle, or the reason it is not one (the CLI's wording).
    fn get(&self, i: usize) -> Result<Grid, String> {
        let grid = match self {
            Puzzles::Cells(c) => {
                let mut cells = [0u8; 81];
                cells.copy_from_slice(&c[i * 81..i * 81 + 81]);
                match Grid::from_cells(cells) {
                    Some(g) => g,
                    None => {
                        let (k, v) = cells
                            .iter()
                            .enumerate()
                            .find(|(_, &v)| v > 9)
                            .map_or((0, 0), |(k, &v)| (k + 1, v));
                        return Err(format!("cell {k} holds {v}, not 0-9"));
                    }
                }
            }
            Puzzles::Parsed(p) => p[i].clone()?,
        };
        grid.check_givens().map_err(|c| c.to_string())?;
        Ok(grid)
    }

    /// Row `i` for the engine: its grid, or `None` when it is not one (a cell above 9, text
    /// that is not a puzzle). Its givens are *not* checked (see [`solve_one`]).
    #[inline]
    fn grid(&self, i: usize) -> Option<Grid> {
        match self {
            Puzzles::Cells(c) => Grid::from_cells(c.get(i * 81..i * 81 + 81)?.try_into().ok()?),
            Puzzles::Parsed(p) => p[i].as_ref().ok().copied(),
        }
    }

    /// Row index → reason, for the rows whose status is `INVALID`.
    fn reasons<'py>(&self, py: Python<'py>, status: &[i8]) -> PyResult<Bound<'py, PyDict>> {
        let reasons = PyDict::new(py);
        let invalid = code(Status::Invalid);
        for (i, _) in status.iter().enumerate().filter(|(_, &s)| s == invalid) {
            if let Err(why) = self.get(i) {
                reasons.set_item(i, why)?;
            }
        }
        Ok(reasons)
    }
}

/// Holds what [`Puzzles`] borrows from: the caller's array, a copy of a non-contiguous one, or
/// parsed strings.
enum Held<'py> {
    Array(numpy::PyReadonlyArray2<'py, u8>),
    Owned(Vec<u8>),
    Parsed(Vec<Result<Grid, String>>),
}

impl Held<'_> {
    fn puzzles(&mut self) -> PyResult<Puzzles<'_>> {
        Ok(match self {
            Held::Array(a) => Puzzles::Cells(
                a.as_slice()
                    .map_err(|e| PyValueError::new_err(format!("puzzles: {e}")))?,
            ),
            Held::Owned(v) => Puzzles::Cells(v),
            Held::Parsed(p) => Puzzles::Parsed(std::mem::take(p)),
        })
    }
}

/// A shape as Python writes it: `(3,)`, `(3, 81)`.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Reads the `puzzles` argument: a `(N, 81)` `uint8` array (borrowed in place when
/// C-contiguous) or a sequence of strings (or bytes), each parsed as one line of the line
/// format. Anything else is a `ValueError` that says what was expected.
fn take_puzzles<'py>(puzzles: &Bound<'py, PyAny>) -> PyResult<Held<'py>> {
    if let Ok(array) = puzzles.cast::<PyUntypedArray>() {
        let (ndim, shape) = (array.ndim(), array.shape().to_vec());
        let dtype = array.dtype();
        if ndim != 2 || shape[1] != 81 {
            return Err(PyValueError::new_err(format!(
                "puzzles must have shape (N, 81), one row of 81 cells per puzzle, or (N, 9, 9); got shape {}",
                shape_text(&shape)
            )));
        }
        let Ok(typed) = puzzles.cast::<PyArray2<u8>>() else {
            return Err(PyValueError::new_err(format!(
                "puzzles must have dtype uint8 (0 = blank, 1-9 = digit); got {}: convert with \
                 puzzles.astype(numpy.uint8)",
                dtype
            )));
        };
        let view = typed.try_readonly().map_err(|e| {
            PyValueError::new_err(format!("puzzles is being written elsewhere: {e}"))
        })?;
        if array.is_c_contiguous() {
            return Ok(Held::Array(view));
        }
        // Another layout (a slice, Fortran order): one copy into row-major order.
        let owned: Vec<u8> = view.as_array().iter().copied().collect();
        return Ok(Held::Owned(owned));
    }
    if puzzles.is_instance_of::<PyString>() || puzzles.is_instance_of::<PyBytes>() {
        return Err(PyValueError::new_err(
            "puzzles must be a (N, 81) uint8 array or a sequence of 81-character strings, not one \
             string: wrap it in a list",
        ));
    }
    let Ok(items) = puzzles.try_iter() else {
        return Err(PyValueError::new_err(format!(
            "puzzles must be a (N, 81) uint8 array or a sequence of 81-character strings; got {}",
            puzzles.get_type().name()?
        )));
    };
    let mut parsed = Vec::new();
    for (i, item) in items.enumerate() {
        let item = item?;
        let grid = if let Ok(s) = item.cast::<PyString>() {
            Grid::parse_line(s.to_cow()?.as_bytes())
        } else if let Ok(b) = item.cast::<PyBytes>() {
            Grid::parse_line(b.as_bytes())
        } else {
            return Err(PyValueError::new_err(format!(
                "puzzles[{i}] is a {}, not a str: a sequence of puzzles must hold 81-character \
                 strings (or pass a (N, 81) uint8 array)",
                item.get_type().name()?
            )));
        };
        parsed.push(grid.map_err(|e| e.to_string()));
    }
    Ok(Held::Parsed(parsed))
}

/// `threads` as given from Python: `None` or 0 for one per core, else 1 to 1024 (the CLI's
/// `-j` bound).
fn thread_count(threads: Option<i64>) -> PyResult<Option<usize>> {
    match threads {
        None | Some(0) => Ok(None),
        Some(t) if (1..=1024).contains(&t) => Ok(Some(t as usize)),
        Some(t) => Err(PyValueError::new_err(format!(
            "threads must be 1 to 1024 (or None or 0 for one per core); got {t}"
        ))),
    }
}

/// Runs `f` on rayon: the global pool (one worker per core) for `None`, else a pool of exactly
/// that many workers. The last such pool is kept for the next call: starting two workers cost
/// 60-120 µs a call, a tenth of a 1,000-row `solve`.
fn on_pool<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> PyResult<R> {
    static LAST: Mutex<Option<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(None);
    let Some(n) = threads else {
        return Ok(f());
    };
    let pool = {
        // A panic cannot leave the slot half-written, so a poisoned lock is still usable.
        let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
        match &*last {
            Some((m, pool)) if *m == n => Arc::clone(pool),
            _ => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| PyOSError::new_err(format!("cannot start worker threads: {e}")))?;
                let pool = Arc::new(pool);
                *last = Some((n, Arc::clone(&pool)));
                pool
            }
        }
    };
    Ok(pool.install(f))
}

/// `(N, 81)` cells as a NumPy array that owns the vector's buffer.
fn grid_array(py: Python<'_>, cells: Vec<u8>) -> PyResult<Bound<'_, PyArray2<u8>>> {
    let n = cells.len() / 81;
    let a =
        Array2::from_shape_vec((n, 81), cells).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(a.into_pyarray(py))
}

fn positive(name: &str, v: i64) -> PyResult<u64> {
    if v >= 1 {
        Ok(v as u64)
    } else {
        Err(PyValueError::new_err(format!(
            "{name} must be at least 1; got {v}"
        )))
    }
}

/// The status codes `solve` writes, looked up once per call rather than once per row.
#[derive(Clone, Copy)]
struct SolveCodes {
    invalid: i8,
    gave_up: i8,
    /// For 0, 1 and 2+ solutions.
    by_count: [i8; 3],
}

impl SolveCodes {
    fn new() -> SolveCodes {
        SolveCodes {
            invalid: code(Status::Invalid),
            gave_up: code(Status::GaveUp),
            by_count: [0, 1, 2].map(|n| code(Status::from_count(n))),
        }
    }
}

/// Solves one row into its output slots, writing all four (they may hold an earlier call's
/// rows, see `out=`). The row is checked as it is solved: a cell above 9 before (the engine
/// cannot take it), conflicting givens only after a result without a solution, since the
/// engine finds them itself (0 solutions, no guess) and a row with a solution cannot have any.
/// So a usable row costs one `max` over its cells and the solve.
#[inline]
fn solve_one(
    grid: Option<Grid>,
    limit: u32,
    budget: u64,
    codes: SolveCodes,
    out: (&mut [u8], &mut i8, &mut u32, &mut u64),
) {
    let (sol, st, c, g) = out;
    let found = grid.and_then(|grid| {
        let found = engine::solve_with_budget(&grid, limit, budget);
        (found.solutions > 0 || grid.check_givens().is_ok()).then_some(found)
    });
    let Some(found) = found else {
        (*st, *c, *g) = (codes.invalid, 0, 0);
        sol.fill(0);
        return;
    };
    *st = if found.gave_up {
        codes.gave_up
    } else {
        codes.by_count[found.solutions.min(2) as usize]
    };
    *c = found.solutions;
    *g = found.guesses;
    match found.first {
        Some(s) => sol.copy_from_slice(s.cells()),
        None => sol.fill(0),
    }
}

/// Where `solve` writes: four row-aligned slices, fresh or borrowed from `out=`'s arrays.
struct SolveOut<'a> {
    status: &'a mut [i8],
    solutions: &'a mut [u8],
    count: &'a mut [u32],
    guesses: &'a mut [u64],
}

/// Solves every row of `rows` into `out`, with the GIL released.
fn solve_into(
    py: Python<'_>,
    rows: &Puzzles<'_>,
    (limit, budget, threads): (u32, u64, Option<usize>),
    out: SolveOut<'_>,
) -> PyResult<()> {
    let codes = SolveCodes::new();
    let SolveOut {
        status,
        solutions,
        count,
        guesses,
    } = out;
    py.detach(|| match threads {
        // One thread: a plain loop, as `bench -j 1` runs.
        Some(1) => {
            let outs = solutions
                .chunks_exact_mut(81)
                .zip(status.iter_mut())
                .zip(count.iter_mut())
                .zip(guesses.iter_mut());
            for (i, (((sol, st), c), g)) in outs.enumerate() {
                solve_one(rows.grid(i), limit, budget, codes, (sol, st, c, g));
            }
            Ok(())
        }
        _ => on_pool(threads, || {
            solutions
                .par_chunks_exact_mut(81)
                .zip(status.par_iter_mut())
                .zip(count.par_iter_mut())
                .zip(guesses.par_iter_mut())
                .enumerate()
                .with_min_len(MIN_ROWS_PER_TASK)
                .for_each(|(i, (((sol, st), c), g))| {
                    solve_one(rows.grid(i), limit, budget, codes, (sol, st, c, g))
                })
        }),
    })
}

/// One of `out=`'s arrays, borrowed for writing: `(n,)` (or `(n, 81)` for `solutions`),
/// C-contiguous, of the dtype `solve` gives it, and not overlapping the puzzles or another.
fn out_array<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    out: &Bound<'py, PyAny>,
    name: &str,
    shape: &[usize],
    dtype: &str,
) -> PyResult<numpy::PyReadwriteArray<'py, T, D>> {
    let field = out.get_item(name).map_err(|_| {
        PyValueError::new_err(format!("out must be a solve result; it has no {name}"))
    })?;
    let wrong = |what: String| {
        PyValueError::new_err(format!(
            "out.{name} must be a C-contiguous {dtype} array of shape {} (one row per \
             puzzle); {what}",
            shape_text(shape)
        ))
    };
    let got = || match field.cast::<PyUntypedArray>() {
        Ok(a) => format!(
            "got an array of dtype {}, shape {}{}",
            a.dtype(),
            shape_text(a.shape()),
            if a.is_c_contiguous() {
                ""
            } else {
                ", not C-contiguous"
            }
        ),
        Err(_) => match field.get_type().name() {
            Ok(t) => format!("got a {t}"),
            Err(_) => "got something else".to_string(),
        },
    };
    let array = field
        .cast::<numpy::PyArray<T, D>>()
        .map_err(|_| wrong(got()))?;
    if array.shape() != shape || !array.is_c_contiguous() {
        return Err(wrong(got()));
    }
    array.try_readwrite().map_err(|e| {
        PyValueError::new_err(format!(
            "out.{name} cannot be written: {e} (is it read-only, or does it share memory with \
             the puzzles or another out array?)"
        ))
    })
}

/// Solves every row. See `sudoku_batch.solve` for the contract; `out` is a mapping of the four
/// arrays of an earlier result to write into instead of new ones.
#[pyfunction]
#[pyo3(name = "solve", signature = (puzzles, *, limit=2, first=false, max_guesses=None, threads=None, out=None))]
fn solve_rows<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    limit: i64,
    first: bool,
    max_guesses: Option<i64>,
    threads: Option<i64>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let limit = if first {
        1
    } else {
        u32::try_from(positive("limit", limit)?)
            .map_err(|_| PyValueError::new_err(format!("limit is too large: {limit}")))?
    };
    let budget = match max_guesses {
        None => u64::MAX,
        Some(m) => positive("max_guesses", m)?,
    };
    let settings = (limit, budget, thread_count(threads)?);
    let mut held = take_puzzles(puzzles)?;
    let rows = held.puzzles()?;
    let n = rows.len();
    let result = PyDict::new(py);
    if let Some(out) = out {
        let mut status = out_array::<i8, numpy::Ix1>(out, "status", &[n], "int8")?;
        let mut solutions = out_array::<u8, numpy::Ix2>(out, "solutions", &[n, 81], "uint8")?;
        let mut count = out_array::<u32, numpy::Ix1>(out, "count", &[n], "uint32")?;
        let mut guesses = out_array::<u64, numpy::Ix1>(out, "guesses", &[n], "uint64")?;
        let slice = |e: numpy::AsSliceError| PyValueError::new_err(e.to_string());
        let status = status.as_slice_mut().map_err(slice)?;
        solve_into(
            py,
            &rows,
            settings,
            SolveOut {
                status: &mut *status,
                solutions: solutions.as_slice_mut().map_err(slice)?,
                count: count.as_slice_mut().map_err(slice)?,
                guesses: guesses.as_slice_mut().map_err(slice)?,
            },
        )?;
        result.set_item("reasons", rows.reasons(py, status)?)?;
        for name in ["status", "solutions", "count", "guesses"] {
            result.set_item(name, out.get_item(name)?)?;
        }
        return Ok(result);
    }
    // Rust vectors handed to NumPy as the arrays' buffers. (NumPy's own allocation asks the
    // kernel for huge pages, which made the first writes to a million-row output cost 3-4x the
    // system time of 4 KiB pages on the measuring VM: 0.08-0.14 s against 0-0.04 s per call.)
    let mut status = vec![0i8; n];
    let mut solutions = vec![0u8; n * 81];
    let mut count = vec![0u32; n];
    let mut guesses = vec![0u64; n];
    solve_into(
        py,
        &rows,
        settings,
        SolveOut {
            status: &mut status,
            solutions: &mut solutions,
            count: &mut count,
            guesses: &mut guesses,
        },
    )?;
    result.set_item("reasons", rows.reasons(py, &status)?)?;
    result.set_item("status", status.into_pyarray(py))?;
    result.set_item("solutions", grid_array(py, solutions)?)?;
    result.set_item("count", count.into_pyarray(py))?;
    result.set_item("guesses", guesses.into_pyarray(py))?;
    Ok(result)
}

/// `se_budget` as given from Python: `None` for [`explain::DEFAULT_BUDGET`], else at least 1
/// (the CLI's `--se-budget`).
fn budget_of(budget: Option<i64>) -> PyResult<u64> {
    budget.map_or(Ok(explain::DEFAULT_BUDGET), |b| positive("se_budget", b))
}

/// Rows handed to one rayon task at least when each row is an SE rating: milliseconds to
/// seconds a row, so every row may go to whichever worker is free.
const SE_ROWS_PER_TASK: usize = 1;

/// Rates every row (with `se`, Sudoku Explainer's rating too, as `rate --se`). See
/// `sudoku_batch.rate` for the contract.
#[pyfunction]
#[pyo3(name = "rate", signature = (puzzles, *, samples=rate::DEFAULT_SAMPLES as i64, seed=0,
                    threads=None, se=false, se_budget=None))]
fn rate_rows<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    samples: i64,
    seed: u64,
    threads: Option<i64>,
    se: bool,
    se_budget: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let samples = u32::try_from(positive("samples", samples)?)
        .map_err(|_| PyValueError::new_err(format!("samples is too large: {samples}")))?;
    let budget = budget_of(se_budget)?;
    let threads = thread_count(threads)?;
    let mut held = take_puzzles(puzzles)?;
    let rows = held.puzzles()?;
    let n = rows.len();
    #[derive(Clone)]
    struct Row {
        status: i8,
        count: u32,
        clues: u8,
        guesses: u64,
        rating: f64,
        singles: bool,
        class: i8,
        /// With `se`, for a unique puzzle: the SE rating, or why the budget ran out (`rate
        /// --se`'s `error`). Boxed, so that a row without stays small.
        se: Option<Box<Result<explain::Rating, String>>>,
    }
    let per_task = if se {
        SE_ROWS_PER_TASK
    } else {
        MIN_ROWS_PER_TASK
    };
    let results = py.detach(|| {
        on_pool(threads, || {
            (0..n)
                .into_par_iter()
                .with_min_len(per_task)
                .map(|i| match rows.get(i) {
                    Err(_) => Row {
                        status: code(Status::Invalid),
                        count: 0,
                        clues: 0,
                        guesses: 0,
                        rating: f64::NAN,
                        singles: false,
                        class: -1,
                        se: None,
                    },
                    Ok(grid) => {
                        let r = rate::rate(&grid, samples, seed);
                        let se = se
                            .then(|| {
                                explain_command::se_rating(&grid, r.solutions == 1, budget)
                                    .transpose()
                            })
                            .flatten()
                            .map(Box::new);
                        let status = match se.as_deref() {
                            Some(Err(_)) => Status::GaveUp,
                            _ => Status::from_count(r.solutions),
                        };
                        Row {
                            status: code(status),
                            count: r.solutions,
                            clues: r.clues as u8,
                            guesses: r.guesses,
                            rating: r.rating.unwrap_or(f64::NAN),
                            singles: r.grade.is_some_and(|g| g.singles),
                            class: r.grade.map_or(-1, |g| g.class as i8),
                            se,
                        }
                    }
                })
                .collect::<Vec<Row>>()
        })
    })?;
    let status: Vec<i8> = results.iter().map(|r| r.status).collect();
    let out = PyDict::new(py);
    let reasons = rows.reasons(py, &status)?;
    for (i, r) in results.iter().enumerate() {
        if let Some(Err(why)) = r.se.as_deref() {
            reasons.set_item(i, why)?;
        }
    }
    out.set_item("reasons", reasons)?;
    out.set_item("status", status.into_pyarray(py))?;
    // One NumPy array per field of the rows.
    fn column<'py, T: numpy::Element>(
        out: &Bound<'py, PyDict>,
        name: &str,
        rows: &[Row],
        field: impl Fn(&Row) -> T,
    ) -> PyResult<()> {
        let values: Vec<T> = rows.iter().map(field).collect();
        out.set_item(name, values.into_pyarray(out.py()))
    }
    column(&out, "count", &results, |r| r.count)?;
    column(&out, "clues", &results, |r| r.clues)?;
    column(&out, "guesses", &results, |r| r.guesses)?;
    column(&out, "rating", &results, |r| r.rating)?;
    column(&out, "singles", &results, |r| r.singles)?;
    column(&out, "class_", &results, |r| r.class)?;
    if se {
        let se = |r: &Row, pick: fn(&explain::Rating) -> Tenths| match r.se.as_deref() {
            Some(Ok(rating)) => tenths(pick(rating)),
            _ => f64::NAN,
        };
        column(&out, "er", &results, |r| se(r, |x| x.er))?;
        column(&out, "ep", &results, |r| se(r, |x| x.ep))?;
        column(&out, "ed", &results, |r| se(r, |x| x.ed))?;
        let techniques: Vec<Option<&str>> = results
            .iter()
            .map(|r| match r.se.as_deref() {
                Some(Ok(rating)) => Some(rating.er_technique.as_str()),
                _ => None,
            })
            .collect();
        out.set_item("er_technique", techniques)?;
    }
    Ok(out)
}

/// A rating in tenths as the number the CLI writes (`10.6`).
fn tenths(t: Tenths) -> f64 {
    explain_command::number(t).unwrap_or(f64::NAN)
}

/// One puzzle's `explain` row as a dict: the CLI's JSON Lines object without `line`, each step
/// with SE's description (`text`) too.
fn explain_dict<'py>(
    py: Python<'py>,
    grid: Option<&Grid>,
    answer: Result<explain_command::Answer, String>,
) -> PyResult<Bound<'py, PyDict>> {
    use explain_command::Answer;
    let d = PyDict::new(py);
    d.set_item("puzzle", grid.map(Grid::to_line))?;
    let none = py.None();
    let (status, error) = match &answer {
        Err(why) => (Status::Invalid, Some(why.as_str())),
        Ok(Answer::NotUnique(status)) => (*status, None),
        Ok(Answer::GaveUp(why)) => (Status::GaveUp, Some(why.as_str())),
        Ok(Answer::Rated(_)) => (Status::Solved, None),
    };
    d.set_item("status", status.as_str())?;
    match &answer {
        Ok(Answer::Rated(e)) => {
            let r = &e.rating;
            d.set_item("er", tenths(r.er))?;
            d.set_item("ep", tenths(r.ep))?;
            d.set_item("ed", tenths(r.ed))?;
            d.set_item("er_technique", &r.er_technique)?;
            let steps = pyo3::types::PyList::empty(py);
            for s in &e.steps {
                let step = PyDict::new(py);
                step.set_item("technique", &s.technique)?;
                step.set_item("rating", tenths(s.rating))?;
                step.set_item("text", &s.text)?;
                step.set_item("placements", &s.placements)?;
                step.set_item("eliminations", &s.eliminations)?;
                steps.append(step)?;
            }
            d.set_item("steps", steps)?;
        }
        _ => {
            for name in ["er", "ep", "ed", "er_technique", "steps"] {
                d.set_item(name, &none)?;
            }
        }
    }
    d.set_item("error", error)?;
    Ok(d)
}

/// Explains every row: a list of dicts in input order. See `sudoku_batch.explain_many` for the
/// contract.
#[pyfunction]
#[pyo3(name = "explain_many", signature = (puzzles, *, se_budget=None, threads=None))]
fn explain_rows<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    se_budget: Option<i64>,
    threads: Option<i64>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let budget = budget_of(se_budget)?;
    let threads = thread_count(threads)?;
    let mut held = take_puzzles(puzzles)?;
    let rows = held.puzzles()?;
    let n = rows.len();
    let answers = py.detach(|| {
        on_pool(threads, || {
            (0..n)
                .into_par_iter()
                .with_min_len(SE_ROWS_PER_TASK)
                .map(|i| {
                    rows.get(i)
                        .map(|grid| explain_command::answer(&grid, budget))
                })
                .collect::<Vec<_>>()
        })
    })?;
    answers
        .into_iter()
        .enumerate()
        .map(|(i, a)| explain_dict(py, rows.grid(i).as_ref(), a))
        .collect()
}

/// Canonicalises every row. See `sudoku_batch.canon` for the contract.
#[pyfunction]
#[pyo3(name = "canon", signature = (puzzles, *, threads=None))]
fn canon_rows<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = thread_count(threads)?;
    let mut held = take_puzzles(puzzles)?;
    let rows = held.puzzles()?;
    let n = rows.len();
    let (status, forms, automorphisms) = py.detach(|| {
        let mut status = vec![0i8; n];
        let mut forms = vec![0u8; n * 81];
        let mut automorphisms = vec![0u32; n];
        on_pool(threads, || {
            forms
                .par_chunks_mut(81)
                .zip(status.par_iter_mut())
                .zip(automorphisms.par_iter_mut())
                .enumerate()
                .with_min_len(MIN_ROWS_PER_TASK)
                .for_each(|(i, ((form, st), a))| match rows.get(i) {
                    Err(_) => *st = code(Status::Invalid),
                    Ok(grid) => {
                        let c = canon::canonical(&grid);
                        form.copy_from_slice(c.form.cells());
                        *a = c.automorphisms;
                        *st = code(Status::Ok);
                    }
                })
        })
        .map(|()| (status, forms, automorphisms))
    })?;
    let out = PyDict::new(py);
    out.set_item("reasons", rows.reasons(py, &status)?)?;
    out.set_item("status", status.into_pyarray(py))?;
    out.set_item("canonical", grid_array(py, forms)?)?;
    out.set_item("automorphisms", automorphisms.into_pyarray(py))?;
    Ok(out)
}

/// Generates puzzles `start .. start + n`. See `sudoku_batch.generate` for the contract.
#[pyfunction]
#[pyo3(name = "generate", signature = (n, *, seed, minimal=true, symmetry="none", clues=None,
                    class_=None, rating=None, samples=rate::DEFAULT_SAMPLES as i64,
                    max_tries=10_000, start=0, threads=None))]
#[allow(clippy::too_many_arguments)]
fn generate_rows<'py>(
    py: Python<'py>,
    n: i64,
    seed: u64,
    minimal: bool,
    symmetry: &str,
    clues: Option<(i64, i64)>,
    class_: Option<Vec<String>>,
    rating: Option<(f64, f64)>,
    samples: i64,
    max_tries: i64,
    start: u64,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let usage = PyValueError::new_err;
    let n = u64::try_from(n).map_err(|_| usage(format!("n must be at least 0; got {n}")))?;
    let clues = match clues {
        None => None,
        Some((lo, hi)) => {
            let count = |v: i64| {
                usize::try_from(v)
                    .map_err(|_| usage(format!("clues must be counts of givens; got {v}")))
            };
            Some((count(lo)?, count(hi)?))
        }
    };
    let class = match class_ {
        None => None,
        Some(names) => Some(
            names
                .iter()
                .map(|c| {
                    rate::Class::ALL
                        .into_iter()
                        .find(|k| k.as_str() == c.as_str())
                        .ok_or_else(|| {
                            usage(format!(
                                "unknown class {c:?}: expected one of {}",
                                rate::Class::ALL.map(|k| k.as_str()).join(", ")
                            ))
                        })
                })
                .collect::<PyResult<Vec<_>>>()?,
        ),
    };
    if let Some((lo, hi)) = rating {
        if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
            return Err(usage(format!(
                "rating must be a range (lo, hi) of numbers with lo <= hi; got ({lo}, {hi})"
            )));
        }
    }
    let req = GenerateRequest {
        count: n,
        start,
        opts: GenerateOptions {
            seed,
            minimal,
            symmetry: Symmetry::parse(symmetry).map_err(usage)?,
            clues,
            max_tries: positive("max_tries", max_tries)?,
        },
        class,
        rating,
        samples: u32::try_from(positive("samples", samples)?)
            .map_err(|_| usage(format!("samples is too large: {samples}")))?,
        format: Some(OutputFormat::Csv),
        se: None,
    };
    generate::check_targets(&req.opts).map_err(usage)?;
    let end = start
        .checked_add(n)
        .ok_or_else(|| usage(format!("start + n is beyond 2^64: {start} + {n}")))?;
    let len = usize::try_from(n).map_err(|_| usage(format!("n is too large: {n}")))?;
    let threads = thread_count(threads)?;
    // Each index is its own stream: the rows, and so which index runs out of tries first, are
    // the same whatever the thread count.
    let rows = py.detach(|| {
        on_pool(threads, || {
            (start..end)
                .into_par_iter()
                .map(|i| {
                    let a = gen::attempt(&req, i);
                    (a.found.map(|g| (g, gen::fields(&req, &g))), a.tries)
                })
                .collect::<Vec<_>>()
        })
    })?;
    // As the CLI: the puzzles before the first index that found none.
    let done = rows.iter().position(|(f, _)| f.is_none()).unwrap_or(len);
    let mut puzzles = Vec::with_capacity(done * 81);
    let mut solutions = Vec::with_capacity(done * 81);
    let (mut clues, mut rating, mut singles) = (Vec::new(), Vec::new(), Vec::new());
    let (mut class, mut symmetry, mut tries) = (Vec::new(), Vec::new(), Vec::new());
    for (g, f, t) in rows[..done]
        .iter()
        .filter_map(|(found, t)| found.map(|(g, f)| (g, f, *t)))
    {
        puzzles.extend_from_slice(g.puzzle.cells());
        solutions.extend_from_slice(g.solution.cells());
        clues.push(f.clues as u8);
        rating.push(f.rating);
        singles.push(f.singles);
        class.push(f.class as i8);
        let code = Symmetry::NAMES
            .iter()
            .position(|&x| x == f.symmetry.as_str());
        symmetry.push(code.unwrap_or(0) as i8);
        tries.push(t);
    }
    let out = PyDict::new(py);
    let index: Vec<u64> = (start..start + done as u64).collect();
    out.set_item("index", index.into_pyarray(py))?;
    out.set_item("puzzles", grid_array(py, puzzles)?)?;
    out.set_item("solutions", grid_array(py, solutions)?)?;
    out.set_item("clues", clues.into_pyarray(py))?;
    out.set_item("rating", rating.into_pyarray(py))?;
    out.set_item("singles", singles.into_pyarray(py))?;
    out.set_item("class_", class.into_pyarray(py))?;
    out.set_item("symmetry", symmetry.into_pyarray(py))?;
    out.set_item("tries", tries.into_pyarray(py))?;
    out.set_item("seed", seed)?;
    out.set_item(
        "exhausted",
        (done < len).then(|| (start + done as u64, rows[done].1)),
    )?;
    Ok(out)
}

fn input_format(format: Option<&str>) -> PyResult<Option<InputFormat>> {
    match format {
        None => Ok(None),
        Some("line") => Ok(Some(InputFormat::Line)),
        Some("block") => Ok(Some(InputFormat::Block)),
        Some("csv") => Ok(Some(InputFormat::Csv)),
        Some("json") => Ok(Some(InputFormat::Json)),
        Some(f) => Err(PyValueError::new_err(format!(
            "format must be 'line', 'block', 'json', 'csv' or None (told from the file); got {f:?}"
        ))),
    }
}

/// One input, checked as the CLI checks it (present, not a directory).
fn one_input(path: &str) -> PyResult<Input> {
    let mut inputs = Input::all_from_args(&[path.to_string()]).map_err(PyOSError::new_err)?;
    inputs
        .pop()
        .ok_or_else(|| PyOSError::new_err(format!("{path}: no input")))
}

/// Reads the usable puzzles of a file. See `sudoku_batch.read` for the contract.
#[pyfunction]
#[pyo3(signature = (path, *, format=None, column=None))]
fn read<'py>(
    py: Python<'py>,
    path: &str,
    format: Option<&str>,
    column: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let input = one_input(path)?;
    let format = input.format(input_format(format)?);
    let read = py.detach(|| -> Result<_, String> {
        let source = input
            .open(Arc::new(AtomicU64::new(0)))
            .map_err(|e| format!("{}: {e}", input.name))?;
        let mut records =
            input::records(source, format, column).map_err(|e| format!("{}:1: {e}", input.name))?;
        let (mut cells, mut lines, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
        loop {
            match records.next() {
                Ok(None) => break,
                Ok(Some(rec)) => match solve::unusable(&rec) {
                    None => {
                        if let Ok(g) = &rec.puzzle {
                            cells.extend_from_slice(g.cells());
                            lines.push(rec.line);
                        }
                    }
                    Some((_, why)) => skipped.push((rec.line, why)),
                },
                Err(e) => return Err(format!("{}:{}: {e}", input.name, records.line_number() + 1)),
            }
        }
        Ok((cells, lines, skipped))
    });
    let (cells, lines, skipped) = read.map_err(PyOSError::new_err)?;
    let out = PyDict::new(py);
    out.set_item("puzzles", grid_array(py, cells)?)?;
    out.set_item("lines", lines.into_pyarray(py))?;
    out.set_item("skipped", skipped)?;
    Ok(out)
}

/// The settings of a file command, as the CLI would build them from its flags.
fn file_settings(
    threads: Option<i64>,
    format: Option<&str>,
    column: Option<&str>,
    output: &str,
) -> PyResult<Settings> {
    let output = match output {
        "csv" => OutputFormat::Csv,
        "jsonl" => OutputFormat::Jsonl,
        o => {
            return Err(PyValueError::new_err(format!(
                "output must be 'csv' or 'jsonl'; got {o:?}"
            )))
        }
    };
    Ok(Settings {
        output,
        input_format: input_format(format)?,
        column: column.map(str::to_string),
        threads: thread_count(threads)?.unwrap_or(0),
        ..Settings::default()
    })
}

/// A finished run as a dict: rows by status name, the total, the wall time.
fn summary_dict<'py>(py: Python<'py>, ended: output::Ended) -> PyResult<Bound<'py, PyDict>> {
    let summary: Summary = match ended {
        output::Ended::Complete(s) | output::Ended::Interrupted(s) => s,
        output::Ended::ClosedPipe | output::Ended::AlreadyComplete => Summary::default(),
    };
    let out = PyDict::new(py);
    for s in Status::ALL {
        out.set_item(s.as_str(), summary.count(s))?;
    }
    out.set_item("puzzles", summary.puzzles())?;
    out.set_item("seconds", summary.wall.as_secs_f64())?;
    Ok(out)
}

/// Which command a file function runs.
enum FileJob {
    Solve(solve::Options),
    Rate(RateJob),
    Canon(CanonJob),
    Explain(ExplainJob),
}

fn run_file<'py>(
    py: Python<'py>,
    path: &str,
    out: &str,
    settings: Settings,
    job: FileJob,
) -> PyResult<Bound<'py, PyDict>> {
    let inputs = vec![one_input(path)?];
    let target = output::Target {
        path: Some(Path::new(out)),
        resume: false,
        quiet: true,
        id: None,
        provenance: None,
    };
    let ended = py.detach(|| match job {
        FileJob::Solve(opts) => solve::execute(&inputs, target, settings, &opts),
        FileJob::Rate(job) => run::execute(&inputs, target, settings, job),
        FileJob::Canon(job) => run::execute(&inputs, target, settings, job),
        FileJob::Explain(job) => run::execute(&inputs, target, settings, job),
    });
    let ended = ended.map_err(|e: run::Error| PyOSError::new_err(e.to_string()))?;
    summary_dict(py, ended)
}

/// `sudoku-batch solve FILE -o OUT`. See `sudoku_batch.solve_file` for the contract.
#[pyfunction]
#[pyo3(signature = (path, out, *, limit=2, first=false, max_guesses=None, threads=None,
                    format=None, column=None, output="csv", timing=false))]
#[allow(clippy::too_many_arguments)]
fn solve_file<'py>(
    py: Python<'py>,
    path: &str,
    out: &str,
    limit: i64,
    first: bool,
    max_guesses: Option<i64>,
    threads: Option<i64>,
    format: Option<&str>,
    column: Option<&str>,
    output: &str,
    timing: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = solve::Options {
        limit: if first {
            1
        } else {
            u32::try_from(positive("limit", limit)?)
                .map_err(|_| PyValueError::new_err(format!("limit is too large: {limit}")))?
        },
        max_guesses: max_guesses
            .map(|m| positive("max_guesses", m))
            .transpose()?,
        timing,
        layout: solve::Layout::Rows,
    };
    let settings = file_settings(threads, format, column, output)?;
    run_file(py, path, out, settings, FileJob::Solve(opts))
}

/// `sudoku-batch rate FILE -o OUT` (`se`: `--se`). See `sudoku_batch.rate_file` for the
/// contract.
#[pyfunction]
#[pyo3(signature = (path, out, *, samples=rate::DEFAULT_SAMPLES as i64, seed=0, threads=None,
                    format=None, column=None, output="csv", se=false, se_budget=None))]
#[allow(clippy::too_many_arguments)]
fn rate_file<'py>(
    py: Python<'py>,
    path: &str,
    out: &str,
    samples: i64,
    seed: u64,
    threads: Option<i64>,
    format: Option<&str>,
    column: Option<&str>,
    output: &str,
    se: bool,
    se_budget: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let samples = u32::try_from(positive("samples", samples)?)
        .map_err(|_| PyValueError::new_err(format!("samples is too large: {samples}")))?;
    let budget = budget_of(se_budget)?;
    let settings = file_settings(threads, format, column, output)?;
    run_file(
        py,
        path,
        out,
        settings,
        FileJob::Rate(RateJob {
            samples,
            seed,
            se: se.then_some(budget),
        }),
    )
}

/// `sudoku-batch explain FILE -o OUT`. See `sudoku_batch.explain_file` for the contract.
#[pyfunction]
#[pyo3(signature = (path, out, *, se_budget=None, threads=None, format=None, column=None,
                    output="jsonl"))]
#[allow(clippy::too_many_arguments)]
fn explain_file<'py>(
    py: Python<'py>,
    path: &str,
    out: &str,
    se_budget: Option<i64>,
    threads: Option<i64>,
    format: Option<&str>,
    column: Option<&str>,
    output: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let budget = budget_of(se_budget)?;
    // `text` is SE's own layout, written by the job itself (the CLI's `--format text`).
    let text = output == "text";
    if !matches!(output, "jsonl" | "csv" | "text") {
        return Err(PyValueError::new_err(format!(
            "output must be 'jsonl', 'csv' or 'text'; got {output:?}"
        )));
    }
    let mut settings = file_settings(threads, format, column, if text { "csv" } else { output })?;
    // As the CLI: text goes through the CSV writer without a header.
    settings.header = !text;
    run_file(
        py,
        path,
        out,
        settings,
        FileJob::Explain(ExplainJob { budget, text }),
    )
}

/// `sudoku-batch canon FILE -o OUT`. See `sudoku_batch.canon_file` for the contract.
#[pyfunction]
#[pyo3(signature = (path, out, *, threads=None, format=None, column=None, output="csv",
                    transform=false))]
#[allow(clippy::too_many_arguments)]
fn canon_file<'py>(
    py: Python<'py>,
    path: &str,
    out: &str,
    threads: Option<i64>,
    format: Option<&str>,
    column: Option<&str>,
    output: &str,
    transform: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let settings = file_settings(threads, format, column, output)?;
    run_file(
        py,
        path,
        out,
        settings,
        FileJob::Canon(CanonJob { transform }),
    )
}

/// The status names in code order, so Python can name the codes without a second list.
fn status_names() -> Vec<&'static str> {
    Status::ALL.iter().map(|s| s.as_str()).collect()
}

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve_rows, m)?)?;
    m.add_function(wrap_pyfunction!(rate_rows, m)?)?;
    m.add_function(wrap_pyfunction!(explain_rows, m)?)?;
    m.add_function(wrap_pyfunction!(canon_rows, m)?)?;
    m.add_function(wrap_pyfunction!(generate_rows, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(solve_file, m)?)?;
    m.add_function(wrap_pyfunction!(rate_file, m)?)?;
    m.add_function(wrap_pyfunction!(explain_file, m)?)?;
    m.add_function(wrap_pyfunction!(canon_file, m)?)?;
    m.add_function(wrap_pyfunction!(export::export_hf, m)?)?;
    m.add_function(wrap_pyfunction!(export::export_hrm, m)?)?;
    m.add_function(wrap_pyfunction!(sample::sample_puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(sample::sample_file, m)?)?;
    // The package's version, as its wheel and `pip show` give it.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("STATUS_NAMES", status_names())?;
    m.add(
        "CLASS_NAMES",
        rate::Class::ALL
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>(),
    )?;
    m.add("SYMMETRY_NAMES", Symmetry::NAMES.to_vec())?;
    m.add("DEFAULT_SAMPLES", rate::DEFAULT_SAMPLES)?;
    m.add("DEFAULT_SE_BUDGET", explain::DEFAULT_BUDGET)?;
    m.add("SIMD_PATH", engine::simd_path())?;
    Ok(())
}
