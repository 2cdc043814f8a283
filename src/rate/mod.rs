//! Rating puzzles: what `sudoku-batch rate` writes for each one — its clue count, the guesses the
//! engine needs, a transform-averaged `rating`, whether singles alone solve it, and a class on
//! QQWing's four-step scale. The technique solver behind the class lives in the private `logic`
//! module (candidate bitmasks, no allocation, no search).
//!
//! # The fields
//!
//! - **clues**: the givens.
//! - **guesses**: [`engine::solve`]`(puzzle, 2).guesses`, counted as the engine counts them.
//! - **rating**: the mean of `guesses` over `samples` random equivalence transforms of the puzzle
//!   ([`Transform::random`]), each solved with limit 2 like `guesses`. The transforms are drawn
//!   from [`Rng::for_item`]`(seed, `[`hash_bytes`]`(cells))`, the cells being the puzzle's 81
//!   values (0 for blank), so a rating is a function of `(puzzle, samples, seed)` alone: never of
//!   threads, chunking or the row's position. Guesses depend on how the puzzle is presented to
//!   the engine (which cell and digit come first), and the mean over transforms removes most of
//!   that; this is how tdoku rated sudoku-extreme. `samples = 0` counts as 1.
//! - **singles**: naked and hidden singles alone solve it (no other technique, no guess).
//! - **class**, QQWing's scale, defined by fixpoints (below): `simple`, `easy`, `intermediate`,
//!   `expert`.
//!
//! # The class, precisely
//!
//! The solver keeps a set of candidates for every cell (a given's set is its digit) and knows
//! these eliminations, each of which only ever removes candidates:
//!
//! - *naked single*: a cell with one candidate `d` removes `d` from its 20 peers;
//! - *hidden single*: a digit with one candidate cell in a row, column or box removes that cell's
//!   other candidates;
//! - *locked candidates*: a digit whose candidates in a box lie on one line (row or column) is
//!   removed from the rest of that line (*pointing*); a digit whose candidates on a line lie in
//!   one box is removed from the rest of that box (*claiming*);
//! - *naked pair*: two cells of a unit whose candidates together are two digits remove those
//!   digits from the unit's other cells;
//! - *hidden pair*: two digits whose candidates in a unit together lie in two cells remove every
//!   other candidate from those two cells.
//!
//! For a set of these, its *fixpoint* is the candidate state reached by applying them, in any
//! order, until none removes anything. A puzzle is *solved* by a set when its fixpoint leaves one
//! candidate per cell (which is then the solution). The class is the first of
//!
//! - `simple`: naked singles solve it;
//! - `easy`: naked and hidden singles solve it;
//! - `intermediate`: singles, locked candidates, naked pairs and hidden pairs solve it;
//! - `expert`: otherwise.
//!
//! and `singles` is "class is `simple` or `easy`". The fixpoint does not depend on the order the
//! eliminations are tried in: each is sound (on a puzzle with a solution it never removes a
//! digit of that solution, so no cell runs out of candidates), only removes, and is monotone
//! (with fewer candidates it removes at least as much, as long as no cell is empty), and such a
//! family's iteration always ends in the same greatest common fixpoint (the chaotic-iteration
//! theorem). So the class says which techniques are *needed*, not which one a particular solver
//! happened to try first. (Pairs are stated with "together", which is what makes them monotone;
//! with singles in the same set that is the same fixpoint as the usual "two cells with the same
//! two candidates" and "two digits in the same two cells", which is how the solver finds them.)
//!
//! # Which puzzles
//!
//! The fields are meant for valid puzzles with exactly one solution. [`rate`] takes any grid and
//! fills `rating` and `grade` only when the engine finds exactly one solution (with limit 2);
//! [`grade`] and [`rating`] compute on any grid, and on a grid without a unique solution `grade`
//! says `expert` with `singles` false (no technique set solves it), while `rating` is still the
//! mean of guesses.

pub mod command;
mod logic;

use crate::engine;
use crate::grid::Grid;
use crate::rng::{hash_bytes, Rng};
use crate::transform::Transform;

use logic::{Board, Reached};

/// The number of transforms a rating averages over unless told otherwise.
pub const DEFAULT_SAMPLES: u32 = 16;

/// QQWing's difficulty scale; ordered from easiest to hardest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Naked singles alone solve it.
    Simple,
    /// Naked and hidden singles solve it, naked singles alone do not.
    Easy,
    /// Singles, locked candidates and naked/hidden pairs solve it, singles alone do not.
    Intermediate,
    /// Those techniques do not solve it.
    Expert,
}

