//! What a newcomer meets in the first ten minutes, run through the real binary: the write-ups'
//! own formats without a flag, solutions printed back as grids and JSON boards, binary files
//! refused, `--resume` refusing another run's partial file, the `-j` bound, stopping whatever
//! `-j`, one man page per command, the columns commands share filled alike, `-q` everywhere, and
//! errors naming what the user asked for.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::cli::{run, run_stdin, spawn, tmp, write, EMPTY, LEET, LEET_SOLUTION};

/// The write-ups' grid (blanks as `0`); its first solution row is `7 6 1 9 3 4 8 2 5`.
const WRITE_UP: &str = "\
0 6 1 0 3 0 0 2 0
0 5 0 0 0 8 1 0 7
0 0 0 0 0 7 0 3 4
0 0 9 0 0 6 0 7 8
0 0 3 2 0 9 5 0 0
5 7 0 3 0 0 9 0 0
1 9 0 7 0 0 0 0 0
8 0 2 4 0 0 0 6 0
0 4 0 0 1 0 2 5 0
";

/// LeetCode 37's board, as the problem gives it.
const LEETCODE: &str = r#"[["5","3",".",".","7",".",".",".","."],["6",".",".","1","9","5",".",".","."],[".","9","8",".",".",".",".","6","."],["8",".",".",".","6",".",".",".","3"],["4",".",".","8",".","3",".",".","1"],["7",".",".",".","2",".",".",".","6"],[".","6",".",".",".",".","2","8","."],[".",".",".","4","1","9",".",".","5"],[".",".",".",".","8",".",".","7","9"]]"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The CSV rows of an output, header dropped, each split into fields.
fn rows(csv_text: &str) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    r.records()
        .map(|rec| rec.unwrap().iter().map(str::to_string).collect())
        .collect()
}

#[test]
fn the_three_write_up_forms_solve_without_a_flag() {
    let dir = tmp("write-ups");
    let stars = WRITE_UP.replace('0', "*");
    let pretty =
        serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(LEETCODE).unwrap())
            .unwrap();
    for (name, text, first_row) in [
        ("zeros.txt", WRITE_UP.to_string(), "7 6 1 9 3 4 8 2 5"),
        ("stars.txt", stars, "7 6 1 9 3 4 8 2 5"),
        ("leetcode.json", LEETCODE.to_string(), "5 3 4 6 7 8 9 1 2"),
        ("pretty.txt", pretty, "5 3 4 6 7 8 9 1 2"),
    ] {
        let f = write(&dir, name, &text);
        // From a file and from stdin alike.
        for out in [
            run(&["solve", "-q", "--format", "grid", &f]),
            run_stdin(&["solve", "-q", "--format", "grid"], text.clone()),
        ] {
            assert_eq!(out.code, 0, "{name}: {}", out.stderr);
            let lines: Vec<&str> = out.stdout.lines().collect();
            assert_eq!(lines.len(), 9, "{name}: {}", out.stdout);
            assert_eq!(lines[0], first_row, "{name}");
        }
        let out = run(&["solve", "-q", &f]);
        let r = rows(&out.stdout);
        assert_eq!(r.len(), 1, "{name}: one puzzle, one row");
        assert_eq!((r[0][0].as_str(), r[0][2].as_str()), ("1", "solved"));
    }
    // The LeetCode board's solution is LeetCode's.
    let f = write(&dir, "board.json", LEETCODE);
    let r = rows(&run(&["solve", "-q", &f]).stdout);
    assert_eq!(r[0][4], LEET_SOLUTION);
    // Lines of 81 cells are still lines; --input-format still forces a reading.
    let f = write(&dir, "lines.txt", format!("{LEET}\n{LEET}\n"));
    assert_eq!(rows(&run(&["solve", "-q", &f]).stdout).len(), 2);
    let f = write(&dir, "forced.txt", WRITE_UP);
    let r = rows(&run(&["solve", "-q", "--input-format", "line", &f]).stdout);
    assert_eq!(r.len(), 9, "forced to lines: nine invalid rows");
    assert!(r.iter().all(|row| row[2] == "invalid"));
}

