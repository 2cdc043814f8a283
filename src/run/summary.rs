//! What a run of a per-puzzle command did: the status of each row, and the summary counted from
//! them (counts by status, wall time, solve times).
//!
//! The statuses are one vocabulary for every per-puzzle command (`solve`, `rate`, `canon`,
//! `minimize`), so scripts read them alike. The summary keeps solve times in a fixed-size
//! log-linear histogram ([`TimeHistogram`]) rather than a list, so a run over a billion puzzles
//! still reports a median in constant memory.

use std::fmt;
use std::io::{self, Write};
use std::time::Duration;

use crate::human::{group, human_ns};

/// What became of one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Exactly one solution (with `--first`: at least one).
    Solved,
    /// At least two solutions.
    Multiple,
    /// No solution.
    Unsolvable,
    /// Not a puzzle, or givens that break a rule.
    Invalid,
    /// The guess budget (`--max-guesses`) ran out first; `solutions` counts what was found.
    GaveUp,
    /// Read and processed, where the command does not solve (`canon`).
    Ok,
}

impl Status {
    /// All statuses, in the order summaries list them.
    pub const ALL: [Status; 6] = [
        Status::Solved,
        Status::Multiple,
        Status::Unsolvable,
        Status::Invalid,
        Status::GaveUp,
        Status::Ok,
    ];

    /// The status for a solution count.
    pub fn from_count(solutions: u32) -> Status {
        match solutions {
            0 => Status::Unsolvable,
            1 => Status::Solved,
            _ => Status::Multiple,
        }
    }

    /// The word written in the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Multiple => "multiple",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::GaveUp => "gave-up",
            Status::Ok => "ok",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Solve times in log-linear buckets: 32 per power of two, so any quantile it reports is
/// within about 2 % of the true value, in constant memory.
#[derive(Clone, Debug)]
pub struct TimeHistogram {
    counts: Box<[u64; HIST_BUCKETS]>,
    total: u64,
    sum_ns: u128,
}

const SUB_BITS: u32 = 5;
const HIST_BUCKETS: usize = (64 << SUB_BITS) as usize;

impl Default for TimeHistogram {
    fn default() -> Self {
        TimeHistogram {
            counts: Box::new([0; HIST_BUCKETS]),
            total: 0,
            sum_ns: 0,
        }
    }
}

impl TimeHistogram {
    fn bucket(ns: u64) -> usize {
        if ns < (1 << SUB_BITS) {
            return ns as usize;
        }
        let exp = 63 - ns.leading_zeros(); // >= SUB_BITS
        let mantissa = (ns >> (exp - SUB_BITS)) as usize & ((1 << SUB_BITS) - 1);
        (((exp - SUB_BITS + 1) as usize) << SUB_BITS) | mantissa
    }

    /// The middle of a bucket's range, in nanoseconds.
    fn value(bucket: usize) -> f64 {
        let group = bucket >> SUB_BITS;
        let mantissa = (bucket & ((1 << SUB_BITS) - 1)) as f64;
        if group == 0 {
            return mantissa;
        }
        let exp = group as i32 - 1 + SUB_BITS as i32;
        let width = 2f64.powi(exp - SUB_BITS as i32);
        2f64.powi(exp) + mantissa * width + width / 2.0
    }

    /// Records one time.
    pub fn add(&mut self, ns: u64) {
        self.counts[Self::bucket(ns)] += 1;
        self.total += 1;
        self.sum_ns += u128::from(ns);
    }

    /// How many times were recorded.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The mean, exact.
    pub fn mean_ns(&self) -> Option<f64> {
        (self.total > 0).then(|| self.sum_ns as f64 / self.total as f64)
    }

    /// The `q`-quantile (0.5 = median), approximate as described on the type.
    pub fn quantile_ns(&self, q: f64) -> Option<f64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Some(Self::value(i));
            }
        }
        None
    }
}

