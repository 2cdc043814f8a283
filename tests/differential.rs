//! Differential test: the engine against the naive reference solver in `tests/common`, on
//! generated puzzles with 0, 1 and 2+ solutions, from a fixed seed: 17,000 families, about
//! 102,000 puzzles (the test fails below 100,000, or when any category runs thin).
//!
//! Puzzles come in families. Each family starts from a random complete grid and yields:
//! - `Unique`: clues removed while the engine still counts exactly 1 solution (30–37 clues);
//! - `Dropped`: that puzzle with 1 or 2 more clues removed (2+ solutions or still 1);
//! - `Sparse`: 30–35 random clues of the grid, no uniqueness check (mostly 2+, never 0);
//! - `WrongGiven`: the unique puzzle plus a wrong digit in a blank that repeats nothing in its
//!   houses — 0 solutions by construction, though the givens pass the rule check;
//! - `ChangedGiven`: one given of the unique puzzle changed to a digit that repeats nothing,
//!   kept when the *reference* finds no solution;
//! - `Conflict`: a given copied into its own row, column or box (0 solutions, givens conflict),
//!   made from a sparse puzzle with 10–40 clues.
//!
//! The generator uses the engine only to steer clue removal; every puzzle is then judged by the
//! reference, so a wrong engine answer during generation still shows up as a mismatch. Clue
//! counts of the solvable puzzles stay at 28 and above because the naive backtracker's running
//! time explodes below that (measured: among 300 random 17-clue subsets of grids, some took
//! seconds to minutes each; unique 22–26 clue puzzles up to a second each). Conflicting givens
//! are rejected before any search, so those puzzles go down to 10 clues.

use crate::common::*;
use rayon::prelude::*;
use sudoku_batch::{engine, Grid};

const SEED: u64 = 0x5d0c_0b47_c4ed_2024;
/// Six puzzles per family (five when no given can be changed into an unsolvable puzzle).
const FAMILIES: usize = 17_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Unique,
    Dropped,
    Sparse,
    WrongGiven,
    ChangedGiven,
    Conflict,
}

/// The engine's count, for steering generation.
fn engine_count(p: &Cells) -> u32 {
    engine::solve(&Grid::from_cells(*p).unwrap(), 2).solutions
}

/// The reference count, for steering generation where it must be independent of the engine.
fn reference_count(p: &Cells) -> u32 {
    reference_solve(p, 2).count
}

fn family(index: usize) -> Vec<(Kind, Cells)> {
    let mut rng = Rng::for_item(SEED, index as u64);
    let solution = random_grid(&mut rng);
    let target = rng.range(30, 37);
    let unique = unique_puzzle(&mut rng, &solution, target, &engine_count);
    let mut out = vec![(Kind::Unique, unique)];

    let mut dropped = unique;
    for _ in 0..rng.range(1, 2) {
        dropped = drop_one_clue(&mut rng, &dropped);
    }
    out.push((Kind::Dropped, dropped));

    let keep = rng.range(30, 35);
    out.push((Kind::Sparse, sparse_puzzle(&mut rng, &solution, keep)));

    if let Some(p) = wrong_extra_given(&mut rng, &unique, &solution) {
        out.push((Kind::WrongGiven, p));
    }
    if let Some(p) = changed_given_unsolvable(&mut rng, &unique, 10, &reference_count) {
        out.push((Kind::ChangedGiven, p));
    }

    let keep = rng.range(10, 40);
    let base = sparse_puzzle(&mut rng, &solution, keep);
    if let Some(p) = direct_conflict(&mut rng, &base) {
        out.push((Kind::Conflict, p));
    }
    out
}

/// What one puzzle showed.
struct Outcome {
    kind: Kind,
    clues: usize,
    /// The reference's count with limit 2.
    truth: u32,
    conflict: bool,
    guessed: bool,
    extra_limits: bool,
    failures: Vec<String>,
}

/// Checks that `found` (from the engine) is a solution of `puzzle`, both with the library's
/// `is_solution_of` and with the test's own rule check.
fn check_solution(puzzle: &Cells, found: &Grid, what: &str, failures: &mut Vec<String>) {
    let grid = Grid::from_cells(*puzzle).unwrap();
    let cells = found.cells();
    let keeps_givens = (0..81).all(|i| puzzle[i] == 0 || puzzle[i] == cells[i]);
    if !found.is_solution_of(&grid) || !is_complete_valid(cells) || !keeps_givens {
        failures.push(format!(
            "{what}: engine's solution {} does not solve the puzzle",
            found.to_line()
        ));
    }
}