#[test]
fn json_boards_arrays_lines_and_bad_boards() {
    let dir = tmp("json");
    let numbers = LEETCODE.replace("\".\"", "0").replace('"', "");
    let eight_rows = LEETCODE.replacen(r#"["5","3",".",".","7",".",".",".","."],"#, "", 1);
    let text = format!(
        "[{LEETCODE},\n {numbers}]\n{numbers}\n{eight_rows}\n{}\n",
        LEETCODE.replacen("\"9\"", "\"x\"", 1)
    );
    let f = write(&dir, "boards.txt", &text);
    for args in [
        vec!["solve", "-q", &f],
        vec!["solve", "-q", "--input-format", "json", &f],
    ] {
        let out = run(&args);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let r = rows(&out.stdout);
        let got: Vec<(&str, &str)> = r.iter().map(|r| (r[0].as_str(), r[2].as_str())).collect();
        assert_eq!(
            got,
            [
                ("1", "solved"),
                ("2", "solved"),
                ("3", "solved"),
                ("4", "invalid"),
                ("5", "invalid")
            ]
        );
        assert_eq!(r[3][7], "expected 9 rows, found 8");
        assert!(r[4][7].contains("\"x\" is not a digit"), "{}", r[4][7]);
    }
}

#[test]
fn grid_and_json_output() {
    let text = format!("{LEET}\n{EMPTY}\nnot a puzzle\n{LEET}\n");
    let out = run_stdin(&["solve", "-q", "--format", "grid"], text.clone());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let solution_block: String = LEET_SOLUTION
        .as_bytes()
        .chunks(9)
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|&b| (b as char).to_string()).collect();
            cells.join(" ") + "\n"
        })
        .collect();
    assert_eq!(
        out.stdout,
        format!(
            "{solution_block}\n# line 2: multiple (2+ solutions)\n\n# line 3: invalid \
             (unexpected character 'n' at cell 1)\n\n{solution_block}"
        )
    );
    // What grid prints reads back as blocks.
    let again = run_stdin(&["solve", "-q", "--format", "grid"], solution_block.clone());
    assert_eq!(again.stdout, solution_block);

    let out = run_stdin(&["solve", "-q", "--format", "json"], text);
    let lines: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    let board: Vec<Vec<String>> = serde_json::from_value(lines[0].clone()).unwrap();
    let flat: String = board.concat().concat();
    assert_eq!(flat, LEET_SOLUTION);
    assert_eq!(lines[1]["status"], "multiple");
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[2]["status"], "invalid");
    assert_eq!(lines[3], lines[0]);
    // A JSON board solved to a JSON board solves again to itself.
    let back = run_stdin(
        &["solve", "-q", "--format", "json"],
        out.stdout.lines().next().unwrap(),
    );
    assert_eq!(back.stdout.lines().next(), out.stdout.lines().next());
    // grid and json are solve's, and cannot be resumed.
    assert_eq!(run(&["rate", "--format", "grid"]).code, 2);
    let r = run(&["solve", "--format", "json", "--resume", "-o", "x.json"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot be resumed"), "{}", r.stderr);
}

#[test]
fn binary_files_are_refused_and_never_copied() {
    let dir = tmp("binary");
    let mut bytes = format!("{LEET}\n").into_bytes();
    bytes.extend_from_slice(b"\x00\x01\x02binary\n");
    let bin = write(&dir, "data.bin", &bytes);
    let out = dir.join("out.txt");
    for args in [
        vec!["solve", bin.as_str()],
        vec!["rate", bin.as_str()],
        vec!["dedup", bin.as_str(), "-o", s(&out)],
        vec!["verify", bin.as_str()],
        vec!["bench", "--time", "0.01", "--warmup", "0", bin.as_str()],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(
            r.stderr.lines().count(),
            1,
            "{args:?}: one message: {}",
            r.stderr
        );
        assert!(r.stderr.contains("is a binary file"), "{}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}: no rows: {}", r.stdout);
    }
    assert!(!out.exists(), "dedup wrote nothing");
    let prefix = dir.join("parts");
    let r = run(&[
        "split",
        "--test",
        "0.5",
        "--seed",
        "1",
        "--prefix",
        s(&prefix),
        &bin,
    ]);
    assert_eq!(r.code, 2);
    for side in ["train", "test"] {
        let part = dir.join(format!("parts.{side}.txt"));
        assert!(
            !part.exists(),
            "split copied nothing into {}",
            part.display()
        );
    }
    // On stdin too: refused, not read as invalid rows.
    let r = run_stdin(&["solve", "-q", "--no-header"], bytes);
    assert_eq!(r.code, 2);
    assert!(
        r.stdout.is_empty() && r.stderr.contains("binary"),
        "{}",
        r.stderr
    );
}

#[test]
fn resume_refuses_a_partial_made_by_another_run() {
    let dir = tmp("resume-record");
    let a = write(&dir, "a.txt", format!("{LEET}\n{EMPTY}\n{LEET}\n"));
    let b = write(&dir, "b.txt", format!("{EMPTY}\n{EMPTY}\n"));
    let out = dir.join("out.csv");
    let partial = dir.join("out.csv.partial");
    // A run whose second input (stdin) is refused stops after a.txt's rows: it leaves its
    // partial file and the record of the run beside it.
    let r = run_stdin(
        &["solve", "--no-timing", "-o", s(&out), &a, "-"],
        "\x00binary",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    let kept = std::fs::read(&partial).unwrap();
    assert_eq!(rows(&String::from_utf8_lossy(&kept)).len(), 3);
    assert!(dir.join("out.csv.partial.run").exists());
    for (args, why) in [
        (vec![b.as_str(), "-"], "it was made from"),
        (
            vec![a.as_str(), "-", "--limit", "3"],
            "--limit was 2 there, 3 here",
        ),
        (
            vec![a.as_str(), "-", "--format", "jsonl"],
            "--format was csv there, jsonl here",
        ),
    ] {
        let mut cmd = vec!["solve", "--no-timing", "-o", s(&out), "--resume"];
        cmd.extend(args);
        let r = run_stdin(&cmd, format!("{LEET}\n"));
        assert_eq!(r.code, 2, "{cmd:?}");
        assert!(r.stderr.contains(why), "{cmd:?}: {}", r.stderr);
        assert_eq!(
            std::fs::read(&partial).unwrap(),
            kept,
            "the kept rows are untouched"
        );
        assert!(!out.exists());
    }
    // The same run, with another -j and quietly, goes on.
    let r = run_stdin(
        &[
            "solve",
            "--no-timing",
            "-j",
            "1",
            "-q",
            "-o",
            s(&out),
            "--resume",
            &a,
            "-",
        ],
        format!("{LEET}\n"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let whole = rows(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(whole.len(), 4);
    assert_eq!(whole[3][8], "-", "the stdin row, after a.txt's");
    assert!(!partial.exists() && !dir.join("out.csv.partial.run").exists());
    // A changed input with the same name is another input.
    let r = run_stdin(&["solve", "--no-timing", "-o", s(&out), &a, "-"], "\x00");
    assert_eq!(r.code, 2);
    std::fs::write(&a, format!("{EMPTY}\n")).unwrap();
    let r = run_stdin(
        &["solve", "--no-timing", "-o", s(&out), "--resume", &a, "-"],
        "",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("the inputs changed since"),
        "{}",
        r.stderr
    );
}

#[test]
fn threads_are_bounded_everywhere_and_zero_means_one_per_core() {
    let dir = tmp("threads");
    let f = write(&dir, "p.txt", format!("{LEET}\n"));
    let pairs = write(&dir, "pairs.txt", format!("{LEET}:{LEET_SOLUTION}\n"));
    let commands: Vec<Vec<&str>> = vec![
        vec!["solve", &f],
        vec!["rate", &f],
        vec!["canon", &f],
        vec!["minimize", &f],
        vec!["augment", &f],
        vec!["dedup", &f],
        vec!["split", "--test", "0.5", "--seed", "1", "--label", &f],
        vec!["verify", &pairs],
        vec!["generate", "2", "--seed", "1"],
        vec!["bench", "--time", "0.01", "--warmup", "0", &f],
    ];
    for cmd in &commands {
        let mut too_many = cmd.clone();
        too_many.extend(["-j", "100000"]);
        let r = run(&too_many);
        assert_eq!(r.code, 2, "{too_many:?}");
        assert!(
            r.stderr.contains("more than 1024"),
            "{too_many:?}: {}",
            r.stderr
        );
        for ok in ["0", "1024"] {
            let mut args = cmd.clone();
            args.extend(["-q", "-j", ok]);
            let r = run(&args);
            assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        }
    }
    assert!(run(&["solve", "--help"])
        .stdout
        .contains("0 (the default) means one per core"));
}

#[test]
fn a_signal_ends_a_run_at_once_whatever_j() {
    let dir = tmp("stop-any-j");
    // Hundreds of slow puzzles (the empty grid counted far), one per chunk: with -j 1024 they
    // are all handed to workers at once, and a stop must not wait for them.
    let text: String = (0..600).map(|_| format!("{EMPTY}\n")).collect();
    let f = write(&dir, "slow.txt", text);
    let out = dir.join("rows.csv");
    let child = spawn(
        &[
            "solve",
            "-q",
            "--no-timing",
            "--limit",
            "20000",
            "-j",
            "1024",
            "--chunk-size",
            "1",
            "-o",
            s(&out),
            &f,
        ],
        Stdio::null(),
    );
    std::thread::sleep(Duration::from_millis(700));
    let pid = child.id().to_string();
    let sent = Instant::now();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let done = child.wait_with_output().unwrap();
    println!(
        "ended {:.2} s after SIGTERM with -j 1024",
        sent.elapsed().as_secs_f64()
    );
    assert_eq!(done.status.code(), Some(130));
    let partial = std::fs::read_to_string(dir.join("rows.csv.partial")).unwrap();
    let r = rows(&partial);
    assert!(
        r.len() < 600,
        "stopped before the puzzles already handed out were all solved ({} rows)",
        r.len()
    );
    // A clean prefix: rows 1, 2, 3, … with nothing after a gap.
    for (i, row) in r.iter().enumerate() {
        assert_eq!(row[0], (i + 1).to_string());
    }
    assert!(partial.is_empty() || partial.ends_with('\n'));
}

#[test]
fn a_man_page_per_command() {
    let r = run(&["manpage", "solve"]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains(".TH sudoku-batch-solve 1"),
        "{}",
        &r.stdout[..200]
    );
    assert!(r.stdout.contains("\\-\\-max\\-guesses"));
    let dir = tmp("man");
    let pages = dir.join("man1");
    assert_eq!(run(&["manpage", "--dir", s(&pages)]).code, 0);
    let main = std::fs::read_to_string(pages.join("sudoku-batch.1")).unwrap();
    for command in [
        "solve",
        "bench",
        "verify",
        "rate",
        "canon",
        "dedup",
        "split",
        "augment",
        "generate",
        "minimize",
        "completions",
        "manpage",
    ] {
        assert!(main.contains(&format!(
            "sudoku\\-batch\\-{}(1)",
            command.replace('-', "\\-")
        )));
        let page = std::fs::read_to_string(pages.join(format!("sudoku-batch-{command}.1")))
            .unwrap_or_else(|e| panic!("{command}: {e}"));
        // Every option of the command is on its page.
        let help = run(&[command, "--help"]).stdout;
        for long in help.split_whitespace().filter(|w| w.starts_with("--")) {
            let long = long.trim_end_matches([',', '.', ':', ')']);
            let long = long.split(['=', '[', '<']).next().unwrap();
            if long.len() > 2 && !["--help"].contains(&long) && help.contains(&format!("  {long}"))
            {
                assert!(
                    page.contains(&long.replace('-', "\\-")),
                    "{command}: {long} missing from its page"
                );
            }
        }
    }
    assert_eq!(run(&["manpage", "frobnicate"]).code, 2);
}

#[test]
fn shared_columns_are_filled_alike() {
    let dir = tmp("columns");
    let conflict = format!("55{}", &EMPTY[2..]);
    let unsolvable =
        "12345678.........9...............................................................";
    let f = write(
        &dir,
        "mixed.txt",
        format!("not a puzzle\n{conflict}\n{EMPTY}\n{unsolvable}\n{LEET}\n"),
    );
    let table = |command: &str| {
        let out = run(&[command, "-q", &f]);
        assert_eq!(out.code, 0, "{command}: {}", out.stderr);
        let mut r = csv::Reader::from_reader(out.stdout.as_bytes());
        let names: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
        let rows: Vec<Vec<String>> = r
            .records()
            .map(|x| x.unwrap().iter().map(str::to_string).collect())
            .collect();
        (names, rows)
    };
    for command in ["solve", "rate", "minimize", "canon", "augment"] {
        let (names, rows) = table(command);
        let col = |n: &str| names.iter().position(|c| c == n);
        for row in &rows {
            let status = &row[col("status").unwrap()];
            let error = &row[col("error").unwrap()];
            assert_eq!(
                status == "invalid",
                !error.is_empty(),
                "{command}: error holds a reason exactly for invalid rows: {row:?}"
            );
            if let Some(i) = col("solutions") {
                if status == "invalid" {
                    assert_eq!(row[i], "0", "{command}: solutions of an invalid row");
                }
            }
            if let Some(i) = col("guesses") {
                if status == "invalid" {
                    assert_eq!(row[i], "0", "{command}: guesses of an invalid row");
                }
            }
        }
        if command == "minimize" {
            for row in &rows[2..4] {
                assert_eq!(row[4], row[1], "a puzzle left as it is, written unchanged");
            }
        }
    }
}

#[test]
fn quiet_is_quiet_and_summaries_speak_each_command() {
    let dir = tmp("quiet");
    let f = write(&dir, "p.txt", format!("{LEET}\nnot a puzzle\n"));
    for args in [
        vec!["dedup", "-q", f.as_str()],
        vec![
            "split",
            "-q",
            "--test",
            "0.5",
            "--seed",
            "1",
            "--label",
            f.as_str(),
        ],
        vec!["solve", "-q", f.as_str()],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 0);
        assert_eq!(r.stderr, "", "{args:?}");
    }
    let r = run(&["generate", "3", "--seed", "1"]);
    assert!(r.stderr.contains("3 puzzles generated"), "{}", r.stderr);
    assert!(!r.stderr.contains("solved"), "{}", r.stderr);
    assert!(run(&["canon", &f]).stderr.contains("1 canonicalised"));
    assert!(run(&["rate", &f]).stderr.contains("rate: 2 puzzles"));
}

#[test]
fn errors_name_what_the_user_asked_for() {
    let dir = tmp("errors");
    let f = write(&dir, "p.txt", format!("{LEET}\n"));
    let missing = dir.join("nope");
    let out = missing.join("out.csv");
    for cmd in ["solve", "rate", "dedup"] {
        let r = run(&[cmd, &f, "-o", s(&out)]);
        assert_eq!(r.code, 2);
        assert_eq!(
            r.stderr.trim(),
            format!(
                "sudoku-batch: error: cannot create {}: folder {} does not exist",
                out.display(),
                missing.display()
            ),
            "{cmd}"
        );
    }
    // A device that fills up is named as given (Linux has /dev/full).
    if Path::new("/dev/full").exists() {
        let r = run(&["solve", &f, "-o", "/dev/full"]);
        assert_eq!(r.code, 2);
        assert!(
            r.stderr
                .starts_with("sudoku-batch: error: cannot write /dev/full: "),
            "{}",
            r.stderr
        );
    }
    let r = run(&["solve", s(&missing)]);
    assert_eq!(
        r.stderr.trim(),
        format!(
            "sudoku-batch: error: cannot read {}: no such file",
            missing.display()
        )
    );
}
