//! Puzzle generation (`generate`) and reduction to minimal puzzles (`minimize`): random solution
//! grids, givens removed in symmetric orbits while the puzzle stays unique, and the seeding rule
//! that makes puzzle number `i` of a run a function of `--seed` and `i` alone.
//!
//! # Reproducibility
//!
//! Puzzle `index` draws every random choice — its solution grid, the transform, the removal
//! order, `Symmetry::Any`'s pick, and the same for every retry — from one stream,
//! `Rng::for_item(seed, index)`. Nothing else (thread, machine, `--start`, `--shard`, the order
//! of calls) enters, so any slice of indices is a disjoint piece of one reproducible sequence.
//! [`minimize`] seeds from the puzzle's own content (`Rng::for_item(seed, hash_bytes(cells))`),
//! so a puzzle reduces the same way wherever it sits in a file.
//!
//! # What is generated
//!
//! One *try*: a random solution grid ([`fill`]), then its 81 givens removed orbit by orbit in a
//! random order ([`remove`] explains how the uniqueness checks are saved). The orbits are the
//! cell classes of the [`Symmetry`], so the clue pattern is invariant under it.
//!
//! - `minimal: true`: every orbit is tried once, removed if the puzzle stays unique. The result
//!   is unique and no orbit can be removed: with [`Symmetry::None`] no single given can be
//!   removed (a minimal puzzle); with a symmetry it is minimal *among symmetric puzzles* — a
//!   single given of a two- or four-cell orbit might still be removable on its own.
//! - `minimal: false`, no clue target: orbits are removed in the random order until the first
//!   one whose removal breaks uniqueness, which stays; the walk stops there. The puzzle is unique
//!   and usually some givens above minimal.
//! - `minimal: false` with `clues: (lo, hi)`: orbits that break uniqueness are skipped and the
//!   walk stops as soon as at most `hi` givens are left.
//!
//! A try is kept when its clue count is in the target and the caller's `accept(puzzle,
//! solution)` says yes (that is where class and rating targets go); else the next try starts,
//! up to `max_tries` per index. Every returned puzzle was proved unique by
//! `engine::solve(p, 2)` on exactly its givens.
//!
//! # How random the solution grids are
//!
//! Not uniform over the 6,670,903,752,021,072,936,960 grids, and the bias is not measured.
//! The fill (boxes 1, 5, 9 as random permutations, then fewest-candidates cell first, random
//! digit order, backtracking) reaches a grid with the probability of the choices along its path:
//! grids whose path runs through cells with fewer candidates, or whose siblings dead-end (the
//! backtracking hands their mass on), come out more often than others. This is the bias
//! randomized-backtracking generators share (tdoku's notes discuss it for its generator).
//! The random equivalence transform afterwards ([`Transform::random`], uniform over the
//! 2·6⁸·9! = 1,218,998,108,160 transforms) makes the output *uniform inside each equivalence
//! class*: every grid of a class is reached by the same number of transforms. It does not fix
//! the weight of the classes: a class (5,472,730,538 of them) is drawn with the fill's total
//! probability over its members, where uniform grids would draw it in proportion to its size,
//! 1,218,998,108,160 / |automorphisms| (equal for all but about 0.1% of classes, which have
//! non-trivial automorphisms). So: uniform within a class, an unknown but nonzero tilt across
//! classes. Exact uniform sampling (e.g. counting band completions) is left out.
//!
//! [`Transform::random`]: crate::transform::Transform::random

pub mod command;
pub mod fill;
pub mod remove;

use std::fmt;

use crate::engine;
use crate::grid::{Conflict, Grid};
use crate::rng::{hash_bytes, Rng};
use remove::{mask_of, puzzle_of, Cells, Remover, Stop};

/// The symmetry a generated puzzle's clue pattern is invariant under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No constraint.
    None,
    /// Half-turn about the centre: (r, c) ↔ (8−r, 8−c).
    Rot180,
    /// Quarter-turn: (r, c) → (c, 8−r), so also invariant under the half-turn.
    Rot90,
    /// Left-right mirror: (r, c) ↔ (r, 8−c).
    Mirror,
    /// Reflection in the main diagonal: (r, c) ↔ (c, r).
    Diagonal,
    /// One of the four real symmetries (not `None`), drawn for each try from the puzzle's
    /// stream; the chosen one is reported in [`Generated::symmetry`].
    Any,
}

impl Symmetry {
    /// Every accepted name, in the order of the CLI's help.
    pub const NAMES: [&'static str; 6] = ["none", "rot180", "rot90", "mirror", "diagonal", "any"];

    /// The name, as [`Symmetry::parse`] reads it.
    pub fn as_str(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Any => "any",
        }
    }

