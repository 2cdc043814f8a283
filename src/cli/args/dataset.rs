//! The dataset commands' flags: what makes two puzzles the same (`dedup`, `split`), `augment`,
//! `generate` with its targets, and `minimize`. Apart from the solving and rating commands'
//! flags because they grow with the dataset toolkit, not with the batch contract.

use super::*;

/// What makes two puzzles the same for dedup and split.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ByArg {
    /// The same givens (blanks normalised).
    Exact,
    /// The same canonical form: equivalent puzzles.
    Canon,
    /// Equivalent unique solutions (a puzzle without exactly one solution: its canonical form).
    Solution,
}

impl ByArg {
    fn by(self) -> crate::dedup::By {
        match self {
            ByArg::Exact => crate::dedup::By::Exact,
            ByArg::Canon => crate::dedup::By::Canon,
            ByArg::Solution => crate::dedup::By::Solution,
        }
    }
}

/// What keeps puzzles on one side for split.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SplitByArg {
    /// The same givens (blanks normalised).
    Exact,
    /// The same canonical form: equivalent puzzles.
    Canon,
    /// Equivalent unique solutions (a puzzle without exactly one solution: its canonical form).
    Solution,
    /// Families: puzzles linked by equivalence, a shared solution or a one-clue edit, and
    /// everything linked to those, all on one side (reads the inputs twice; not stdin).
    Family,
}

#[derive(Args, Debug)]
pub struct DedupArgs {
    /// Input files (one puzzle per line), read in order; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// Which puzzles are duplicates.
    #[arg(long, value_enum, default_value = "exact")]
    pub by: ByArg,

    /// Write the kept lines to FILE instead of stdout (`-`: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Write one CSV row per dropped line to FILE: file,line,duplicate_of_file,duplicate_of_line.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,

    #[command(flatten)]
    pub workers: Workers,

    /// Nothing on stderr but errors: no summary, no note for each line that is not a puzzle
    /// (such lines are still kept and counted).
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct SplitArgs {
    /// Input files (one puzzle per line), read in order; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// The share of puzzles sent to test (0 to 1).
    #[arg(long, value_name = "FRACTION")]
    pub test: f64,

    /// The share sent to valid (0 to 1; test + valid at most 1).
    #[arg(long, value_name = "FRACTION", default_value_t = 0.0)]
    pub valid: f64,

    /// The seed of the split: the same seed gives the same sides everywhere.
    #[arg(long, value_name = "S")]
    pub seed: u64,

    /// What decides a puzzle's side: its canonical form (equivalent puzzles together), its exact
    /// givens, its solution (puzzles with equivalent solutions together), or its family (see
    /// audit: equivalent, same-solution and neighbour links, followed transitively).
    #[arg(long, value_enum, default_value = "canon")]
    pub by: SplitByArg,

    /// Write PREFIX.train.txt, PREFIX.test.txt and, with --valid, PREFIX.valid.txt.
    #[arg(long, value_name = "PREFIX", required_unless_present = "label")]
    pub prefix: Option<PathBuf>,

    /// Instead of files, write every line once on stdout (or -o FILE) as a row
    /// line,puzzle,split.
    #[arg(long, conflicts_with = "prefix")]
    pub label: bool,

    /// With --label: write the rows to FILE instead of stdout (`-`: stdout).
    #[arg(short, long, value_name = "FILE", requires = "label")]
    pub output: Option<PathBuf>,

    /// With --label: csv, or parquet (with -o FILE).
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "csv")]
    pub format: RowsFormatArg,

    #[command(flatten)]
    pub file: OutputFileArgs,

    #[command(flatten)]
    pub workers: Workers,

    /// Nothing on stderr but errors: no summary, no note for each line that is not a puzzle
    /// (such lines still go to a side by a hash of their text).
    #[arg(short, long)]
    pub quiet: bool,
}

