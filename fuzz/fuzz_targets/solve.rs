//! The solver on arbitrary grids: whatever it returns must be sound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::{engine, Grid};

fuzz_target!(|data: &[u8]| {
    if data.len() < 82 {
        return;
    }
    let mut cells = [0u8; 81];
    for (c, &b) in cells.iter_mut().zip(data) {
        // Mostly blanks, so that solvable grids with few clues come up too.
        *c = if b < 160 { 0 } else { b % 9 + 1 };
    }
    let limit = u32::from(data[81] % 4) + 1;
    let Some(g) = Grid::from_cells(cells) else {
        return;
    };
    // A budget keeps every run short; what it returns must be sound all the same.
    let r = engine::solve_with_budget(&g, limit, 5_000);
    assert!(r.solutions <= limit);
    assert!(r.guesses <= 5_000);
    assert_eq!(r.first.is_some(), r.solutions > 0);
    if !r.gave_up && r.solutions < limit {
        assert_eq!(
            engine::solve(&g, limit + 1).solutions,
            r.solutions,
            "a complete count"
        );
    }
    if g.check_givens().is_err() {
        assert_eq!(r.solutions, 0);
    }
    if let Some(s) = r.first {
        assert!(s.is_solution_of(&g));
    }
});
