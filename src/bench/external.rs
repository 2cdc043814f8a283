//! `bench --external "CMD"`: referee another solver.
//!
//! The command runs under `sh -c`, in a process group of its own. A separate thread feeds it the
//! corpus on stdin, one normalized 81-char puzzle per line (`.` for blanks; unusable input lines
//! were already dropped when the corpus was loaded, so answer *i* belongs to puzzle *i*), and
//! closes stdin; the calling thread reads stdout line by line (at most
//! [`MAX_LINE`](crate::input::MAX_LINE) bytes of a line are kept). The clock runs from the spawn
//! to the end of stdout and the exit of the command, so the figure includes its start-up.
//!
//! When `timeout` passes first, the whole process group is killed (so a solver started by the
//! shell dies too) and the run is reported as timed out. Every answer is then classified:
//! - **right**: a complete grid that breaks no rule and keeps the givens — any solution of a
//!   puzzle with several counts — or, for a puzzle with no solution, anything that is not a
//!   complete grid (solvers signal "no solution" in their own ways);
//! - **wrong**: anything else, with the reason;
//! - **missing**: no answer line for the puzzle (the solver stopped early, crashed or timed out).
//!
//! Answer lines beyond the number of puzzles are counted as `extra`.

use std::io::{self, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::Corpus;
use crate::engine;
use crate::grid::Grid;
use crate::input::{LineReader, Source};
use crate::verify::solution_problem;

/// How the command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
    /// It was still running at the timeout and was killed.
    TimedOut,
}

impl Exit {
    /// Whether the run counts as a crash: a non-zero exit or a signal.
    pub fn crashed(&self) -> bool {
        matches!(self, Exit::Code(c) if *c != 0) || matches!(self, Exit::Signal(_))
    }

    /// For people: `exit 0`, `exit 3 (crashed)`, `killed by signal 11 (crashed)`, `timed out`.
    pub fn describe(&self) -> String {
        match self {
            Exit::Code(0) => "exit 0".into(),
            Exit::Code(c) => format!("exit {c} (crashed)"),
            Exit::Signal(s) => format!("killed by signal {s} (crashed)"),
            Exit::TimedOut => "timed out, killed".into(),
        }
    }
}

/// A wrong answer: the puzzle's input line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongAnswer {
    pub line: u64,
    pub reason: String,
}

/// What the external solver did on one corpus.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub command: String,
    pub puzzles: usize,
    /// Answer lines read (at most `puzzles`).
    pub answers: usize,
    /// Answer lines beyond the number of puzzles.
    pub extra: u64,
    pub right: usize,
    pub wrong: Vec<WrongAnswer>,
    pub missing: usize,
    /// Input line of the first puzzle without an answer.
    pub first_missing_line: Option<u64>,
    /// From spawn to end of output and exit (or to the kill).
    pub seconds: f64,
    /// Answers per second over `seconds`.
    pub puzzles_per_sec: f64,
    pub exit: Exit,
    /// The last bytes the command wrote on stderr (for crash reports).
    pub stderr_tail: String,
}

const STDERR_TAIL: usize = 2048;

fn exit_of(status: ExitStatus) -> Exit {
    if let Some(c) = status.code() {
        return Exit::Code(c);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(s) = status.signal() {
            return Exit::Signal(s);
        }
    }
    Exit::Code(-1)
}

/// Kills the child and everything in its process group.
fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours. The child was
        // spawned with process_group(0), so its group id is its pid and `-pid` names that group
        // (and only it: the pid is ours until we reap the child below).
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}

