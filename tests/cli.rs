//! Runs the real `sudoku-batch` binary on real files and pipes and checks what it writes and
//! how it exits.

use crate::common::cli::{
    bin, first_line_then_close, run, run_stdin, tmp, write, EMPTY, LEET, LEET_SOLUTION, UNSOLVABLE,
};

/// Parses CSV output into header + records.
fn rows(csv_text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rdr = csv::Reader::from_reader(csv_text.as_bytes());
    let header = rdr.headers().unwrap().iter().map(String::from).collect();
    let recs = rdr
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, recs)
}

fn col(header: &[String], name: &str) -> usize {
    header.iter().position(|h| h == name).unwrap()
}

#[test]
fn line_input_gives_one_row_per_puzzle_line() {
    let dir = tmp("lines");
    let text = format!(
        "\u{feff}# a comment\r\n{LEET}\r\n\r\n{LEET} # with a note\nnot a puzzle\n{EMPTY}\n{}\n{}\n{UNSOLVABLE}\n",
        &LEET[..80],
        LEET.replacen('5', "3", 1)
    );
    let f = write(&dir, "in.txt", text.as_bytes());
    let out = run(&["solve", "-q", &f]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "");
    let (h, r) = rows(&out.stdout);
    assert_eq!(
        h.join(","),
        "line,puzzle,status,solutions,solution,guesses,solve_ns,error"
    );
    let got: Vec<(&str, &str, &str, &str)> = r
        .iter()
        .map(|r| (r[0].as_str(), r[2].as_str(), r[3].as_str(), r[7].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("2", "solved", "1", ""),
            ("4", "solved", "1", ""),
            ("5", "invalid", "0", "unexpected character 'n' at cell 1"),
            ("6", "multiple", "2", ""),
            ("7", "invalid", "0", "expected 81 cells, found 80"),
            ("8", "invalid", "0", "row 1 has two 3s"),
            ("9", "unsolvable", "0", ""),
        ]
    );
    assert_eq!(r[0][1], LEET);
    assert_eq!(r[0][4], LEET_SOLUTION);
    assert_eq!(r[2][1], "", "an unreadable line has no puzzle");
    assert_eq!(
        r[5][1],
        LEET.replacen('5', "3", 1),
        "a conflicting one keeps it"
    );
    assert!(r[0][6].parse::<u64>().unwrap() > 0, "solve_ns is measured");
}

#[test]
fn stdin_by_default_and_by_dash() {
    let input = format!("{LEET}\n");
    for args in [vec!["solve", "-q"], vec!["solve", "-q", "-"]] {
        let out = run_stdin(&args, input.as_bytes());
        assert_eq!(out.code, 0);
        let (h, r) = rows(&out.stdout);
        assert!(!h.contains(&"file".to_string()));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0][4], LEET_SOLUTION);
    }
}