impl DedupArgs {
    pub fn request(&self) -> crate::dedup::Request {
        crate::dedup::Request {
            by: self.by.by(),
            threads: self.workers.threads,
            output: self.output.clone(),
            report: self.report.clone(),
            quiet: self.quiet,
        }
    }
}

impl SplitArgs {
    pub fn request(&self) -> crate::split::Request {
        crate::split::Request {
            by: match self.by {
                SplitByArg::Exact => crate::split::SplitBy::Key(crate::dedup::By::Exact),
                SplitByArg::Canon => crate::split::SplitBy::Key(crate::dedup::By::Canon),
                SplitByArg::Solution => crate::split::SplitBy::Key(crate::dedup::By::Solution),
                SplitByArg::Family => crate::split::SplitBy::Family,
            },
            test: self.test,
            valid: self.valid,
            seed: self.seed,
            prefix: self.prefix.clone(),
            label: self.label,
            output: self.output.clone(),
            format: self.format.format(&self.file),
            provenance: None,
            threads: self.workers.threads,
            quiet: self.quiet,
        }
    }
}

#[derive(Args, Debug)]
pub struct AugmentArgs {
    #[command(flatten)]
    pub batch: BatchArgs,

    /// Copies per puzzle.
    #[arg(long, value_name = "K", default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub copies: u32,

    /// Seed of the transforms (with the puzzle itself).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
}

/// A generate output format.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum GenerateFormatArg {
    /// One puzzle per line.
    Lines,
    Csv,
    Jsonl,
    /// With -o FILE: Parquet, the csv columns typed.
    Parquet,
}

/// A QQWing class.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ClassArg {
    Simple,
    Easy,
    Intermediate,
    Expert,
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(value_name = "N")]
    pub count: u64,

    /// The run's seed [default: drawn at random and printed on stderr].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// The first puzzle's index (for disjoint slices of one seeded set).
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub start: u64,

    /// Only indices i with i mod N = K-1 (K/N, 1-based): N machines cover the set once.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,

    /// Keep removing givens until none can go (the default).
    #[arg(long, overrides_with = "no_minimal")]
    pub minimal: bool,

    /// Stop removing at the first removal that would break uniqueness.
    #[arg(long)]
    pub no_minimal: bool,

    /// The clue pattern's symmetry (`any`: one of the four, drawn per puzzle).
    #[arg(long, value_name = "SYMMETRY", default_value = "none",
          value_parser = ["none", "rot180", "rot90", "mirror", "diagonal", "any"])]
    pub symmetry: String,

    /// Keep only puzzles with A to B givens (`A..B`, or one number).
    #[arg(long, value_name = "A..B", value_parser = range_usize)]
    pub clues: Option<(usize, usize)>,

    /// Keep only puzzles of these classes (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub class: Vec<ClassArg>,

    /// Keep only puzzles whose rating lies in A..B.
    #[arg(long, value_name = "A..B", value_parser = range_f64)]
    pub rating: Option<(f64, f64)>,

    /// Keep only puzzles whose Sudoku Explainer ER lies in A..B (inclusive, one decimal as SE
    /// prints it: 9.0..9.4); csv and jsonl then add er, ep and ed columns.
    #[arg(long, value_name = "A..B", value_parser = range_f64)]
    pub er: Option<(f64, f64)>,

    /// Keep only puzzles whose SE EP (hardest step before the first placement) lies in A..B.
    #[arg(long, value_name = "A..B", value_parser = range_f64)]
    pub ep: Option<(f64, f64)>,

    /// Keep only puzzles whose SE ED (the first step's rating) lies in A..B.
    #[arg(long, value_name = "A..B", value_parser = range_f64)]
    pub ed: Option<(f64, f64)>,

    /// With --er/--ep/--ed: the most work one SE rating may take, in potentials derived by SE's
    /// chains; a try that needs more is rejected.
    #[arg(long, value_name = "N", default_value_t = crate::explain::DEFAULT_BUDGET,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub se_budget: u64,

    /// Transforms a rating averages over (the rating column and --rating).
    #[arg(long, value_name = "K", default_value_t = crate::rate::DEFAULT_SAMPLES,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub samples: u32,

    /// Tries per puzzle before the run gives up on it (exit 1).
    #[arg(long, value_name = "T", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_tries: u64,

    /// Output: bare lines, or CSV / JSON lines with every field.
    #[arg(long, value_enum, default_value = "lines")]
    pub format: GenerateFormatArg,

    /// Write to FILE (via FILE.partial, resumable) instead of stdout (`-`: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// With -o FILE: continue the FILE.partial an interrupted run left.
    #[arg(long)]
    pub resume: bool,

    #[command(flatten)]
    pub workers: Workers,

    /// No progress and no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    #[command(flatten)]
    pub file: OutputFileArgs,
}