impl Class {
    /// Every class, easiest first.
    pub const ALL: [Class; 4] = [
        Class::Simple,
        Class::Easy,
        Class::Intermediate,
        Class::Expert,
    ];

    /// The lower-case name written in output rows: `simple`, `easy`, `intermediate`, `expert`.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Simple => "simple",
            Class::Easy => "easy",
            Class::Intermediate => "intermediate",
            Class::Expert => "expert",
        }
    }

    /// The class named `s` (as [`Class::as_str`] writes it, any letter case).
    pub fn parse(s: &str) -> Option<Class> {
        Class::ALL
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(s.trim()))
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What logic alone makes of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grade {
    /// Naked and hidden singles solve it.
    pub singles: bool,
    /// The class (see the module docs for the definition).
    pub class: Class,
}

/// Grades `puzzle` by logic alone, no search (see the module docs for the definitions).
///
/// ```
/// use sudoku_batch::rate::{grade, Class};
/// let p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// let g = grade(&p.parse().unwrap());
/// assert!(g.singles);
/// assert!(g.class <= Class::Easy);
/// ```
pub fn grade(puzzle: &Grid) -> Grade {
    let class = match Board::new(puzzle.cells()).reach() {
        Reached::Naked => Class::Simple,
        Reached::Hidden => Class::Easy,
        Reached::Intermediate => Class::Intermediate,
        Reached::Unsolved => Class::Expert,
    };
    Grade {
        singles: class <= Class::Easy,
        class,
    }
}

/// The generator a puzzle's rating draws its transforms from: a function of `seed` and the
/// puzzle's 81 cells only.
pub fn rating_rng(puzzle: &Grid, seed: u64) -> Rng {
    Rng::for_item(seed, hash_bytes(puzzle.cells()))
}

/// The mean of [`engine::solve`]`(t(puzzle), 2).guesses` over `samples` transforms `t` drawn
/// with [`Transform::random`] from [`rating_rng`]`(puzzle, seed)` (`samples = 0` counts as 1).
/// The sum is kept in integers, so the value is exactly `total / samples`, the same everywhere.
///
/// ```
/// use sudoku_batch::rate::rating;
/// let p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// assert_eq!(rating(&p.parse().unwrap(), 16, 1), 0.0); // singles never need a guess
/// ```
pub fn rating(puzzle: &Grid, samples: u32, seed: u64) -> f64 {
    let samples = samples.max(1);
    let mut rng = rating_rng(puzzle, seed);
    let mut total = 0u64;
    for _ in 0..samples {
        let t = Transform::random(&mut rng);
        total += engine::solve(&t.apply(puzzle), 2).guesses;
    }
    total as f64 / f64::from(samples)
}

/// Everything `rate` writes about one puzzle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated {
    /// Givens.
    pub clues: usize,
    /// Solutions found, up to 2 (0 also for givens that break a rule).
    pub solutions: u32,
    /// [`engine::solve`]`(puzzle, 2).guesses`.
    pub guesses: u64,
    /// [`rating`], when the puzzle has exactly one solution.
    pub rating: Option<f64>,
    /// [`grade`], when the puzzle has exactly one solution.
    pub grade: Option<Grade>,
}

/// Rates one puzzle: solves it once with limit 2 and, when it has exactly one solution, adds its
/// [`rating`] over `samples` transforms and its [`grade`].
///
/// ```
/// use sudoku_batch::{rate::{rate, Class}, Grid};
/// let p: Grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse().unwrap();
/// let r = rate(&p, 16, 0);
/// assert_eq!((r.clues, r.solutions, r.guesses, r.rating), (30, 1, 0, Some(0.0)));
/// assert!(r.grade.unwrap().singles);
/// let blank = rate(&Grid::EMPTY, 16, 0);
/// assert_eq!((blank.solutions, blank.rating, blank.grade), (2, None, None));
/// ```
pub fn rate(puzzle: &Grid, samples: u32, seed: u64) -> Rated {
    let found = engine::solve(puzzle, 2);
    let unique = found.solutions == 1;
    Rated {
        clues: puzzle.clues(),
        solutions: found.solutions,
        guesses: found.guesses,
        rating: unique.then(|| rating(puzzle, samples, seed)),
        grade: unique.then(|| grade(puzzle)),
    }
}
