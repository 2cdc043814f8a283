//! The layout of HRM's `dataset/build_sudoku_dataset.py` (TRM's builder writes the same), read
//! by their `PuzzleDataset` as it is: per split folder (`train/`, `test/`, `valid/`)
//!
//! - `all__inputs.npy`, `all__labels.npy`: `uint8 [N, 81]`, one example per row, cells row by
//!   row; a blank is 1 and digit d is d + 1 (0 is the padding token, vocabulary 11). The labels
//!   are the unique solution.
//! - `all__puzzle_identifiers.npy`: `int32 [P]`, all 0 (the one identifier, `<blank>`).
//! - `all__puzzle_indices.npy`: `int32 [P + 1]`, where each puzzle's examples start: 0, then
//!   cumulative (one example per puzzle, so 0, 1, …, N).
//! - `all__group_indices.npy`: `int32 [G + 1]`, where each group's puzzles start: 0, then
//!   cumulative. A group is an input puzzle with its augmented copies (HRM samples one puzzle
//!   per group per epoch), so with `--augment K` on the training split a group holds 1 + K
//!   puzzles, the original first; otherwise one.
//! - `dataset.json`: the metadata (`pad_id`, `ignore_label_id`, `blank_identifier_id`,
//!   `vocab_size`, `seq_len`, `num_puzzle_identifiers`, `total_groups`,
//!   `mean_puzzle_examples`, `total_puzzles` (TRM's field), `sets`).
//! - `examples.csv`: per example its group, copy number, source file and line, and the
//!   transform that made it (`canon --transform`'s text form; the identity for an original),
//!   so a prediction can be traced to its input line and mapped back with the inverse transform.
//!
//! and `identifiers.json` (`["<blank>"]`) at the top, where HRM's builder writes it.
//!
//! Every array is streamed to its file and its `.npy` header written at the end ([`npy`]), so
//! memory does not grow with the split. A puzzle's examples — its copies' tokens and the tails of
//! their `examples.csv` rows — are made on the workers ([`examples`]); the writer only numbers
//! them and copies bytes, so it keeps up with the workers even with `--augment 1000`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::npy::{Dtype, NpyWriter};
use super::{Context, Kept, Report, Sink, Split, SplitReport};
use crate::grid::Grid;
use crate::transform::Transform;

/// The token of a blank cell; digit d is `BLANK + d`.
pub const BLANK: u8 = 1;

/// The split being written.
struct Current {
    folder: PathBuf,
    inputs: NpyWriter,
    labels: NpyWriter,
    identifiers: NpyWriter,
    puzzle_indices: NpyWriter,
    group_indices: NpyWriter,
    examples: BufWriter<File>,
    /// Examples (= puzzles: one example each) and groups so far.
    puzzles: u64,
    groups: u64,
}

/// The writer of an HRM export.
pub struct HrmWriter {
    dir: PathBuf,
    current: Option<Current>,
}

impl HrmWriter {
    pub fn new(dir: &Path) -> HrmWriter {
        HrmWriter {
            dir: dir.to_path_buf(),
            current: None,
        }
    }
}

/// The tokens of a grid: blank 1, digit d d + 1.
#[cfg(test)]
fn tokens(cells: &[u8; 81]) -> [u8; 81] {
    let mut out = [0u8; 81];
    for (o, &v) in out.iter_mut().zip(cells) {
        *o = v + BLANK;
    }
    out
}

/// A puzzle's examples as the writer takes them: made on a worker.
#[derive(Clone, Debug, Default)]
pub struct Examples {
    /// Per example, 81 input tokens then 81 label tokens.
    pub tokens: Vec<u8>,
    /// Per example, the end of its `examples.csv` row after the example and group numbers
    /// (`,copy,source,line,transform` and the newline), one after the other.
    pub tails: Vec<u8>,
    /// Where each example's tail ends in `tails`.
    pub ends: Vec<usize>,
}

