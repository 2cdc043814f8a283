//! The Sudoku Explainer rater (`explain`, `rate --se`) on grids and pencilmark lines.
//!
//! What it covers: 81-cell grids and 729-character pencilmark lines (tdoku's form), read the
//! way the CLI reads a line (`input::records`, line format, where a 729-character field is
//! pencilmarks), then rated with [`explain::DEFAULT_BUDGET`] by [`explain::explain`] and
//! [`explain::rate`] and written as `explain`'s row ([`ExplainJob`], CSV and SE's text layout).
//! Most inputs are made to reach real rating work: a grid is one of a few reference puzzles
//! (ER 1.5 to 10.5) with givens of its solution added or taken away by the input's bytes, so
//! nearly every input is a consistent puzzle and many have exactly one solution; a byte of 0xF0
//! or more writes an arbitrary digit instead (inconsistent givens, other solutions), and one
//! mode in four reads the cells as raw bytes. A pencilmark line is built from the same solution,
//! each cell's candidates chosen by the bytes.
//!
//! Why: the rater is the crate's largest and most intricate module (chains with nesting, memos,
//! arenas, the budget), and only reference puzzles drive it in the tests. What must hold, every
//! one of them read from the code:
//! - no panic, and at the default budget no give-up on these small inputs;
//! - a puzzle is rated exactly when the solver finds one solution; otherwise the refusal names
//!   the solver's count (0, or 2 for two or more);
//! - `rate` gives the very rating `explain` gives (its shortcuts only skip steps that cannot
//!   change a rating);
//! - ED is the first step's rating, ER the hardest step's (or 20.0, "Beyond solver", when no
//!   technique applies), EP the hardest up to the first placement, each named by the first step
//!   with that rating; so ER >= EP >= ED once a cell is placed;
//! - replaying the steps from the givens, every step changes the grid, every placement is the
//!   solution's digit and no elimination removes one, and unless the rater was stuck the
//!   placements fill the grid;
//! - `explain`'s row says `solved` with these ratings, or the status the refusal says; a
//!   pencilmark line is refused as `invalid` (the CLI's `explain` does not read them).
#![no_main]

use std::io::{BufReader, Read};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use sudoku_batch::explain::command::{steps_json, ExplainJob, COLUMNS};
use sudoku_batch::explain::{self, Explanation, Rating, Tenths, Unrated};
use sudoku_batch::input::{self, InputFormat, Record, Source};
use sudoku_batch::run::{OutputFormat, PuzzleJob, RowWriter};
use sudoku_batch::{engine, Grid};

/// Reference puzzles (from the SE reference set), easiest first: ER 1.5, 2.8, 3.8, 4.5, 6.0,
/// 7.0, 7.8, 8.5, 9.2, 10.5.
const BASES: [&str; 10] = [
    ".................1..2..3.4......2........4..5.56.....7....6.38..9..5....3......2.",
    "................12..3..4........34...5..6....12......7...5..6....8...3...7.2.....",
    ".1..5..7...28.73...8..3..6...........76...18..291.673..........7..5.1..3.6.4.2.9.",
    "...............123..4..5..6.....1....7...89..26...........9.......32......1...4..",
    "..5.......24..5.7...126.548.5..3.8....84713....9.5..1.473.186...1.7..48.......7..",
    "..............1..2.34.....5.......6.....3..4.7....2......4...891........25..7....",
    "........1.......23..4.56.........4.7.....3....1.2.........4...8.3.......26..7....",
    "...........18374....49.25...4.....9.5.8...2.72...7...67.......4.3..2..1...5.6.3..",
    "....4...1.6.7....2.....1...78..3.2.9..9....6...45.....37.8.....9......16....5..7.",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
];

/// Each base and its solution.
fn bases() -> &'static [(Grid, Grid); 10] {
    static B: OnceLock<[(Grid, Grid); 10]> = OnceLock::new();
    B.get_or_init(|| {
        BASES.map(|s| {
            let g: Grid = s.parse().expect("a reference puzzle");
            let solution = engine::solve(&g, 2).first.expect("a unique puzzle");
            (g, solution)
        })
    })
}

