//! The Hugging Face layout: per split a folder of Parquet files (`train/`, `test/`, `valid/`),
//! and a `README.md` dataset card whose YAML header tells the `datasets` library the splits, the
//! files of each and the features (`load_dataset(DIR)` needs nothing else).
//!
//! Rows are `puzzle`, `solution`, `source`, `line`, then the columns carried from the inputs
//! ([`super::read`]), typed: integers as int64, numbers as double, booleans, text as strings.
//! They are written through the crate's Parquet writer ([`ParquetSink`]) with the columns' types
//! given, as CSV text a chunk at a time; a file is closed after `--rows-per-file` rows and the
//! next begun, and at the end of a split its files are named as the Hub names shards:
//! `train-00000-of-00002.parquet`. A split with no puzzle still gets one (empty) file, so its
//! path pattern matches and it loads with zero rows.
//!
//! What the card reports (counts, clue and rating histograms) is gathered here as rows go by:
//! one small map per split and histogram, never the rows.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::read::Column;
use super::{card, Context, Kept, Report, Sink, Split, SplitReport};
use crate::run::parquet::{Compression, Kind, ParquetSink};
use crate::run::rows::csv_field;

/// The `datasets` dtype of a column type.
pub fn dtype(kind: Kind) -> &'static str {
    match kind {
        Kind::Int => "int64",
        Kind::Float => "float64",
        Kind::Bool => "bool",
        Kind::Text => "string",
    }
}

/// The columns every row starts with.
pub const OWN_COLUMNS: [(&str, Kind); 4] = [
    ("puzzle", Kind::Text),
    ("solution", Kind::Text),
    ("source", Kind::Text),
    ("line", Kind::Int),
];

/// Whether a carried column holds a rating the card draws a histogram of: a number named
/// `rating`, `er`, `ep`, `ed`, or with `rating` or `difficulty` in its name.
pub fn is_rating(c: &Column) -> bool {
    matches!(c.kind, Kind::Int | Kind::Float)
        && (matches!(c.name.as_str(), "er" | "ep" | "ed")
            || c.name.contains("rating")
            || c.name.contains("difficulty"))
}

/// Counts of values by bin (the value's floor), for a card's histogram.
pub type Histogram = BTreeMap<i64, u64>;

/// What the card needs of a finished split.
pub struct SplitFiles {
    pub split: Split,
    /// The Parquet files, relative to the dataset folder.
    pub files: Vec<String>,
    /// Clues per puzzle.
    pub clues: Histogram,
    /// One histogram per rating column ([`is_rating`]), in [`HfWriter::ratings`] order.
    pub ratings: Vec<Histogram>,
    /// The split's size in memory as the `datasets` library counts it (`num_bytes`: values,
    /// string offsets, boolean and validity bits, as one Arrow table holds them).
    pub num_bytes: u64,
}

/// The split being written.
struct Current {
    split: Split,
    source: String,
    folder: PathBuf,
    file: Option<(PathBuf, ParquetSink<BufWriter<File>>)>,
    /// Rows in the open file.
    rows: usize,
    /// Rows not yet handed to the open file.
    pending: Vec<u8>,
    /// Files written so far (their temporary names).
    parts: Vec<PathBuf>,
    clues: Histogram,
    ratings: Vec<Histogram>,
    /// Bytes of values and offsets so far, and booleans (bits).
    bytes: u64,
    bits: u64,
    /// Per carried column, whether it has a null (then a validity bitmap).
    nulls: Vec<bool>,
    rows_total: u64,
}

/// The writer of a Hugging Face export.
pub struct HfWriter {
    dir: PathBuf,
    names: Vec<String>,
    kinds: Vec<Kind>,
    carried: Vec<Column>,
    /// Indices (among the carried columns) of the rating columns.
    ratings: Vec<usize>,
    compression: Compression,
    rows_per_file: usize,
    provenance: Option<String>,
    current: Option<Current>,
    done: Vec<SplitFiles>,
    /// Each split's puzzles (4 bits a cell), for the audit in the card.
    puzzles: Vec<Vec<crate::audit::keys::Packed>>,
}

impl HfWriter {
    pub fn new(
        dir: &Path,
        carried: &[Column],
        compression: Compression,
        rows_per_file: usize,
        provenance: Option<String>,
    ) -> HfWriter {
        let names = OWN_COLUMNS
            .iter()
            .map(|(n, _)| n.to_string())
            .chain(carried.iter().map(|c| c.name.clone()))
            .collect();
        let kinds = OWN_COLUMNS
            .iter()
            .map(|(_, k)| *k)
            .chain(carried.iter().map(|c| c.kind))
            .collect();
        HfWriter {
            dir: dir.to_path_buf(),
            names,
            kinds,
            carried: carried.to_vec(),
            ratings: (0..carried.len())
                .filter(|&i| is_rating(&carried[i]))
                .collect(),
            compression,
            rows_per_file,
            provenance,
            current: None,
            done: Vec::new(),
            puzzles: Vec::new(),
        }
    }

