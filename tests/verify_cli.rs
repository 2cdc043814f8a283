//! Runs the real binary's `verify` on reference-solution files made here: correct ones must
//! pass with exit 0; in corrupted ones exactly the corrupted rows must be reported, each with
//! its line number and what is wrong, with exit 1. Puzzles and solutions come from the naive
//! reference solver in `tests/common`, not from the engine under test.

use crate::common::cli::{run, tmp, write, EMPTY, LEET, LEET_SOLUTION, UNSOLVABLE};

use std::process::{Command, Stdio};

use crate::common::{line, random_grid, reference_solve, unique_puzzle, Cells, Rng};

/// `n` unique puzzles with their solutions, from the reference solver.
fn pairs(n: usize, seed: u64) -> Vec<(String, String)> {
    let count = |p: &Cells| reference_solve(p, 2).count;
    (0..n)
        .map(|i| {
            let mut rng = Rng::for_item(seed, i as u64);
            let solution = random_grid(&mut rng);
            let puzzle = unique_puzzle(&mut rng, &solution, 34, &count);
            assert_eq!(count(&puzzle), 1);
            (line(&puzzle), line(&solution))
        })
        .collect()
}

/// The report lines (not the summary) as (line number, verdict).
fn reported(stdout: &str, file: &str) -> Vec<(u64, String)> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix(&format!("{file}:")))
        .map(|rest| {
            let mut parts = rest.splitn(3, ": ");
            let line = parts.next().unwrap().parse().unwrap();
            let verdict = parts.next().unwrap().to_string();
            (line, verdict)
        })
        .collect()
}

fn swap_two_solution_digits(s: &str, puzzle: &str) -> String {
    // Two open cells of the first row holding different digits: the row stays a permutation,
    // the columns break.
    let open: Vec<usize> = (0..9).filter(|&i| puzzle.as_bytes()[i] == b'.').collect();
    let mut b = s.as_bytes().to_vec();
    b.swap(open[0], open[1]);
    String::from_utf8(b).unwrap()
}

#[test]
fn correct_file_passes_in_every_format() {
    let dir = tmp("correct");
    let rows = pairs(30, 7);
    let mut colon = String::from("# puzzle:solution\n\n");
    let mut comma = String::new();
    let mut kaggle = String::from("quizzes,solutions\n");
    let mut radcliffe = String::from("id,puzzle,solution,clues,difficulty\n");
    for (i, (p, s)) in rows.iter().enumerate() {
        colon.push_str(&format!("{p}:{s}\n"));
        comma.push_str(&format!("{p},{s}\r\n"));
        kaggle.push_str(&format!("{},{s}\n", p.replace('.', "0")));
        radcliffe.push_str(&format!("{i},{p},{s},34,1.5\n"));
    }
    for (name, text) in [
        ("colon.txt", &colon),
        ("comma.txt", &comma),
        ("kaggle.csv", &kaggle),
        ("radcliffe.csv", &radcliffe),
    ] {
        let f = write(&dir, name, text);
        let out = run(&["verify", &f]);
        assert_eq!(out.code, 0, "{name}: {}{}", out.stdout, out.stderr);
        assert!(
            out.stdout.contains("30 rows: 30 right, 0 wrong"),
            "{name}: {}",
            out.stdout
        );
        assert!(reported(&out.stdout, &f).is_empty());
    }
    // Custom column names.
    let custom = kaggle.replacen("quizzes,solutions", "grid,answer", 1);
    let f = write(&dir, "custom.csv", &custom);
    let out = run(&[
        "verify",
        "--puzzle-column",
        "grid",
        "--solution-column",
        "answer",
        "-q",
        &f,
    ]);
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{}", out.stderr);
    // Without them, the missing column is a usage error naming the file and the columns.
    let out = run(&["verify", &f]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("custom.csv:1:") && out.stderr.contains("grid, answer"),
        "{}",
        out.stderr
    );
}