/// What a whole run did: counts by status, wall time, solve times.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    counts: [u64; Status::ALL.len()],
    /// Solve times of the puzzles that were solved (all but `invalid`), when timed.
    pub times: TimeHistogram,
    /// Wall-clock time of the run.
    pub wall: Duration,
    /// Whether the run was stopped by a signal before the end of its input.
    pub interrupted: bool,
    /// The command that ran: its summary is said in its own words (`""`: plain counts).
    pub command: &'static str,
}

impl Summary {
    /// Counts `n` puzzles that got `status`.
    pub fn add(&mut self, status: Status, n: u64) {
        self.counts[status.index()] += n;
    }

    /// How many puzzles got `status`.
    pub fn count(&self, status: Status) -> u64 {
        self.counts[status.index()]
    }

    /// How many rows were written.
    pub fn puzzles(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Writes the human summary (what `--quiet` silences), in the command's own words: `solve`
    /// counts solved puzzles, `rate` rated ones, `minimize` minimized ones, `canon` and
    /// `augment` what they wrote; `generate` says its own (see its command).
    pub fn write_to(&self, w: &mut dyn Write) -> io::Result<()> {
        if self.command == "generate" {
            // generate says what it did itself: puzzles generated, tries, acceptance.
            return Ok(());
        }
        let secs = self.wall.as_secs_f64();
        let n = self.puzzles();
        let rate = if secs > 0.0 { n as f64 / secs } else { 0.0 };
        // The words of each status for this command; `None`: not shown unless it occurred.
        let word = |s: Status| -> (&'static str, bool) {
            match (self.command, s) {
                ("rate", Status::Solved) => ("rated (one solution)", true),
                ("minimize", Status::Solved) => ("minimized", true),
                ("minimize", Status::Multiple | Status::Unsolvable) => (
                    if s == Status::Multiple {
                        "multiple (kept as they are)"
                    } else {
                        "unsolvable (kept as they are)"
                    },
                    true,
                ),
                ("canon", Status::Ok) => ("canonicalised", true),
                ("augment", Status::Ok) => ("augmented", true),
                ("canon" | "augment", Status::Invalid) => ("invalid", true),
                ("canon" | "augment", _) => (s.as_str(), false),
                (_, Status::GaveUp | Status::Ok) => (s.as_str(), false),
                _ => (s.as_str(), true),
            }
        };
        let counts: Vec<String> = Status::ALL
            .iter()
            .filter(|&&s| word(s).1 || self.count(s) > 0)
            .map(|&s| format!("{} {}", group(self.count(s)), word(s).0))
            .collect();
        let who = if self.command.is_empty() {
            String::new()
        } else {
            format!("{}: ", self.command)
        };
        writeln!(
            w,
            "sudoku-batch: {who}{} puzzles in {:.3} s ({}/s): {}",
            group(n),
            secs,
            group(rate.round() as u64),
            counts.join(", ")
        )?;
        if let (Some(mean), Some(median)) = (self.times.mean_ns(), self.times.quantile_ns(0.5)) {
            writeln!(
                w,
                "sudoku-batch: solve time per puzzle: mean {}, median ≈ {}",
                human_ns(mean),
                human_ns(median)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_quantiles_are_close() {
        let mut h = TimeHistogram::default();
        for ns in 1..=100_000u64 {
            h.add(ns);
        }
        let median = h.quantile_ns(0.5).unwrap();
        assert!((median - 50_000.0).abs() / 50_000.0 < 0.03, "{median}");
        let p99 = h.quantile_ns(0.99).unwrap();
        assert!((p99 - 99_000.0).abs() / 99_000.0 < 0.03, "{p99}");
        assert_eq!(h.mean_ns(), Some(50_000.5));
        assert_eq!(h.quantile_ns(0.0), Some(1.0));
        h.add(u64::MAX);
        assert!(h.quantile_ns(1.0).unwrap() > 1e18);
    }
}
