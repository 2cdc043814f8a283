//! Unit tests of the fast minlex search: invariance under random transforms, the transform it
//! returns, and forms and automorphism counts that can be worked out by hand. The comparison
//! with the brute-force reference lives in `tests/canon.rs`.

use super::*;
use crate::rng::Rng;
use crate::testing::{LEET, LEET_SOLUTION};
use crate::transform::GEOMETRIC;

fn grid(s: &str) -> Grid {
    s.parse().unwrap()
}

fn with_clue(cell: usize, digit: u8) -> Grid {
    let mut cells = [0u8; 81];
    cells[cell] = digit;
    Grid::from_cells(cells).unwrap()
}

fn assert_invariant(g: &Grid, rng: &mut Rng, rounds: usize) {
    let c = canonical(g);
    assert_eq!(c.transform.apply(g), c.form, "{}", g.to_line());
    assert!(c.automorphisms >= 1);
    for _ in 0..rounds {
        let t = Transform::random(rng);
        let d = canonical(&t.apply(g));
        assert_eq!(d.form, c.form, "{} under {t}", g.to_line());
        assert_eq!(
            d.automorphisms,
            c.automorphisms,
            "{} under {t}",
            g.to_line()
        );
    }
}

#[test]
fn empty_grid_is_its_own_form_and_every_transform_fixes_it() {
    let c = canonical(&Grid::EMPTY);
    assert_eq!(c.form, Grid::EMPTY);
    assert_eq!(c.automorphisms, GEOMETRIC);
    assert_eq!(form_line(&c), [b'0'; 81]);
}

#[test]
fn one_clue_goes_to_the_last_cell_as_a_one() {
    // The transforms fixing the last cell: transposition or not (2), bands with the last one
    // kept last (2) and its last row kept last (2), free rows in the other bands (6 × 6); the
    // same for columns: 2 × 144 × 144.
    for cell in [0, 40, 80, 17] {
        for digit in [1, 7] {
            let c = canonical(&with_clue(cell, digit));
            assert_eq!(c.form, with_clue(80, 1));
            assert_eq!(c.automorphisms, 2 * 144 * 144);
            assert_eq!(c.transform.apply(&with_clue(cell, digit)), c.form);
        }
    }
}

#[test]
fn transform_maps_the_input_to_the_form_and_forms_are_invariant() {
    let mut rng = Rng::new(5);
    for g in [grid(LEET), grid(LEET_SOLUTION)] {
        assert_invariant(&g, &mut rng, 40);
    }
}

#[test]
fn complete_grid_starts_with_one_to_nine() {
    let c = canonical(&grid(LEET_SOLUTION));
    assert_eq!(&form_line(&c)[..9], b"123456789");
    assert!(c.form.is_solution_of(&c.form));
}

#[test]
fn conflicting_givens_take_the_exhaustive_first_row() {
    // Two 5s in row 1: the first row of the form is "11" at the end, not "12".
    let mut cells = [0u8; 81];
    cells[0] = 5;
    cells[1] = 5;
    let g = Grid::from_cells(cells).unwrap();
    let c = canonical(&g);
    let mut want = [0u8; 81];
    want[79] = 1;
    want[80] = 1;
    assert_eq!(c.form.cells(), &want);
    assert_eq!(c.transform.apply(&g), c.form);
    assert_invariant(&g, &mut Rng::new(9), 20);
}

#[test]
fn absent_digits_get_the_unused_labels_in_order() {
    let g = with_clue(3, 4);
    let c = canonical(&g);
    assert_eq!(c.transform.digits(), &[0, 2, 3, 4, 1, 5, 6, 7, 8, 9]);
}

#[test]
fn one_changed_clue_gives_another_form() {
    let g = grid(LEET);
    let mut cells = *g.cells();
    let k = cells.iter().position(|&v| v != 0).unwrap();
    cells[k] = cells[k] % 9 + 1;
    let h = Grid::from_cells(cells).unwrap();
    assert_ne!(canonical(&g).form, canonical(&h).form);
}

#[cfg_attr(
    not(corpora),
    ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
)]
#[test]
fn corpus_forms_are_invariant() {
    let mut rng = Rng::new(17);
    for name in ["17clue.txt", "top1465.txt", "forum_hardest_sample.txt"] {
        for g in crate::corpora::puzzles(name, 150) {
            assert_invariant(&g, &mut rng, 4);
        }
    }
}

#[cfg_attr(
    not(corpora),
    ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
)]
#[test]
fn class_search_agrees_with_the_permutation_search() {
    // Two independent searches (the older one is checked against the brute force in
    // tests/canon.rs): same form and automorphism count, and each transform reaches the form.
    let mut c = Canonicalizer::default();
    for name in [
        "17clue.txt",
        "top1465.txt",
        "forum_hardest_sample.txt",
        "kaggle_sample.txt",
    ] {
        for g in crate::corpora::puzzles(name, 200) {
            let a = c.canonical(&g);
            let b = c.canonical_by_permutations(&g);
            assert_eq!(a.form, b.form, "{}", g.to_line());
            assert_eq!(a.automorphisms, b.automorphisms, "{}", g.to_line());
            assert_eq!(a.transform.apply(&g), a.form, "{}", g.to_line());
        }
    }
}