#[test]
fn reports_exactly_the_corrupted_rows() {
    let dir = tmp("corrupted");
    let rows = pairs(40, 11);
    let mut text = String::from("puzzle,solution\n");
    // line number (header is line 1) -> expected verdict and a piece of the message
    let mut expected: Vec<(u64, &str, &str)> = Vec::new();
    for (i, (p, s)) in rows.iter().enumerate() {
        let line = i as u64 + 2;
        let (p, s, verdict, why) = match i {
            3 => (
                p.clone(),
                swap_two_solution_digits(s, p),
                "wrong",
                "breaks a rule",
            ),
            7 => (p.clone(), s[..80].to_string(), "wrong", "found 80"),
            11 => {
                let mut b = s.as_bytes().to_vec();
                b[40] = b'.';
                (
                    p.clone(),
                    String::from_utf8(b).unwrap(),
                    "wrong",
                    "incomplete: 1 blank cell",
                )
            }
            17 => (p.clone(), String::new(), "wrong", "field is empty"),
            23 => (EMPTY.to_string(), s.clone(), "not_unique", "2 or more"),
            29 => (
                UNSOLVABLE.to_string(),
                s.clone(),
                "unsolvable",
                "no solution",
            ),
            31 => (
                LEET.replacen('5', "3", 1),
                LEET_SOLUTION.to_string(),
                "invalid",
                "row 1 has two 3s",
            ),
            37 => (
                LEET.to_string(),
                // Relabel 1 <-> 2: a valid grid, but not LEET's solution.
                LEET_SOLUTION
                    .chars()
                    .map(|c| match c {
                        '1' => '2',
                        '2' => '1',
                        c => c,
                    })
                    .collect(),
                "wrong",
                "changes a given: r2c4",
            ),
            _ => (p.clone(), s.clone(), "right", ""),
        };
        if verdict != "right" {
            expected.push((line, verdict, why));
        }
        text.push_str(&format!("{p},{s}\n"));
    }
    let f = write(&dir, "ref.csv", &text);
    let verdicts = dir.join("verdicts.csv");
    let out = run(&[
        "verify",
        "-j",
        "2",
        "--chunk-size",
        "3",
        &f,
        "-o",
        verdicts.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let got = reported(&out.stdout, &f);
    let want: Vec<(u64, String)> = expected
        .iter()
        .map(|(l, v, _)| (*l, v.to_string()))
        .collect();
    assert_eq!(got, want, "{}", out.stdout);
    for (l, _, why) in &expected {
        let report = out
            .stdout
            .lines()
            .find(|x| x.starts_with(&format!("{f}:{l}:")))
            .unwrap();
        assert!(report.contains(why), "line {l}: {report}");
    }
    assert!(
        out.stdout
            .contains("40 rows: 32 right, 5 wrong, 1 not_unique, 1 unsolvable, 1 invalid"),
        "{}",
        out.stdout
    );
    // The verdict CSV has one row per input row, in order, with the expected solution of the
    // wrong rows whose puzzle is unique.
    let mut rdr = csv::Reader::from_path(&verdicts).unwrap();
    let header: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        ["line", "puzzle", "solution", "verdict", "error", "expected"]
    );
    let recs: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    assert_eq!(recs.len(), 40);
    for (i, r) in recs.iter().enumerate() {
        let line = i as u64 + 2;
        assert_eq!(r[0].parse::<u64>().unwrap(), line);
        let want = expected
            .iter()
            .find(|e| e.0 == line)
            .map_or("right", |e| e.1);
        assert_eq!(&r[3], want, "line {line}");
    }
    assert_eq!(
        &recs[3][5],
        rows[3].1.as_str(),
        "expected = the true solution"
    );
    assert_eq!(&recs[37][5], LEET_SOLUTION);
    assert_eq!(&recs[0][4], "", "no error on a right row");
}

#[test]
fn streams_many_rows_in_order() {
    let dir = tmp("many");
    let base = pairs(5, 3);
    let mut text = String::new();
    let mut bad = Vec::new();
    for i in 0..5000usize {
        let (p, s) = &base[i % base.len()];
        if i % 97 == 5 {
            text.push_str(&format!("{p}:{}\n", swap_two_solution_digits(s, p)));
            bad.push(i as u64 + 1);
        } else {
            text.push_str(&format!("{p}:{s}\n"));
        }
    }
    let f = write(&dir, "many.txt", &text);
    let out = run(&["verify", "-j", "2", "--chunk-size", "7", &f]);
    assert_eq!(out.code, 1);
    let lines: Vec<u64> = reported(&out.stdout, &f).iter().map(|r| r.0).collect();
    assert_eq!(lines, bad);
    // Quiet: nothing printed, the exit code still tells.
    let out = run(&["verify", "-q", &f]);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (1, "", "")
    );
}