fn check(kind: Kind, puzzle: &Cells, extra_limits: bool, extra_limit: u32) -> Outcome {
    let grid = Grid::from_cells(*puzzle).expect("generated cells are 0..=9");
    let mut failures = Vec::new();
    let reference = reference_solve(puzzle, 2);
    let found = engine::solve(&grid, 2);
    let conflict = givens_conflict(puzzle);

    if grid.check_givens().is_err() != conflict {
        failures.push(format!(
            "check_givens says {:?}, the reference's rule check says conflict = {conflict}",
            grid.check_givens()
        ));
    }
    if found.solutions != reference.count {
        failures.push(format!(
            "limit 2: engine counts {}, reference counts {}",
            found.solutions, reference.count
        ));
    }
    match (found.first, reference.count) {
        (None, 0) => {}
        (Some(s), 0) => failures.push(format!(
            "limit 2: engine returns {} for a puzzle without solution",
            s.to_line()
        )),
        (None, _) => failures.push("limit 2: engine returns no solution".into()),
        (Some(s), n) => {
            check_solution(puzzle, &s, "limit 2", &mut failures);
            if n == 1 && Some(*s.cells()) != reference.first {
                failures.push(format!(
                    "unique puzzle: engine's solution {} differs from the reference's {}",
                    s.to_line(),
                    line(&reference.first.unwrap())
                ));
            }
        }
    }
    // What each kind must be by construction (this also keeps the reference honest).
    let expected = match kind {
        Kind::WrongGiven | Kind::ChangedGiven | Kind::Conflict => Some(0),
        _ => None,
    };
    if expected.is_some_and(|e| e != reference.count) {
        failures.push(format!(
            "{kind:?} puzzle: reference counts {}, expected 0",
            reference.count
        ));
    }
    if (kind == Kind::Conflict) != conflict {
        failures.push(format!("{kind:?} puzzle: conflict = {conflict}"));
    }

    if extra_limits {
        for limit in [0, 1] {
            let r1 = engine::solve(&grid, limit);
            if r1.solutions != reference.count.min(1) {
                failures.push(format!(
                    "limit {limit}: engine counts {}, reference counts {} with limit 2",
                    r1.solutions, reference.count
                ));
            }
            match r1.first {
                Some(s) => check_solution(puzzle, &s, &format!("limit {limit}"), &mut failures),
                None if reference.count > 0 => {
                    failures.push(format!("limit {limit}: engine returns no solution"))
                }
                None => {}
            }
        }
        let more = reference_solve(puzzle, extra_limit);
        let r = engine::solve(&grid, extra_limit);
        if r.solutions != more.count {
            failures.push(format!(
                "limit {extra_limit}: engine counts {}, reference counts {}",
                r.solutions, more.count
            ));
        }
        if more.count.min(2) != reference.count {
            failures.push(format!(
                "reference is inconsistent: {} with limit 2, {} with limit {extra_limit}",
                reference.count, more.count
            ));
        }
        match r.first {
            Some(s) => check_solution(puzzle, &s, &format!("limit {extra_limit}"), &mut failures),
            None if more.count > 0 => {
                failures.push(format!("limit {extra_limit}: engine returns no solution"))
            }
            None => {}
        }
    }

    Outcome {
        kind,
        clues: clues(puzzle),
        truth: reference.count,
        conflict,
        guessed: found.guesses > 0,
        extra_limits,
        failures: failures
            .into_iter()
            .map(|f| format!("{kind:?} {}: {f}", line(puzzle)))
            .collect(),
    }
}

