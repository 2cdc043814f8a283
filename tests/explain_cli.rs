//! Sudoku Explainer ratings through the real binary: `explain` (JSON lines, CSV, text),
//! `rate --se` and `generate --er`, on well-known puzzles and on puzzles this project generated,
//! whose ratings `serate` (SE 1.2.1 mode, as in `../shared/se-reference/README.md`) gave:
//! every rating below is serate's. Bad input gets its status and empty ratings; the work budget
//! turns a runaway into `gave-up`; the output does not depend on `-j`; `--resume` continues.

use std::path::Path;

use crate::common::cli::{run, run_stdin, tmp, write, EMPTY, LEET, UNSOLVABLE};
use sudoku_batch::{engine, Grid};

/// Puzzles with serate's ER/EP/ED and ER technique. The first four are in data/examples.txt
/// (LeetCode 37 / Wikipedia, Project Euler 96 grid 01, Norvig's grid2, Norvig's hardest #1); the
/// others came from `sudoku-batch generate 3 --seed 2026 --er 6.5..7.5` and
/// `generate 2 --seed 2026 --er 8.3..9.4`.
const RATED: [(&str, &str, &str); 9] = [
    (LEET, "1.2/1.2/1.2", "Hidden Single"),
    (
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        "1.2/1.2/1.2",
        "Hidden Single",
    ),
    (
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "2.6/1.2/1.2",
        "Pointing",
    ),
    (
        "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
        "2.0/1.2/1.2",
        "Direct Hidden Pair",
    ),
    (
        "5.1....6..2..........78......8....3..7..3..5.4..8....2....9.87..62.....1..5.7..23",
        "7.2/1.2/1.2",
        "Forcing Chain",
    ),
    (
        "..3.4......48....57......2.....1...32..6..5.....57..6.....8...24...36.8.9.7..2..4",
        "7.2/1.2/1.2",
        "Forcing Chain",
    ),
    (
        ".8.5.......1..47.....19.8....2.4.1....6..2.9..9.8......1..2...66..4...859.5....2.",
        "6.7/1.2/1.2",
        "Forcing X-Chain",
    ),
    (
        "....286..43...6.....8.9...3..4...8....6..3.1..2..59..6.....2..8..5...7..78......4",
        "9.0/1.2/1.2",
        "Dynamic Cell Forcing Chains",
    ),
    (
        "6.5.......7.5....4.9....51.....8..4..8.23..7.3..1.....4.8..1.57..7.....2.....71.9",
        "8.5/1.2/1.2",
        "Cell Forcing Chains",
    ),
];

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn rating(v: &serde_json::Value) -> String {
    format!("{:.1}", v.as_f64().expect("a rating"))
}

/// Replays a JSON step list from the givens: every elimination takes away a candidate the
/// solution does not use, every placement puts the solution's digit; the end is the solution.
fn replay(puzzle: &str, steps: &[serde_json::Value]) {
    let grid: Grid = puzzle.parse().unwrap();
    let solution = engine::solve(&grid, 2).first.expect("a solution");
    let sol = solution.cells();
    let mut values = *grid.cells();
    for (i, step) in steps.iter().enumerate() {
        for e in step["eliminations"].as_array().unwrap() {
            let (c, d) = (
                e[0].as_u64().unwrap() as usize,
                e[1].as_u64().unwrap() as u8,
            );
            assert_ne!(
                sol[c],
                d,
                "step {} removes the solution's {d} from cell {c}",
                i + 1
            );
        }
        for p in step["placements"].as_array().unwrap() {
            let (c, d) = (
                p[0].as_u64().unwrap() as usize,
                p[1].as_u64().unwrap() as u8,
            );
            assert_eq!(sol[c], d, "step {} places a wrong digit in cell {c}", i + 1);
            assert_eq!(values[c], 0, "step {} fills cell {c} twice", i + 1);
            values[c] = d;
        }
    }
    assert_eq!(&values, sol, "the steps of {puzzle} end in the solution");
}