    /// Reads a name (case-insensitive); the error lists the accepted names.
    pub fn parse(s: &str) -> Result<Symmetry, String> {
        let all = [
            Symmetry::None,
            Symmetry::Rot180,
            Symmetry::Rot90,
            Symmetry::Mirror,
            Symmetry::Diagonal,
            Symmetry::Any,
        ];
        all.into_iter()
            .find(|y| y.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                format!(
                    "unknown symmetry '{s}': expected one of {}",
                    Symmetry::NAMES.join(", ")
                )
            })
    }

    /// Where the symmetry sends cell `i` (one generator of its group); `Any` maps as `None`.
    pub fn image(self, i: usize) -> usize {
        let (r, c) = (i / 9, i % 9);
        let (r2, c2) = match self {
            Symmetry::None | Symmetry::Any => (r, c),
            Symmetry::Rot180 => (8 - r, 8 - c),
            Symmetry::Rot90 => (c, 8 - r),
            Symmetry::Mirror => (r, 8 - c),
            Symmetry::Diagonal => (c, r),
        };
        r2 * 9 + c2
    }

    /// The cell classes of the symmetry, each a cell mask, in order of their lowest cell.
    pub fn orbits(self) -> Vec<Cells> {
        if matches!(self, Symmetry::None | Symmetry::Any) {
            return (0..81).map(|i| 1 << i).collect();
        }
        let mut seen: Cells = 0;
        let mut out = Vec::with_capacity(81);
        for i in 0..81 {
            if seen >> i & 1 == 1 {
                continue;
            }
            let mut orbit: Cells = 0;
            let mut j = i;
            while orbit >> j & 1 == 0 {
                orbit |= 1 << j;
                j = self.image(j);
            }
            seen |= orbit;
            out.push(orbit);
        }
        out
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Symmetry {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Symmetry::parse(s)
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The run's seed: puzzle `i` depends on `(seed, i)` only.
    pub seed: u64,
    /// Reduce to a minimal puzzle (among symmetric removals); see the module notes.
    pub minimal: bool,
    /// The clue pattern's symmetry.
    pub symmetry: Symmetry,
    /// Keep only puzzles with `lo..=hi` givens.
    pub clues: Option<(usize, usize)>,
    /// Tries per index before giving up on it (at least one is always made).
    pub max_tries: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 0,
            minimal: true,
            symmetry: Symmetry::None,
            clues: None,
            max_tries: 1000,
        }
    }
}

/// Rejects clue targets no puzzle can meet, with the reason.
pub fn check_targets(opts: &Options) -> Result<(), String> {
    let Some((lo, hi)) = opts.clues else {
        return Ok(());
    };
    if lo > hi {
        return Err(format!(
            "clue range {lo}-{hi} is empty (minimum above maximum)"
        ));
    }
    if hi < 17 {
        return Err(format!(
            "no sudoku with fewer than 17 givens has a unique solution (asked for at most {hi})"
        ));
    }
    if lo > 81 {
        return Err(format!(
            "a grid has 81 cells (asked for at least {lo} givens)"
        ));
    }
    if hi > 81 {
        return Err(format!(
            "a grid has 81 cells (asked for at most {hi} givens)"
        ));
    }
    if opts.minimal && lo > 40 {
        return Err(format!(
            "no minimal puzzle with more than 40 givens is known (asked for at least {lo}); \
             drop --minimal for denser puzzles"
        ));
    }
    if opts.max_tries == 0 {
        return Err("the try budget must be at least 1".to_string());
    }
    Ok(())
}

/// One generated puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated {
    pub puzzle: Grid,
    pub solution: Grid,
    /// The symmetry actually used (the draw, when [`Symmetry::Any`] was asked).
    pub symmetry: Symmetry,
}

/// What [`generate_one`] did for one index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The puzzle, or `None` when `max_tries` tries were all rejected.
    pub found: Option<Generated>,
    /// Tries made, the accepted one included.
    pub tries: u64,
    /// Uniqueness checks (solver calls) made over all tries.
    pub checks: u64,
}

/// Generates puzzle number `index` of the run described by `opts`: tries until one meets the
/// clue target and `accept(puzzle, solution)`, or `opts.max_tries` tries are spent. The result
/// depends on `opts` and `index` only (and on `accept` answering the same for the same grids).
/// Call [`check_targets`] first: with an impossible target every try is simply rejected.
///
/// ```
/// use sudoku_batch::generate::{generate_one, Options};
/// use sudoku_batch::engine;
/// let opts = Options { seed: 7, ..Options::default() };
/// let a = generate_one(3, &opts, &|_, _| true);
/// let g = a.found.unwrap();
/// assert_eq!(engine::solve(&g.puzzle, 2).solutions, 1);
/// assert_eq!(a, generate_one(3, &opts, &|_, _| true));
/// ```
pub fn generate_one(index: u64, opts: &Options, accept: &dyn Fn(&Grid, &Grid) -> bool) -> Attempt {
    let mut rng = Rng::for_item(opts.seed, index);
    let (lo, hi) = opts.clues.unwrap_or((0, 81));
    let stop = match (opts.minimal, opts.clues) {
        (true, _) => Stop::Never,
        (false, None) => Stop::FirstFailure,
        (false, Some((_, hi))) => Stop::AtMost(hi),
    };
    let mut checks = 0u64;
    let budget = opts.max_tries.max(1);
    for tries in 1..=budget {
        let symmetry = match opts.symmetry {
            Symmetry::Any => [
                Symmetry::Rot180,
                Symmetry::Rot90,
                Symmetry::Mirror,
                Symmetry::Diagonal,
            ][rng.below(4) as usize],
            s => s,
        };
        let solution = fill::random_solution(&mut rng);
        let mut orbits = symmetry.orbits();
        rng.shuffle(&mut orbits);
        let mut rm = Remover::new(&solution, ALL_CELLS, stop);
        let complete = rm.walk(&orbits, lo);
        checks += u64::from(rm.checks);
        let n = rm.givens().count_ones() as usize;
        if !complete || n < lo || n > hi {
            continue;
        }
        let puzzle = puzzle_of(&solution, rm.givens());
        // The walk's checks already exclude every other solution; this independent count
        // with the engine is the promise every returned puzzle carries.
        checks += 1;
        if engine::solve(&puzzle, 2).solutions != 1 {
            continue;
        }
        if accept(&puzzle, &solution) {
            return Attempt {
                found: Some(Generated {
                    puzzle,
                    solution,
                    symmetry,
                }),
                tries,
                checks,
            };
        }
    }
    Attempt {
        found: None,
        tries: budget,
        checks,
    }
}