#[test]
fn engine_agrees_with_reference_on_generated_puzzles() {
    let outcomes: Vec<Outcome> = (0..FAMILIES)
        .into_par_iter()
        .flat_map_iter(|i| {
            let mut rng = Rng::for_item(SEED ^ 0xfeed, i as u64);
            family(i)
                .into_iter()
                .map(|(kind, p)| {
                    // About a quarter also get limits 0, 1 and 3 or 4.
                    let extra = rng.chance(1, 4);
                    let limit = rng.range(3, 4) as u32;
                    check(kind, &p, extra, limit)
                })
                .collect::<Vec<_>>()
        })
        .collect();

    let failures: Vec<&String> = outcomes.iter().flat_map(|o| &o.failures).collect();
    assert!(
        failures.is_empty(),
        "{} failures, the first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );

    let total = outcomes.len();
    let count = |f: &dyn Fn(&Outcome) -> bool| outcomes.iter().filter(|o| f(o)).count();
    let zero_conflict = count(&|o| o.truth == 0 && o.conflict);
    let zero_search = count(&|o| o.truth == 0 && !o.conflict);
    let one = count(&|o| o.truth == 1);
    let many = count(&|o| o.truth >= 2);
    let extra = count(&|o| o.extra_limits);
    let guessed = count(&|o| o.guessed);
    let clue_range = |truth: &dyn Fn(u32) -> bool| {
        let c = outcomes.iter().filter(|o| truth(o.truth)).map(|o| o.clues);
        (c.clone().min().unwrap_or(0), c.max().unwrap_or(0))
    };
    println!(
        "{total} puzzles: 0 solutions {} ({zero_search} unsolvable by search, {zero_conflict} \
         with conflicting givens), 1 solution {one}, 2+ solutions {many}; \
         {extra} also checked with limits 0, 1 and 3 or 4; the engine guessed on {guessed}",
        zero_conflict + zero_search
    );
    println!(
        "clues: 0 sol {:?}, 1 sol {:?}, 2+ sol {:?}",
        clue_range(&|t| t == 0),
        clue_range(&|t| t == 1),
        clue_range(&|t| t >= 2)
    );
    for kind in [
        Kind::Unique,
        Kind::Dropped,
        Kind::Sparse,
        Kind::WrongGiven,
        Kind::ChangedGiven,
        Kind::Conflict,
    ] {
        let of = |t: &dyn Fn(u32) -> bool| count(&|o| o.kind == kind && t(o.truth));
        println!(
            "  {kind:?}: {} (0/1/2+ = {}/{}/{})",
            of(&|_| true),
            of(&|t| t == 0),
            of(&|t| t == 1),
            of(&|t| t >= 2)
        );
    }

    // The mix must really contain every category in numbers, or the test proves little.
    assert!(total >= 100_000, "only {total} puzzles");
    assert!(
        zero_search >= 25_000,
        "only {zero_search} unsolvable puzzles"
    );
    assert!(
        zero_conflict >= 10_000,
        "only {zero_conflict} conflicting puzzles"
    );
    assert!(one >= 20_000, "only {one} unique puzzles");
    assert!(many >= 25_000, "only {many} puzzles with 2+ solutions");
    assert!(
        extra >= 2_000,
        "only {extra} puzzles checked with other limits"
    );
}

/// Hand-picked corners: the empty grid, complete grids, one blank, one wrong digit.
#[test]
fn edge_cases() {
    let mut rng = Rng::new(SEED);
    let solution = random_grid(&mut rng);
    let mut cases = vec![[0u8; 81], solution, base_pattern()];
    // One blank: exactly one solution.
    let mut one_blank = solution;
    one_blank[40] = 0;
    cases.push(one_blank);
    // Complete but one digit repeated: conflicting givens.
    let mut broken = solution;
    broken[0] = solution[1];
    cases.push(broken);
    // A "deadly rectangle" opened: two digits that swap between two rows of one band and two
    // columns of different stacks; with every other cell given, exactly 2 solutions.
    cases.push(open_rectangle(&mut rng));

    let expected = [2, 1, 1, 1, 0, 2];
    for (p, &want) in cases.iter().zip(&expected) {
        let grid = Grid::from_cells(*p).unwrap();
        let reference = reference_solve(p, 2);
        let found = engine::solve(&grid, 2);
        assert_eq!(reference.count, want, "reference on {}", line(p));
        assert_eq!(found.solutions, want, "engine on {}", line(p));
        if want > 0 {
            assert!(found.first.unwrap().is_solution_of(&grid), "{}", line(p));
        } else {
            assert_eq!(found.first, None, "{}", line(p));
        }
        if want == 1 {
            assert_eq!(Some(*found.first.unwrap().cells()), reference.first);
        }
    }
    // The empty grid has far more than 5 solutions; both solvers stop at the limit.
    assert_eq!(reference_solve(&[0; 81], 5).count, 5);
    assert_eq!(engine::solve(&Grid::EMPTY, 5).solutions, 5);
}

/// A complete grid with the four cells of a swappable rectangle blanked (searched for in random
/// grids until one has such a rectangle).
fn open_rectangle(rng: &mut Rng) -> Cells {
    loop {
        let g = random_grid(rng);
        for r1 in 0..9 {
            for r2 in r1 + 1..r1 / 3 * 3 + 3 {
                for c1 in 0..9 {
                    for c2 in (c1 / 3 + 1) * 3..9 {
                        let (a, b) = (r1 * 9 + c1, r1 * 9 + c2);
                        let (c, d) = (r2 * 9 + c1, r2 * 9 + c2);
                        if g[a] == g[d] && g[b] == g[c] {
                            let mut p = g;
                            for cell in [a, b, c, d] {
                                p[cell] = 0;
                            }
                            return p;
                        }
                    }
                }
            }
        }
    }
}