    /// Hands the pending rows to the open file.
    fn pass_on(cur: &mut Current) -> Result<(), String> {
        if cur.pending.is_empty() {
            return Ok(());
        }
        if let Some((path, sink)) = cur.file.as_mut() {
            sink.write_all(&cur.pending)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        cur.pending.clear();
        Ok(())
    }

    /// Opens the split's next file.
    fn open_file(&self, cur: &mut Current) -> Result<(), String> {
        let path = cur.folder.join(format!("part-{}.parquet", cur.parts.len()));
        let f = File::create(&path).map_err(|e| crate::run::output::cannot_create(&path, &e))?;
        let sink = ParquetSink::with_kinds(
            BufWriter::with_capacity(1 << 20, f),
            self.names.clone(),
            self.kinds.clone(),
            self.compression,
            self.provenance.clone(),
        )
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        cur.parts.push(path.clone());
        cur.file = Some((path, sink));
        cur.rows = 0;
        Ok(())
    }

    /// Closes the open file: its rows, its footer.
    fn close_file(cur: &mut Current) -> Result<(), String> {
        Self::pass_on(cur)?;
        if let Some((path, sink)) = cur.file.take() {
            sink.finish()
                .and_then(|mut w| w.flush())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }
}

impl Sink for HfWriter {
    fn begin(&mut self, split: Split, input: &str) -> Result<(), String> {
        let folder = self.dir.join(split.dir());
        std::fs::create_dir_all(&folder)
            .map_err(|e| crate::run::output::cannot_create(&folder, &e))?;
        self.current = Some(Current {
            split,
            source: input.to_string(),
            folder,
            file: None,
            rows: 0,
            pending: Vec::with_capacity(1 << 20),
            parts: Vec::new(),
            clues: Histogram::new(),
            ratings: vec![Histogram::new(); self.ratings.len()],
            bytes: 0,
            bits: 0,
            nulls: vec![false; self.carried.len()],
            rows_total: 0,
        });
        Ok(())
    }

    fn row(&mut self, kept: &Kept) -> Result<u64, String> {
        let Some(mut cur) = self.current.take() else {
            return Err("a row outside any split".into());
        };
        if cur.file.is_none() {
            self.open_file(&mut cur)?;
        }
        let at = cur.split as usize;
        if self.puzzles.len() <= at {
            self.puzzles.resize(at + 1, Vec::new());
        }
        self.puzzles[at].push(crate::audit::keys::pack(kept.puzzle.cells()));
        let out = &mut cur.pending;
        let mut grid = [0u8; 81];
        kept.puzzle.write_line(&mut grid);
        out.extend_from_slice(&grid);
        out.push(b',');
        kept.solution.write_line(&mut grid);
        out.extend_from_slice(&grid);
        out.push(b',');
        csv_field(out, cur.source.as_bytes());
        out.extend_from_slice(format!(",{}", kept.line).as_bytes());
        for field in &kept.fields {
            out.push(b',');
            if let Some(text) = field {
                csv_field(out, text.as_bytes());
            }
        }
        out.push(b'\n');
        // puzzle, solution (81 bytes and an offset each), source, line.
        cur.bytes += 2 * (81 + 4) + cur.source.len() as u64 + 4 + 8;
        cur.rows_total += 1;
        for ((field, c), null) in kept.fields.iter().zip(&self.carried).zip(&mut cur.nulls) {
            *null |= field.is_none();
            match c.kind {
                Kind::Int | Kind::Float => cur.bytes += 8,
                Kind::Bool => cur.bits += 1,
                Kind::Text => cur.bytes += 4 + field.as_ref().map_or(0, |t| t.len() as u64),
            }
        }
        *cur.clues.entry(kept.puzzle.clues() as i64).or_default() += 1;
        for (h, &i) in cur.ratings.iter_mut().zip(&self.ratings) {
            let value = kept
                .fields
                .get(i)
                .and_then(|f| f.as_deref()?.parse::<f64>().ok());
            if let Some(v) = value.filter(|v| v.is_finite()) {
                *h.entry(v.floor() as i64).or_default() += 1;
            }
        }
        cur.rows += 1;
        let result = if cur.rows >= self.rows_per_file {
            Self::close_file(&mut cur)
        } else {
            Ok(())
        };
        self.current = Some(cur);
        result.map(|()| 1)
    }

    fn chunk_done(&mut self) -> Result<(), String> {
        match self.current.as_mut() {
            Some(cur) => Self::pass_on(cur),
            None => Ok(()),
        }
    }

    fn end(&mut self, _report: &SplitReport) -> Result<(), String> {
        let Some(mut cur) = self.current.take() else {
            return Ok(());
        };
        Self::close_file(&mut cur)?;
        if cur.parts.is_empty() {
            // An empty split still gets a file, so that it loads (with no rows).
            self.open_file(&mut cur)?;
            Self::close_file(&mut cur)?;
        }
        let n = cur.parts.len();
        let mut files = Vec::with_capacity(n);
        for (k, part) in cur.parts.iter().enumerate() {
            let name = format!("{}-{k:05}-of-{n:05}.parquet", cur.split.hf_name());
            let to = cur.folder.join(&name);
            std::fs::rename(part, &to).map_err(|e| {
                format!("cannot rename {} to {}: {e}", part.display(), to.display())
            })?;
            files.push(format!("{}/{name}", cur.split.dir()));
        }
        self.done.push(SplitFiles {
            split: cur.split,
            files,
            clues: cur.clues,
            ratings: cur.ratings,
            num_bytes: cur.bytes
                + cur.bits.div_ceil(8)
                + cur.nulls.iter().filter(|&&n| n).count() as u64 * cur.rows_total.div_ceil(8),
        });
        Ok(())
    }

    fn finish(&mut self, report: &Report, context: &Context<'_>) -> Result<(), String> {
        let ratings: Vec<&Column> = self.ratings.iter().map(|&i| &self.carried[i]).collect();
        let groups: Vec<Vec<crate::audit::keys::Packed>> = self
            .puzzles
            .iter()
            .filter(|g| !g.is_empty())
            .cloned()
            .collect();
        let audit = crate::audit::across_groups(&groups, context.request.threads)?;
        let text = card::card(report, context, &self.done, &ratings, &audit);
        let path = self.dir.join("README.md");
        std::fs::write(&path, text).map_err(|e| crate::run::output::cannot_create(&path, &e))
    }
}