/// The examples of `puzzle` (with its unique `solution`, read from `line` of the input whose
/// CSV-quoted name is `source`): the original, then a copy per transform of `copies`.
pub fn examples(
    puzzle: &Grid,
    solution: &Grid,
    line: u64,
    source: &[u8],
    copies: impl Iterator<Item = Transform>,
) -> Examples {
    use std::io::Write as _;
    let mut e = Examples::default();
    for (copy, t) in std::iter::once(Transform::IDENTITY)
        .chain(copies)
        .enumerate()
    {
        let src = t.source_cells();
        let digits = t.digits();
        for grid in [puzzle, solution] {
            let cells = grid.cells();
            e.tokens.extend(
                src.iter()
                    .map(|&s| digits[cells[s as usize] as usize] + BLANK),
            );
        }
        // Writing into a Vec cannot fail.
        let _ = write!(e.tails, ",{copy},");
        e.tails.extend_from_slice(source);
        let _ = writeln!(e.tails, ",{line},{t}");
        e.ends.push(e.tails.len());
    }
    e
}

/// An index as HRM's `int32`, or the error saying the split is too large for it.
fn index(n: u64) -> Result<i32, String> {
    i32::try_from(n).map_err(|_| {
        format!(
            "more than {} examples in a split: HRM's indices are int32",
            i32::MAX
        )
    })
}

/// `dataset.json`, in the order HRM's `PuzzleDatasetMetadata` declares its fields.
pub fn metadata(groups: u64, puzzles: u64) -> String {
    format!(
        "{{\"pad_id\": 0, \"ignore_label_id\": 0, \"blank_identifier_id\": 0, \"vocab_size\": 11, \
         \"seq_len\": 81, \"num_puzzle_identifiers\": 1, \"total_groups\": {groups}, \
         \"mean_puzzle_examples\": 1.0, \"total_puzzles\": {puzzles}, \"sets\": [\"all\"]}}\n"
    )
}

impl Sink for HrmWriter {
    fn begin(&mut self, split: Split, _input: &str) -> Result<(), String> {
        let folder = self.dir.join(split.dir());
        std::fs::create_dir_all(&folder)
            .map_err(|e| crate::run::output::cannot_create(&folder, &e))?;
        let npy = |name: &str, dtype, row: &[u64]| {
            let path = folder.join(format!("all__{name}.npy"));
            NpyWriter::create(&path, dtype, row)
                .map_err(|e| crate::run::output::cannot_create(&path, &e))
        };
        let mut cur = Current {
            inputs: npy("inputs", Dtype::U8, &[81])?,
            labels: npy("labels", Dtype::U8, &[81])?,
            identifiers: npy("puzzle_identifiers", Dtype::I32, &[])?,
            puzzle_indices: npy("puzzle_indices", Dtype::I32, &[])?,
            group_indices: npy("group_indices", Dtype::I32, &[])?,
            examples: {
                let path = folder.join("examples.csv");
                let f = File::create(&path)
                    .map_err(|e| crate::run::output::cannot_create(&path, &e))?;
                BufWriter::with_capacity(1 << 18, f)
            },
            folder,
            puzzles: 0,
            groups: 0,
        };
        let started = cur
            .puzzle_indices
            .i32(0)
            .and_then(|()| cur.group_indices.i32(0));
        let started = started.and_then(|()| {
            cur.examples
                .write_all(b"example,group,copy,source,line,transform\n")
        });
        started.map_err(|e| format!("{}: {e}", cur.folder.display()))?;
        self.current = Some(cur);
        Ok(())
    }

