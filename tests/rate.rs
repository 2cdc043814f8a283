//! `rate`'s per-puzzle fields against deliberately simple references.
//!
//! - `singles` against the singles-only solver of `reference/singles.rs`, and `class` against the
//!   plain-loop technique solver of `reference/techniques.rs`, on thousands of seeded generated
//!   puzzles (clues removed from random solved grids down to a random target, keeping one
//!   solution) and on slices of the corpora; each class must occur, so agreement is not vacuous.
//! - `class` is a property of the puzzle, not of its presentation: equal under transforms.
//! - `rating` is a pure function of (puzzle, samples, seed): the documented formula, the same
//!   when repeated, across threads and orders, and for duplicates; 0 when no transform needs a
//!   guess.
//! - `rate` fills `rating` and `grade` exactly for puzzles with one solution.

mod common;
#[path = "reference/singles.rs"]
mod singles;
#[path = "reference/techniques.rs"]
mod techniques;

use rayon::prelude::*;
use sudoku_batch::rate::{grade, rate, rating, rating_rng, Class, DEFAULT_SAMPLES};
use sudoku_batch::rng::{hash_bytes, Rng};
use sudoku_batch::transform::Transform;
use sudoku_batch::{engine, Grid};

fn grid(cells: &[u8; 81]) -> Grid {
    Grid::from_cells(*cells).expect("cells are 0..=9")
}

/// `n` seeded puzzles with one solution: clues removed from random solved grids, in a random
/// order, while the solution stays unique, down to a target between 17 and 40 clues.
fn generated(n: usize, seed: u64) -> Vec<Grid> {
    let count = |c: &[u8; 81]| engine::solve(&grid(c), 2).solutions;
    (0..n as u64)
        .into_par_iter()
        .map(|i| {
            let mut rng = common::Rng::for_item(seed, i);
            let solution = common::random_grid(&mut rng);
            let target = rng.range(17, 40);
            grid(&common::unique_puzzle(&mut rng, &solution, target, &count))
        })
        .collect()
}

/// Checks grade against both references on every puzzle; returns how many fell in each class.
fn check_grades(puzzles: &[Grid], what: &str) -> [usize; 4] {
    let classes: Vec<Class> = puzzles
        .par_iter()
        .enumerate()
        .map(|(i, p)| {
            let g = grade(p);
            let want_singles = singles::solves(p.cells());
            assert_eq!(
                g.singles,
                want_singles,
                "{what} #{i} singles: {}",
                p.to_line()
            );
            let want = techniques::class(p.cells());
            assert_eq!(g.class.as_str(), want, "{what} #{i} class: {}", p.to_line());
            // The two references agree with each other where they overlap.
            assert_eq!(want_singles, matches!(want, "simple" | "easy"));
            assert_eq!(singles::naked_solves(p.cells()), want == "simple");
            // Whatever the logic finishes is the solution the engine finds.
            if let Some(done) = techniques::fixpoint(p.cells(), &techniques::INTERMEDIATE) {
                assert_eq!(Some(grid(&done)), engine::solve(p, 2).first);
            }
            g.class
        })
        .collect();
    let mut counts = [0; 4];
    for c in classes {
        counts[c as usize] += 1;
    }
    counts
}

#[test]
fn grades_match_the_references_on_generated_puzzles() {
    let puzzles = generated(1500, 11);
    assert!(puzzles.iter().all(|p| engine::solve(p, 2).solutions == 1));
    let counts = check_grades(&puzzles, "generated");
    eprintln!("generated classes {counts:?}");
    // Every class must be exercised for the comparison to mean anything.
    assert!(counts.iter().all(|&n| n >= 50), "classes {counts:?}");
}

#[test]
#[cfg_attr(
    not(corpora),
    ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
)]
fn grades_match_the_references_on_the_corpora() {
    let mut total = [0; 4];
    for (name, take) in [
        ("kaggle_sample.txt", 1000),
        ("17clue.txt", 500),
        ("top1465.txt", 600),
        ("forum_hardest_sample.txt", 300),
        ("hardest1106.txt", 375),
        ("norvig_easy50.txt", 50),
    ] {
        let puzzles = sudoku_batch::corpora::puzzles(name, take);
        let counts = check_grades(&puzzles, name);
        for k in 0..4 {
            total[k] += counts[k];
        }
    }
    assert!(total.iter().all(|&n| n >= 50), "classes {total:?}");
}

#[test]
fn class_does_not_depend_on_presentation() {
    let puzzles = generated(400, 12);
    puzzles.par_iter().enumerate().for_each(|(i, p)| {
        let g = grade(p);
        let mut rng = Rng::new(i as u64);
        for _ in 0..8 {
            let t = Transform::random(&mut rng);
            assert_eq!(grade(&t.apply(p)), g, "{}", p.to_line());
        }
    });
}

/// Well-known puzzles, one per class, graded as the references grade them; whatever logic
/// finishes must be the engine's solution. (The single techniques on hand-made positions are
/// tested in `rate::logic`'s unit tests.)
#[test]
fn known_puzzles() {
    let cases = [
        // Project Euler 96's first grid: naked singles finish it.
        (
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            Class::Simple,
        ),
        // Project Euler 96's second grid: it needs hidden singles.
        (
            "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3",
            Class::Easy,
        ),
        // Norvig's "hardest" for his propagation solver: locked candidates and pairs finish it.
        (
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            Class::Intermediate,
        ),
        // Arto Inkala's "world's hardest sudoku": beyond every technique here.
        (
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            Class::Expert,
        ),
    ];
    for (line, class) in cases {
        let p: Grid = line.parse().unwrap();
        assert_eq!(techniques::class(p.cells()), class.as_str(), "{line}");
        assert_eq!(grade(&p).class, class, "{line}");
        assert_eq!(grade(&p).singles, class <= Class::Easy, "{line}");
        if let Some(done) = techniques::fixpoint(p.cells(), &techniques::INTERMEDIATE) {
            assert_eq!(Some(grid(&done)), engine::solve(&p, 2).first);
        }
    }
}

