//! Scale and faults, with the real binary: compressed inputs, shards, interrupt (SIGINT) and
//! kill (SIGKILL) followed by `--resume`, cut rows, huge lines, an empty environment.

use crate::common::cli::{bin, run, run_stdin, tmp, EMPTY, LEET};

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A corpus that takes a noticeable time to solve (the empty grid counted to `--limit`), with
/// unique, invalid, blank and comment lines mixed in.
fn slow_corpus(n: usize) -> String {
    let mut out = String::from("# slow corpus\n");
    for i in 0..n {
        match i % 6 {
            0 => out.push_str("not a puzzle"),
            1 => out.push_str(LEET),
            2 => out.push_str("# comment"),
            3 => {}
            _ => out.push_str(EMPTY),
        }
        out.push('\n');
    }
    out
}

/// `solve` on one thread, deterministic output, the empty grids counted to 300 unless `extra`
/// names another `--limit`.
fn slow_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["solve", "-q", "--no-timing", "-j", "1"];
    if !extra.contains(&"--limit") {
        v.extend(["--limit", "300"]);
    }
    v.extend_from_slice(extra);
    v
}

/// For the stop tests: a run long enough (about a second) that a signal lands mid-run.
const STOP_LIMIT: &str = "20000";

#[test]
fn gzip_and_zstd_read_like_plain_text() {
    let dir = tmp("compressed");
    let text = slow_corpus(60);
    let plain = dir.join("c.txt");
    std::fs::write(&plain, &text).unwrap();
    let mut gz = Vec::new();
    for part in text.as_bytes().chunks(1000) {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(part).unwrap();
        gz.extend(e.finish().unwrap());
    }
    std::fs::write(dir.join("c.txt.gz"), &gz).unwrap();
    std::fs::write(
        dir.join("c.txt.zst"),
        zstd::encode_all(text.as_bytes(), 3).unwrap(),
    )
    .unwrap();
    let want = run(&["solve", "-q", "--no-timing", s(&plain)]);
    assert_eq!(want.code, 0);
    for name in ["c.txt.gz", "c.txt.zst"] {
        let got = run(&["solve", "-q", "--no-timing", s(&dir.join(name))]);
        assert_eq!(got.code, 0, "{}", got.stderr);
        assert_eq!(got.stdout, want.stdout, "{name}");
    }
    let got = run_stdin(&["solve", "-q", "--no-timing"], gz);
    assert_eq!(got.stdout, want.stdout, "gzip on stdin");
    // A damaged gzip file is an error that names it, after the rows that could be read.
    let mut bad = zstd::encode_all(text.as_bytes(), 3).unwrap();
    bad.truncate(bad.len() / 2);
    let f = dir.join("cut.txt.zst");
    std::fs::write(&f, bad).unwrap();
    let got = run(&["solve", "-q", s(&f)]);
    assert_eq!(got.code, 2);
    assert!(got.stderr.contains("cut.txt.zst"), "{}", got.stderr);
}

#[test]
fn shards_partition_the_input() {
    let dir = tmp("shards");
    let f = dir.join("c.txt");
    std::fs::write(&f, slow_corpus(100)).unwrap();
    let whole = run(&["solve", "-q", "--no-timing", s(&f)]);
    let mut want: Vec<&str> = whole.stdout.lines().skip(1).collect();
    let mut got: Vec<String> = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let out = run(&["solve", "-q", "--no-timing", "--shard", &shard, s(&f)]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let rows: Vec<String> = out.stdout.lines().skip(1).map(String::from).collect();
        assert!(!rows.is_empty());
        for r in &rows {
            let line: u64 = r.split(',').next().unwrap().parse().unwrap();
            assert_eq!((line - 1) % 3, k - 1, "row {r} in shard {shard}");
        }
        got.extend(rows);
    }
    want.sort();
    got.sort();
    assert_eq!(got, want, "the shards together are the whole run, once");
    for bad in ["0/3", "4/3", "1/0", "x", "1/2/3"] {
        assert_eq!(run(&["solve", "--shard", bad, s(&f)]).code, 2, "{bad}");
    }
}

