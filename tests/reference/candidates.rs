//! A deliberately simple reference solver over candidate sets, for checking the engine's
//! `solve_candidates`: plain backtracking on the first empty cell, trying digits 1..9 that the
//! cell's set allows and no placed peer holds. No propagation and no cleverness, so that it is
//! obviously right; it is only fast enough on puzzles whose sets are small or loose.

/// Whether cells `a` and `b` (0..81) share a row, column or box.
pub fn are_peers(a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
    a != b && (ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3))
}

/// Counts the solutions of the candidate sets `masks` (bit `d - 1` = digit `d`) up to `limit`,
/// returning the count and the first solution found (digits 1..9, row-major).
pub fn solve(masks: &[u16; 81], limit: u32) -> (u32, Option<[u8; 81]>) {
    let mut cells = [0u8; 81];
    let mut count = 0;
    let mut first = None;
    search(masks, &mut cells, 0, limit.max(1), &mut count, &mut first);
    (count, first)
}

fn search(
    masks: &[u16; 81],
    cells: &mut [u8; 81],
    from: usize,
    limit: u32,
    count: &mut u32,
    first: &mut Option<[u8; 81]>,
) {
    // Cells before `from` are filled: the first empty cell is the next one.
    if from == 81 {
        *count += 1;
        if first.is_none() {
            *first = Some(*cells);
        }
        return;
    }
    for d in 1..=9u8 {
        if masks[from] & (1 << (d - 1)) == 0 {
            continue;
        }
        if (0..81).any(|p| cells[p] == d && are_peers(p, from)) {
            continue;
        }
        cells[from] = d;
        search(masks, cells, from + 1, limit, count, first);
        cells[from] = 0;
        if *count >= limit {
            return;
        }
    }
}

/// Whether `sol` is a complete valid sudoku grid whose every digit its cell's set allows.
pub fn is_solution(masks: &[u16; 81], sol: &[u8; 81]) -> bool {
    (0..81).all(|c| {
        (1..=9).contains(&sol[c])
            && masks[c] & (1 << (sol[c] - 1)) != 0
            && (0..81).all(|p| !are_peers(p, c) || sol[p] != sol[c])
    })
}
