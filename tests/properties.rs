//! Property tests (proptest): whatever the grid, the engine's answers are sound and agree with
//! the naive reference solver; whatever the bytes, parsing never panics and formatting
//! round-trips.

use crate::common::{random_grid, reference_solve, sparse_puzzle, Cells, Rng};
use proptest::prelude::*;
use sudoku_batch::{engine, Grid};

fn grid(cells: &Cells) -> Grid {
    Grid::from_cells(*cells).expect("cells are 0..=9")
}

/// A puzzle made from a random solved grid: `keep` of its clues, and maybe one digit changed
/// (which may make it unsolvable or break a rule outright).
fn puzzle(seed: u64, keep: usize, tamper: Option<(usize, u8)>) -> Cells {
    let mut rng = Rng::new(seed);
    let solution = random_grid(&mut rng);
    let mut p = sparse_puzzle(&mut rng, &solution, keep);
    if let Some((cell, digit)) = tamper {
        p[cell] = digit;
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Any solution the engine returns is complete, breaks no rule and keeps the givens, and
    /// the count agrees with the reference solver at limits 1 to 3.
    #[test]
    fn engine_agrees_with_the_reference(
        seed in any::<u64>(),
        keep in 28usize..=81,
        tamper in proptest::option::of((0usize..81, 1u8..=9)),
        limit in 1u32..=3,
    ) {
        let p = puzzle(seed, keep, tamper);
        let g = grid(&p);
        let ours = engine::solve(&g, limit);
        let reference = reference_solve(&p, limit);
        prop_assert_eq!(ours.solutions, reference.count);
        prop_assert!(ours.solutions <= limit);
        prop_assert_eq!(ours.first.is_some(), ours.solutions > 0);
        if let Some(s) = ours.first {
            prop_assert!(s.is_solution_of(&g));
        }
        if reference.count == 1 && limit > 1 {
            prop_assert_eq!(ours.first.map(|s| *s.cells()), reference.first);
        }
    }

    /// Arbitrary cell values: mostly grids whose givens break a rule, which have no solution.
    #[test]
    fn arbitrary_grids_are_sound(cells in proptest::collection::vec(0u8..=9, 81)) {
        let mut c = [0u8; 81];
        c.copy_from_slice(&cells);
        let g = grid(&c);
        let r = engine::solve(&g, 2);
        if g.check_givens().is_err() {
            prop_assert_eq!(r.solutions, 0);
        }
        if let Some(s) = r.first {
            prop_assert!(s.is_solution_of(&g));
        }
    }

    /// Parsing arbitrary bytes never panics, and whatever parses formats back to itself.
    #[test]
    fn parsing_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(g) = Grid::parse_line(&bytes) {
            prop_assert_eq!(Grid::parse_line(g.to_line().as_bytes()), Ok(g));
            let block: Vec<u8> = g.to_block().bytes().filter(|b| !b.is_ascii_whitespace()).collect();
            prop_assert_eq!(Grid::parse_line(&block), Ok(g));
        }
        let _ = Grid::parse_cells(&bytes);
    }
}