/// The input's line: 81 cells or 729 pencilmark characters.
fn line_of(data: &[u8]) -> Vec<u8> {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let mode = byte(0);
    let (base, solution) = &bases()[usize::from(byte(1) % 10)];
    let (base, solution) = (base.cells(), solution.cells());
    let body = &data[data.len().min(2)..];
    let at = |i: usize| body.get(i).copied().unwrap_or(0);
    match mode % 4 {
        // Pencilmarks: per cell two bytes; the solution's digit stays unless the first byte's
        // top bit says otherwise, the other candidates are the second byte's bits (and the
        // first byte's lowest), and a given of the base puzzle stays a single candidate.
        3 => {
            let mut out = Vec::with_capacity(729);
            for c in 0..81 {
                let (x, y) = (at(2 * c), at(2 * c + 1));
                let mut mask: u16 = if base[c] != 0 && x & 0x40 == 0 {
                    1 << (base[c] - 1)
                } else {
                    u16::from(y) | u16::from(x & 1) << 8
                };
                if x & 0x80 == 0 {
                    mask |= 1 << (solution[c] - 1);
                } else if x & 0x20 != 0 {
                    mask &= !(1 << (solution[c] - 1));
                }
                for k in 0..9 {
                    out.push(if mask >> k & 1 != 0 { b'1' + k } else { b'.' });
                }
            }
            // Now and then a character out of place: a line the parser refuses.
            if mode & 0x80 != 0 {
                out[usize::from(at(162)) * 3 % 729] = match at(163) {
                    b'\n' | b'\r' => b'x',
                    b => b,
                };
            }
            out
        }
        // Raw cells: mostly blanks, so that puzzles with few clues come up too.
        2 => (0..81)
            .map(|c| match at(c) {
                b if b < 160 => b'.',
                b => b'1' + b % 9,
            })
            .collect(),
        // The base puzzle, each cell's byte flipping the given (the solution's digit) or not;
        // 0xF0 and up write digit (byte % 9 + 1).
        _ => (0..81)
            .map(|c| {
                let b = at(c);
                let v = if b >= 0xF0 {
                    b % 9 + 1
                } else if (base[c] != 0) != (b & 1 != 0) {
                    solution[c]
                } else {
                    0
                };
                if v == 0 {
                    b'.'
                } else {
                    b'0' + v
                }
            })
            .collect(),
    }
}

/// The one record of `line`, read as `explain` reads a line file (none when it is skipped: a
/// `#` comment).
fn record(line: &[u8]) -> Option<Record> {
    let source: Source =
        BufReader::new(Box::new(std::io::Cursor::new(line.to_vec())) as Box<dyn Read + Send>);
    let mut records = input::records(source, InputFormat::Line, None).expect("a line reader");
    let rec = records.next().expect("in-memory reads cannot fail")?;
    assert!(records.next().unwrap().is_none());
    Some(rec)
}

/// Checks a rated path against the solution, step by step.
fn check_path(g: &Grid, e: &Explanation, solution: &Grid) {
    let sol = solution.cells();
    let mut values = *g.cells();
    // Candidates: every digit no given peer holds.
    let peers = |a: usize, b: usize| {
        a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
    };
    let mut cands = [0u16; 81];
    for c in 0..81 {
        if values[c] == 0 {
            cands[c] = 0x1FF;
            for p in 0..81 {
                if peers(c, p) && values[p] != 0 {
                    cands[c] &= !(1 << (values[p] - 1));
                }
            }
        }
    }
    for (i, s) in e.steps.iter().enumerate() {
        assert!(s.rating.0 > 0, "step {i}: rating 0");
        assert!(
            !s.technique.is_empty() && !s.text.is_empty(),
            "step {i}: no name"
        );
        let mut changed = false;
        for &(c, d) in &s.placements {
            let c = usize::from(c);
            assert!(
                c < 81 && (1..=9).contains(&d),
                "step {i}: placement ({c}, {d})"
            );
            assert_eq!(sol[c], d, "step {i} ({}): places a wrong digit", s.text);
            if values[c] == 0 {
                assert!(
                    cands[c] >> (d - 1) & 1 != 0,
                    "step {i}: placed a removed digit"
                );
                values[c] = d;
                cands[c] = 0;
                changed = true;
                for p in 0..81 {
                    if peers(c, p) {
                        cands[p] &= !(1 << (d - 1));
                    }
                }
            }
        }
        for &(c, d) in &s.eliminations {
            let c = usize::from(c);
            assert!(
                c < 81 && (1..=9).contains(&d),
                "step {i}: elimination ({c}, {d})"
            );
            assert_ne!(sol[c], d, "step {i} ({}): removes the solution", s.text);
            if cands[c] >> (d - 1) & 1 != 0 {
                cands[c] &= !(1 << (d - 1));
                changed = true;
            }
        }
        assert!(changed, "step {i} ({}) changes nothing", s.text);
    }
    let r = &e.rating;
    let stuck = r.er_technique == "Beyond solver";
    if stuck {
        assert_eq!(r.er, Tenths(200));
        assert!(values.contains(&0), "stuck on a solved grid");
    } else {
        assert_eq!(&values, sol, "the steps do not fill the grid");
    }
    // The ratings, from the steps.
    // SE compares the unrounded ratings, so the step named is the first with the largest
    // unrounded rating: one of those with the rounded one.
    let named = |t: Tenths, upto: usize, name: &str| {
        e.steps[..upto]
            .iter()
            .any(|s| s.rating == t && s.technique == name)
    };
    match e.steps.first() {
        None => {
            let er = if stuck { Tenths(200) } else { Tenths(0) };
            assert_eq!((r.er, r.ep, r.ed), (er, Tenths(0), Tenths(0)));
            return;
        }
        Some(s) => {
            assert_eq!(r.ed, s.rating);
            assert_eq!(r.ed_technique, s.technique);
        }
    }
    let n = e.steps.len();
    if !stuck {
        let er = e.steps.iter().map(|s| s.rating).max().unwrap();
        assert_eq!(r.er, er);
        assert!(named(er, n, &r.er_technique), "{r:?}");
    }
    match e.steps.iter().position(|s| !s.placements.is_empty()) {
        Some(p) => {
            let ep = e.steps[..=p].iter().map(|s| s.rating).max().unwrap();
            assert_eq!(r.ep, ep);
            assert!(named(ep, p + 1, &r.ep_technique), "{r:?}");
            assert!(r.er >= r.ep && r.ep >= r.ed, "{r:?}");
        }
        None => {
            assert!(stuck, "solved without a placement");
            assert_eq!(r.ep, Tenths(0));
        }
    }
}

