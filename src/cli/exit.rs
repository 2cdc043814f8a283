//! Every exit code the binary can return, in one place, with the text `--help` shows for them.
//!
//! The codes are a contract with scripts: 0 for a completed run (invalid or unsolvable puzzles
//! are data, not failures, and a reader closing stdout early — `| head` — is the reader's choice),
//! 1 when the run completed but found what the command treats as failure (`--strict` with bad
//! puzzles, `verify` with rows that are not right, `bench --external` with wrong answers, a
//! `generate` target not met within `--max-tries`), 2 for usage and I/O errors, 130 for a run
//! stopped by SIGINT or SIGTERM after writing every row read so far.

/// A completed run.
pub const OK: i32 = 0;
/// A completed run that found what the command treats as failure.
pub const FOUND: i32 = 1;
/// A usage error, or an input or output that could not be opened, read or written.
pub const ERROR: i32 = 2;
/// Stopped by SIGINT or SIGTERM (128 + SIGINT, as shells report it).
pub const INTERRUPTED: i32 = 130;

/// The exit-status section of `--help`.
pub const HELP: &str = "\
Exit status:
  0  the run completed (invalid and unsolvable puzzles are reported in the output, not errors);
     also when the reader of stdout closes it early, e.g. `| head`
  1  the run completed but found failures: with --strict, some puzzle was invalid, unsolvable or
     given up (--max-guesses); verify: some row is not right; bench --external: a wrong or
     missing answer, or the solver crashed or timed out; generate: a puzzle found no try
     meeting the targets within --max-tries; sample --strict: a band has fewer rows than
     --per-band
  2  usage error, or an input or output could not be opened, read or written
  130  stopped by SIGINT or SIGTERM after writing every row read so far (see --resume; sample
     writes nothing)";
