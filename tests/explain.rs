//! Soundness of the Sudoku Explainer rater through its public API: `explain`'s steps, replayed
//! from the givens on a candidate grid kept here (independent of the rater's own board), must
//! only ever remove digits that are still candidates and are not the solution's, must place the
//! solution's digit, and must end on the unique solution the crate's engine finds; ER, EP and ED
//! must be what the steps say (SE's running maximum: ER over the whole path, ED after the first
//! step, EP after the first step that places a cell). Puzzles without exactly one solution must
//! be refused with `Unrated::NotUnique`.
//!
//! The puzzles: a few hundred made by the crate's own seeded generator (minimal and not, every
//! symmetry, so every ER band up to the chains shows up), and samples of the corpora (17-clue,
//! top1465, kaggle, and four of the hardest, whose paths reach nested forcing chains).
//! `replay_slow_sweep` (ignored) replays whole corpus files.

use rayon::prelude::*;
use sudoku_batch::explain::{self, Explanation, Tenths, Unrated, DEFAULT_BUDGET};
use sudoku_batch::generate::{generate_one, Options, Symmetry};
use sudoku_batch::Grid;

/// The 20 peers of each cell, for the replay's own candidate grid.
fn peers(cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / 9, cell % 9);
    (0..81).filter(move |&o| {
        let (r2, c2) = (o / 9, o % 9);
        o != cell && (r2 == r || c2 == c || (r2 / 3 == r / 3 && c2 / 3 == c / 3))
    })
}

/// The candidate grid SE starts from: every digit in every empty cell, less the givens' digits
/// in their peers.
fn start(puzzle: &Grid) -> ([u8; 81], [u16; 81]) {
    let values = *puzzle.cells();
    let mut cands = [0u16; 81];
    for c in 0..81 {
        if values[c] == 0 {
            cands[c] = 0x3fe;
            for p in peers(c) {
                if values[p] != 0 {
                    cands[c] &= !(1 << values[p]);
                }
            }
        }
    }
    (values, cands)
}

/// Replays `e`'s steps on `puzzle` against its `solution`; the first unsound thing, if any.
fn replay(puzzle: &Grid, solution: &Grid, e: &Explanation) -> Result<(), String> {
    let sol = solution.cells();
    let (mut values, mut cands) = start(puzzle);
    for (i, s) in e.steps.iter().enumerate() {
        let at = |what: String| format!("step {} ({}): {what}", i + 1, s.text);
        if s.placements.is_empty() && s.eliminations.is_empty() {
            return Err(at("changes nothing".into()));
        }
        for &(c, v) in &s.eliminations {
            let c = c as usize;
            if values[c] != 0 {
                return Err(at(format!(
                    "removes {v} from r{}c{}, already filled",
                    c / 9 + 1,
                    c % 9 + 1
                )));
            }
            if cands[c] & (1 << v) == 0 {
                return Err(at(format!(
                    "removes {v} from r{}c{}, not a candidate",
                    c / 9 + 1,
                    c % 9 + 1
                )));
            }
            if sol[c] == v {
                return Err(at(format!(
                    "removes the solution's {v} from r{}c{}",
                    c / 9 + 1,
                    c % 9 + 1
                )));
            }
            cands[c] &= !(1 << v);
        }
        for &(c, v) in &s.placements {
            let c = c as usize;
            if values[c] != 0 || cands[c] & (1 << v) == 0 {
                return Err(at(format!(
                    "places {v} in r{}c{}, not a candidate",
                    c / 9 + 1,
                    c % 9 + 1
                )));
            }
            if sol[c] != v {
                return Err(at(format!(
                    "places {v} in r{}c{}, the solution has {}",
                    c / 9 + 1,
                    c % 9 + 1,
                    sol[c]
                )));
            }
            values[c] = v;
            cands[c] = 0;
            for p in peers(c) {
                cands[p] &= !(1 << v);
            }
        }
    }
    if values != *sol {
        let left = values.iter().filter(|&&v| v == 0).count();
        return Err(format!(
            "the path ends with {left} cells empty, not on the solution"
        ));
    }
    Ok(())
}