fn range_usize(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let p = |v: &str| {
        v.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{s}' is not A..B (whole numbers)"))
    };
    Ok((p(a)?, p(b)?))
}

fn range_f64(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let p = |v: &str| {
        v.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("'{s}' is not A..B (numbers)"))
    };
    let (lo, hi) = (p(a)?, p(b)?);
    if lo > hi {
        return Err(format!("'{s}': the range is empty"));
    }
    Ok((lo, hi))
}

impl GenerateArgs {
    /// The request, with the seed to use (drawn when none was given).
    pub fn request(&self, seed: u64) -> Result<crate::generate::command::Request, String> {
        use crate::generate::{Options, Symmetry};
        let symmetry: Symmetry = self.symmetry.parse()?;
        let class: Vec<crate::rate::Class> = self
            .class
            .iter()
            .map(|c| match c {
                ClassArg::Simple => crate::rate::Class::Simple,
                ClassArg::Easy => crate::rate::Class::Easy,
                ClassArg::Intermediate => crate::rate::Class::Intermediate,
                ClassArg::Expert => crate::rate::Class::Expert,
            })
            .collect();
        Ok(crate::generate::command::Request {
            count: self.count,
            start: self.start,
            opts: Options {
                seed,
                minimal: !self.no_minimal,
                symmetry,
                clues: self.clues,
                max_tries: self.max_tries,
            },
            class: (!class.is_empty()).then_some(class),
            rating: self.rating,
            samples: self.samples,
            format: match self.format {
                GenerateFormatArg::Lines => None,
                GenerateFormatArg::Csv => Some(OutputFormat::Csv),
                GenerateFormatArg::Jsonl => Some(OutputFormat::Jsonl),
                GenerateFormatArg::Parquet => Some(self.file.parquet()),
            },
            se: (self.er.is_some() || self.ep.is_some() || self.ed.is_some()).then_some(
                crate::generate::command::SeTarget {
                    er: self.er,
                    ep: self.ep,
                    ed: self.ed,
                    budget: self.se_budget,
                },
            ),
        })
    }

    /// Settings for the shared output lifecycle.
    pub fn settings(&self, stop: Arc<AtomicBool>) -> Settings {
        Settings {
            threads: self.workers.threads,
            shard: self.shard,
            progress: !self.quiet,
            // Only CSV has a header; bare lines and JSON lines have none.
            header: matches!(self.format, GenerateFormatArg::Csv),
            output: match self.format {
                GenerateFormatArg::Parquet => self.file.parquet(),
                _ => OutputFormat::Csv,
            },
            stop: Some(stop),
            ..Settings::default()
        }
    }

    pub fn target(&self) -> Target<'_> {
        Target {
            path: self.output.as_deref(),
            resume: self.resume,
            quiet: self.quiet,
            id: None,
            provenance: None,
        }
    }
}

#[derive(Args, Debug)]
pub struct MinimizeArgs {
    #[command(flatten)]
    pub batch: BatchArgs,

    /// Seed of the removal order (with the puzzle itself).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
}