#[test]
fn resume_repairs_a_cut_row_at_any_point() {
    let dir = tmp("cut");
    let f = dir.join("c.txt");
    std::fs::write(&f, slow_corpus(40)).unwrap();
    let done = dir.join("done.csv");
    let out = run(&slow_args(&["-o", s(&done), s(&f)]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        !dir.join("done.csv.partial").exists(),
        "renamed when complete"
    );
    let full = std::fs::read(&done).unwrap();
    // Cut the output everywhere a SIGKILL could: inside the header, at row ends, mid-row.
    for cut in (0..full.len()).step_by(97).chain([full.len()]) {
        let o = dir.join(format!("o{cut}.csv"));
        std::fs::write(dir.join(format!("o{cut}.csv.partial")), &full[..cut]).unwrap();
        let r = run(&slow_args(&["-o", s(&o), "--resume", s(&f)]));
        assert_eq!(r.code, 0, "cut at {cut}: {}", r.stderr);
        assert_eq!(std::fs::read(&o).unwrap(), full, "cut at {cut}");
        assert!(!dir.join(format!("o{cut}.csv.partial")).exists());
    }
    // Nothing to resume once complete; --resume needs -o.
    let r = run(&["solve", "--resume", "-o", s(&done), s(&f)]);
    assert_eq!(r.code, 0);
    assert!(r.stderr.contains("nothing to resume"), "{}", r.stderr);
    assert_eq!(std::fs::read(&done).unwrap(), full);
    assert_eq!(run(&["solve", "--resume", s(&f)]).code, 2);
}

#[test]
fn resume_across_several_inputs_and_json_lines() {
    let dir = tmp("multi");
    let a = dir.join("a.txt");
    let b = dir.join("b.txt");
    std::fs::write(&a, slow_corpus(13)).unwrap();
    std::fs::write(&b, slow_corpus(17)).unwrap();
    for format in ["csv", "jsonl"] {
        let done = dir.join(format!("done.{format}"));
        let args = |o: &Path, resume: bool| {
            let mut v = slow_args(&["--format", format, "-o"]);
            v.push(Box::leak(s(o).to_string().into_boxed_str()));
            if resume {
                v.push("--resume");
            }
            v.push(Box::leak(s(&a).to_string().into_boxed_str()));
            v.push(Box::leak(s(&b).to_string().into_boxed_str()));
            v
        };
        assert_eq!(run(&args(&done, false)).code, 0);
        let full = std::fs::read(&done).unwrap();
        for cut in (0..full.len()).step_by(211) {
            let o = dir.join(format!("o{cut}.{format}"));
            std::fs::write(dir.join(format!("o{cut}.{format}.partial")), &full[..cut]).unwrap();
            let r = run(&args(&o, true));
            assert_eq!(r.code, 0, "{format} cut at {cut}: {}", r.stderr);
            assert_eq!(std::fs::read(&o).unwrap(), full, "{format} cut at {cut}");
        }
    }
}

/// Kills the real binary mid-run (SIGKILL, or SIGINT for a clean stop) at several points, then
/// resumes; the result must equal an uninterrupted run, row for row.
fn stop_and_resume(signal: &str) {
    let dir = tmp(&format!("stop-{signal}"));
    let f = dir.join("c.txt");
    std::fs::write(&f, slow_corpus(1500)).unwrap();
    let done = dir.join("done.csv");
    let args = slow_args(&[
        "--limit",
        STOP_LIMIT,
        "--chunk-size",
        "16",
        "-o",
        s(&done),
        s(&f),
    ]);
    assert_eq!(run(&args).code, 0);
    let full = std::fs::read_to_string(&done).unwrap();
    let mut stopped_mid_run = 0;
    for (i, delay_ms) in [30u64, 120, 300, 600].into_iter().enumerate() {
        let o = dir.join(format!("o{i}.csv"));
        let args = slow_args(&[
            "--limit",
            STOP_LIMIT,
            "--chunk-size",
            "16",
            "-o",
            s(&o),
            s(&f),
        ]);
        let child = bin()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let out = child.wait_with_output().unwrap();
        let code = out.status.code();
        let stderr = String::from_utf8_lossy(&out.stderr);
        if o.exists() {
            // It finished before the signal arrived.
            assert_eq!(code, Some(0));
        } else {
            stopped_mid_run += 1;
            if signal == "INT" {
                assert_eq!(code, Some(130), "{stderr}");
                assert!(stderr.contains("--resume"), "{stderr}");
                // A clean stop leaves only complete rows.
                let partial =
                    std::fs::read_to_string(dir.join(format!("o{i}.csv.partial"))).unwrap();
                assert!(full.starts_with(&partial), "a prefix of the full run");
                assert!(partial.is_empty() || partial.ends_with('\n'));
            } else {
                assert_eq!(code, None, "killed by a signal");
            }
            let mut resume = slow_args(&[
                "--limit",
                STOP_LIMIT,
                "--chunk-size",
                "16",
                "-o",
                s(&o),
                "--resume",
            ]);
            resume.push(s(&f));
            let r = run(&resume);
            assert_eq!(r.code, 0, "{}", r.stderr);
        }
        assert_eq!(
            std::fs::read_to_string(&o).unwrap(),
            full,
            "stop after {delay_ms} ms"
        );
    }
    assert!(
        stopped_mid_run > 0,
        "no stop landed mid-run: make the corpus slower"
    );
}

#[test]
fn sigkill_then_resume_equals_an_uninterrupted_run() {
    stop_and_resume("KILL");
}

#[test]
fn sigint_stops_cleanly_then_resume_equals_an_uninterrupted_run() {
    stop_and_resume("INT");
}

#[test]
fn huge_line_without_newline_is_one_invalid_row() {
    let mut input = format!("{LEET}\n").into_bytes();
    input.extend(std::iter::repeat_n(b'7', 3 << 20));
    let out = run_stdin(&["solve", "-q"], input);
    assert_eq!(out.code, 0);
    let rows: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(rows.len(), 3);
    assert!(rows[2].starts_with("2,,invalid,"), "{}", rows[2]);
    assert!(rows[2].contains("line too long"), "{}", rows[2]);
}

#[test]
fn runs_from_an_absolute_path_with_an_empty_environment() {
    let dir = tmp("env");
    let f = dir.join("c.txt");
    std::fs::write(&f, format!("{LEET}\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .env_clear()
        .current_dir("/")
        .args(["solve", s(&f)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 2);
    assert!(text.contains(",solved,1,"));
    // Only rows on stdout; the summary went to stderr.
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 solved"));
}

/// The guide's GNU parallel recipes (docs/guide.md): `--pipepart` blocks and `--shard` jobs both give the rows
/// of a local run (by puzzle for pipepart, whose pieces number their lines from 1).
#[test]
#[cfg_attr(not(has_parallel), ignore = "needs GNU parallel")]
fn gnu_parallel_recipes() {
    let dir = tmp("parallel");
    let f = dir.join("c.txt");
    std::fs::write(&f, slow_corpus(600)).unwrap();
    let bin = env!("CARGO_BIN_EXE_sudoku-batch");
    let local = run(&["solve", "-q", "--no-header", "--no-timing", s(&f)]).stdout;
    let sh = |script: String| {
        let out = Command::new("sh").arg("-c").arg(script).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let pipepart = sh(format!(
        "parallel --pipepart -a {} --block 4k -k {bin} solve -q --no-header --no-timing",
        s(&f)
    ));
    let shards = sh(format!(
        "parallel -k {bin} solve -q --no-header --no-timing --shard {{}}/3 {} ::: 1 2 3",
        s(&f)
    ));
    let sorted = |t: &str, drop_line: bool| {
        let mut v: Vec<String> = t
            .lines()
            .map(|l| {
                if drop_line {
                    l.split_once(',').map_or(l, |(_, r)| r).to_string()
                } else {
                    l.to_string()
                }
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(sorted(&pipepart, true), sorted(&local, true));
    assert_eq!(sorted(&shards, false), sorted(&local, false));
}

/// Puzzles that make naive solvers crawl finish: the empty grid counted to a million, grids of
/// 8 to 16 clues; and with `--max-guesses` a puzzle is given up, never a hang.
#[test]
fn hard_cases_finish_and_budgets_give_up() {
    let mut input = format!("{EMPTY}\n");
    // 8 to 16 clues of LeetCode 37's solution: sparse, many solutions.
    let sol = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    for keep in 8..=16 {
        let line: String = sol
            .chars()
            .enumerate()
            .map(|(i, ch)| if (i * 7) % 81 < keep { ch } else { '.' })
            .collect();
        input.push_str(&line);
        input.push('\n');
    }
    let out = run_stdin(
        &[
            "solve",
            "-q",
            "--no-timing",
            "--limit",
            "1000000",
            "-j",
            "2",
        ],
        input.clone().into_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<Vec<&str>> = out
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 10);
    assert_eq!(
        (rows[0][2], rows[0][3]),
        ("multiple", "1000000"),
        "the empty grid"
    );
    for r in &rows[1..] {
        assert_eq!(r[2], "multiple");
    }
    let out = run_stdin(
        &[
            "solve",
            "-q",
            "--no-timing",
            "--limit",
            "1000000",
            "--max-guesses",
            "50",
            "--strict",
        ],
        input.into_bytes(),
    );
    assert_eq!(out.code, 1, "given-up puzzles fail --strict");
    let rows: Vec<Vec<&str>> = out
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 10);
    for r in &rows {
        assert_eq!(r[2], "gave-up", "{r:?}");
        assert_eq!(r[5], "50", "exactly the budget of guesses");
    }
    // A budget that is not reached changes nothing.
    let out = run_stdin(
        &["solve", "-q", "--max-guesses", "1000", "--strict"],
        format!("{LEET}\n").into_bytes(),
    );
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains(",solved,1,"));
}

/// `-o` naming something that is not a regular file (a FIFO here, /dev/null in docs/speed.md's
/// commands) is written directly: a `.partial` file renamed over it would replace it.
#[test]
#[cfg_attr(not(has_mkfifo), ignore = "needs mkfifo")]
fn output_to_a_fifo_or_device_is_written_in_place() {
    let dir = tmp("fifo");
    let f = dir.join("c.txt");
    std::fs::write(&f, slow_corpus(30)).unwrap();
    let fifo = dir.join("rows.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = run(&["solve", "-q", "--no-timing", "-o", s(&fifo), s(&f)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows = reader.join().unwrap();
    let want = run(&["solve", "-q", "--no-timing", s(&f)]).stdout;
    assert_eq!(rows, want);
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced");
    assert!(!dir.join("rows.fifo.partial").exists());
    // --resume makes no sense there and says so.
    let out = run(&["solve", "-q", "--resume", "-o", s(&fifo), s(&f)]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("regular file"), "{}", out.stderr);
    // And /dev/null, as the speed commands of docs/speed.md use it, stays a device.
    let out = run(&["solve", "-q", "-o", "/dev/null", s(&f)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let null = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(null.is_char_device(), "/dev/null was replaced by a file");
}
