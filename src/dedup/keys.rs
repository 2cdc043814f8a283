//! What makes two puzzles "the same" for `dedup` and `split`, and the streaming pass that
//! computes it for every line on every core.
//!
//! A key is a 128-bit hash of either the puzzle's givens (`exact`: blanks normalised, so `.` and
//! `0` agree) or its minlex canonical form (`canon`: equivalent puzzles agree). 128 bits keep
//! the memory per distinct puzzle small and fixed, and make a false match vanishingly unlikely:
//! for n distinct puzzles the chance of any collision is about n² / 2¹²⁹ (below 10⁻²⁰ for a
//! billion puzzles).

use std::io;

use crate::canon;
use crate::grid::Grid;
use crate::input::{self, Input, RawRecord};
use crate::rng::mix64;
use crate::run::{self, ordered, Chunk, Settings};

/// Which puzzles count as the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The same givens, after normalising blanks.
    Exact,
    /// The same minlex canonical form: equivalent under relabeling, transposition and the
    /// band/row/stack/column permutations.
    Canon,
    /// Equivalent unique solutions (the canonical form of the solution grid, see
    /// [`canon::grids`]); a puzzle without exactly one solution is keyed by its canonical form.
    Solution,
}

impl By {
    pub fn as_str(self) -> &'static str {
        match self {
            By::Exact => "exact",
            By::Canon => "canon",
            By::Solution => "solution",
        }
    }
}

/// The 128-bit key of a grid's cells.
pub fn hash_cells(cells: &[u8; 81]) -> u128 {
    // Pack 4 bits a cell into six words, then run two independent mixing chains over them.
    let mut words = [0u64; 6];
    for (i, &v) in cells.iter().enumerate() {
        words[i / 16] |= u64::from(v & 15) << (4 * (i % 16));
    }
    let (mut a, mut b) = (0x243f_6a88_85a3_08d3u64, 0x1319_8a2e_0370_7344u64);
    for w in words {
        a = mix64(a ^ w);
        b = mix64(b.wrapping_add(w).rotate_left(23));
    }
    (u128::from(a) << 64) | u128::from(b)
}

/// The key of `grid` by `by`.
pub fn key(grid: &Grid, by: By) -> u128 {
    match by {
        By::Exact => hash_cells(grid.cells()),
        By::Canon => hash_cells(canon::canonical(grid).form.cells()),
        By::Solution => {
            let s = crate::engine::solve(grid, 2);
            match (s.first, s.solutions) {
                (Some(sol), 1) => match canon::grids::complete_form(sol.cells()) {
                    // Apart from every puzzle's key: a solution's form is a complete grid.
                    Some(f) => hash_cells(&f.form) ^ 1,
                    None => key(grid, By::Canon),
                },
                _ => key(grid, By::Canon),
            }
        }
    }
}

/// What `scan` hands over for each line: its input's index, the line, and its key (`None` when
/// the line is not a valid puzzle).
pub type Consume<'a> = dyn FnMut(usize, &RawRecord, Option<u128>) -> io::Result<()> + 'a;

/// Reads every line of `inputs` in order (line format: one puzzle per line, anything after the
/// cells kept), computes each valid puzzle's key on `threads` workers, and hands every line with
/// its key (`None` when the line is not a puzzle or its givens break a rule) to `consume` in
/// input order, with the index of its input. Memory is bounded as in [`crate::run`].
pub fn scan(
    inputs: &[Input],
    by: By,
    threads: usize,
    consume: &mut Consume<'_>,
) -> Result<(), run::Error> {
    let settings = Settings {
        threads,
        ..Settings::default()
    };
    let read_inputs = inputs.to_vec();
    ordered::run(
        run::threads(threads),
        "keys",
        move |feeder| {
            run::feed(&read_inputs, &settings, feeder, |src, _| {
                Ok(input::raw_lines(src))
            })
        },
        move |chunk: Chunk<RawRecord>| {
            let keys: Vec<Option<u128>> = chunk
                .items
                .iter()
                .map(|r| match &r.puzzle {
                    // Givens that break a rule are invalid here as in every command.
                    Ok(g) if g.check_givens().is_ok() => Some(key(g, by)),
                    _ => None,
                })
                .collect();
            (chunk.file, chunk.items, keys)
        },
        |event| match event {
            ordered::Event::Idle => Ok(()),
            ordered::Event::Failed(e) => Err(e),
            ordered::Event::Done((file, items, keys)) => {
                for (rec, k) in items.iter().zip(keys) {
                    consume(file, rec, k).map_err(run::Error::Output)?;
                }
                Ok(())
            }
        },
    )
}

/// Why a line has no key: it is not a grid, or its givens break a rule.
pub fn why(rec: &RawRecord) -> String {
    match &rec.puzzle {
        Err(e) => e.to_string(),
        Ok(g) => g
            .check_givens()
            .err()
            .map(|c| c.to_string())
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::testing::LEET;
    use crate::transform::Transform;

    #[test]
    fn exact_keys_tell_puzzles_apart_and_canon_keys_join_equivalents() {
        let g: Grid = LEET.parse().unwrap();
        let mut rng = Rng::new(5);
        for _ in 0..50 {
            let t = Transform::random(&mut rng);
            let h = t.apply(&g);
            assert_eq!(key(&h, By::Canon), key(&g, By::Canon), "{t}");
            if h != g {
                assert_ne!(key(&h, By::Exact), key(&g, By::Exact), "{t}");
            }
        }
        let mut cells = *g.cells();
        cells[2] = 1;
        let other = Grid::from_cells(cells).unwrap();
        assert_ne!(key(&other, By::Canon), key(&g, By::Canon));
        assert_ne!(key(&other, By::Exact), key(&g, By::Exact));
    }

    #[test]
    fn keys_of_single_cell_grids_are_all_distinct() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..81 {
            for d in 1..=9 {
                let mut cells = [0u8; 81];
                cells[i] = d;
                assert!(seen.insert(hash_cells(&cells)));
            }
        }
    }
}
