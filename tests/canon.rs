//! The fast minlex search against the brute-force reference (every one of the 3,359,232
//! geometric transforms): forms and automorphism counts on random puzzles cut from random
//! solutions and on adversarial grids (empty, one or two clues, complete, highly symmetric,
//! conflicting givens); then invariance under random transforms and separation of inequivalent
//! puzzles at a larger scale, without the reference.

use crate::reference::minlex;

use sudoku_batch::canon::{canonical, form_line, Canonical};
use sudoku_batch::rng::Rng;
use sudoku_batch::transform::Transform;
use sudoku_batch::{engine, Grid};

fn grid(cells: [u8; 81]) -> Grid {
    Grid::from_cells(cells).unwrap()
}

fn line(s: &str) -> Grid {
    s.parse().unwrap()
}

/// A random complete grid: a few random givens on the empty grid, solved, then a random
/// transform (so the engine's fill order does not shape the sample).
fn random_solution(rng: &mut Rng) -> Grid {
    loop {
        let mut cells = [0u8; 81];
        for _ in 0..8 {
            cells[rng.below(81) as usize] = rng.below(9) as u8 + 1;
        }
        let g = grid(cells);
        if g.check_givens().is_err() {
            continue;
        }
        if let Some(s) = engine::solve(&g, 1).first {
            return Transform::random(rng).apply(&s);
        }
    }
}

/// `solution` with all but `keep` random cells blanked.
fn cut(solution: &Grid, keep: usize, rng: &mut Rng) -> Grid {
    let mut order: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut order);
    let mut cells = [0u8; 81];
    for &k in &order[..keep] {
        cells[k] = solution.cells()[k];
    }
    grid(cells)
}

/// The fast result agrees with the reference, and its transform reaches the form.
fn check_against_reference(g: &Grid) -> Canonical {
    let c = canonical(g);
    let (form, count) = minlex::minlex(g.cells());
    assert_eq!(c.form.cells(), &form, "form of {}", g.to_line());
    assert_eq!(c.automorphisms, count, "automorphisms of {}", g.to_line());
    assert_eq!(c.transform.apply(g), c.form, "transform of {}", g.to_line());
    c
}

#[test]
fn random_puzzles_match_the_reference() {
    let mut rng = Rng::new(2024);
    // 14 brute-force cases (about half a second each in the dev profile), clue counts spread
    // from near-empty to near-complete.
    for keep in [3, 8, 14, 17, 20, 22, 24, 26, 28, 32, 40, 55, 70, 80] {
        let s = random_solution(&mut rng);
        check_against_reference(&cut(&s, keep, &mut rng));
    }
}

#[test]
fn adversarial_grids_match_the_reference() {
    let mut two_same_row = [0u8; 81];
    two_same_row[3] = 4;
    two_same_row[5] = 4; // a conflict: the same digit twice in a row
    let mut conflicts = [0u8; 81];
    for (k, v) in [(0, 1), (1, 1), (9, 1), (10, 2), (40, 3), (44, 3), (80, 2)] {
        conflicts[k] = v; // repeats in rows, columns and boxes at once
    }
    let mut diagonal = [0u8; 81];
    for i in 0..9 {
        diagonal[i * 10] = (i + 1) as u8;
    }
    let mut all_fives = [0u8; 81];
    for r in 0..9 {
        all_fives[r * 9 + (r * 4) % 9] = 5; // one digit everywhere: heavy label repeats
    }
    let cases = [
        Grid::EMPTY,
        grid({
            let mut c = [0u8; 81];
            c[30] = 6;
            c
        }),
        grid(two_same_row),
        grid(conflicts),
        grid(diagonal),
        grid(all_fives),
        // A complete grid with many automorphisms (bands, stacks and rows are shifts of one
        // another) and the minlex-first complete grid.
        line("123456789456789123789123456234567891567891234891234567345678912678912345912345678"),
        line("123456789456789123789123456214365897365897214897214365531642978642978531978531642"),
        // A published 17-clue puzzle and a pattern-symmetric one.
        line("000000010400000000020000000000050407008000300001090000300400200050100000000806000"),
        line("100000002090400050006000700050903000000070000000850040700000600030009080002000001"),
    ];
    for g in &cases {
        check_against_reference(g);
    }
    // Every transform fixes the empty grid.
    assert_eq!(canonical(&Grid::EMPTY).automorphisms, 3_359_232);
}

#[test]
fn forms_are_invariant_under_random_transforms() {
    let mut rng = Rng::new(7);
    for i in 0..300 {
        let s = random_solution(&mut rng);
        let g = cut(&s, 17 + i % 50, &mut rng);
        let c = canonical(&g);
        assert_eq!(c.transform.apply(&g), c.form);
        for _ in 0..10 {
            let t = Transform::random(&mut rng);
            let h = t.apply(&g);
            let d = canonical(&h);
            assert_eq!(d.form, c.form, "{} under {t}", g.to_line());
            assert_eq!(d.automorphisms, c.automorphisms);
            assert_eq!(d.transform.apply(&h), d.form);
        }
        // The form is a fixed point: canonicalising it again changes nothing.
        assert_eq!(canonical(&c.form).form, c.form);
    }
}

#[test]
fn one_changed_clue_changes_the_form() {
    let mut rng = Rng::new(99);
    for _ in 0..300 {
        let s = random_solution(&mut rng);
        let g = cut(&s, 24, &mut rng);
        let mut cells = *g.cells();
        let k = cells.iter().position(|&v| v != 0).unwrap();
        // Another digit in the same cell, or the clue moved to a blank cell.
        let mut other = cells;
        other[k] = cells[k] % 9 + 1;
        let blank = cells.iter().position(|&v| v == 0).unwrap();
        cells[blank] = cells[k];
        cells[k] = 0;
        let cg = canonical(&g);
        // Transforms keep how often each digit occurs (up to relabeling), so grids whose sorted
        // digit counts differ are inequivalent and must get different forms.
        for h in [grid(other), grid(cells)] {
            let hist = |g: &Grid| {
                let mut n = [0u8; 10];
                g.cells().iter().for_each(|&v| n[v as usize] += 1);
                let mut v = n[1..].to_vec();
                v.sort_unstable();
                v
            };
            if hist(&h) != hist(&g) {
                assert_ne!(canonical(&h).form, cg.form, "{}", g.to_line());
            }
        }
    }
}

#[test]
fn form_line_writes_zeros_for_blanks() {
    let c = canonical(&line(
        "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
    ));
    assert_eq!(
        std::str::from_utf8(&form_line(&c)).unwrap(),
        c.form.to_line().replace('.', "0")
    );
}

#[cfg_attr(
    not(corpora),
    ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
)]
#[test]
fn corpus_puzzles_match_the_reference() {
    // Two per corpus keeps the brute force at a few seconds.
    for name in [
        "17clue.txt",
        "top1465.txt",
        "forum_hardest_sample.txt",
        "kaggle_sample.txt",
    ] {
        for g in sudoku_batch::corpora::puzzles(name, 2) {
            check_against_reference(&g);
        }
    }
}