/// Runs `command` on `corpus` (see the module doc). An error means the command could not be
/// started at all.
pub fn run(command: &str, corpus: &Corpus, timeout: Duration) -> io::Result<Outcome> {
    let mut input = Vec::with_capacity(corpus.puzzles.len() * 82);
    for p in &corpus.puzzles {
        let mut line = [0u8; 81];
        p.write_line(&mut line);
        input.extend_from_slice(&line);
        input.push(b'\n');
    }
    let n = corpus.puzzles.len();

    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let start = Instant::now();
    let deadline = start + timeout;
    let mut child = cmd.spawn()?;
    let (Some(mut stdin), Some(stdout), Some(mut stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        kill_group(&mut child);
        let _ = child.wait();
        return Err(io::Error::other("the command's pipes could not be set up"));
    };

    // Feeder: a solver that stops reading (or exits) makes the write fail, which ends it.
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    // Stderr: keep the tail.
    let (err_tx, err_rx) = mpsc::channel::<Vec<u8>>();
    thread::spawn(move || {
        let mut tail = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(k) = stderr.read(&mut buf) {
            if k == 0 {
                break;
            }
            tail.extend_from_slice(&buf[..k]);
            if tail.len() > 2 * STDERR_TAIL {
                tail.drain(..tail.len() - STDERR_TAIL);
            }
        }
        let _ = err_tx.send(tail);
    });
    // Stdout: one parsed answer per line.
    let (ans_tx, ans_rx) = mpsc::channel::<Option<Grid>>();
    thread::spawn(move || {
        let source: Source = BufReader::new(Box::new(stdout));
        let mut lines = LineReader::new(source);
        while let Ok(Some(line)) = lines.next_line() {
            if ans_tx.send(Grid::parse_line(line.text).ok()).is_err() {
                break;
            }
        }
    });

    let mut answers: Vec<Option<Grid>> = Vec::with_capacity(n);
    let mut extra = 0u64;
    let mut timed_out = false;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match ans_rx.recv_timeout(left) {
            Ok(a) if answers.len() < n => answers.push(a),
            Ok(_) => extra += 1,
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                timed_out = true;
                break;
            }
        }
    }
    let mut status = None;
    while !timed_out {
        match child.try_wait()? {
            Some(s) => {
                status = Some(s);
                break;
            }
            None if Instant::now() >= deadline => timed_out = true,
            None => thread::sleep(Duration::from_millis(5)),
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let exit = match status {
        Some(s) => exit_of(s),
        None => {
            kill_group(&mut child);
            let _ = child.wait();
            Exit::TimedOut
        }
    };
    // Whatever answers were already on their way count (a kill does not take them back).
    while let Ok(a) = ans_rx.try_recv() {
        if answers.len() < n {
            answers.push(a);
        } else {
            extra += 1;
        }
    }
    let tail = err_rx
        .recv_timeout(Duration::from_millis(500))
        .unwrap_or_default();
    let stderr_tail = String::from_utf8_lossy(&tail).trim().to_string();

    let verdicts: Vec<Option<String>> = answers
        .par_iter()
        .zip(corpus.puzzles.par_iter())
        .map(|(a, p)| judge(p, a.as_ref()))
        .collect();
    let wrong: Vec<WrongAnswer> = verdicts
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            v.as_ref().map(|reason| WrongAnswer {
                line: corpus.lines.get(i).copied().unwrap_or(i as u64 + 1),
                reason: reason.clone(),
            })
        })
        .collect();
    let answered = answers.len();
    Ok(Outcome {
        command: command.to_string(),
        puzzles: n,
        answers: answered,
        extra,
        right: answered - wrong.len(),
        wrong,
        missing: n - answered,
        first_missing_line: corpus.lines.get(answered).copied(),
        seconds,
        puzzles_per_sec: if seconds > 0.0 {
            answered as f64 / seconds
        } else {
            0.0
        },
        exit,
        stderr_tail,
    })
}

/// `None` when `answer` is a right answer to `puzzle`, else why not.
pub fn judge(puzzle: &Grid, answer: Option<&Grid>) -> Option<String> {
    let complete = answer.is_some_and(|a| a.cells().iter().all(|&v| v != 0));
    if let Some(a) = answer {
        if a.is_solution_of(puzzle) {
            return None;
        }
    }
    let solvable = engine::solve(puzzle, 1).solutions > 0;
    match (answer, solvable) {
        (_, false) if !complete => None,
        (_, false) => Some("the puzzle has no solution, but a complete grid was given".into()),
        (None, true) => Some("not an 81-cell grid".into()),
        (Some(a), true) => solution_problem(puzzle, a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::{LEET, LEET_SOLUTION as SOL};

    #[test]
    fn judging() {
        let p: Grid = LEET.parse().unwrap();
        let s: Grid = SOL.parse().unwrap();
        assert_eq!(judge(&p, Some(&s)), None);
        assert_eq!(judge(&p, None).unwrap(), "not an 81-cell grid");
        assert!(judge(&p, Some(&p)).unwrap().contains("incomplete"));
        // Any solution of a puzzle with several is right.
        assert_eq!(judge(&Grid::EMPTY, Some(&s)), None);
        let unsolvable: Grid = format!("12345678.........9{}", ".".repeat(63))
            .parse()
            .unwrap();
        assert_eq!(judge(&unsolvable, None), None);
        assert_eq!(judge(&unsolvable, Some(&unsolvable)), None);
        assert!(judge(&unsolvable, Some(&s)).is_some());
    }

    fn corpus(puzzles: &[&str]) -> Corpus {
        Corpus {
            candidates: Vec::new(),
            name: "t".into(),
            puzzles: puzzles.iter().map(|p| p.parse().unwrap()).collect(),
            lines: (1..=puzzles.len() as u64).map(|l| l * 10).collect(),
            skipped: 0,
        }
    }

    #[cfg(unix)]
    #[test]
    fn shell_commands() {
        let c = corpus(&[LEET, LEET, LEET]);
        let t = Duration::from_secs(30);
        // Answers with the known solution twice, then garbage, then one line too many.
        let cmd = format!("cat >/dev/null; echo {SOL}; echo {SOL}; echo nonsense; echo {SOL}");
        let o = run(&cmd, &c, t).unwrap();
        assert_eq!((o.right, o.wrong.len(), o.missing, o.extra), (2, 1, 0, 1));
        assert_eq!(o.wrong[0].line, 30);
        assert_eq!(o.exit, Exit::Code(0));
        // Stops early and fails.
        let o = run(&format!("echo {SOL}; echo oops >&2; exit 3"), &c, t).unwrap();
        assert_eq!((o.right, o.wrong.len(), o.missing), (1, 0, 2));
        assert_eq!(o.first_missing_line, Some(20));
        assert_eq!(o.exit, Exit::Code(3));
        assert!(o.exit.crashed());
        assert_eq!(o.stderr_tail, "oops");
        // Hangs: killed at the timeout, with the answers it gave counted.
        let o = run(
            &format!("echo {SOL}; sleep 30"),
            &c,
            Duration::from_millis(300),
        )
        .unwrap();
        assert_eq!(o.exit, Exit::TimedOut);
        assert_eq!((o.right, o.missing), (1, 2));
    }
}
