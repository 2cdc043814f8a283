//! Runs the real binary's `bench` with short timings and checks the structure of what it
//! writes — exports, percentiles, scaling rows, the SVG — and `--external` against the toy
//! solver in `tests/toys/`. Nothing here asserts on a speed: timings only have to be present,
//! positive and ordered.

use crate::common::cli::{run, tmp, write, Out, EMPTY, LEET, UNSOLVABLE};

use std::path::Path;

use serde_json::Value;

const EULER1: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/examples.txt");
const TOY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/toys/toy_solver.py");
const FAST: [&str; 4] = ["--time", "0.05", "--warmup", "0"];

/// The fields every result promises.
const FIELDS: [&str; 12] = [
    "file",
    "mode",
    "threads",
    "puzzles",
    "puzzles_per_sec",
    "us_per_puzzle",
    "no_guess_pct",
    "guesses_per_puzzle",
    "p50_us",
    "p90_us",
    "p99_us",
    "max_us",
];

fn bench(extra: &[&str]) -> Out {
    let mut args = vec!["bench"];
    args.extend_from_slice(&FAST);
    args.extend_from_slice(extra);
    run(&args)
}

fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number in {v}"))
}

fn check_result(r: &Value) {
    for key in FIELDS {
        assert!(r.get(key).is_some(), "{key} missing in {r}");
    }
    let (p50, p90, p99, max) = (
        num(r, "p50_us"),
        num(r, "p90_us"),
        num(r, "p99_us"),
        num(r, "max_us"),
    );
    assert!(p50 > 0.0, "{r}");
    assert!(p50 <= p90 && p90 <= p99 && p99 <= max, "{r}");
    assert!(num(r, "puzzles_per_sec") > 0.0 && num(r, "us_per_puzzle") > 0.0);
    assert!((0.0..=100.0).contains(&num(r, "no_guess_pct")));
}

/// A minimal XML well-formedness check: every tag closes in order, attributes are quoted, and
/// the document is one `<svg>` element.
fn assert_well_formed_svg(svg: &str) {
    let body = svg.trim();
    let body = match body.strip_prefix("<?xml") {
        Some(rest) => &rest[rest.find("?>").expect("xml declaration ends") + 2..],
        None => body,
    }
    .trim_start();
    assert!(body.starts_with("<svg"), "{}", &body[..body.len().min(60)]);
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = body;
    let mut elements = 0;
    while let Some(i) = rest.find('<') {
        let after = &rest[i + 1..];
        let end = after.find('>').expect("tag ends");
        let tag = &after[..end];
        rest = &after[end + 1..];
        if tag.starts_with('!') || tag.starts_with('?') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name.trim()), "closing tag {name}");
            if stack.is_empty() {
                assert!(rest.trim().is_empty(), "content after the root element");
            }
            continue;
        }
        elements += 1;
        let name = tag
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap();
        assert_eq!(tag.matches('"').count() % 2, 0, "quotes in <{tag}>");
        if !tag.ends_with('/') {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert!(elements > 10, "draws something");
}