#[test]
fn verifies_solve_output_and_stdin() {
    let dir = tmp("own");
    let root = env!("CARGO_MANIFEST_DIR");
    let solved = dir.join("solved.csv");
    let out = run(&[
        "solve",
        "-q",
        &format!("{root}/data/examples.txt"),
        "-o",
        solved.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = run(&["verify", solved.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("8 rows: 8 right"), "{}", out.stdout);

    // stdin, and the verdicts on stdout with -o - (the report moves to stderr).
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["verify", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{LEET}:{LEET_SOLUTION}").unwrap();
        writeln!(stdin, "{EMPTY}:{LEET_SOLUTION}").unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let stdout = String::from_utf8(o.stdout).unwrap();
    let stderr = String::from_utf8(o.stderr).unwrap();
    let mut rdr = csv::Reader::from_reader(stdout.as_bytes());
    let verdicts: Vec<String> = rdr.records().map(|r| r.unwrap()[3].to_string()).collect();
    assert_eq!(verdicts, ["right", "not_unique"]);
    assert!(stderr.contains("-:2: not_unique"), "{stderr}");
}

#[test]
fn usage_and_io_errors_exit_2() {
    let dir = tmp("errors");
    let f = write(&dir, "ok.txt", format!("{LEET}:{LEET_SOLUTION}\n"));
    let missing = dir.join("missing.txt");
    let out = run(&["verify", missing.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("missing.txt"), "{}", out.stderr);
    let out = run(&["verify", &f, "-o", dir.join("no/dir.csv").to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("dir.csv"), "{}", out.stderr);
    let out = run(&["verify", &f, "-o", &f]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("also an input"), "{}", out.stderr);
    assert_eq!(run(&["verify", "--input-format", "xml", &f]).code, 2);
    let out = run(&["verify", "--help"]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("Exit status"));
}

/// Real corpora: `solve` writes reference solutions, `verify` must accept the unique ones and
/// flag every puzzle of the multi-solution corpus.
#[test]
#[cfg_attr(
    not(corpora),
    ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
)]
fn shared_corpora_round_trip() {
    let dir = tmp("corpora");
    for (file, rows, right) in [
        ("top1465.txt", 1465, true),
        ("multi_solution.txt", 10007, false),
    ] {
        let out_csv = dir.join(format!("{file}.csv"));
        let out = run(&[
            "solve",
            "-q",
            &sudoku_batch::corpora::path(file).display().to_string(),
            "-o",
            out_csv.to_str().unwrap(),
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let out = run(&["verify", "-q", out_csv.to_str().unwrap()]);
        assert_eq!(out.code, if right { 0 } else { 1 }, "{file}");
        let out = run(&["verify", out_csv.to_str().unwrap()]);
        let summary = if right {
            format!("{} rows: {} right", group(rows), group(rows))
        } else {
            format!(
                "{} rows: 0 right, 0 wrong, {} not_unique",
                group(rows),
                group(rows)
            )
        };
        assert!(out.stdout.contains(&summary), "{file}: {}", out.stdout);
    }
}

fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A CSV whose records end with a lone CR: every bad row is reported at its own line, as
/// `solve` numbers them (verify once reported them all at line 1).
#[test]
fn lone_cr_rows_are_reported_at_their_own_lines() {
    let dir = tmp("lone-cr");
    let good = format!("{LEET}:{LEET_SOLUTION}");
    let bad = format!("{LEET}:{}", LEET_SOLUTION.replace('5', "6"));
    let text = format!("puzzle,solution\r{good}\r{bad}\r{good}\r{bad}\r").replace(':', ",");
    let f = write(&dir, "cr.csv", text);
    let out = run(&["verify", &f]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let lines = crate::common::cli::lines_with(&out.stdout, ": wrong:");
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert!(
        lines[0].starts_with(&format!("{f}:3: wrong:")),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with(&format!("{f}:5: wrong:")),
        "{}",
        lines[1]
    );
}

/// The reader of the report closing it (`| head -1`) ends the run quietly with 0, as the README
/// promises for every command (verify once exited 2).
#[test]
fn closed_report_ends_quietly() {
    let dir = tmp("verify-pipe");
    let bad = format!("{LEET}:{}\n", LEET_SOLUTION.replace('5', "6"));
    let f = write(&dir, "bad.txt", bad.repeat(100_000));
    for extra in [&[][..], &["-o", "-"][..]] {
        let mut args = vec!["verify"];
        args.extend_from_slice(extra);
        args.push(&f);
        let (first, out) = crate::common::cli::first_line_then_close(&args);
        assert!(!first.is_empty());
        let err = out.stderr;
        assert_eq!(out.code, 0, "{extra:?}: {err}");
        assert!(!err.contains("error"), "{extra:?}: {err}");
    }
}
