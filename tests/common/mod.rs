//! Helpers shared by the integration tests: a deliberately naive reference solver, a tiny
//! seeded PRNG and a puzzle generator.
//!
//! Nothing here uses the library's solver, so the reference can judge the engine. The generator
//! takes the solution counter as a parameter; whichever counter it uses, the tests compare every
//! generated puzzle against the reference, so generation choices can never hide an engine bug.

pub mod cli;

/// A plain grid: 81 cells, row-major, `0` for blank.
pub type Cells = [u8; 81];

// ---------------------------------------------------------------------------------------------
// Reference solver
// ---------------------------------------------------------------------------------------------

/// Whether digit `d` may stand at `cell`: no *other* cell of its row, column or box holds `d`.
/// Checked by scanning, the way one would by hand.
pub fn allowed(g: &Cells, cell: usize, d: u8) -> bool {
    let (r, c) = (cell / 9, cell % 9);
    for k in 0..9 {
        if k != c && g[r * 9 + k] == d {
            return false;
        }
        if k != r && g[k * 9 + c] == d {
            return false;
        }
    }
    let (br, bc) = (r / 3 * 3, c / 3 * 3);
    for rr in br..br + 3 {
        for cc in bc..bc + 3 {
            if (rr, cc) != (r, c) && g[rr * 9 + cc] == d {
                return false;
            }
        }
    }
    true
}

/// Whether two givens already break a rule (the same digit twice in a row, column or box).
pub fn givens_conflict(g: &Cells) -> bool {
    (0..81).any(|i| g[i] != 0 && !allowed(g, i, g[i]))
}

/// Whether `g` is a complete grid that breaks no rule.
pub fn is_complete_valid(g: &Cells) -> bool {
    g.iter().all(|&v| (1..=9).contains(&v)) && !givens_conflict(g)
}

/// What the reference solver found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefSolved {
    /// Solutions found, at most the limit.
    pub count: u32,
    /// The first solution in the search order (digits tried 1..=9, first empty cell first).
    pub first: Option<Cells>,
}

/// The classic backtracker: take the first empty cell, try 1..=9, keep a digit if no other
/// cell of its row, column or box holds it, recurse. Counts solutions up to `limit` (at least 1)
/// and keeps the first one. Givens that already break a rule mean 0 solutions.
pub fn reference_solve(puzzle: &Cells, limit: u32) -> RefSolved {
    assert!(puzzle.iter().all(|&v| v <= 9), "cell values must be 0..=9");
    let mut out = RefSolved {
        count: 0,
        first: None,
    };
    if givens_conflict(puzzle) {
        return out;
    }
    let mut g = *puzzle;
    backtrack(&mut g, limit.max(1), &mut out);
    out
}

fn backtrack(g: &mut Cells, limit: u32, out: &mut RefSolved) {
    let Some(cell) = g.iter().position(|&v| v == 0) else {
        out.count += 1;
        if out.first.is_none() {
            out.first = Some(*g);
        }
        return;
    };
    for d in 1..=9 {
        if allowed(g, cell, d) {
            g[cell] = d;
            backtrack(g, limit, out);
            g[cell] = 0;
            if out.count >= limit {
                return;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Seeded PRNG (splitmix64)
// ---------------------------------------------------------------------------------------------

/// A small deterministic generator: splitmix64. Good enough to shuffle test data.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// An independent stream for item `index` of a run seeded with `seed`, so results do not
    /// depend on the order (or the thread) items are generated in.
    pub fn for_item(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F));
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-enough integer in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0);
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Integer in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        assert!(lo <= hi);
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }

    /// A random permutation of `0..n`.
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        self.shuffle(&mut p);
        p
    }
}

// ---------------------------------------------------------------------------------------------
// Complete grids
// ---------------------------------------------------------------------------------------------

/// The textbook pattern: row `r` is `1..=9` shifted by `3 * (r % 3) + r / 3`.
pub fn base_pattern() -> Cells {
    let mut g = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            g[r * 9 + c] = ((r % 3 * 3 + r / 3 + c) % 9) as u8 + 1;
        }
    }
    g
}