/// The ratings the steps imply: ER the maximum of all step ratings, ED the first step's, EP the
/// maximum up to and including the first step that places a cell; each technique one of the
/// steps with that rating within its span.
fn check_ratings(e: &Explanation) -> Result<(), String> {
    let r = &e.rating;
    let steps = &e.steps;
    let first_place = steps
        .iter()
        .position(|s| !s.placements.is_empty())
        .ok_or("no step places a cell")?;
    let span = |n: usize, rating: Tenths, name: &str, what: &str| -> Result<(), String> {
        let max = steps[..n]
            .iter()
            .map(|s| s.rating)
            .max()
            .unwrap_or_default();
        if rating != max {
            return Err(format!("{what} {rating}, the steps give {max}"));
        }
        if !steps[..n]
            .iter()
            .any(|s| s.rating == max && s.technique == name)
        {
            return Err(format!(
                "{what} technique {name:?}: no step of it rated {max}"
            ));
        }
        Ok(())
    };
    span(steps.len(), r.er, &r.er_technique, "ER")?;
    span(first_place + 1, r.ep, &r.ep_technique, "EP")?;
    span(1, r.ed, &r.ed_technique, "ED")
}

/// Rates and replays one puzzle; `Err` with the puzzle and what went wrong.
fn check(p: &Grid) -> Result<Tenths, String> {
    let fail = |why: String| format!("{p}: {why}");
    let solved = sudoku_batch::solve(p, 2);
    if solved.solutions != 1 {
        return Err(fail(format!(
            "{} solutions: not a test puzzle",
            solved.solutions
        )));
    }
    let solution = solved
        .first
        .ok_or_else(|| fail("no solution grid".into()))?;
    let e = explain::explain(p, DEFAULT_BUDGET).map_err(|u| fail(u.to_string()))?;
    replay(p, &solution, &e).map_err(fail)?;
    check_ratings(&e).map_err(fail)?;
    let r = explain::rate(p, DEFAULT_BUDGET).map_err(|u| fail(u.to_string()))?;
    if r != e.rating {
        return Err(fail(format!("rate gives {:?}, explain {:?}", r, e.rating)));
    }
    Ok(e.rating.er)
}

/// Checks every puzzle (in parallel) and fails listing every unsound one; returns the ERs.
fn check_all(what: &str, puzzles: &[Grid]) -> Vec<Tenths> {
    assert!(!puzzles.is_empty(), "{what}: no puzzles");
    let t0 = std::time::Instant::now();
    let results: Vec<Result<Tenths, String>> = puzzles.par_iter().map(check).collect();
    let bad: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    for b in &bad {
        eprintln!("{what}: {b}");
    }
    assert!(
        bad.is_empty(),
        "{what}: {} of {} puzzles failed the replay",
        bad.len(),
        puzzles.len()
    );
    let ers: Vec<Tenths> = results.into_iter().map(|r| r.unwrap_or_default()).collect();
    let max = ers.iter().max().copied().unwrap_or_default();
    let min = ers.iter().min().copied().unwrap_or_default();
    eprintln!(
        "{what}: {} puzzles replayed, ER {min}..{max}, {:.1} s",
        puzzles.len(),
        t0.elapsed().as_secs_f64()
    );
    ers
}

/// How many of `ers` fall in each of the bands the speed table uses.
fn bands(ers: &[Tenths]) -> [usize; 6] {
    let mut n = [0; 6];
    for e in ers {
        let b = match e.0 {
            0..20 => 0,
            20..40 => 1,
            40..62 => 2,
            62..75 => 3,
            75..85 => 4,
            _ => 5,
        };
        n[b] += 1;
    }
    n
}

#[test]
fn replay_generated_puzzles() {
    // Minimal puzzles of every symmetry (the harder ones), then denser non-minimal ones.
    let mut puzzles = Vec::new();
    let syms = [Symmetry::None, Symmetry::Rot180, Symmetry::Any];
    for (k, sym) in syms.into_iter().enumerate() {
        let opts = Options {
            seed: 2100 + k as u64,
            symmetry: sym,
            ..Options::default()
        };
        for i in 0..80 {
            puzzles.extend(generate_one(i, &opts, &|_, _| true).found.map(|g| g.puzzle));
        }
    }
    for (seed, clues) in [(2110, (24, 28)), (2111, (30, 36))] {
        let opts = Options {
            seed,
            minimal: false,
            clues: Some(clues),
            ..Options::default()
        };
        for i in 0..40 {
            puzzles.extend(generate_one(i, &opts, &|_, _| true).found.map(|g| g.puzzle));
        }
    }
    assert!(
        puzzles.len() >= 300,
        "the generator gave only {} puzzles",
        puzzles.len()
    );
    let ers = check_all("generated", &puzzles);
    let n = bands(&ers);
    eprintln!("generated: per ER band (<2, 2-4, 4-6.2, 6.2-7.5, 7.5-8.5, >=8.5): {n:?}");
    // The seeded set is fixed: it must keep reaching past the singles into sets, fish, wings,
    // uniqueness, exclusion and chains, or the test no longer covers the difficulty range.
    assert!(
        n[0] > 0 && n[1] > 0 && n[2] > 0 && n[3] > 0,
        "generated puzzles no longer span the ER bands: {n:?}"
    );
}