/// `-o -` is stdout, as `-` is stdin: every row-writing command prints what it prints without
/// `-o`, and no file named `-` (or its provenance) appears where it runs.
#[test]
fn dash_output_is_stdout() {
    let dir = tmp("dash-output");
    let puzzles = write(&dir, "p.txt", format!("{LEET}\n{LEET}\n"));
    let commands: [&[&str]; 8] = [
        &["solve", "--no-timing"],
        &["rate"],
        &["explain"],
        &["canon"],
        &["minimize", "--seed", "1"],
        &["dedup"],
        &["split", "--label", "--test", "0.5", "--seed", "1"],
        &["generate", "2", "--seed", "1"],
    ];
    for args in commands {
        let mut with_file: Vec<&str> = args.to_vec();
        if args[0] != "generate" {
            with_file.push(&puzzles);
        }
        let go = |extra: &[&str]| {
            let out = bin()
                .args(&with_file)
                .args(["-q"])
                .args(extra)
                .current_dir(&dir)
                .stdin(std::process::Stdio::null())
                .output()
                .expect("run sudoku-batch");
            assert_eq!(out.status.code(), Some(0), "{args:?} {extra:?}");
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        let plain = go(&[]);
        assert!(!plain.is_empty(), "{args:?}");
        assert_eq!(go(&["-o", "-"]), plain, "{args:?}");
        assert!(!dir.join("-").exists(), "{args:?} wrote a file named -");
        assert!(!dir.join("-.provenance.json").exists(), "{args:?}");
    }
}

#[test]
fn block_input() {
    let dir = tmp("block");
    let text = "\
* 2 6 * * * * * *
* * * * * 4 * * *
* * * * * * * * *
* * * * * * * * *
* * * * * * * * *
* * * * * * * * *
* * * * * * * * *
* * * * * * * * *
* * * * * * 7 5 *

5 3 0 0 7 0 0 0 0
6 0 0 1 9 5 0 0 0
0 9 8 0 0 0 0 6 0
8 0 0 0 6 0 0 0 3
4 0 0 8 0 3 0 0 1
7 0 0 0 2 0 0 0 6
0 6 0 0 0 0 2 8 0
0 0 0 4 1 9 0 0 5
0 0 0 0 8 0 0 7 9
1 2 3
";
    let f = write(&dir, "blocks.txt", text.as_bytes());
    let out = run(&["solve", "-q", "--input-format", "block", "--first", &f]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (_, r) = rows(&out.stdout);
    assert_eq!(r.len(), 3);
    assert_eq!((r[0][0].as_str(), r[0][2].as_str()), ("1", "solved"));
    assert!(r[0][1].starts_with(".26......"));
    assert_eq!((r[1][0].as_str(), r[1][1].as_str()), ("11", LEET));
    assert_eq!(r[1][4], LEET_SOLUTION);
    assert_eq!(
        (r[2][0].as_str(), r[2][2].as_str(), r[2][7].as_str()),
        ("20", "invalid", "row 1: expected 9 cells, found 3")
    );
}

#[test]
fn csv_input_by_extension_and_column() {
    let dir = tmp("csv");
    let text = format!(
        "quizzes,solutions\n{LEET},{LEET_SOLUTION}\n{},x\n",
        &LEET[..5]
    );
    let f = write(&dir, "kaggle.csv", text.as_bytes());
    let out = run(&["solve", "-q", &f]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (_, r) = rows(&out.stdout);
    assert_eq!(r.len(), 2);
    assert_eq!((r[0][0].as_str(), r[0][2].as_str()), ("2", "solved"));
    assert_eq!(r[0][4], LEET_SOLUTION);
    assert_eq!(r[1][7], "expected 81 cells, found 5");
    // A solved grid read from the solutions column is its own unique solution.
    let out = run(&["solve", "-q", "--column", "solutions", &f]);
    let (_, r) = rows(&out.stdout);
    assert_eq!((r[0][2].as_str(), r[0][5].as_str()), ("solved", "0"));
    assert_eq!(r[0][4], LEET_SOLUTION);
    // The same file under another name needs --input-format csv.
    let g = write(&dir, "kaggle.dat", text.as_bytes());
    let out = run(&["solve", "-q", "--input-format", "csv", &g]);
    assert_eq!(rows(&out.stdout).1.len(), 2);
    // A missing column is a usage error that names the file.
    let out = run(&["solve", "-q", "--column", "nope", &f]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("kaggle.csv") && out.stderr.contains("'nope'"),
        "{}",
        out.stderr
    );
}

#[test]
fn output_file_and_several_inputs() {
    let dir = tmp("multi");
    let a = write(&dir, "a.txt", format!("{LEET}\nbad\n").as_bytes());
    let b = write(&dir, "b.txt", format!("# c\n{EMPTY}\n").as_bytes());
    let o = dir.join("out.csv");
    let out = run(&["solve", "-q", &a, &b, "-o", o.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "", "rows go to the file, not stdout");
    let (h, r) = rows(&std::fs::read_to_string(&o).unwrap());
    assert_eq!(h.last().map(String::as_str), Some("file"));
    let fc = col(&h, "file");
    let got: Vec<(&str, &str, &str)> = r
        .iter()
        .map(|r| (r[0].as_str(), r[2].as_str(), r[fc].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("1", "solved", a.as_str()),
            ("2", "invalid", a.as_str()),
            ("2", "multiple", b.as_str()),
        ]
    );
}

/// Many puzzles of every status, for the order and determinism tests.
fn mixed_corpus(n: usize) -> String {
    let mut s = String::new();
    let sol = LEET_SOLUTION.as_bytes();
    for i in 0..n {
        match i % 5 {
            // unique puzzles: the solution with a sliding window of cells blanked
            0 | 1 => {
                let mut p = sol.to_vec();
                for k in 0..40 {
                    p[(i * 7 + k * 2) % 81] = b'.';
                }
                s.push_str(std::str::from_utf8(&p).unwrap());
            }
            2 => s.push_str(EMPTY),
            3 => s.push_str(&format!("garbage line {i}")),
            _ => s.push_str(LEET),
        }
        s.push('\n');
    }
    s
}

#[test]
fn thread_count_does_not_change_the_output() {
    let dir = tmp("order");
    let f = write(&dir, "mixed.txt", mixed_corpus(3000).as_bytes());
    let one = run(&["solve", "-q", "--no-timing", "-j", "1", &f]);
    let two = run(&[
        "solve",
        "-q",
        "--no-timing",
        "-j",
        "2",
        "--chunk-size",
        "7",
        &f,
    ]);
    assert_eq!(one.code, 0);
    assert_eq!(one.stdout, two.stdout);
    let (_, r) = rows(&one.stdout);
    assert_eq!(r.len(), 3000);
    let lines: Vec<u64> = r.iter().map(|r| r[0].parse().unwrap()).collect();
    assert_eq!(lines, (1..=3000).collect::<Vec<u64>>());
    assert!(r.iter().all(|r| r[6] == "0"), "--no-timing writes 0");
}

#[test]
fn first_and_limit() {
    let input = format!("{EMPTY}\n{LEET}\n");
    let first = run_stdin(&["solve", "-q", "--first"], input.as_bytes());
    let (_, r) = rows(&first.stdout);
    assert_eq!((r[0][2].as_str(), r[0][3].as_str()), ("solved", "1"));
    assert_eq!((r[1][2].as_str(), r[1][3].as_str()), ("solved", "1"));
    let five = run_stdin(&["solve", "-q", "--limit", "5"], input.as_bytes());
    let (_, r) = rows(&five.stdout);
    assert_eq!((r[0][2].as_str(), r[0][3].as_str()), ("multiple", "5"));
    assert_eq!((r[1][2].as_str(), r[1][3].as_str()), ("solved", "1"));
}

#[test]
fn jsonl_output() {
    let input = format!("{LEET}\nxyz\n");
    let out = run_stdin(&["solve", "-q", "--format", "jsonl"], input.as_bytes());
    let lines: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["solution"], LEET_SOLUTION);
    assert_eq!(lines[0]["status"], "solved");
    assert!(lines[0]["error"].is_null());
    assert_eq!(lines[1]["status"], "invalid");
    assert!(lines[1]["puzzle"].is_null());
    assert_eq!(lines[1]["error"], "unexpected character 'x' at cell 1");
}

#[test]
fn exit_codes_and_summary() {
    let dir = tmp("exit");
    let good = write(&dir, "good.txt", format!("{LEET}\n").as_bytes());
    let bad = write(&dir, "bad.txt", format!("{LEET}\nbad\n").as_bytes());
    let ok = run(&["solve", &good]);
    assert_eq!(ok.code, 0);
    assert!(
        ok.stderr.contains("1 puzzles") && ok.stderr.contains("1 solved"),
        "{}",
        ok.stderr
    );
    assert_eq!(run(&["solve", "-q", "--strict", &good]).code, 0);
    assert_eq!(
        run(&["solve", "-q", &bad]).code,
        0,
        "invalid lines are data"
    );
    assert_eq!(run(&["solve", "-q", "--strict", &bad]).code, 1);
    let missing = dir.join("missing.txt");
    let out = run(&["solve", "-q", missing.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("missing.txt"), "{}", out.stderr);
    assert_eq!(
        out.stdout, "",
        "nothing is written before a missing input is noticed"
    );
    assert_eq!(run(&["solve", "--limit", "0"]).code, 2);
    assert_eq!(run(&["solve", "--bogus"]).code, 2);
    let help = run(&["solve", "--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("Exit status"));
    let out = run(&[
        "solve",
        "-q",
        "-o",
        dir.join("no/such/dir.csv").to_str().unwrap(),
        &good,
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("dir.csv"), "{}", out.stderr);
    let out = run(&["solve", "-q", "-o", &good, &good]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("also an input"), "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(&good).unwrap(),
        format!("{LEET}\n"),
        "input intact"
    );
}

#[test]
fn closed_stdout_ends_quietly() {
    let dir = tmp("pipe");
    let line = format!("{LEET}\n");
    let f = write(&dir, "big.txt", line.repeat(200_000).as_bytes());
    let (first, out) = first_line_then_close(&["solve", &f]);
    assert!(first.starts_with("line,puzzle,status"));
    let err = out.stderr;
    assert_eq!(out.code, 0, "stderr: {err}");
    assert!(!err.contains("panic"), "{err}");
    assert!(!err.contains("error"), "{err}");
}

#[test]
fn examples_in_data_solve() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = run(&[
        "solve",
        "-q",
        "--strict",
        &format!("{root}/data/examples.txt"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (_, r) = rows(&out.stdout);
    assert!(r.len() >= 3);
    assert!(r.iter().all(|r| r[2] == "solved"));
    let out = run(&[
        "solve",
        "-q",
        "--strict",
        "--input-format",
        "block",
        &format!("{root}/data/examples-block.txt"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (_, r) = rows(&out.stdout);
    assert!(r.len() >= 3);
    // The last one is the textbook exercise, which is not unique (see its comment).
    let (last, proper) = r.split_last().unwrap();
    assert!(proper.iter().all(|r| r[2] == "solved"));
    assert_eq!((last[2].as_str(), last[3].as_str()), ("multiple", "2"));
    assert!(last[1].starts_with(".26......"));
}

/// Shell completions and the man page, as ripgrep and fd ship them.
#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        assert_eq!(out.code, 0, "{shell}: {}", out.stderr);
        assert!(out.stdout.contains("sudoku-batch"), "{shell}");
        assert!(
            out.stdout.contains("verify"),
            "{shell}: names the subcommands"
        );
    }
    assert_eq!(run(&["completions", "tcsh"]).code, 2);
    let out = run(&["manpage"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with(".ie") || out.stdout.contains(".TH sudoku-batch"),
        "{}",
        &out.stdout[..200.min(out.stdout.len())]
    );
    assert!(out.stdout.contains("solve"));
}