/// A random validity-preserving transformation of `g`: relabel the digits, permute the bands
/// and the rows inside each band, the stacks and the columns inside each stack, and transpose
/// half the time.
pub fn transform(g: &Cells, rng: &mut Rng) -> Cells {
    let relabel = rng.permutation(9);
    let rows = line_order(rng);
    let cols = line_order(rng);
    let transpose = rng.chance(1, 2);
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            let v = g[sr * 9 + sc];
            out[r * 9 + c] = if v == 0 {
                0
            } else {
                relabel[v as usize - 1] as u8 + 1
            };
        }
    }
    out
}

/// A random order of the 9 rows (or columns) that keeps bands (stacks) together.
fn line_order(rng: &mut Rng) -> [usize; 9] {
    let bands = rng.permutation(3);
    let mut out = [0; 9];
    for (i, &b) in bands.iter().enumerate() {
        let inner = rng.permutation(3);
        for (j, &k) in inner.iter().enumerate() {
            out[i * 3 + j] = b * 3 + k;
        }
    }
    out
}

/// A complete grid filled by randomised backtracking (digits tried in a random order per cell),
/// which reaches far more essentially different grids than the transformed base pattern.
/// Restarts with fresh randomness if a fill wanders too long.
pub fn random_fill(rng: &mut Rng) -> Cells {
    loop {
        let mut g = [0u8; 81];
        let mut budget = 100_000u32;
        if fill(&mut g, 0, rng, &mut budget) {
            return g;
        }
    }
}

fn fill(g: &mut Cells, cell: usize, rng: &mut Rng, budget: &mut u32) -> bool {
    if cell == 81 {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut digits);
    for d in digits {
        if allowed(g, cell, d) {
            g[cell] = d;
            if fill(g, cell + 1, rng, budget) {
                return true;
            }
            g[cell] = 0;
        }
    }
    false
}

/// A random complete valid grid: half from the base pattern, half from a random fill, both then
/// transformed.
pub fn random_grid(rng: &mut Rng) -> Cells {
    let g = if rng.chance(1, 2) {
        base_pattern()
    } else {
        random_fill(rng)
    };
    let g = transform(&g, rng);
    debug_assert!(is_complete_valid(&g));
    g
}

// ---------------------------------------------------------------------------------------------
// Puzzles
// ---------------------------------------------------------------------------------------------

/// How many cells are filled.
pub fn clues(g: &Cells) -> usize {
    g.iter().filter(|&&v| v != 0).count()
}

/// Removes clues from `solution`, in a random order, as long as `count(puzzle)` (solutions up
/// to 2) stays 1, and stops once `target` clues remain or every cell was tried. The result has
/// exactly one solution according to `count`.
pub fn unique_puzzle(
    rng: &mut Rng,
    solution: &Cells,
    target: usize,
    count: &dyn Fn(&Cells) -> u32,
) -> Cells {
    let mut p = *solution;
    let mut n = 81;
    for cell in rng.permutation(81) {
        if n <= target {
            break;
        }
        let v = p[cell];
        p[cell] = 0;
        if count(&p) == 1 {
            n -= 1;
        } else {
            p[cell] = v;
        }
    }
    p
}

/// Keeps `keep` random clues of `solution`, without any uniqueness check: with few clues this
/// almost always leaves 2 or more solutions (and never 0).
pub fn sparse_puzzle(rng: &mut Rng, solution: &Cells, keep: usize) -> Cells {
    let mut p = [0u8; 81];
    for &cell in rng.permutation(81).iter().take(keep) {
        p[cell] = solution[cell];
    }
    p
}

/// Blanks one random given of `puzzle` (if it has any).
pub fn drop_one_clue(rng: &mut Rng, puzzle: &Cells) -> Cells {
    let mut p = *puzzle;
    let givens: Vec<usize> = (0..81).filter(|&i| p[i] != 0).collect();
    if !givens.is_empty() {
        p[givens[rng.below(givens.len())]] = 0;
    }
    p
}

/// The digits that could be written at `cell` without repeating a digit of its row, column or
/// box, other than `except`.
fn fitting_digits(g: &Cells, cell: usize, except: u8) -> Vec<u8> {
    (1..=9u8)
        .filter(|&d| d != except && allowed(g, cell, d))
        .collect()
}