    fn row(&mut self, kept: &Kept) -> Result<u64, String> {
        use std::io::Write as _;
        let Some(cur) = self.current.as_mut() else {
            return Err("a row outside any split".into());
        };
        let Some(ex) = &kept.examples else {
            return Err("a puzzle without its examples".into());
        };
        let mut start = 0;
        let mut head = Vec::with_capacity(24);
        for (tokens, &end) in ex.tokens.chunks_exact(162).zip(&ex.ends) {
            let example = cur.puzzles;
            cur.puzzles += 1;
            let next = index(cur.puzzles)?;
            head.clear();
            let _ = write!(head, "{example},{}", cur.groups);
            let written = cur
                .inputs
                .u8s(&tokens[..81])
                .and_then(|()| cur.labels.u8s(&tokens[81..]))
                .and_then(|()| cur.identifiers.i32(0))
                .and_then(|()| cur.puzzle_indices.i32(next))
                .and_then(|()| cur.examples.write_all(&head))
                .and_then(|()| cur.examples.write_all(&ex.tails[start..end]));
            written.map_err(|e| format!("{}: {e}", cur.folder.display()))?;
            start = end;
        }
        cur.groups += 1;
        cur.group_indices
            .i32(index(cur.puzzles)?)
            .map_err(|e| format!("{}: {e}", cur.folder.display()))?;
        Ok(ex.ends.len() as u64)
    }

    fn end(&mut self, _report: &SplitReport) -> Result<(), String> {
        let Some(mut cur) = self.current.take() else {
            return Ok(());
        };
        let shown = cur.folder.display().to_string();
        let err = |e: std::io::Error| format!("{shown}: {e}");
        for w in [
            cur.inputs,
            cur.labels,
            cur.identifiers,
            cur.puzzle_indices,
            cur.group_indices,
        ] {
            w.finish().map_err(err)?;
        }
        cur.examples.flush().map_err(err)?;
        let path = cur.folder.join("dataset.json");
        std::fs::write(&path, metadata(cur.groups, cur.puzzles))
            .map_err(|e| crate::run::output::cannot_create(&path, &e))
    }

    fn finish(&mut self, _report: &Report, _context: &Context<'_>) -> Result<(), String> {
        let path = self.dir.join("identifiers.json");
        std::fs::write(&path, "[\"<blank>\"]\n")
            .map_err(|e| crate::run::output::cannot_create(&path, &e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_shift_every_cell_by_one() {
        let mut cells = [0u8; 81];
        cells[0] = 9;
        cells[80] = 1;
        let t = tokens(&cells);
        assert_eq!((t[0], t[1], t[80]), (10, 1, 2));
        let m: serde_json::Value = serde_json::from_str(&metadata(3, 12)).unwrap();
        assert_eq!(m["vocab_size"], 11);
        assert_eq!(m["total_groups"], 3);
        assert_eq!(m["total_puzzles"], 12);
        assert_eq!(m["mean_puzzle_examples"], 1.0);
        assert_eq!(m["sets"][0], "all");
        assert!(index(u64::from(u32::MAX)).is_err());
    }

    #[test]
    fn examples_are_the_copies_tokens_and_rows() {
        let p: Grid = crate::testing::LEET.parse().unwrap();
        let s = crate::engine::solve(&p, 2).first.unwrap();
        let mut rng = crate::rng::Rng::new(5);
        let ts: Vec<Transform> = (0..3).map(|_| Transform::random(&mut rng)).collect();
        let e = examples(&p, &s, 7, b"\"a,b\"", ts.iter().copied());
        assert_eq!(e.tokens.len(), 4 * 162);
        assert_eq!(&e.tokens[..81], &tokens(p.cells()));
        assert_eq!(&e.tokens[81..162], &tokens(s.cells()));
        for (k, t) in ts.iter().enumerate() {
            let at = (k + 1) * 162;
            assert_eq!(&e.tokens[at..at + 81], &tokens(t.apply(&p).cells()));
            assert_eq!(&e.tokens[at + 81..at + 162], &tokens(t.apply(&s).cells()));
        }
        let tails = String::from_utf8(e.tails).unwrap();
        let rows: Vec<&str> = tails.lines().collect();
        assert_eq!(rows[0], ",0,\"a,b\",7,n:123456789:123456789:123456789");
        assert_eq!(rows[3], format!(",3,\"a,b\",7,{}", ts[2]));
        assert_eq!(e.ends.len(), 4);
        assert_eq!(*e.ends.last().unwrap(), tails.len());
    }
}
