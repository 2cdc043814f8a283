//! Pencilmark input: `engine::solve_candidates` against a deliberately simple backtracking
//! solver over candidate sets (`tests/reference/candidates.rs`), on (a) candidate sets reduced
//! at random around a known solution, (b) random reductions with no solution kept, (c)
//! tdoku-style pencilmark puzzles (candidates removed until one solution is left; the step
//! before it, and the solution's digit removed after it) and the lines of
//! `data/pencilmark.txt` with their noted counts, and (d) the candidate sets of grids, which
//! must solve exactly like the grids themselves.

use crate::reference::candidates;

use sudoku_batch::engine::{self, Candidates};
use sudoku_batch::Grid;

const PENCILMARK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/pencilmark.txt");
const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/examples.txt");

/// A solved grid to transform into others.
const BASE: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// A deterministic xorshift64 generator.
struct Xs(u64);

impl Xs {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// `true` with probability `p`.
    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64) < p * (1u64 << 53) as f64
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// A random solved grid: [`BASE`] with its digits relabelled, bands, rows inside bands, stacks
/// and columns inside stacks shuffled, and maybe transposed.
fn random_solution(rng: &mut Xs) -> [u8; 81] {
    let base: Vec<u8> = BASE.bytes().map(|b| b - b'0').collect();
    let perm9 = |rng: &mut Xs| {
        let mut groups = [0usize, 1, 2];
        rng.shuffle(&mut groups);
        let mut out = Vec::new();
        for g in groups {
            let mut inner = [0usize, 1, 2];
            rng.shuffle(&mut inner);
            out.extend(inner.iter().map(|i| 3 * g + i));
        }
        out
    };
    let (rows, cols) = (perm9(rng), perm9(rng));
    let mut digits: Vec<u8> = (1..=9).collect();
    rng.shuffle(&mut digits);
    let transpose = rng.chance(0.5);
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose { (c, r) } else { (r, c) };
            out[9 * r + c] = digits[base[9 * rows[sr] + cols[sc]] as usize - 1];
        }
    }
    out
}

fn candidates(masks: [u16; 81]) -> Candidates {
    Candidates::from_masks(masks).expect("nine-bit masks")
}

fn solve(c: &Candidates, limit: u32) -> engine::Solved {
    engine::solve_candidates(c, limit, u64::MAX)
}

/// The engine against the reference at limits 1, 2 and 3: the same counts, every first
/// solution valid under the sets, and the same first solution when there is only one.
/// Returns the count at limit 3.
fn check(c: &Candidates) -> u32 {
    let masks = c.masks();
    if masks.iter().map(|m| m.count_ones()).sum::<u32>() > SPARSE {
        return check_dense(c);
    }
    let mut unique = None;
    let mut count = 0;
    for limit in 1..=3 {
        let ours = solve(c, limit);
        let (theirs, first) = candidates::solve(masks, limit);
        assert_eq!(ours.solutions, theirs, "limit {limit}: {c}");
        assert!(!ours.gave_up);
        assert_eq!(ours.first.is_some(), ours.solutions > 0, "{c}");
        if let Some(f) = ours.first {
            assert!(candidates::is_solution(masks, f.cells()), "{c} -> {f}");
            assert!(c.allows(&f));
        }
        if limit == 3 && theirs == 1 {
            unique = first;
        }
        count = theirs;
    }
    if let Some(u) = unique {
        assert_eq!(solve(c, 2).first.map(|g| *g.cells()), Some(u), "{c}");
    }
    count
}

/// Above this many candidates in all, the naive reference takes minutes: such sets (tdoku-style
/// puzzles have 300 to 450) are checked by [`check_dense`] instead.
const SPARSE: u32 = 250;

