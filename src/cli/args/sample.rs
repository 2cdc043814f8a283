//! `sample`'s flags: the value the bands are cut on, the bands, rows per band, the seed, and the
//! inputs and output as the other dataset commands take them. Apart from the other commands'
//! flags because `sample` reads tables of rows (CSV, JSON lines, Parquet) as well as puzzles.

use super::*;

/// What the bands are cut on.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SampleByArg {
    /// Sudoku Explainer's ER (`rate --se`'s er).
    Er,
    /// SE's EP.
    Ep,
    /// SE's ED.
    Ed,
    /// `rate`'s transform-averaged rating.
    Rating,
    /// The givens.
    Clues,
    /// QQWing's class (simple, easy, intermediate, expert): one band each.
    Class,
}

/// A `sample` input format.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SampleInputArg {
    /// Puzzles, one per line.
    Line,
    /// Puzzles as 9×9 blocks.
    Block,
    /// Puzzles as JSON boards.
    Json,
    /// CSV with a header: rated rows when it has the --by column, else puzzles.
    Csv,
    /// JSON lines of rated rows.
    Jsonl,
    /// A Parquet file of rated rows.
    Parquet,
}

/// `sample`'s output format.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SampleFormatArg {
    Csv,
    Jsonl,
    /// With -o FILE.
    Parquet,
}

#[derive(Args, Debug)]
pub struct SampleArgs {
    /// Rated rows (CSV, JSON lines or Parquet, as `rate` writes them) or plain puzzle files;
    /// `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// The value the bands are cut on: a column of the rows, or computed from the puzzles as
    /// `rate` (`rate --se` for er, ep, ed) computes it.
    #[arg(long, value_enum)]
    pub by: SampleByArg,

    /// Band edges, increasing: bands [e1,e2), [e2,e3), … plus one below e1 and one from the last
    /// edge on. Default for er/ep/ed: 1.2,2.0,4.0,6.2,7.5,8.5,9.5; needed for rating and clues;
    /// not for class.
    #[arg(long, value_name = "E1,E2,...", value_delimiter = ',')]
    pub bands: Option<Vec<String>>,

    /// Rows kept per band at most.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub per_band: u64,

    /// The sample's seed: the same seed keeps the same rows everywhere.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// How the inputs are written [default: by name (.csv, .jsonl, .parquet), else told from
    /// the first line: `{` starts JSON lines, a CSV header naming the --by column starts CSV
    /// rows, anything else is puzzles].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<SampleInputArg>,

    /// The column holding the puzzles [default: the first of quizzes, puzzle, puzzles].
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,

    /// Read only shard K of N (1-based): the rows on lines l with (l-1) mod N = K-1 (a Parquet
    /// file's row numbers). Sampling the shards' samples together gives the whole's sample.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,

    /// Write the sample to FILE instead of stdout (`-`: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Output format: the input's columns and a band column, as CSV, JSON lines, or Parquet
    /// (with -o FILE).
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "csv")]
    pub format: SampleFormatArg,

    #[command(flatten)]
    pub file: OutputFileArgs,

    #[command(flatten)]
    pub workers: Workers,

    /// No progress bar and no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    /// Exit with status 1 when a band has fewer rows than --per-band.
    #[arg(long)]
    pub strict: bool,
}

impl SampleArgs {
    /// The request (`stop`: the flag SIGINT and SIGTERM raise), or a usage error.
    pub fn request(&self, stop: Arc<AtomicBool>) -> Result<crate::sample::Request, String> {
        use crate::sample::{By, Format};
        let by = match self.by {
            SampleByArg::Er => By::Er,
            SampleByArg::Ep => By::Ep,
            SampleByArg::Ed => By::Ed,
            SampleByArg::Rating => By::Rating,
            SampleByArg::Clues => By::Clues,
            SampleByArg::Class => By::Class,
        };
        let bands = crate::sample::Bands::new(by, self.bands.as_deref())?;
        Ok(crate::sample::Request {
            spec: crate::sample::Spec {
                bands,
                per_band: usize::try_from(self.per_band)
                    .map_err(|_| format!("--per-band {} is too large", self.per_band))?,
                seed: self.seed,
            },
            format: self.input_format.map(|f| match f {
                SampleInputArg::Line => Format::Line,
                SampleInputArg::Block => Format::Block,
                SampleInputArg::Json => Format::Json,
                SampleInputArg::Csv => Format::Csv,
                SampleInputArg::Jsonl => Format::Jsonl,
                SampleInputArg::Parquet => Format::Parquet,
            }),
            column: self.column.clone(),
            threads: self.workers.threads,
            shard: self.shard,
            progress: !self.quiet,
            stop: Some(stop),
        })
    }

    /// Where the sample goes (`provenance`: the record for -o FILE).
    pub fn output(&self, provenance: Option<String>) -> crate::sample::Output {
        crate::sample::Output {
            path: self.output.clone(),
            format: match self.format {
                SampleFormatArg::Csv => OutputFormat::Csv,
                SampleFormatArg::Jsonl => OutputFormat::Jsonl,
                SampleFormatArg::Parquet => self.file.parquet(),
            },
            provenance,
            quiet: self.quiet,
        }
    }
}
