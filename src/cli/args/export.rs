//! The `export` command's flags: the layout, the split inputs, the output folder, HRM's
//! augmentation, a table's columns and the Parquet options of a Hugging Face export. Apart from
//! the other dataset commands' flags because `export` takes its inputs by split, not as a list.

use super::*;

/// The layout `export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportTo {
    /// A Hugging Face dataset folder: Parquet files per split and a dataset card.
    Hf,
    /// HRM's (and TRM's) sudoku layout: NumPy arrays and dataset.json per split.
    Hrm,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The layout to write.
    #[arg(long = "to", value_enum, value_name = "LAYOUT")]
    pub to: ExportTo,

    /// The training split's input: puzzles (any format solve reads), CSV rows or a Parquet
    /// file (`solve`/`rate` output, or any table with a puzzle column); `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    pub train: String,

    /// The test split's input (as --train).
    #[arg(long, value_name = "FILE")]
    pub test: String,

    /// The validation split's input (as --train).
    #[arg(long, value_name = "FILE")]
    pub valid: Option<String>,

    /// The folder to write (as DIR.partial, renamed when complete).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,

    /// Replace DIR when it exists and holds an earlier export (and nothing else).
    #[arg(long)]
    pub force: bool,

    /// With --to hrm: add K random equivalent copies of every training puzzle to its group
    /// (test and valid are not augmented, as in HRM's builder).
    #[arg(long, value_name = "K", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub augment: u32,

    /// The seed of --augment's transforms (with each puzzle itself): the same seed gives the
    /// same arrays with any -j.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// How the inputs that are not Parquet are written (see solve --help) [default: CSV for
    /// .csv files, else told from the first line].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<InputFormatArg>,

    /// A table's puzzle column [default: the first of quizzes, puzzle, puzzles].
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,

    /// A table's solution column, checked against the unique solution [default: solution, else
    /// solutions unless the table has a status column (there it counts solutions), if any].
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,

    /// With --to hf: how the Parquet pages are compressed.
    #[arg(long, value_enum, value_name = "CODEC", default_value = "zstd")]
    pub compression: CompressionArg,

    /// With --to hf: rows per Parquet file at most (a split of more rows gets several files).
    #[arg(long, value_name = "N", default_value_t = crate::export::DEFAULT_ROWS_PER_FILE as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub rows_per_file: u64,

    /// Record no provenance (by default the card, export.json and each Parquet file record the
    /// tool's version, the command line and each input's size and SHA-256).
    #[arg(long)]
    pub no_provenance: bool,

    #[command(flatten)]
    pub workers: Workers,

    /// Nothing on stderr but errors: no note per record left out (they are still counted and
    /// listed in DIR/left_out.csv), no progress, no summary.
    #[arg(short, long)]
    pub quiet: bool,

    /// Exit with status 1 when any record was left out.
    #[arg(long)]
    pub strict: bool,
}

impl ExportArgs {
    /// The request, its inputs checked (present, not folders); the provenance is added by the
    /// caller.
    pub fn request(&self) -> Result<crate::export::Request, String> {
        if self.output.as_os_str() == "-" {
            return Err("export writes a folder: -o DIR, not -".into());
        }
        let input = |arg: &str| -> Result<crate::input::Input, String> {
            let input = crate::input::Input::from_arg(arg);
            if let Some(path) = &input.path {
                match std::fs::metadata(path) {
                    Ok(m) if m.is_dir() => {
                        return Err(format!("cannot read {arg}: it is a folder"))
                    }
                    Ok(_) => {}
                    Err(e) => {
                        return Err(format!(
                            "cannot read {arg}: {}",
                            crate::input::io_reason(&e)
                        ))
                    }
                }
            }
            Ok(input)
        };
        use crate::run::parquet::Compression;
        Ok(crate::export::Request {
            layout: match self.to {
                ExportTo::Hf => crate::export::Layout::Hf,
                ExportTo::Hrm => crate::export::Layout::Hrm,
            },
            train: input(&self.train)?,
            test: input(&self.test)?,
            valid: self.valid.as_deref().map(input).transpose()?,
            output: self.output.clone(),
            force: self.force,
            augment: self.augment,
            seed: self.seed,
            input_format: self.input_format.map(|f| match f {
                InputFormatArg::Line => InputFormat::Line,
                InputFormatArg::Block => InputFormat::Block,
                InputFormatArg::Csv => InputFormat::Csv,
                InputFormatArg::Pencilmark => InputFormat::Pencilmark,
                InputFormatArg::Json => InputFormat::Json,
            }),
            column: self.column.clone(),
            solution_column: self.solution_column.clone(),
            compression: match self.compression {
                CompressionArg::None => Compression::None,
                CompressionArg::Snappy => Compression::Snappy,
                CompressionArg::Lz4 => Compression::Lz4,
                CompressionArg::Zstd => Compression::Zstd,
            },
            rows_per_file: usize::try_from(self.rows_per_file).unwrap_or(usize::MAX),
            provenance: None,
            threads: self.workers.threads,
            quiet: self.quiet,
        })
    }
}
