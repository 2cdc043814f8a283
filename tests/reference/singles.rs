//! A deliberately simple singles-only solver, the reference for `Grade::singles`: fill a blank
//! cell when only one digit fits it (naked single), or when a digit fits only one blank cell of a
//! row, column or box (hidden single); repeat until nothing more can be filled. Everything is
//! recomputed from the filled cells by scanning, the way one would by hand, so it shares nothing
//! with the library's bitmask solver.

#![allow(dead_code)]

/// 81 cells, row-major, `0` for blank.
pub type Cells = [u8; 81];

/// Whether `d` may go in blank `cell`: no cell of its row, column or box holds `d`.
pub fn fits(g: &Cells, cell: usize, d: u8) -> bool {
    let (r, c) = (cell / 9, cell % 9);
    for k in 0..9 {
        if g[r * 9 + k] == d || g[k * 9 + c] == d {
            return false;
        }
    }
    for rr in r / 3 * 3..r / 3 * 3 + 3 {
        for cc in c / 3 * 3..c / 3 * 3 + 3 {
            if g[rr * 9 + cc] == d {
                return false;
            }
        }
    }
    true
}

/// The cells of the 27 rows, columns and boxes.
pub fn units() -> Vec<Vec<usize>> {
    let mut units = Vec::new();
    for i in 0..9 {
        units.push((0..9).map(|k| i * 9 + k).collect());
        units.push((0..9).map(|k| k * 9 + i).collect());
        units.push(
            (0..9)
                .map(|k| (i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3)
                .collect(),
        );
    }
    units
}

/// Fills what naked singles (and, when `hidden`, hidden singles) can, and returns the grid.
pub fn fill(puzzle: &Cells, hidden: bool) -> Cells {
    let mut g = *puzzle;
    let units = units();
    loop {
        let mut progress = false;
        for cell in 0..81 {
            if g[cell] != 0 {
                continue;
            }
            let fitting: Vec<u8> = (1..=9).filter(|&d| fits(&g, cell, d)).collect();
            if fitting.len() == 1 {
                g[cell] = fitting[0];
                progress = true;
            }
        }
        if hidden {
            for unit in &units {
                for d in 1..=9 {
                    if unit.iter().any(|&c| g[c] == d) {
                        continue;
                    }
                    let places: Vec<usize> = unit
                        .iter()
                        .copied()
                        .filter(|&c| g[c] == 0 && fits(&g, c, d))
                        .collect();
                    if places.len() == 1 {
                        g[places[0]] = d;
                        progress = true;
                    }
                }
            }
        }
        if !progress {
            return g;
        }
    }
}

/// Whether `g` is full and breaks no rule.
pub fn complete(g: &Cells) -> bool {
    (0..81).all(|i| {
        let mut rest = *g;
        rest[i] = 0;
        g[i] != 0 && fits(&rest, i, g[i])
    })
}

/// Whether naked and hidden singles alone solve `puzzle`.
pub fn solves(puzzle: &Cells) -> bool {
    complete(&fill(puzzle, true))
}

/// Whether naked singles alone solve `puzzle`.
pub fn naked_solves(puzzle: &Cells) -> bool {
    complete(&fill(puzzle, false))
}