#[test]
fn class_names_round_trip() {
    for c in Class::ALL {
        assert_eq!(Class::parse(c.as_str()), Some(c));
        assert_eq!(Class::parse(&c.as_str().to_uppercase()), Some(c));
        assert_eq!(c.to_string(), c.as_str());
    }
    assert_eq!(Class::parse("hard"), None);
    assert!(Class::Simple < Class::Easy && Class::Intermediate < Class::Expert);
}

/// A mix of easy and hard puzzles, for the rating tests.
fn rating_set() -> Vec<Grid> {
    let mut v = generated(60, 13);
    for line in [
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    ] {
        v.push(line.parse().unwrap());
    }
    v
}

#[test]
fn rating_is_the_documented_mean() {
    for p in rating_set() {
        for (samples, seed) in [(16, 0), (5, 99), (1, 7)] {
            let mut rng = Rng::for_item(seed, hash_bytes(p.cells()));
            let total: u64 = (0..samples)
                .map(|_| engine::solve(&Transform::random(&mut rng).apply(&p), 2).guesses)
                .sum();
            let want = total as f64 / samples as f64;
            assert_eq!(rating(&p, samples as u32, seed), want, "{}", p.to_line());
        }
        assert_eq!(rating(&p, 0, 3), rating(&p, 1, 3));
        assert_eq!(
            rating_rng(&p, 5).next_u64(),
            Rng::for_item(5, hash_bytes(p.cells())).next_u64()
        );
    }
}

#[test]
fn rating_is_a_pure_function_of_puzzle_samples_and_seed() {
    let set = rating_set();
    let once: Vec<f64> = set.iter().map(|p| rating(p, DEFAULT_SAMPLES, 42)).collect();
    // Again, in reverse order, and on several threads with duplicates interleaved.
    let reversed: Vec<f64> = set
        .iter()
        .rev()
        .map(|p| rating(p, DEFAULT_SAMPLES, 42))
        .collect();
    assert!(once.iter().eq(reversed.iter().rev()));
    let doubled: Vec<Grid> = set.iter().chain(set.iter()).copied().collect();
    let threads: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = doubled
            .chunks(7)
            .map(|chunk| {
                s.spawn(move || chunk.iter().map(|p| rating(p, 16, 42)).collect::<Vec<_>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert_eq!(&threads[..set.len()], &once[..]);
    assert_eq!(&threads[set.len()..], &once[..]);
    // The seed matters for puzzles that need guesses.
    let hard = &set[set.len() - 1];
    let by_seed: Vec<f64> = (0..8).map(|s| rating(hard, 16, s)).collect();
    assert!(by_seed.iter().any(|&r| r != by_seed[0]), "{by_seed:?}");
    assert!(by_seed.iter().all(|&r| r > 0.0));
}

#[test]
fn rating_is_zero_when_no_transform_needs_a_guess() {
    let mut zero = 0;
    for p in generated(200, 14) {
        let mut rng = rating_rng(&p, 9);
        let all_zero =
            (0..16).all(|_| engine::solve(&Transform::random(&mut rng).apply(&p), 2).guesses == 0);
        assert_eq!(rating(&p, 16, 9) == 0.0, all_zero, "{}", p.to_line());
        if grade(&p).singles {
            // The engine propagates singles, so it never guesses on these.
            assert!(all_zero, "{}", p.to_line());
        }
        zero += usize::from(all_zero);
    }
    assert!((20..200).contains(&zero), "{zero} of 200 never guess");
}

#[test]
fn rate_fills_rating_and_grade_only_for_unique_puzzles() {
    let mut rng = common::Rng::new(15);
    let mut cases: Vec<Grid> = generated(40, 16);
    for _ in 0..40 {
        // Few random clues of a solved grid: two or more solutions.
        let solution = common::random_grid(&mut rng);
        cases.push(grid(&common::sparse_puzzle(&mut rng, &solution, 12)));
    }
    let mut conflict = [0u8; 81];
    conflict[0] = 5;
    conflict[8] = 5;
    cases.push(grid(&conflict));
    let mut seen = [0; 3];
    for p in &cases {
        let r = rate(p, 8, 1);
        let s = engine::solve(p, 2);
        assert_eq!(
            (r.clues, r.solutions, r.guesses),
            (p.clues(), s.solutions, s.guesses)
        );
        seen[s.solutions as usize] += 1;
        if s.solutions == 1 {
            assert_eq!(r.rating, Some(rating(p, 8, 1)));
            assert_eq!(r.grade, Some(grade(p)));
        } else {
            assert_eq!((r.rating, r.grade), (None, None), "{}", p.to_line());
        }
    }
    assert_eq!(seen, [1, 40, 40]);
}

#[test]
#[cfg_attr(
    not(corpora),
    ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
)]
fn rate_leaves_multiple_and_invalid_corpus_puzzles_unrated() {
    for p in sudoku_batch::corpora::puzzles("multi_solution.txt", 300) {
        let r = rate(&p, 4, 0);
        assert_eq!((r.solutions, r.rating, r.grade), (2, None, None));
    }
}