#[test]
fn exports_parse_and_contain_what_they_promise() {
    let dir = tmp("exports");
    let small = write(
        &dir,
        "small.txt",
        format!("{LEET}\nnot a puzzle\n{EMPTY}\n"),
    );
    let (j, c, m, s) = (
        dir.join("r.json"),
        dir.join("r.csv"),
        dir.join("r.md"),
        dir.join("h.svg"),
    );
    let out = bench(&[
        "-j",
        "1,2",
        "-q",
        EXAMPLES,
        &small,
        "--export-json",
        j.to_str().unwrap(),
        "--export-csv",
        c.to_str().unwrap(),
        "--export-markdown",
        m.to_str().unwrap(),
        "--histogram",
        s.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        (out.stdout.as_str(), out.stderr.as_str()),
        ("", ""),
        "--quiet"
    );

    // JSON: machine + one result per file × thread count, file-major.
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
    let machine = &doc["machine"];
    for key in [
        "cpu",
        "logical_cores",
        "os",
        "crate_version",
        "git_commit",
        "simd",
    ] {
        assert!(machine.get(key).is_some(), "machine.{key}");
    }
    assert!(machine["logical_cores"].as_u64().unwrap() >= 1);
    assert_eq!(machine["crate_version"], env!("CARGO_PKG_VERSION"));
    assert!(machine["simd"].is_string());
    let results = doc["results"].as_array().unwrap();
    let shape: Vec<(String, u64, u64)> = results
        .iter()
        .map(|r| {
            check_result(r);
            (
                r["file"].as_str().unwrap().to_string(),
                r["threads"].as_u64().unwrap(),
                r["puzzles"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            (EXAMPLES.to_string(), 1, 8),
            (EXAMPLES.to_string(), 2, 8),
            (small.clone(), 1, 2),
            (small.clone(), 2, 2),
        ]
    );
    assert_eq!(results[2]["skipped"], 1);
    assert_eq!(results[0]["mode"], "unique");
    // Scaling: relative to the first count of each file.
    for r in results.iter().step_by(2) {
        assert_eq!((num(r, "speedup"), num(r, "efficiency")), (1.0, 1.0));
    }
    for r in results.iter().skip(1).step_by(2) {
        let (sp, eff) = (num(r, "speedup"), num(r, "efficiency"));
        assert!(sp > 0.0 && (eff - sp / 2.0).abs() < 1e-9, "{r}");
    }

    // CSV: a header with every field, the same rows.
    let mut rdr = csv::Reader::from_path(&c).unwrap();
    let header: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    for key in FIELDS {
        assert!(header.iter().any(|h| h == key), "csv column {key}");
    }
    let col = |k: &str| header.iter().position(|h| h == k).unwrap();
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 4);
    for (row, r) in rows.iter().zip(results) {
        assert_eq!(row[col("file")], *r["file"].as_str().unwrap());
        assert_eq!(row[col("threads")], r["threads"].to_string());
        assert_eq!(row[col("puzzles")], r["puzzles"].to_string());
        assert_eq!(row[col("p99_us")].parse::<f64>().unwrap(), num(r, "p99_us"));
    }

    // Markdown: the table with scaling columns, one row per result, then the machine.
    let md = std::fs::read_to_string(&m).unwrap();
    let lines: Vec<&str> = md.lines().collect();
    assert!(lines[0].starts_with("| file | mode | threads | puzzles | puzzles/s | µs/puzzle |"));
    assert!(lines[0].contains("| p50 µs | p90 µs | p99 µs | max µs |"));
    assert!(lines[0].ends_with("| speed-up | efficiency |"));
    assert!(lines[1].starts_with("|---|---|---:|"));
    let cells = lines[0].matches('|').count();
    for (i, row) in lines[2..6].iter().enumerate() {
        assert_eq!(row.matches('|').count(), cells, "{row}");
        let name = if i < 2 { "examples.txt" } else { "small.txt" };
        assert!(row.starts_with(&format!("| `{name}` | unique |")), "{row}");
    }
    assert!(lines[2].ends_with("| 1.00 | 100 % |"), "{}", lines[2]);
    assert!(lines[6].is_empty() && lines[7].contains(env!("CARGO_PKG_VERSION")));

    // SVG: well-formed, one line per result, a legend naming them.
    let svg = std::fs::read_to_string(&s).unwrap();
    assert_well_formed_svg(&svg);
    assert!(svg.matches("<polyline").count() >= 4);
    for label in ["examples.txt -j 1", "examples.txt -j 2", "small.txt -j 2"] {
        assert!(svg.contains(label), "{label}");
    }
    assert!(svg.len() < 1_000_000);
}

#[test]
fn table_json_lines_and_stdout_exports() {
    // The human table on stdout: a header and one row per file, percentiles included.
    let out = bench(&[EXAMPLES]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert!(lines[0].contains("p50 µs") && lines[0].contains("max µs"));
    assert!(
        !lines[0].contains("speed-up"),
        "no scaling columns for one count"
    );
    assert!(lines[1].starts_with(EXAMPLES));

    // --json: one object per result per line, with the percentiles.
    let out = bench(&["--json", "-j", "1,2", EXAMPLES]);
    let objs: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objs.len(), 2);
    objs.iter().for_each(check_result);
    assert_eq!(
        (objs[0]["threads"].as_u64(), objs[1]["threads"].as_u64()),
        (Some(1), Some(2))
    );

    // An export on stdout: stdout is only that export, the table moves to stderr.
    let out = bench(&["--export-csv", "-", EXAMPLES]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut rdr = csv::Reader::from_reader(out.stdout.as_bytes());
    assert_eq!(rdr.records().count(), 1);
    assert!(out.stderr.contains("puzzles/s"), "{}", out.stderr);
    let out = bench(&["--export-json", "-", "-q", EXAMPLES]);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["results"].as_array().unwrap().len(), 1);
    assert_eq!(out.stderr, "");
    let out = bench(&["--export-markdown", "-", "-q", EXAMPLES]);
    assert!(out.stdout.starts_with("| file |"), "{}", out.stdout);
}

#[test]
fn bench_usage_errors_exit_2() {
    let dir = tmp("usage");
    let out = bench(&["--json", "--export-csv", "-", EXAMPLES]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("stdout"), "{}", out.stderr);
    let missing = dir.join("missing.txt");
    let out = bench(&[missing.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("missing.txt"), "{}", out.stderr);
    let bad = dir.join("no/such/dir.json");
    let out = bench(&["--export-json", bad.to_str().unwrap(), EXAMPLES]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("dir.json"), "{}", out.stderr);
    assert_eq!(
        out.stdout, "",
        "nothing timed before a bad export path is noticed"
    );
    let copy = write(&dir, "in.txt", format!("{LEET}\n"));
    let out = bench(&["--export-csv", &copy, &copy]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("also an input"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), format!("{LEET}\n"));
    assert_eq!(bench(&["-j", "1025", EXAMPLES]).code, 2);
    assert_eq!(bench(&["-j", "1,x", EXAMPLES]).code, 2);
    assert_eq!(
        bench(&["--timeout", "3", EXAMPLES]).code,
        2,
        "needs --external"
    );
    let out = bench(&["--external", "cat", "-j", "1,2", EXAMPLES]);
    assert_eq!(out.code, 2);
    let out = bench(&["--external", "cat", "--histogram", "x.svg", EXAMPLES]);
    assert_eq!(out.code, 2);
}

/// The corpus for the referee tests: five puzzles (one with many solutions, one with none)
/// between a comment and an unusable line, so input lines differ from puzzle numbers.
fn referee_corpus(dir: &Path) -> String {
    write(
        dir,
        "referee.txt",
        format!("# five puzzles\n{LEET}\n{EMPTY}\nnot a puzzle\n{EULER1}\n{UNSOLVABLE}\n{LEET}\n"),
    )
}

/// Puzzle number (1-based) -> input line in `referee_corpus`.
const LINES: [u64; 5] = [2, 3, 5, 6, 7];

fn toy(args: &str) -> String {
    format!("python3 '{TOY}' {args}")
}

fn referee(corpus: &str, cmd: &str, extra: &[&str]) -> (Out, Value) {
    let mut args = vec!["--external", cmd, "--json", corpus];
    args.extend_from_slice(extra);
    let out = bench(&args);
    let line = out.stdout.lines().next().unwrap_or_else(|| {
        panic!("no JSON line; stderr: {}", out.stderr);
    });
    let v: Value = serde_json::from_str(line).unwrap();
    (out, v)
}

fn counts(v: &Value) -> (u64, u64, u64) {
    (
        v["right"].as_u64().unwrap(),
        v["wrong"].as_u64().unwrap(),
        v["missing"].as_u64().unwrap(),
    )
}

#[test]
fn external_right_solver() {
    let dir = tmp("ext-right");
    let corpus = referee_corpus(&dir);
    let (out, v) = referee(&corpus, &toy(""), &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(counts(&v), (5, 0, 0));
    assert_eq!(v["puzzles"], 5);
    assert!(num(&v, "puzzles_per_sec") > 0.0 && num(&v, "ours_puzzles_per_sec") > 0.0);
    assert_eq!(v["crashed"], false);
    assert_eq!(v["timed_out"], false);
    assert_eq!(v["exit_code"], 0);
}

#[test]
fn external_wrong_solver_reports_exactly_its_wrong_answers() {
    let dir = tmp("ext-wrong");
    let corpus = referee_corpus(&dir);
    let (out, v) = referee(&corpus, &toy("--wrong 2,3"), &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(counts(&v), (3, 2, 0));
    let wrong: Vec<u64> = v["wrong_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_u64().unwrap())
        .collect();
    assert_eq!(wrong, [LINES[1], LINES[2]]);
    let reported = crate::common::cli::lines_with(&out.stderr, "wrong answer");
    assert_eq!(reported.len(), 2, "{}", out.stderr);
    assert!(reported[0].starts_with(&format!("{corpus}:3: wrong answer: the solution breaks")));
    assert!(reported[1].starts_with(&format!("{corpus}:5: wrong answer:")));

    // The same through the exports, and the human table.
    let j = dir.join("ext.json");
    let out = bench(&[
        "--external",
        &toy("--wrong 2,3"),
        &corpus,
        "--export-json",
        j.to_str().unwrap(),
        "--export-markdown",
        "-",
    ]);
    assert_eq!(out.code, 1);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
    assert_eq!(counts(&doc["results"][0]), (3, 2, 0));
    assert!(doc["machine"]["cpu"].is_string() || doc["machine"]["cpu"].is_null());
    assert!(out
        .stdout
        .starts_with("| file | puzzles | external puzzles/s |"));
    assert!(
        out.stdout.contains("| 3 | 2 | 0 | exit 0 |"),
        "{}",
        out.stdout
    );
}

#[test]
fn external_early_exit_reports_missing_answers() {
    let dir = tmp("ext-early");
    let corpus = referee_corpus(&dir);
    let (out, v) = referee(&corpus, &toy("--stop-after 2 --exit 3"), &[]);
    assert_eq!(out.code, 1);
    assert_eq!(counts(&v), (2, 0, 3));
    assert_eq!(v["crashed"], true);
    assert_eq!(v["exit_code"], 3);
    assert_eq!(v["first_missing_line"], LINES[2]);
    assert!(
        out.stderr
            .contains(&format!("{corpus}:5: no answers from here on: 3 missing")),
        "{}",
        out.stderr
    );
    // A clean exit that still skips answers is not a crash, but the answers are missing.
    let (out, v) = referee(&corpus, &toy("--stop-after 4"), &[]);
    assert_eq!(out.code, 1);
    assert_eq!(counts(&v), (4, 0, 1));
    assert_eq!(v["crashed"], false);
}

#[test]
fn external_hang_is_killed_at_the_timeout() {
    let dir = tmp("ext-hang");
    let corpus = referee_corpus(&dir);
    let (out, v) = referee(&corpus, &toy("--hang-after 1"), &["--timeout", "1"]);
    assert_eq!(out.code, 1);
    assert_eq!(v["timed_out"], true);
    assert_eq!(counts(&v), (1, 0, 4));
    assert!(out.stderr.contains("timed out"), "{}", out.stderr);
}

#[test]
#[cfg_attr(
    not(corpora),
    ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
)]
fn shared_corpora_exports() {
    let files: Vec<String> = ["norvig_hardest.txt", "top95.txt", "invalid.txt"]
        .iter()
        .map(|f| sudoku_batch::corpora::path(f).display().to_string())
        .collect();
    let mut args = vec!["--export-json", "-", "-q"];
    args.extend(files.iter().map(String::as_str));
    let out = bench(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let results = doc["results"].as_array().unwrap();
    let puzzles: Vec<u64> = results
        .iter()
        .map(|r| {
            check_result(r);
            r["puzzles"].as_u64().unwrap()
        })
        .collect();
    // SOURCES.md: 11 and 95 puzzles; invalid.txt has 17, of which 3 have conflicting givens.
    assert_eq!(puzzles, [11, 95, 14]);
    assert_eq!(results[2]["skipped"], 3);
}

const PEERS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/peers.py");

/// The Python script `script` with `args`, with $TDOKU and $FASTDOKU cleared.
fn python(script: &str, args: &[&str]) -> Out {
    let out = std::process::Command::new("python3")
        .arg(script)
        .args(args)
        .env_remove("TDOKU")
        .env_remove("FASTDOKU")
        .output()
        .expect("run python3");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `benches/peers.py` with `args`, no peer given.
fn peers(args: &[&str]) -> Out {
    python(PEERS, args)
}

/// `benches/peers.py` on the corpus `mini.txt` in `dir`, `runs` runs of no warm-up and no timed
/// seconds (one pass each), unpinned, with `extra` arguments after those.
fn peers_on_mini(dir: &Path, runs: &str, extra: &[&str]) -> Out {
    let data = dir.display().to_string();
    let mut args = vec![
        "--bin",
        env!("CARGO_BIN_EXE_sudoku-batch"),
        "--data",
        &data,
        "--corpora",
        "mini",
        "--runs",
        runs,
        "--warmup",
        "0",
        "--time",
        "0",
        "--cpu",
        "-1",
    ];
    args.extend(extra);
    peers(&args)
}

/// The trimmed cells of the table row of a successful run that starts with `prefix`.
fn table_row(out: &Out, prefix: &str) -> Vec<String> {
    assert_eq!(out.code, 0, "{}", out.stderr);
    let row = out
        .stdout
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no row {prefix}: {}", out.stdout));
    row.split('|').map(|c| c.trim().to_string()).collect()
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3")]
fn peers_script_prints_our_column_and_says_why_peers_are_missing() {
    let help = peers(&["--help"]);
    assert_eq!(help.code, 0, "{}", help.stderr);
    assert!(help.stdout.contains("--tdoku") && help.stdout.contains("$FASTDOKU"));

    // No tdoku given, a fastdoku that is not there, on a three-puzzle corpus of its own.
    let dir = tmp("peers");
    write(&dir, "mini.txt", format!("{EULER1}\n{LEET}\n{EULER1}\n"));
    let missing = dir.join("no-such-harness").display().to_string();
    let out = peers_on_mini(&dir, "1", &["--modes", "first", "--fastdoku", &missing]);
    let cells = table_row(&out, "| mini | 3 | first |");
    let ours: f64 = cells[4].replace(',', "").parse().expect("our rate");
    assert!(ours > 0.0, "{cells:?}");
    assert_eq!(&cells[5..8], ["skipped", "skipped", "–"], "{cells:?}");
    assert!(out
        .stdout
        .contains("tdoku: skipped (give --tdoku or $TDOKU)"));
    assert!(out.stdout.contains(&format!(
        "fastdoku: skipped ({missing} is not an executable file)"
    )));

    // A peer that fails is reported as failed, with its exit status, not dropped; --limit cuts
    // the corpus.
    let out = peers_on_mini(
        &dir,
        "1",
        &["--modes", "unique", "--tdoku", "/bin/false", "--limit", "2"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("| mini | 2 | unique |") && out.stdout.contains("| failed (exit 1"),
        "{}",
        out.stdout
    );
    assert!(out
        .stdout
        .contains("tdoku on mini (unique): failed (exit 1"));
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3")]
fn peers_table_gives_the_best_runs_ratio_and_the_spread_run_by_run() {
    // Two runs: ours 300 then 200, fastdoku 200 then 250, tdoku slower throughout. The verdict is
    // best against best (300 / 250); run by run ours led by 1.5× and trailed at 0.8×. A second
    // file's run 1 is a run of its own, not merged into the first file's run 1.
    let dir = tmp("peers-json");
    let run = |corpus: &str, run: u32, solver: &str, rate: f64| {
        serde_json::json!({"corpus": corpus, "mode": "unique", "run": run, "solver": solver,
            "puzzles": 10, "puzzles_per_sec": rate, "guesses_per_puzzle": null})
    };
    let first = serde_json::json!({"runs": [
        run("a", 1, "ours", 300.0), run("a", 1, "tdoku", 100.0), run("a", 1, "fastdoku", 200.0),
        run("a", 2, "fastdoku", 250.0), run("a", 2, "ours", 200.0), run("a", 2, "tdoku", 150.0),
    ], "skipped": {}});
    let second = serde_json::json!({"runs": [
        run("a", 1, "ours", 260.0), run("a", 1, "fastdoku", 200.0),
    ], "skipped": {"tdoku": "skipped (give --tdoku or $TDOKU)"}});
    let one = write(&dir, "one.json", first.to_string());
    let two = write(&dir, "two.json", second.to_string());

    let row = |out: &Out| table_row(out, "| a | 10 | unique |");
    let cells = row(&peers(&["--from-json", &one]));
    assert_eq!(&cells[4..9], ["300", "150", "250", "1.20×", "0.80–1.50×"]);
    // Both files: three runs (1.50, 0.80, 1.30), the same bests; the first file's tdoku ran, so
    // the second's "skipped" is not repeated.
    let out = peers(&["--from-json", &one, &two]);
    assert_eq!(
        &row(&out)[4..9],
        ["300", "150", "250", "1.20×", "0.80–1.50×"]
    );
    assert!(!out.stdout.contains("tdoku: skipped"), "{}", out.stdout);
    // The second file alone: one run, and tdoku skipped.
    let out = peers(&["--from-json", &two]);
    assert_eq!(
        &row(&out)[4..9],
        ["260", "skipped", "200", "1.30×", "1.30×"]
    );
    assert!(out.stdout.contains("tdoku: skipped"), "{}", out.stdout);
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3")]
fn peers_control_times_ours_again_and_gives_the_machines_own_spread() {
    // Saved runs: ours 300 / 200, ours again ("control") 250 / 250, fastdoku 200 / 250. The
    // verdict and its spread ignore the control; the A/A column is ours ÷ control run by run.
    let dir = tmp("peers-control");
    let run = |run: u32, solver: &str, rate: f64| {
        serde_json::json!({"corpus": "a", "mode": "first", "run": run, "solver": solver,
            "puzzles": 10, "puzzles_per_sec": rate, "guesses_per_puzzle": null})
    };
    let saved = serde_json::json!({"runs": [
        run(1, "ours", 300.0), run(1, "control", 250.0), run(1, "fastdoku", 200.0),
        run(2, "control", 250.0), run(2, "fastdoku", 250.0), run(2, "ours", 200.0),
    ], "skipped": {"tdoku": "skipped (give --tdoku or $TDOKU)"}});
    let file = write(&dir, "control.json", saved.to_string());
    let out = peers(&["--from-json", &file]);
    assert!(
        out.stdout
            .contains("| A/A: ours ÷ ours, best (run by run) |"),
        "{}",
        out.stdout
    );
    let cells = table_row(&out, "| a | 10 | first |");
    assert_eq!(
        &cells[4..11],
        [
            "300",
            "skipped",
            "250",
            "1.20×",
            "0.80–1.50×",
            "– / – / –",
            "1.20× (0.80–1.20×)"
        ]
    );

    // Live, on a corpus of its own: the control is our binary run again, so its column is there
    // and the table says nothing of it as a missing peer.
    write(&dir, "mini.txt", format!("{EULER1}\n{LEET}\n"));
    let out = peers_on_mini(&dir, "2", &["--modes", "first", "--control"]);
    let cells = table_row(&out, "| mini | 2 | first |");
    // Two runs of ours against ours: the best runs' ratio, then a spread of two, all numbers.
    let aa = cells[10].replace(['×', '(', ')'], "");
    let (best, spread) = aa.split_once(' ').unwrap_or_else(|| panic!("{cells:?}"));
    let (lo, hi) = spread
        .split_once('–')
        .unwrap_or_else(|| panic!("{cells:?}"));
    for x in [best, lo, hi] {
        assert!(x.parse::<f64>().is_ok_and(|r| r > 0.0), "{cells:?}");
    }
    assert!(!out.stdout.contains("control:"), "{}", out.stdout);
}

const AB: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/ab.py");

/// `benches/ab.py` with `args`.
fn ab(args: &[&str]) -> Out {
    python(AB, args)
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3")]
fn ab_script_times_two_builds_in_turn_and_refuses_a_failing_one() {
    // The same binary on both sides: every figure row, three pair ratios behind each median.
    let dir = tmp("ab");
    write(&dir, "two.txt", format!("{EULER1}\n{LEET}\n"));
    let cmd = format!(
        "'{}' solve -q -j 1 --no-timing '{}' -o /dev/null",
        env!("CARGO_BIN_EXE_sudoku-batch"),
        dir.join("two.txt").display()
    );
    let out = ab(&[
        "-n", "3", "--warmup", "0", "--cpu", "-1", "--old", &cmd, "--new", &cmd,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("pairs 3, pinned to nothing\n"),
        "{}",
        out.stdout
    );
    for row in ["old cpu s", "new cpu s", "new/old cpu", "new/old wall"] {
        let line = out
            .stdout
            .lines()
            .find(|l| l.starts_with(row))
            .unwrap_or_else(|| panic!("no {row} row: {}", out.stdout));
        if row.contains('/') && line.contains("n/a: an old run measured 0 s") {
            // A kernel that accounts CPU time in whole ticks can measure a short run as 0 s.
            continue;
        }
        let figures: Vec<f64> = line[row.len()..]
            .split_whitespace()
            .map(|x| x.parse().expect("a number"))
            .collect();
        assert_eq!(figures.len(), 3, "{line}");
        assert!(
            figures[0] <= figures[1] && figures[1] <= figures[2],
            "{line}"
        );
    }

    // A command that fails is named, and nothing is timed.
    let out = ab(&["-n", "1", "--cpu", "-1", "--old", "exit 3", "--new", &cmd]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("`exit 3` exited with status 3"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}