#[test]
fn explain_gives_serates_ratings_and_a_path_that_replays_to_the_solution() {
    let dir = tmp("explain-rated");
    let body: String = RATED.iter().map(|(p, _, _)| format!("{p}\n")).collect();
    let f = write(&dir, "rated.txt", body);
    let out = run(&["explain", "-q", &f]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows = json_lines(&out.stdout);
    assert_eq!(rows.len(), RATED.len());
    for (row, (puzzle, ratings, technique)) in rows.iter().zip(RATED) {
        assert_eq!(row["puzzle"], puzzle);
        assert_eq!(row["status"], "solved");
        let got = format!(
            "{}/{}/{}",
            rating(&row["er"]),
            rating(&row["ep"]),
            rating(&row["ed"])
        );
        assert_eq!(got, ratings, "{puzzle}");
        assert_eq!(row["er_technique"], technique, "{puzzle}");
        let steps = row["steps"].as_array().unwrap();
        // ER is the hardest step, ED the first, EP the hardest up to the first placement.
        let r: Vec<f64> = steps
            .iter()
            .map(|s| s["rating"].as_f64().unwrap())
            .collect();
        let max = r.iter().cloned().fold(0.0, f64::max);
        assert_eq!(format!("{max:.1}"), rating(&row["er"]));
        assert_eq!(format!("{:.1}", r[0]), rating(&row["ed"]));
        let first_placement = steps
            .iter()
            .position(|s| !s["placements"].as_array().unwrap().is_empty())
            .unwrap();
        let ep = r[..=first_placement].iter().cloned().fold(0.0, f64::max);
        assert_eq!(format!("{ep:.1}"), rating(&row["ep"]));
        replay(puzzle, steps);
    }
    // The text layout: SE's descriptions, one line per step, under a line per puzzle.
    let text = run(&["explain", "-q", "--format", "text", &f]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let blocks: Vec<&str> = text.stdout.split("\n\n").collect();
    assert_eq!(blocks.len(), RATED.len());
    for ((block, row), (puzzle, ratings, _)) in blocks.iter().zip(&rows).zip(RATED) {
        let mut lines = block.lines();
        let head = lines.next().unwrap();
        let [er, ep, ed]: [&str; 3] = ratings.split('/').collect::<Vec<_>>().try_into().unwrap();
        assert!(
            head.starts_with("# line ") && head.contains(puzzle),
            "{head}"
        );
        assert!(head.contains(&format!("ER {er} EP {ep} ED {ed}")), "{head}");
        let steps: Vec<&str> = lines.collect();
        assert_eq!(steps.len(), row["steps"].as_array().unwrap().len());
        for (line, step) in steps.iter().zip(row["steps"].as_array().unwrap()) {
            let (r, description) = line.split_once("  ").unwrap();
            assert_eq!(r, rating(&step["rating"]));
            assert!(
                description.starts_with(step["technique"].as_str().unwrap())
                    || step["technique"]
                        .as_str()
                        .unwrap()
                        .contains("Forcing Chains"),
                "{line}"
            );
        }
    }
    assert!(
        text.stdout.contains("1.2  Hidden Single: r"),
        "SE's own wording"
    );
}

#[test]
fn bad_input_keeps_its_row_and_gets_empty_ratings() {
    let dir = tmp("explain-bad");
    let conflict = format!("55{}", &EMPTY[2..]);
    let f = write(
        &dir,
        "mixed.txt",
        format!("not a puzzle\n{conflict}\n{EMPTY}\n{UNSOLVABLE}\n{LEET}\n"),
    );
    let out = run(&["explain", "-q", &f]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows = json_lines(&out.stdout);
    let statuses: Vec<&str> = rows.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses,
        ["invalid", "invalid", "multiple", "unsolvable", "solved"]
    );
    for row in &rows[..4] {
        for field in ["er", "ep", "ed", "er_technique", "steps"] {
            assert!(row[field].is_null(), "{field} of {row}");
        }
        assert_eq!(row["error"].is_null(), row["status"] != "invalid", "{row}");
    }
    assert_eq!(rows[4]["er"], 1.2);
    let strict = run(&["explain", "-q", "--strict", &f]);
    assert_eq!(strict.code, 1);
    // rate --se: rate's columns, then SE's, filled for the unique puzzle only.
    let rated = run(&["rate", "--se", "-q", &f]);
    assert_eq!(rated.code, 0, "{}", rated.stderr);
    let mut r = csv::Reader::from_reader(rated.stdout.as_bytes());
    let names: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(
        names[names.len() - 5..],
        ["er", "ep", "ed", "er_technique", "error"]
    );
    let rows: Vec<Vec<String>> = r
        .records()
        .map(|x| x.unwrap().iter().map(str::to_string).collect())
        .collect();
    let col = |n: &str| names.iter().position(|c| c == n).unwrap();
    for row in &rows[..4] {
        assert!(row[col("er")].is_empty() && row[col("er_technique")].is_empty());
    }
    assert_eq!(
        (&rows[4][col("er")][..], &rows[4][col("er_technique")][..]),
        ("1.2", "Hidden Single")
    );
}

#[test]
fn rate_se_agrees_with_explain_and_does_not_depend_on_threads() {
    let dir = tmp("rate-se");
    let body: String = RATED.iter().map(|(p, _, _)| format!("{p}\n")).collect();
    let f = write(&dir, "rated.txt", body);
    let one = run(&["rate", "--se", "-q", "-j", "1", "--format", "jsonl", &f]);
    let two = run(&["rate", "--se", "-q", "-j", "2", "--format", "jsonl", &f]);
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(one.stdout, two.stdout, "rate --se depends on -j");
    for (row, (puzzle, ratings, technique)) in json_lines(&one.stdout).iter().zip(RATED) {
        let got = format!(
            "{}/{}/{}",
            rating(&row["er"]),
            rating(&row["ep"]),
            rating(&row["ed"])
        );
        assert_eq!(got, ratings, "{puzzle}");
        assert_eq!(row["er_technique"], technique);
    }
    let a = run(&["explain", "-q", "-j", "1", "--format", "csv", &f]);
    let b = run(&["explain", "-q", "-j", "2", "--format", "csv", &f]);
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(a.stdout, b.stdout, "explain depends on -j");
    // CSV keeps the steps as JSON text in one field.
    let mut r = csv::Reader::from_reader(a.stdout.as_bytes());
    let names: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let steps = names.iter().position(|n| n == "steps").unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        let v: serde_json::Value = serde_json::from_str(&rec[steps]).unwrap();
        assert!(!v.as_array().unwrap().is_empty());
    }
}

#[test]
fn the_work_budget_turns_a_runaway_into_gave_up() {
    let dir = tmp("se-budget");
    let chained = RATED[7].0; // needs dynamic forcing chains
    let f = write(&dir, "hard.txt", format!("{chained}\n{LEET}\n"));
    for cmd in [
        vec!["explain", "-q", "--se-budget", "100", "--format", "jsonl"],
        vec![
            "rate",
            "--se",
            "-q",
            "--se-budget",
            "100",
            "--format",
            "jsonl",
        ],
    ] {
        let mut args = cmd.clone();
        args.push(&f);
        let out = run(&args);
        assert_eq!(out.code, 0, "{cmd:?}: {}", out.stderr);
        let rows = json_lines(&out.stdout);
        assert_eq!(rows[0]["status"], "gave-up", "{cmd:?}");
        assert!(rows[0]["er"].is_null());
        assert!(
            rows[0]["error"]
                .as_str()
                .unwrap()
                .contains("work budget of 100"),
            "{}",
            rows[0]["error"]
        );
        // The easy one needs no chain at all and is rated.
        assert_eq!(rows[1]["status"], "solved");
        assert_eq!(rows[1]["er"], 1.2);
        let mut strict = cmd.clone();
        strict.push("--strict");
        strict.push(&f);
        assert_eq!(run(&strict).code, 1, "{cmd:?} --strict");
    }
    assert_eq!(
        run(&["explain", "--se-budget", "0", &f]).code,
        2,
        "a budget of 0 is a usage error"
    );
}

#[test]
fn explain_resumes_and_refuses_other_formats() {
    let dir = tmp("explain-resume");
    let a = write(&dir, "a.txt", format!("{}\n{}\n", RATED[2].0, RATED[3].0));
    let out = dir.join("paths.jsonl");
    // A run whose second input (stdin) is refused stops after a.txt's rows.
    let r = run_stdin(&["explain", "-q", "-o", s(&out), &a, "-"], "\x00binary");
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = run_stdin(
        &["explain", "-q", "-o", s(&out), "--resume", &a, "-"],
        format!("{LEET}\n"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rows = json_lines(&std::fs::read_to_string(&out).unwrap());
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [1, 2, 1]);
    assert_eq!(rows[2]["puzzle"], LEET);
    for (format, ok) in [
        ("grid", false),
        ("json", false),
        ("text", true),
        ("csv", true),
    ] {
        let r = run(&["explain", "-q", "--format", format, &a]);
        assert_eq!(r.code == 0, ok, "explain --format {format}: {}", r.stderr);
    }
    let r = run(&["solve", "-q", "--format", "text", &a]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--format text is explain's"),
        "{}",
        r.stderr
    );
}

#[test]
fn generate_er_keeps_only_puzzles_in_the_band() {
    let args = [
        "generate", "4", "--seed", "2026", "--er", "6.5..7.5", "--format", "csv", "-q",
    ];
    let one = run(&[&args[..], &["-j", "1"]].concat());
    let two = run(&[&args[..], &["-j", "2"]].concat());
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(one.stdout, two.stdout, "generate --er depends on -j");
    let mut r = csv::Reader::from_reader(one.stdout.as_bytes());
    let names: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(names[names.len() - 3..], ["er", "ep", "ed"]);
    let rows: Vec<Vec<String>> = r
        .records()
        .map(|x| x.unwrap().iter().map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 4);
    for row in &rows {
        let er: f64 = row[names.len() - 3].parse().unwrap();
        assert!((6.5..=7.5).contains(&er), "{row:?}");
        // The library gives the same rating for the puzzle.
        let g: Grid = row[1].parse().unwrap();
        let lib = sudoku_batch::explain::rate(&g, sudoku_batch::explain::DEFAULT_BUDGET).unwrap();
        assert_eq!(lib.er.to_string(), row[names.len() - 3]);
    }
    // The first three are the ones whose serate ratings RATED holds.
    for (row, (puzzle, ratings, _)) in rows.iter().zip(&RATED[4..7]) {
        assert_eq!(&row[1], puzzle);
        let got = row[names.len() - 3..].join("/");
        assert_eq!(&got, ratings);
    }
}