/// Changes one given of `puzzle` to another digit that repeats nothing in its row, column or
/// box (so the givens still pass the rule check). Tries up to `tries` random changes and returns
/// the first one `count` says has no solution, or `None`.
pub fn changed_given_unsolvable(
    rng: &mut Rng,
    puzzle: &Cells,
    tries: usize,
    count: &dyn Fn(&Cells) -> u32,
) -> Option<Cells> {
    let givens: Vec<usize> = (0..81).filter(|&i| puzzle[i] != 0).collect();
    if givens.is_empty() {
        return None;
    }
    for _ in 0..tries {
        let cell = givens[rng.below(givens.len())];
        let mut p = *puzzle;
        let old = p[cell];
        p[cell] = 0;
        let options = fitting_digits(&p, cell, old);
        if options.is_empty() {
            continue;
        }
        p[cell] = options[rng.below(options.len())];
        if count(&p) == 0 {
            return Some(p);
        }
    }
    None
}

/// Writes a wrong digit into one blank of a puzzle whose unique solution is `solution`: a digit
/// that differs from the solution's and repeats nothing in its row, column or box. The result
/// has no solution (any solution would also solve the original puzzle, whose only solution has
/// another digit there) although the givens pass the rule check. `None` if no blank admits such
/// a digit.
pub fn wrong_extra_given(rng: &mut Rng, puzzle: &Cells, solution: &Cells) -> Option<Cells> {
    let mut blanks: Vec<usize> = (0..81).filter(|&i| puzzle[i] == 0).collect();
    rng.shuffle(&mut blanks);
    for cell in blanks {
        let options = fitting_digits(puzzle, cell, solution[cell]);
        if !options.is_empty() {
            let mut p = *puzzle;
            p[cell] = options[rng.below(options.len())];
            return Some(p);
        }
    }
    None
}

/// Copies a random given into a blank cell of the same row, column or box, so the givens break
/// a rule directly. `None` if no given has a blank in the chosen kind of house.
pub fn direct_conflict(rng: &mut Rng, puzzle: &Cells) -> Option<Cells> {
    let mut givens: Vec<usize> = (0..81).filter(|&i| puzzle[i] != 0).collect();
    rng.shuffle(&mut givens);
    let house = rng.below(3);
    for cell in givens {
        let (r, c) = (cell / 9, cell % 9);
        let mates: Vec<usize> = (0..81)
            .filter(|&o| {
                let (ro, co) = (o / 9, o % 9);
                o != cell
                    && puzzle[o] == 0
                    && match house {
                        0 => ro == r,
                        1 => co == c,
                        _ => (ro / 3, co / 3) == (r / 3, c / 3),
                    }
            })
            .collect();
        if !mates.is_empty() {
            let mut p = *puzzle;
            p[mates[rng.below(mates.len())]] = puzzle[cell];
            return Some(p);
        }
    }
    None
}

/// The 81-char line form of `g`, `.` for blanks, for messages.
pub fn line(g: &Cells) -> String {
    g.iter()
        .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
        .collect()
}

/// Parses an 81-char line (`1`-`9`, blanks as `.` or `0`) without the library.
pub fn parse(s: &str) -> Cells {
    let b = s.as_bytes();
    assert_eq!(b.len(), 81, "not 81 chars: {s}");
    let mut g = [0u8; 81];
    for (o, &ch) in g.iter_mut().zip(b) {
        *o = match ch {
            b'1'..=b'9' => ch - b'0',
            b'.' | b'0' => 0,
            _ => panic!("bad char {:?} in {s}", ch as char),
        };
    }
    g
}

/// A Python virtual environment under the target directory with `packages` installed from PyPI,
/// made once and kept between runs (the Spark and Python tests use it). Returns its folder.
pub fn python_venv(name: &str, packages: &[&str]) -> std::path::PathBuf {
    use std::process::Command;
    let venv = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let ready = venv.join(".ready");
    // Made again when the packages asked for changed since.
    let wanted = packages.join("\n");
    if std::fs::read_to_string(&ready).ok().as_deref() != Some(wanted.as_str()) {
        let ok = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "python3 -m venv failed");
        let ok = Command::new(venv.join("bin/python"))
            .args(["-m", "pip", "install", "--quiet"])
            .args(packages)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "pip install {packages:?} failed");
        std::fs::write(&ready, wanted).unwrap();
    }
    venv
}