/// The checks that need no reference: counts agree across limits, every first solution is
/// valid under the sets, and the first solution does not depend on the limit. Returns the
/// count at limit 3.
fn check_dense(c: &Candidates) -> u32 {
    let r3 = solve(c, 3);
    for limit in 1..=3 {
        let r = solve(c, limit);
        assert_eq!(r.solutions, r3.solutions.min(limit), "{c}");
        assert_eq!(r.first, r3.first, "{c}");
        if let Some(f) = r.first {
            assert!(candidates::is_solution(c.masks(), f.cells()), "{c} -> {f}");
        }
    }
    r3.solutions
}

/// Candidate sets that keep a known solution: each cell keeps its digit and each other digit
/// with probability `p`, so there is always at least one solution.
fn reduce_around(rng: &mut Xs, sol: &[u8; 81], p: f64) -> Candidates {
    let mut masks = [0u16; 81];
    for (m, &v) in masks.iter_mut().zip(sol) {
        *m = 1 << (v - 1);
        for d in 0..9 {
            if rng.chance(p) {
                *m |= 1 << d;
            }
        }
    }
    candidates(masks)
}

/// (a) Reductions around a known solution: at least one solution, and the same counts.
#[test]
fn reductions_keeping_a_solution() {
    let mut rng = Xs(0x5eed_cafe_f00d_0001);
    let mut tally = [0usize; 4];
    for p in [0.03, 0.08, 0.15, 0.25] {
        for _ in 0..150 {
            let sol = random_solution(&mut rng);
            // Half of them with 45% of the cells opened to all nine digits.
            let mut masks = *reduce_around(&mut rng, &sol, p).masks();
            let open = rng.chance(0.5);
            for m in masks.iter_mut() {
                if open && rng.chance(0.45) {
                    *m = Candidates::ALL_DIGITS;
                }
            }
            let c = candidates(masks);
            let n = check(&c);
            assert!(n >= 1, "{c}");
            tally[n as usize] += 1;
        }
    }
    // The mix really has unique and multi-solution sets.
    assert!(tally[1] > 20 && tally[3] > 20, "{tally:?}");
}

/// (b) Random reductions with no solution kept: 0, 1 or several solutions.
#[test]
fn random_reductions() {
    let mut rng = Xs(0x5eed_cafe_f00d_0002);
    let mut tally = [0usize; 4];
    for _ in 0..400 {
        let sol = random_solution(&mut rng);
        // Around a solution, then one cell loses its solution digit (or a few do), or a
        // random cell becomes a random single, or a random set is cleared.
        let p = if rng.chance(0.5) { 0.05 } else { 0.15 };
        let mut masks = *reduce_around(&mut rng, &sol, p).masks();
        for _ in 0..1 + rng.below(3) {
            let cell = rng.below(81);
            match rng.below(4) {
                0 => masks[cell] = 1 << rng.below(9),
                1 => masks[cell] = rng.below(512) as u16,
                _ => masks[cell] &= !(1 << (sol[cell] - 1)),
            }
        }
        tally[check(&candidates(masks)) as usize] += 1;
    }
    assert!(tally[0] > 40 && tally[1] > 20, "{tally:?}");
}

/// A tdoku-style pencilmark puzzle around `sol`: candidates off the solution removed in a
/// random order, each kept only while more than one solution remains (the engine decides),
/// until one solution is left. Returns the puzzle and the multi-solution sets one step
/// before it.
fn pencilmark_puzzle(rng: &mut Xs, sol: &[u8; 81]) -> (Candidates, Candidates) {
    let mut masks = [Candidates::ALL_DIGITS; 81];
    let mut order: Vec<(usize, u16)> = (0..81)
        .flat_map(|c| (0..9).map(move |d| (c, 1u16 << d)))
        .filter(|&(c, bit)| bit != 1 << (sol[c] - 1))
        .collect();
    rng.shuffle(&mut order);
    let mut before = candidates(masks);
    for (c, bit) in order {
        let mut next = masks;
        next[c] &= !bit;
        let n = solve(&candidates(next), 2).solutions;
        assert!(n >= 1);
        before = candidates(masks);
        masks = next;
        if n == 1 {
            break;
        }
    }
    (candidates(masks), before)
}