/// The first `take` puzzles of a corpus, or every `stride`-th one.
#[cfg(corpora)]
fn sample(name: &str, take: usize, stride: usize) -> Vec<Grid> {
    sudoku_batch::corpora::puzzles(name, take * stride)
        .into_iter()
        .step_by(stride)
        .collect()
}

#[test]
#[cfg_attr(
    not(corpora),
    ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
)]
fn replay_corpus_samples() {
    #[cfg(corpora)]
    {
        check_all("17clue", &sample("17clue.txt", 100, 400));
        check_all("kaggle_sample", &sample("kaggle_sample.txt", 100, 100));
        check_all("top1465", &sample("top1465.txt", 100, 14));
        let ers = check_all("hardest1106", &hardest_fast());
        assert!(
            ers.iter().all(|e| e.0 >= 95),
            "hardest1106 below ER 9.5: {ers:?}"
        );
    }
}

/// Four puzzles of hardest1106 (its lines 222, 235, 306, 336; ER 10.8 to 11.1, their paths
/// reach nested forcing chains) that rate in a second or two: the slowest of that corpus take
/// half a minute or more.
#[cfg(corpora)]
fn hardest_fast() -> Vec<Grid> {
    const LINES: [usize; 4] = [222, 235, 306, 336];
    let all = sudoku_batch::corpora::puzzles("hardest1106.txt", 336);
    LINES.iter().map(|&line| all[line - 1]).collect()
}

#[test]
#[cfg_attr(
    not(corpora),
    ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
)]
fn unrated_without_exactly_one_solution() {
    #[cfg(corpora)]
    {
        for (name, want) in [("multi_solution.txt", 2), ("invalid.txt", 0)] {
            let path = sudoku_batch::corpora::path(name);
            let text = std::fs::read_to_string(&path).expect("corpus file");
            let mut n = 0;
            // Every 50th multi-solution puzzle (the empty grid and the 125-solution one are in
            // the last lines, taken too), every invalid one.
            let lines: Vec<&str> = text.lines().collect();
            let stride = if lines.len() > 100 { 50 } else { 1 };
            let picked = lines
                .iter()
                .step_by(stride)
                .chain(lines.iter().rev().take(8));
            for line in picked {
                let g: Grid = line.parse().expect("an 81-cell line");
                let solutions = sudoku_batch::solve(&g, 2).solutions;
                assert_eq!(solutions, want, "{name}: {line}");
                for got in [
                    explain::rate(&g, DEFAULT_BUDGET).err(),
                    explain::explain(&g, DEFAULT_BUDGET).err(),
                ] {
                    assert_eq!(
                        got,
                        Some(Unrated::NotUnique { solutions: want }),
                        "{name}: {line}"
                    );
                }
                n += 1;
            }
            assert!(n >= 17, "{name}: only {n} puzzles checked");
        }
    }
    // Two equal givens in a row: no solution, refused the same way.
    let g: Grid =
        "11..............................................................................."
            .parse()
            .expect("81 cells");
    assert_eq!(
        explain::rate(&g, DEFAULT_BUDGET),
        Err(Unrated::NotUnique { solutions: 0 })
    );
    // The empty grid: many solutions.
    assert_eq!(
        explain::rate(&Grid::EMPTY, DEFAULT_BUDGET),
        Err(Unrated::NotUnique { solutions: 2 })
    );
}