const ALL_CELLS: Cells = (1 << 81) - 1;

/// Why [`minimize`] left a puzzle alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// Two equal givens in a house.
    Invalid(Conflict),
    /// No solution.
    Unsolvable,
    /// More than one solution: there is nothing to keep unique.
    MultipleSolutions,
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::Invalid(c) => write!(f, "invalid: {c}"),
            Why::Unsolvable => f.write_str("no solution"),
            Why::MultipleSolutions => f.write_str("more than one solution"),
        }
    }
}

impl std::error::Error for Why {}

/// Reduces a unique puzzle to a minimal one with the same solution by removing givens (never
/// adding or changing any) in an order drawn from `seed` and the puzzle's content. A puzzle that
/// is already minimal comes back unchanged.
///
/// ```
/// use sudoku_batch::{engine, generate::minimize, Grid};
/// let p: Grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse().unwrap();
/// let m = minimize(&p, 1).unwrap();
/// assert!(m.clues() < p.clues());
/// assert_eq!(engine::solve(&m, 2).solutions, 1);
/// assert_eq!(minimize(&m, 99).unwrap(), m);
/// ```
pub fn minimize(puzzle: &Grid, seed: u64) -> Result<Grid, Why> {
    puzzle.check_givens().map_err(Why::Invalid)?;
    let r = engine::solve(puzzle, 2);
    let solution = match (r.solutions, r.first) {
        (1, Some(s)) => s,
        (0, _) | (_, None) => return Err(Why::Unsolvable),
        _ => return Err(Why::MultipleSolutions),
    };
    let mut rng = Rng::for_item(seed, hash_bytes(puzzle.cells()));
    let givens = mask_of(puzzle);
    let mut orbits: Vec<Cells> = (0..81)
        .filter(|i| givens >> i & 1 == 1)
        .map(|i| 1 << i)
        .collect();
    rng.shuffle(&mut orbits);
    let mut rm = Remover::new(&solution, givens, Stop::Never);
    rm.walk(&orbits, 0);
    Ok(puzzle_of(&solution, rm.givens()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbit_shapes() {
        let sizes = |s: Symmetry| {
            let o = s.orbits();
            let total: u32 = o.iter().map(|m| m.count_ones()).sum();
            assert_eq!(total, 81, "{s}");
            assert_eq!(o.iter().fold(0, |a, &m| a | m), ALL_CELLS, "{s}");
            o.len()
        };
        assert_eq!(sizes(Symmetry::None), 81);
        assert_eq!(sizes(Symmetry::Rot180), 41);
        assert_eq!(sizes(Symmetry::Rot90), 21);
        assert_eq!(sizes(Symmetry::Mirror), 45);
        assert_eq!(sizes(Symmetry::Diagonal), 45);
    }

    #[test]
    fn names_round_trip() {
        for n in Symmetry::NAMES {
            assert_eq!(Symmetry::parse(n).unwrap().as_str(), n);
        }
        assert_eq!(Symmetry::parse("ROT90").unwrap(), Symmetry::Rot90);
        assert!(Symmetry::parse("spiral").unwrap_err().contains("rot180"));
    }

    #[test]
    fn targets() {
        let with = |clues, minimal| Options {
            clues: Some(clues),
            minimal,
            ..Options::default()
        };
        assert!(check_targets(&Options::default()).is_ok());
        assert!(check_targets(&with((17, 17), true)).is_ok());
        assert!(check_targets(&with((50, 81), false)).is_ok());
        assert!(check_targets(&with((10, 16), true))
            .unwrap_err()
            .contains("17"));
        assert!(check_targets(&with((30, 82), false))
            .unwrap_err()
            .contains("81"));
        assert!(check_targets(&with((30, 20), false))
            .unwrap_err()
            .contains("empty"));
        assert!(check_targets(&with((45, 50), true))
            .unwrap_err()
            .contains("minimal"));
    }
}