/// (c) tdoku-style pencilmark puzzles: exactly one solution (the one they were built
/// around), several one step before, none once the solution's digit leaves a cell.
#[test]
fn tdoku_style_puzzles() {
    let mut rng = Xs(0x5eed_cafe_f00d_0003);
    for _ in 0..12 {
        let sol = random_solution(&mut rng);
        let (puzzle, before) = pencilmark_puzzle(&mut rng, &sol);
        assert_eq!(check(&puzzle), 1, "{puzzle}");
        assert_eq!(solve(&puzzle, 2).first.map(|g| *g.cells()), Some(sol));
        assert!(check(&before) >= 2, "{before}");
        let mut masks = *puzzle.masks();
        let cell = rng.below(81);
        masks[cell] &= !(1 << (sol[cell] - 1));
        assert_eq!(check(&candidates(masks)), 0);
    }
}

/// The lines of `data/pencilmark.txt`: each is preceded by a comment ending in
/// `solutions: N`, which both solvers must find (counting up to 10).
#[test]
fn data_file_counts() {
    let text = std::fs::read_to_string(PENCILMARK).expect("data/pencilmark.txt");
    let mut expected = None;
    let mut seen = 0;
    for line in text.lines() {
        if let Some(comment) = line.strip_prefix('#') {
            if let Some((_, n)) = comment.rsplit_once("solutions: ") {
                expected = Some(n.trim().parse::<u32>().expect("a count"));
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let c: Candidates = line.parse().expect("a pencilmark line");
        let want = expected.take().expect("a count before each line");
        assert_eq!(solve(&c, 10).solutions, want, "{line}");
        if c.masks().iter().map(|m| m.count_ones()).sum::<u32>() <= SPARSE {
            assert_eq!(candidates::solve(c.masks(), 10).0, want, "{line}");
        }
        check(&c);
        assert_eq!(c.to_line(), line.split_whitespace().next().unwrap_or(""));
        seen += 1;
    }
    assert!(seen >= 6, "{seen} lines");
}

/// Edge cases: an empty set, conflicting singles in a row, a column (across bands) and a
/// box, a complete grid of singles, the full sets, and the guess budget.
#[test]
fn edge_cases() {
    let sol: Grid = BASE.parse().unwrap();
    let full = Candidates::from_grid(&sol);
    let r = solve(&full, 2);
    assert_eq!((r.solutions, r.first, r.guesses), (1, Some(sol), 0));
    let mut masks = [Candidates::ALL_DIGITS; 81];
    masks[40] = 0;
    assert_eq!(solve(&candidates(masks), 2).solutions, 0);
    for (a, b) in [(0, 8), (0, 72), (10, 20), (30, 57)] {
        let mut masks = [Candidates::ALL_DIGITS; 81];
        masks[a] = 1 << 4;
        masks[b] = 1 << 4;
        let r = solve(&candidates(masks), 2);
        let peers = candidates::are_peers(a, b);
        assert_eq!(r.solutions, if peers { 0 } else { 2 }, "{a} {b}");
    }
    for limit in [1, 2, 5] {
        assert_eq!(solve(&Candidates::FULL, limit).solutions, limit);
    }
    let r = engine::solve_candidates(&Candidates::FULL, 1_000, 7);
    assert!(r.gave_up);
    assert_eq!(r.guesses, 7);
}

/// (d) A grid's candidate sets solve exactly like the grid (counts, first solution, guesses),
/// on the textbook examples, their variants with a wrong given, and the empty grid.
#[test]
fn grids_solve_alike() {
    let text = std::fs::read_to_string(EXAMPLES).expect("data/examples.txt");
    let mut grids: Vec<Grid> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.parse().expect("an example line"))
        .collect();
    assert!(grids.len() >= 6);
    for g in grids.clone() {
        let mut cells = *g.cells();
        if let Some(i) = cells.iter().position(|&v| v == 0) {
            cells[i] = 1 + (i as u8 % 9);
            grids.push(Grid::from_cells(cells).unwrap());
        }
    }
    grids.push(Grid::EMPTY);
    same_as_grids(&grids);
}

/// The same on the corpora (first 500 of each, every multi-solution and invalid one).
#[test]
#[cfg_attr(
    not(corpora),
    ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
)]
fn corpus_grids_solve_alike() {
    for (name, take) in [
        ("17clue.txt", 500),
        ("forum_hardest_sample.txt", 500),
        ("top1465.txt", 500),
        ("multi_solution.txt", usize::MAX),
        ("invalid.txt", usize::MAX),
    ] {
        same_as_grids(&sudoku_batch::corpora::puzzles(name, take));
    }
}