/// `explain`'s row for `rec`, CSV, split into its fields (the steps field is quoted JSON).
fn job_row(rec: &Record) -> Vec<String> {
    let job = ExplainJob {
        budget: explain::DEFAULT_BUDGET,
        text: false,
    };
    let mut w = RowWriter::new(OutputFormat::Csv, &COLUMNS, 256);
    job.rows(rec, &mut w, None);
    let bytes = w.finish();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&bytes[..]);
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("CSV")).collect();
    assert_eq!(rows.len(), 1, "one row");
    assert_eq!(rows[0].len(), COLUMNS.names.len());
    rows[0].iter().map(str::to_string).collect()
}

fn ratings_text(r: &Rating) -> [String; 3] {
    [r.er, r.ep, r.ed].map(|t| format!("{:.1}", f64::from(t.0) / 10.0))
}

fuzz_target!(|data: &[u8]| {
    let line = line_of(data);
    let Some(rec) = record(&line) else {
        assert_eq!(line[0], b'#');
        return;
    };
    if let Some(c) = &rec.candidates {
        let row = job_row(&rec);
        // A pencilmark line: `explain` refuses it, and its single-candidate cells are rated as
        // a grid below.
        assert_eq!(row[2], "invalid", "{row:?}");
        assert!(row[8].contains("pencilmark"), "{row:?}");
        let mut w = RowWriter::new(OutputFormat::Csv, &COLUMNS, 64);
        let text = ExplainJob {
            budget: explain::DEFAULT_BUDGET,
            text: true,
        };
        text.rows(&rec, &mut w, None);
        let out = String::from_utf8(w.finish()).unwrap();
        assert!(out.contains("invalid (a pencilmark line"), "{out}");
        assert_eq!(rec.puzzle.as_ref().ok(), Some(&c.singles()));
    }
    let Ok(g) = rec.puzzle else {
        assert_eq!(job_row(&rec)[2], "invalid");
        return;
    };
    let solved = engine::solve(&g, 2);
    let e = explain::explain(&g, explain::DEFAULT_BUDGET);
    match &e {
        Err(Unrated::GaveUp(why)) => panic!("gave up at the default budget: {why}"),
        Err(Unrated::NotUnique { solutions }) => {
            assert_ne!(*solutions, 1);
            assert_eq!(*solutions, solved.solutions.min(2), "the refusal's count");
        }
        Ok(e) => {
            assert_eq!(solved.solutions, 1, "rated a puzzle without one solution");
            let solution = solved.first.expect("a solution");
            check_path(&g, e, &solution);
            let json: serde_json::Value =
                serde_json::from_str(&steps_json(e)).expect("steps are JSON");
            assert_eq!(json.as_array().map(Vec::len), Some(e.steps.len()));
        }
    }
    let r = explain::rate(&g, explain::DEFAULT_BUDGET);
    match (&e, &r) {
        (Ok(e), Ok(r)) => assert_eq!(&e.rating, r, "rate and explain disagree"),
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("rate {r:?}, explain {:?}", e.as_ref().map(|e| &e.rating)),
    }
    // The row, when the line is a grid. The row rates the puzzle once more: only where that
    // is cheap (refusals) or quick (the easier bases), to keep the rate of executions up.
    if rec.candidates.is_none() && (e.is_err() || data.get(1).map_or(0, |b| b % 10) < 6) {
        let row = job_row(&rec);
        match (&e, g.check_givens()) {
            (_, Err(_)) => assert_eq!(row[2], "invalid"),
            (Ok(e), Ok(())) => {
                assert_eq!(row[2], "solved");
                assert_eq!(row[3..6], ratings_text(&e.rating));
                assert_eq!(row[6], e.rating.er_technique);
                assert_eq!(row[7], steps_json(e));
            }
            (Err(Unrated::NotUnique { solutions }), Ok(())) => {
                assert_eq!(
                    row[2],
                    if *solutions == 0 {
                        "unsolvable"
                    } else {
                        "multiple"
                    }
                )
            }
            (Err(other), Ok(())) => panic!("{other:?}"),
        }
    }
});
