//! `audit`'s flags: the inputs, which kinds of pair to look for, across inputs only or not, the
//! memory/time trade of `--passes`, and the rows' output.

use super::*;

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// Input files, read in order; `-` or none reads stdin. Lines, blocks, LeetCode JSON or CSV
    /// (a puzzle column), as for solve.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// The kinds of pair to look for, comma-separated: exact, equivalent, neighbour,
    /// same-solution, or all. A pair is reported once, under the closest of these that holds
    /// (in that order).
    #[arg(long, value_name = "KINDS", default_value = "all", value_parser = crate::audit::parse_kinds)]
    pub kinds: u8,

    /// Report only pairs whose puzzles come from two different inputs (the exit status is 1
    /// whenever there is one, with or without this flag).
    #[arg(long)]
    pub across: bool,

    /// Find neighbours in N passes, each holding 1/N of the per-clue keys (about 13 bytes a clue
    /// in one pass): less memory, N times the neighbour work.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub passes: u64,

    /// How puzzles are written in the inputs (default: told from each input, as for solve).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<InputFormatArg>,

    /// The CSV column holding the puzzles [default: the first of quizzes, puzzle, puzzles].
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,

    /// Write the rows to FILE instead of stdout (`-`: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// The rows' format: csv, jsonl, or parquet (with -o FILE).
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "csv")]
    pub format: AuditFormatArg,

    #[command(flatten)]
    pub file: OutputFileArgs,

    #[command(flatten)]
    pub workers: Workers,

    /// Nothing on stderr but errors: no summary, no note for each record that is not a puzzle
    /// (such records are still counted, and never paired).
    #[arg(short, long)]
    pub quiet: bool,
}

/// The format of `audit`'s rows.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum AuditFormatArg {
    Csv,
    Jsonl,
    /// With -o FILE.
    Parquet,
}

impl AuditArgs {
    pub fn request(&self) -> crate::audit::Request {
        crate::audit::Request {
            options: crate::audit::Options {
                kinds: self.kinds,
                across: self.across,
                passes: self.passes,
            },
            input_format: self.input_format.map(InputFormatArg::format),
            column: self.column.clone(),
            output: self.output.clone(),
            format: match self.format {
                AuditFormatArg::Csv => OutputFormat::Csv,
                AuditFormatArg::Jsonl => OutputFormat::Jsonl,
                AuditFormatArg::Parquet => self.file.parquet(),
            },
            provenance: None,
            threads: self.workers.threads,
            quiet: self.quiet,
        }
    }
}