fn same_as_grids(grids: &[Grid]) {
    for g in grids {
        let c = Candidates::from_grid(g);
        for limit in [1, 2, 3] {
            assert_eq!(
                engine::solve_candidates(&c, limit, u64::MAX),
                engine::solve(g, limit),
                "{g}"
            );
        }
        assert_eq!(
            engine::solve_candidates(&c, 2, 5),
            engine::solve_with_budget(g, 2, 5)
        );
    }
}

/// The CLI reads pencilmark lines (by length in line input, or with `--input-format
/// pencilmark`) in `solve`, `bench` and `verify`; `puzzle` echoes the 729-character form.
#[test]
fn solve_bench_and_verify_read_pencilmark_lines() {
    use crate::common::cli::{run, tmp, write};
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/data/pencilmark.txt");
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    let by_length = run(&["solve", "-q", "--no-timing", file]);
    let explicit = run(&[
        "solve",
        "-q",
        "--no-timing",
        "--input-format",
        "pencilmark",
        file,
    ]);
    assert_eq!(by_length.code, 0, "{}", by_length.stderr);
    assert_eq!(by_length.stdout, explicit.stdout);
    let mut rdr = csv::Reader::from_reader(by_length.stdout.as_bytes());
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), lines.len());
    for (r, line) in rows.iter().zip(&lines) {
        let c: Candidates = line.split_whitespace().next().unwrap().parse().unwrap();
        assert_eq!(
            &r[1],
            c.to_line(),
            "the puzzle column echoes the 729-character form"
        );
        if &r[2] == "invalid" {
            continue;
        }
        let found = engine::solve_candidates(&c, 2, u64::MAX);
        assert_eq!(r[3].parse::<u32>().unwrap(), found.solutions, "{line}");
        if let Some(s) = found.first {
            assert_eq!(&r[4], s.to_line());
            assert!(c.allows(&s));
        }
    }
    // verify reads solve's own output back: unique puzzles right, the others flagged.
    let dir = tmp("pencil-verify");
    let out = write(&dir, "solved.csv", &by_length.stdout);
    let v = run(&["verify", &out]);
    let unique = rows.iter().filter(|r| &r[2] == "solved").count();
    assert!(
        v.stdout.contains(&format!("{unique} right")),
        "{}",
        v.stdout
    );
    // A wrong claim is caught against the candidates, not only the grid rules.
    let first = rows.iter().find(|r| &r[2] == "solved").unwrap();
    let mut claim = first[4].to_string().into_bytes();
    claim.swap(0, 1);
    let bad = write(
        &dir,
        "bad.txt",
        format!("{} {}\n", &first[1], String::from_utf8(claim).unwrap()),
    );
    let v = run(&["verify", "-q", &bad]);
    assert_eq!(v.code, 1);
    // bench times them (the line whose singles clash is skipped as unusable).
    let b = run(&["bench", "--time", "0.05", "--warmup", "0", "--json", file]);
    assert_eq!(b.code, 0, "{}", b.stderr);
    let v: serde_json::Value = serde_json::from_str(b.stdout.trim()).unwrap();
    assert_eq!(
        v["puzzles"].as_u64().unwrap() as usize,
        rows.iter().filter(|r| &r[2] != "invalid").count()
    );
    // The dataset commands say plainly that they do not read pencilmarks.
    let r = run(&["rate", "-q", file]);
    assert!(r.stdout.contains("a pencilmark line"), "{}", r.stdout);
}
