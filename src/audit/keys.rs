//! The read pass of `audit`: every record of every input, on every core, reduced to what the
//! matching needs — the puzzle's givens packed 4 bits a cell and three 64-bit keys (its exact
//! givens, its minlex canonical form, its unique solution's canonical form) — and the deletion
//! keys, one per clue, computed later from the packed givens so that a pass over a partition of
//! them needs no second read of the inputs (stdin included).
//!
//! Keys are 64-bit hashes: a collision can only propose a pair, never report one, because every
//! proposed pair is checked on the puzzles themselves ([`super::pairs`]).

use std::io::IsTerminal;

use crate::canon::grids::complete_form;
use crate::canon::Canonicalizer;
use crate::dedup::keys::hash_cells;
use crate::engine;
use crate::grid::Grid;
use crate::input::{self, Input, InputFormat, Record};
use crate::run::{self, ordered, Chunk, Settings};

/// A puzzle's givens, 4 bits a cell (81 cells in 41 bytes).
pub type Packed = [u8; 41];

/// Packs a grid's cells.
pub fn pack(cells: &[u8; 81]) -> Packed {
    let mut p = [0u8; 41];
    for (i, &v) in cells.iter().enumerate() {
        p[i / 2] |= (v & 15) << (4 * (i % 2));
    }
    p
}

/// The cells of packed givens.
pub fn unpack(p: &Packed) -> [u8; 81] {
    let mut cells = [0u8; 81];
    for (i, c) in cells.iter_mut().enumerate() {
        *c = (p[i / 2] >> (4 * (i % 2))) & 15;
    }
    cells
}

/// The 64-bit key of a grid's cells (the high half of the 128-bit key `dedup` uses).
pub fn key64(cells: &[u8; 81]) -> u64 {
    (hash_cells(cells) >> 64) as u64
}

/// A key and the puzzle it belongs to, packed: 12 bytes, so that millions fit.
#[derive(Clone, Copy, Debug)]
#[repr(C, packed(4))]
pub struct Keyed {
    pub key: u64,
    pub id: u32,
}

/// A deletion key: the canonical form of puzzle `id` without its clue in cell `cell`. 13 bytes.
#[derive(Clone, Copy, Debug)]
#[repr(C, packed)]
pub struct Deleted {
    pub key: u64,
    pub id: u32,
    pub cell: u8,
}

/// One record as the read pass leaves it.
enum Read {
    Puzzle {
        line: u64,
        packed: Packed,
        exact: u64,
        canon: u64,
        /// The canonical key of the unique solution, if there is exactly one.
        solution: Option<u64>,
    },
    NotPuzzle {
        line: u64,
        why: String,
    },
}

/// Every puzzle the inputs hold, in input order: where it is and its keys.
#[derive(Default)]
pub struct Store {
    /// Input index of each puzzle.
    pub file: Vec<u32>,
    /// 1-based line of each puzzle in its input.
    pub line: Vec<u64>,
    pub packed: Vec<Packed>,
    pub exact: Vec<Keyed>,
    pub canon: Vec<Keyed>,
    pub solution: Vec<Keyed>,
    /// Puzzles per input.
    pub per_file: Vec<u64>,
    /// Records per input that are not puzzles.
    pub unreadable: Vec<u64>,
}

impl Store {
    /// Adds a puzzle the read pass made (id `id`, from input `file`).
    fn push(&mut self, file: usize, id: u32, read: Read) {
        if let Read::Puzzle {
            line,
            packed,
            exact,
            canon,
            solution,
        } = read
        {
            self.file.push(file as u32);
            self.line.push(line);
            self.packed.push(packed);
            self.exact.push(Keyed { key: exact, id });
            self.canon.push(Keyed { key: canon, id });
            if let Some(key) = solution {
                self.solution.push(Keyed { key, id });
            }
            self.per_file[file] += 1;
        }
    }

    pub fn len(&self) -> usize {
        self.line.len()
    }

    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }

    /// The givens of puzzle `id`.
    pub fn grid(&self, id: u32) -> Grid {
        // Packed givens were a valid grid when read: every cell 0–9.
        Grid::from_cells(unpack(&self.packed[id as usize])).unwrap_or(Grid::EMPTY)
    }
}

impl Store {
    /// A store of puzzles given as grids, one group an input (lines numbered from 1 in each
    /// group), with the read pass's keys: for auditing puzzles that are already in memory.
    /// Every grid must pass the rule check; one that does not is counted as not a puzzle.
    pub fn from_groups(groups: &[Vec<Packed>]) -> Store {
        let mut store = Store {
            per_file: vec![0; groups.len()],
            unreadable: vec![0; groups.len()],
            ..Store::default()
        };
        let mut canon = Canonicalizer::default();
        for (file, group) in groups.iter().enumerate() {
            for (i, packed) in group.iter().enumerate() {
                let rec = Record {
                    line: i as u64 + 1,
                    puzzle: Grid::from_cells(unpack(packed))
                        .ok_or(crate::grid::ParseError::WrongCellCount { found: 0 }),
                    candidates: None,
                };
                match read_one(&rec, &mut canon) {
                    Read::NotPuzzle { .. } => store.unreadable[file] += 1,
                    puzzle => store.push(file, store.len() as u32, puzzle),
                }
            }
        }
        store
    }
}

/// Why a record is no puzzle to audit, or its grid.
fn usable(rec: &Record) -> Result<&Grid, String> {
    match &rec.puzzle {
        Err(e) => Err(e.to_string()),
        Ok(_) if rec.candidates.is_some() => {
            Err("a pencilmark line: audit compares puzzles given as grids".into())
        }
        Ok(g) => g.check_givens().map(|()| g).map_err(|c| c.to_string()),
    }
}

