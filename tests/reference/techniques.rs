//! A deliberately simple reference for `Grade::class`: a candidate table of booleans, each
//! technique spelled out as plain loops over cells, digits and units exactly as the library's
//! module docs define it (pairs in the "together" form), and the fixpoint of each level found by
//! trying every technique of the level until a whole round changes nothing. Slow on purpose.

#![allow(dead_code)]

use super::singles::{units, Cells};

/// `cand[cell][d]`: digit `d` (1..=9) is still possible in `cell`; index 0 unused.
pub type Candidates = [[bool; 10]; 81];

/// The candidate table of `puzzle`: a given's only candidate is its digit, a blank's are all.
pub fn start(puzzle: &Cells) -> Candidates {
    let mut cand = [[false; 10]; 81];
    for (row, &given) in cand.iter_mut().zip(puzzle.iter()) {
        for (d, slot) in row.iter_mut().enumerate().skip(1) {
            *slot = given == 0 || given as usize == d;
        }
    }
    cand
}

fn digits_of(cand: &Candidates, cell: usize) -> Vec<usize> {
    (1..=9).filter(|&d| cand[cell][d]).collect()
}

fn same_box(a: usize, b: usize) -> bool {
    a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3
}

fn peers(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || same_box(a, b))
}

fn remove(cand: &mut Candidates, cell: usize, d: usize) -> bool {
    let was = cand[cell][d];
    cand[cell][d] = false;
    was
}

/// A cell with one candidate removes it from its peers.
pub fn naked_single(cand: &mut Candidates) -> bool {
    let mut changed = false;
    for cell in 0..81 {
        let ds = digits_of(cand, cell);
        if ds.len() == 1 {
            for other in 0..81 {
                if peers(cell, other) {
                    changed |= remove(cand, other, ds[0]);
                }
            }
        }
    }
    changed
}

/// A digit with one candidate cell in a unit removes that cell's other candidates.
pub fn hidden_single(cand: &mut Candidates) -> bool {
    let mut changed = false;
    for unit in units() {
        for d in 1..=9 {
            let cells: Vec<usize> = unit.iter().copied().filter(|&c| cand[c][d]).collect();
            if cells.len() == 1 {
                for other in 1..=9 {
                    if other != d {
                        changed |= remove(cand, cells[0], other);
                    }
                }
            }
        }
    }
    changed
}

/// Pointing: a digit whose candidates in a box share one row (column) leaves the rest of it.
pub fn pointing(cand: &mut Candidates) -> bool {
    let mut changed = false;
    for b in 0..9 {
        let box_cells: Vec<usize> = (0..81)
            .filter(|&c| same_box(c, b / 3 * 27 + b % 3 * 3))
            .collect();
        for d in 1..=9 {
            let cells: Vec<usize> = box_cells.iter().copied().filter(|&c| cand[c][d]).collect();
            if cells.is_empty() {
                continue;
            }
            if cells.iter().all(|&c| c / 9 == cells[0] / 9) {
                for other in 0..81 {
                    if other / 9 == cells[0] / 9 && !box_cells.contains(&other) {
                        changed |= remove(cand, other, d);
                    }
                }
            }
            if cells.iter().all(|&c| c % 9 == cells[0] % 9) {
                for other in 0..81 {
                    if other % 9 == cells[0] % 9 && !box_cells.contains(&other) {
                        changed |= remove(cand, other, d);
                    }
                }
            }
        }
    }
    changed
}

/// Claiming: a digit whose candidates on a row (column) lie in one box leaves the rest of it.
pub fn claiming(cand: &mut Candidates) -> bool {
    let mut changed = false;
    for line in 0..18 {
        let on_line = |c: usize| {
            if line < 9 {
                c / 9 == line
            } else {
                c % 9 == line - 9
            }
        };
        for d in 1..=9 {
            let cells: Vec<usize> = (0..81).filter(|&c| on_line(c) && cand[c][d]).collect();
            if cells.is_empty() || !cells.iter().all(|&c| same_box(c, cells[0])) {
                continue;
            }
            for other in 0..81 {
                if same_box(other, cells[0]) && !on_line(other) {
                    changed |= remove(cand, other, d);
                }
            }
        }
    }
    changed
}

/// Two cells of a unit whose candidates together are two digits remove them from the others.
pub fn naked_pair(cand: &mut Candidates) -> bool {
    let mut changed = false;
    for unit in units() {
        for i in 0..9 {
            for j in i + 1..9 {
                let (a, b) = (unit[i], unit[j]);
                let together: Vec<usize> = (1..=9).filter(|&d| cand[a][d] || cand[b][d]).collect();
                if together.len() != 2 {
                    continue;
                }
                for &other in &unit {
                    if other != a && other != b {
                        for &d in &together {
                            changed |= remove(cand, other, d);
                        }
                    }
                }
            }
        }
    }
    changed
}

/// Two digits whose candidates in a unit together lie in two cells clear those cells' others.
pub fn hidden_pair(cand: &mut Candidates) -> bool {
    let mut changed = false;
    for unit in units() {
        for x in 1..=9 {
            for y in x + 1..=9 {
                let cells: Vec<usize> = unit
                    .iter()
                    .copied()
                    .filter(|&c| cand[c][x] || cand[c][y])
                    .collect();
                if cells.len() != 2 {
                    continue;
                }
                for &cell in &cells {
                    for d in 1..=9 {
                        if d != x && d != y {
                            changed |= remove(cand, cell, d);
                        }
                    }
                }
            }
        }
    }
    changed
}

type Technique = fn(&mut Candidates) -> bool;

/// The grid the fixpoint of `techniques` leaves, when it leaves exactly one candidate in every
/// cell; `None` when some cell keeps two or more, or none.
pub fn fixpoint(puzzle: &Cells, techniques: &[Technique]) -> Option<Cells> {
    let mut cand = start(puzzle);
    loop {
        let mut changed = false;
        for t in techniques {
            changed |= t(&mut cand);
        }
        if (0..81).any(|c| digits_of(&cand, c).is_empty()) {
            return None;
        }
        if !changed {
            break;
        }
    }
    let mut grid = [0u8; 81];
    for (cell, v) in grid.iter_mut().enumerate() {
        match digits_of(&cand, cell)[..] {
            [d] => *v = d as u8,
            _ => return None,
        }
    }
    Some(grid)
}

/// Whether the fixpoint of `techniques` leaves exactly one candidate in every cell.
pub fn solved_by(puzzle: &Cells, techniques: &[Technique]) -> bool {
    fixpoint(puzzle, techniques).is_some()
}

/// Every technique of the intermediate level (and below).
pub const INTERMEDIATE: [Technique; 6] = [
    naked_single,
    hidden_single,
    pointing,
    claiming,
    naked_pair,
    hidden_pair,
];

/// The class name, as the library writes it.
pub fn class(puzzle: &Cells) -> &'static str {
    if solved_by(puzzle, &[naked_single]) {
        "simple"
    } else if solved_by(puzzle, &[naked_single, hidden_single]) {
        "easy"
    } else if solved_by(
        puzzle,
        &[
            naked_single,
            hidden_single,
            pointing,
            claiming,
            naked_pair,
            hidden_pair,
        ],
    ) {
        "intermediate"
    } else {
        "expert"
    }
}