/// The replay itself must catch unsound paths: tamper with a real path and see it fail.
#[test]
fn replay_catches_unsound_steps() {
    let p: Grid =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
            .parse()
            .expect("81 cells");
    let solution = sudoku_batch::solve(&p, 2).first.expect("a solution");
    let e = explain::explain(&p, DEFAULT_BUDGET).expect("rated");
    assert_eq!(replay(&p, &solution, &e), Ok(()));
    assert_eq!(check_ratings(&e), Ok(()));
    let sol = solution.cells();
    // A placement of a wrong digit.
    let mut bad = e.clone();
    let (c, v) = bad.steps[0].placements[0];
    bad.steps[0].placements[0] = (c, v % 9 + 1);
    assert!(replay(&p, &solution, &bad).is_err());
    // An elimination of the solution's digit.
    let mut bad = e.clone();
    let i = bad
        .steps
        .iter()
        .position(|s| !s.eliminations.is_empty())
        .expect("an elimination");
    let (c, _) = bad.steps[i].eliminations[0];
    bad.steps[i].eliminations[0] = (c, sol[c as usize]);
    assert!(replay(&p, &solution, &bad)
        .unwrap_err()
        .contains("solution's"));
    // A path cut short.
    let mut bad = e.clone();
    bad.steps.pop();
    assert!(replay(&p, &solution, &bad).unwrap_err().contains("empty"));
    // Ratings that disagree with the steps.
    let mut bad = e.clone();
    bad.rating.er = Tenths(bad.rating.er.0 + 1);
    assert!(check_ratings(&bad).is_err());
    let mut bad = e;
    bad.rating.ed = Tenths(99);
    assert!(check_ratings(&bad).is_err());
}

/// Whole corpus files, for a long run by hand: `cargo test --release --test integration
/// replay_slow_sweep -- --ignored --nocapture`.
#[test]
#[ignore = "slow: replays whole corpus files (minutes to hours); run by hand with --ignored"]
fn replay_slow_sweep() {
    let name = std::env::var("SE_SWEEP").unwrap_or_else(|_| "top1465.txt".into());
    let take = std::env::var("SE_SWEEP_TAKE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let first = if take == usize::MAX {
        "all".to_string()
    } else {
        format!("the first {take}")
    };
    eprintln!("replay_slow_sweep: {name}, {first} puzzles (set by SE_SWEEP, SE_SWEEP_TAKE)");
    let path = sudoku_batch::corpora::path(&name);
    let text = std::fs::read_to_string(&path).expect("corpus file");
    let puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(take)
        .map(|l| l.parse().expect("an 81-cell line"))
        .collect();
    check_all(&name, &puzzles);
}

/// Which budgets give up, and where, must not depend on what the thread rated before: the
/// rater keeps one chaining engine per thread, and anything it remembers from one puzzle must not
/// change the next one's work count. Each budget is tried on a fresh thread and on a thread that
/// has just rated the same puzzles in full (a corpus often holds a puzzle twice).
#[test]
fn the_budget_does_not_depend_on_the_previous_puzzle() {
    let puzzles: Vec<Grid> = [
        // Turbot fish (X-chains), Nishio forcing chains: the one-digit searches.
        "..5...987.4..5...1..7......2...48....9.1.....6..2.....3..6..2.......9.7.......5..",
        "1.....9...64..1.7..7..4.......3.....3.89..5....7....2.....6.7.9.....4.1....129.3.",
    ]
    .iter()
    .map(|s| s.parse().expect("a valid puzzle"))
    .collect();
    let outcome = |p: &Grid, budget: u64| match explain::rate(p, budget) {
        Ok(r) => format!("rated {}", r.er),
        Err(Unrated::GaveUp(g)) => format!("gave up after {} steps", g.steps),
        Err(e) => format!("{e:?}"),
    };
    for p in &puzzles {
        let budgets: Vec<u64> = (0..60)
            .map(|i| 200 * 13u64.pow(i / 10) * (1 + i as u64 % 10))
            .collect();
        let fresh: Vec<String> = std::thread::scope(|s| {
            budgets
                .iter()
                .map(|&b| s.spawn(move || outcome(p, b)).join().expect("no panic"))
                .collect()
        });
        let warm: Vec<String> = std::thread::scope(|s| {
            s.spawn(|| {
                budgets
                    .iter()
                    .map(|&b| {
                        let _ = explain::rate(p, DEFAULT_BUDGET);
                        outcome(p, b)
                    })
                    .collect()
            })
            .join()
            .expect("no panic")
        });
        assert!(fresh.iter().any(|o| o.starts_with("gave up")), "{fresh:?}");
        assert!(fresh.iter().any(|o| o.starts_with("rated")), "{fresh:?}");
        assert_eq!(fresh, warm, "{p}");
    }
}