fn read_one(rec: &Record, canon: &mut Canonicalizer) -> Read {
    match usable(rec) {
        Err(why) => Read::NotPuzzle {
            line: rec.line,
            why,
        },
        Ok(g) => {
            let solved = engine::solve(g, 2);
            let solution = match (&solved.first, solved.solutions) {
                (Some(s), 1) => complete_form(s.cells()).map(|f| key64(&f.form)),
                _ => None,
            };
            Read::Puzzle {
                line: rec.line,
                packed: pack(g.cells()),
                exact: key64(g.cells()),
                canon: key64(canon.canonical(g).form.cells()),
                solution,
            }
        }
    }
}

/// Reads every record of `inputs` in order on `threads` workers into a [`Store`]; each record
/// that is not a puzzle goes to `not_puzzle` (input index, line, why) and is counted.
pub fn read(
    inputs: &[Input],
    input_format: Option<InputFormat>,
    column: Option<&str>,
    threads: usize,
    progress: bool,
    not_puzzle: &mut dyn FnMut(usize, u64, &str),
) -> Result<Store, run::Error> {
    let settings = Settings {
        threads,
        input_format,
        column: column.map(str::to_string),
        ..Settings::default()
    };
    let read_inputs = inputs.to_vec();
    let mut store = Store {
        per_file: vec![0; inputs.len()],
        unreadable: vec![0; inputs.len()],
        ..Store::default()
    };
    let bar = (progress && std::io::stderr().is_terminal()).then(|| {
        let pb = indicatif::ProgressBar::new_spinner();
        pb.set_message("audit: reading");
        pb
    });
    ordered::run(
        run::threads(threads),
        "audit",
        move |feeder| {
            run::feed(&read_inputs, &settings, feeder, |src, input| {
                let format = input.format(settings.input_format);
                input::records(src, format, settings.column.as_deref())
            })
        },
        |chunk: Chunk<Record>| {
            thread_local! {
                static CANON: std::cell::RefCell<Canonicalizer> = std::cell::RefCell::default();
            }
            let reads: Vec<Read> = CANON.with(|c| {
                let mut c = c.borrow_mut();
                chunk.items.iter().map(|r| read_one(r, &mut c)).collect()
            });
            (chunk.file, reads)
        },
        |event| match event {
            ordered::Event::Idle => Ok(()),
            ordered::Event::Failed(e) => Err(e),
            ordered::Event::Done((file, reads)) => {
                for r in reads {
                    match r {
                        Read::NotPuzzle { line, why } => {
                            store.unreadable[file] += 1;
                            not_puzzle(file, line, &why);
                        }
                        Read::Puzzle {
                            line,
                            packed,
                            exact,
                            canon,
                            solution,
                        } => {
                            let Ok(id) = u32::try_from(store.len()) else {
                                return Err(run::Error::OutputFile(
                                    "audit takes at most 4,294,967,295 puzzles in one run".into(),
                                ));
                            };
                            let puzzle = Read::Puzzle {
                                line,
                                packed,
                                exact,
                                canon,
                                solution,
                            };
                            store.push(file, id, puzzle);
                        }
                    }
                }
                if let Some(pb) = &bar {
                    pb.set_message(format!("audit: {} puzzles read", store.len()));
                    pb.tick();
                }
                Ok(())
            }
        },
    )?;
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
    Ok(store)
}

/// The deletion keys of puzzle `id` (`givens`) whose key falls in partition `pass` of `passes`.
pub fn deletions(
    givens: &[u8; 81],
    id: u32,
    pass: u64,
    passes: u64,
    canon: &mut Canonicalizer,
    out: &mut Vec<Deleted>,
) {
    let mut cells = *givens;
    for cell in 0..81 {
        let v = givens[cell];
        if v == 0 {
            continue;
        }
        cells[cell] = 0;
        // Grid::from_cells only fails on a cell above 9, which packed givens never hold.
        if let Some(g) = Grid::from_cells(cells) {
            let key = key64(canon.canonical(&g).form.cells());
            if partition(key, passes) == pass {
                out.push(Deleted {
                    key,
                    id,
                    cell: cell as u8,
                });
            }
        }
        cells[cell] = v;
    }
}

/// The partition of a key among `passes` (keys are uniform hashes).
pub fn partition(key: u64, passes: u64) -> u64 {
    if passes <= 1 {
        0
    } else {
        ((u128::from(key) * u128::from(passes)) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::LEET;

    #[test]
    fn packing_round_trips() {
        let g: Grid = LEET.parse().unwrap();
        assert_eq!(&unpack(&pack(g.cells())), g.cells());
        let mut all = [0u8; 81];
        for (i, c) in all.iter_mut().enumerate() {
            *c = (i % 10) as u8;
        }
        assert_eq!(unpack(&pack(&all)), all);
    }

    #[test]
    fn one_deletion_key_per_clue_and_partitions_cover_them_once() {
        let g: Grid = LEET.parse().unwrap();
        let mut c = Canonicalizer::default();
        let mut all = Vec::new();
        deletions(g.cells(), 7, 0, 1, &mut c, &mut all);
        assert_eq!(all.len(), g.clues());
        let mut parts = Vec::new();
        for pass in 0..3 {
            deletions(g.cells(), 7, pass, 3, &mut c, &mut parts);
        }
        let key = |d: &Deleted| (d.key, d.cell);
        let (mut a, mut b): (Vec<_>, Vec<_>) = (
            all.iter().map(key).collect(),
            parts.iter().map(key).collect(),
        );
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
    }
}
