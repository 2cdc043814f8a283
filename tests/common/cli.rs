//! Running the real `sudoku-batch` binary from the integration tests, and the files they feed it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// LeetCode 37's puzzle and its solution.
pub const LEET: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
pub const LEET_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// The empty grid: every solution counts.
pub const EMPTY: &str =
    ".................................................................................";
/// No rule is broken by the givens, but r1c9 can only be 9 and column 9 already has one.
pub const UNSOLVABLE: &str =
    "12345678.........9...............................................................";

/// What a run of the binary gave.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    fn from(out: std::process::Output) -> Out {
        Out {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// The binary, ready for arguments.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
}

/// Runs the binary with no stdin.
pub fn run(args: &[&str]) -> Out {
    Out::from(
        bin()
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run sudoku-batch"),
    )
}

/// Runs the binary with `input` on stdin (written from another thread, so a large input cannot
/// deadlock against a full stdout pipe).
pub fn run_stdin(args: &[&str], input: impl Into<Vec<u8>>) -> Out {
    let mut child = spawn(args, Stdio::piped());
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = input.into();
    std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    Out::from(child.wait_with_output().expect("wait for sudoku-batch"))
}

/// A fresh directory for one test's files.
pub fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-batch-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    dir
}

/// Writes `text` to `dir/name` and returns the path as a string.
pub fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write a test file");
    p.to_str().expect("temporary paths are UTF-8").to_string()
}

/// Runs the binary with `args`, reads the first line of its stdout and closes the pipe, like
/// `| head -1`. Returns that line and the finished run (its stdout is empty).
pub fn first_line_then_close(args: &[&str]) -> (String, Out) {
    use std::io::{BufRead, BufReader};
    let mut child = spawn(args, Stdio::null());
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    drop(stdout);
    (first, Out::from(child.wait_with_output().unwrap()))
}

/// The lines of `text` that contain `marker` (a report's lines of one kind).
pub fn lines_with<'a>(text: &'a str, marker: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(marker)).collect()
}

/// The binary started with `args`, the given stdin, and stdout and stderr piped.
pub fn spawn(args: &[&str], stdin: Stdio) -> std::process::Child {
    bin()
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sudoku-batch")
}
