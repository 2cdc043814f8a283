//! Removing givens from a unique puzzle while it stays unique: the work behind `generate` and
//! `minimize`.
//!
//! Givens are a 128-bit cell mask over a fixed solution `S`, removed in *orbits* (a symmetry's
//! cell classes; single cells without one) walked in a random order. The result is defined by
//! the plain sequential rule — for each orbit in order, remove it if the puzzle stays unique,
//! else keep it — and these things make reaching that result cheaper than one uniqueness check
//! per orbit, without changing it:
//!
//! - **Blocks.** Removing a block of consecutive orbits at once and finding the puzzle still
//!   unique proves every orbit of the block would have been removed one by one (each
//!   intermediate puzzle has more givens than a unique one with the same solution). Early on,
//!   with many givens, one check removes dozens of cells. When a block fails it is split in
//!   halves and the halves are processed in turn.
//! - **Known failures.** If the first half of a failed block was removed entirely, the second
//!   half's removal is the failed block's removal: it fails without a check, and a one-orbit
//!   second half is kept without a solver call.
//! - **Unavoidable sets.** A failed check that returns a solution `S' ≠ S` yields the set `D` of
//!   cells where they differ: every puzzle with solution `S` must keep a given in `D` (else `S'`
//!   also solves it). Before each check, a removal that would empty a known `D` of givens fails
//!   at once. Sets are also collected up front: the digit-pair swap sets of `S` (two digits
//!   exchanged on a connected part of their 18 cells; the four-cell ones are the unavoidable
//!   rectangles) and the line-pair sets (two rows of a band, or two columns of a stack,
//!   exchanged on a cycle of three or more columns or rows holding the same digits). An orbit
//!   kept for good drops every set it meets: they can never be emptied again, and the list
//!   every later removal scans gets shorter.
//! - **Checks that know `S`.** A check is an [`engine::Subpuzzles`] search: the start state comes
//!   from `S`'s digit masks and the givens mask, not from a [`Grid`] cell by cell. Removing one
//!   cell `c` keeps `S` a solution, so "still unique" means "no solution with another digit at
//!   `c`": one search with `S`'s digit excluded there, stopping at the first solution, instead
//!   of counting to 2 (which has to find `S` too). That is exact; blocks of several cells
//!   still count to 2 (a chain of excluding searches, one per cell, measured slower).
//!
//! Single pass is enough for minimality: an orbit that could not be removed from the givens of
//! its turn cannot be removed from any later subset of them.

use crate::engine;
use crate::grid::Grid;

/// Thread CPU time in ns (profiling aid).
#[cfg(test)]
pub fn cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

#[cfg(test)]
thread_local! {
    static PHASES: std::cell::RefCell<[u64; 3]> = const { std::cell::RefCell::new([0; 3]) };
}

/// A set of cells, bit `i` for cell `i`.
pub type Cells = u128;

/// The puzzle with givens `mask` of `solution`.
pub fn puzzle_of(solution: &Grid, mask: Cells) -> Grid {
    let mut cells = *solution.cells();
    for (i, c) in cells.iter_mut().enumerate() {
        if mask >> i & 1 == 0 {
            *c = 0;
        }
    }
    Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
}

/// The cells where a grid has a digit.
pub fn mask_of(grid: &Grid) -> Cells {
    grid.cells()
        .iter()
        .enumerate()
        .filter(|(_, &v)| v != 0)
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// How a removal walk ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Walk every orbit: the result is minimal among orbit removals.
    Never,
    /// Stop at the first orbit that cannot be removed.
    FirstFailure,
    /// Skip orbits that cannot be removed, stop once at most this many givens are left.
    AtMost(usize),
}

/// The state of one removal walk.
pub struct Remover<'a> {
    solution: &'a Grid,
    /// The solution prepared for sub-puzzle checks (`None` only if it were not a valid grid).
    sub: Option<engine::Subpuzzles>,
    givens: Cells,
    unavoidable: Vec<Cells>,
    stopped: bool,
    stop: Stop,
    /// Uniqueness checks made (solver calls).
    pub checks: u32,
    /// Removals refused by a known unavoidable set, without a solver call.
    pub skipped: u32,
    /// Checks that found the puzzle unique.
    pub passed: u32,
}

impl<'a> Remover<'a> {
    /// A walk from `givens` of `solution`, which must already be a unique puzzle.
    pub fn new(solution: &'a Grid, givens: Cells, stop: Stop) -> Self {
        // About 100 sets from the digit pairs, 40 from the line pairs, and the learned ones.
        let mut unavoidable = Vec::with_capacity(256);
        digit_pair_sets(solution, &mut unavoidable);
        line_pair_sets(solution, &mut unavoidable);
        Remover {
            solution,
            sub: engine::Subpuzzles::new(solution),
            givens,
            unavoidable,
            stopped: false,
            stop,
            checks: 0,
            skipped: 0,
            passed: 0,
        }
    }

    /// The givens now.
    pub fn givens(&self) -> Cells {
        self.givens
    }

    fn clues(&self) -> usize {
        self.givens.count_ones() as usize
    }

    /// Removes `x` if the puzzle stays unique; says whether it did. `last`: `x` is one orbit
    /// on its turn, kept for good if it stays, so a second solution found teaches nothing
    /// (it differs from `S` inside `x`).
    fn try_remove(&mut self, x: Cells, last: bool) -> bool {
        let left = self.givens & !x;
        if self.unavoidable.iter().any(|&d| d & left == 0) {
            self.skipped += 1;
            return false;
        }
        self.checks += 1;
        match self.second_solution(left, x) {
            None => {
                self.passed += 1;
                self.givens = left;
                true
            }
            Some(other) => {
                if !last {
                    let d = differing(self.solution, &other);
                    if d != 0 {
                        self.unavoidable.push(d);
                    }
                }
                false
            }
        }
    }

    /// Orbit `x` stays for good: every set it meets keeps a given from now on, so it is
    /// dropped (a shorter list for every later removal).
    fn keep(&mut self, x: Cells) {
        self.unavoidable.retain(|&d| d & x == 0);
    }

    /// A solution other than `S` of the puzzle with givens `left` (`S`'s givens minus the
    /// removed cells `x`), or `None` when `S` is its only one.
    fn second_solution(&self, left: Cells, x: Cells) -> Option<Grid> {
        let Some(sub) = &self.sub else {
            let r = engine::solve(&puzzle_of(self.solution, left), 2);
            return (r.solutions != 1).then(|| r.first.unwrap_or(*self.solution));
        };
        if x.count_ones() == 1 {
            // A solution other than S differs from it in the one removed cell.
            return sub
                .solve_without(left, x.trailing_zeros() as usize, 1)
                .first;
        }
        let r = sub.solve(left, 2);
        if r.solutions == 1 {
            None
        } else {
            Some(r.first.unwrap_or(*self.solution))
        }
    }

    /// Processes consecutive orbits `block` (as the sequential rule would), `known_fail` when
    /// removing all of them at once is already known to break uniqueness.
    fn process(&mut self, block: &[Cells], known_fail: bool) {
        if self.stopped || block.is_empty() {
            return;
        }
        let x = block.iter().fold(0, |m, &o| m | o);
        if block.len() == 1 {
            let removed = !known_fail && self.try_remove(x, true);
            if !removed {
                self.keep(x);
                if self.stop == Stop::FirstFailure {
                    self.stopped = true;
                }
            }
            return;
        }
        if !known_fail && self.try_remove(x, false) {
            return;
        }
        let (a, b) = block.split_at(block.len() / 2);
        self.process(a, false);
        let a_all_gone = a.iter().all(|&o| o & self.givens == 0);
        self.process(b, a_all_gone);
    }

    /// Walks `orbits` in order. `floor`: give up (return `false`) as soon as fewer givens than
    /// this are left, since removals only lower the count.
    pub fn walk(&mut self, orbits: &[Cells], floor: usize) -> bool {
        let mut i = 0;
        while i < orbits.len() && !self.stopped {
            let clues = self.clues();
            if let Stop::AtMost(hi) = self.stop {
                if clues <= hi {
                    break;
                }
            }
            // Block length: many orbits while the puzzle is far above typical minimal sizes,
            // one at a time near the end, where most removals fail.
            let mut k = clues.saturating_sub(BLOCK_FLOOR) / BLOCK_DIV;
            k = k.clamp(1, orbits.len() - i);
            if let Stop::AtMost(hi) = self.stop {
                // Never take a block whose cells would jump past the stopping count.
                let mut cells = 0;
                let mut fit = 0;
                for o in &orbits[i..i + k] {
                    if cells >= clues - hi {
                        break;
                    }
                    cells += o.count_ones() as usize;
                    fit += 1;
                }
                k = fit.max(1);
            }
            self.process(&orbits[i..i + k], false);
            i += k;
            if self.clues() < floor {
                return false;
            }
        }
        true
    }
}

/// Pushes the unavoidable sets of two rows of one band (or two columns of one stack): where
/// the two lines hold the same digits on a set of columns, swapping the lines there gives
/// another valid grid (the swaps stay inside boxes). The smallest such column sets are the
/// cycles of "the column where row 1 holds row 2's digit"; cycles of two are rectangles,
/// which [`digit_pair_sets`] already has, so only cycles of three or more columns are pushed.
fn line_pair_sets(s: &Grid, out: &mut Vec<Cells>) {
    let g = s.cells();
    for transposed in [false, true] {
        let at = |line: usize, k: usize| {
            if transposed {
                k * 9 + line
            } else {
                line * 9 + k
            }
        };
        for band in 0..3 {
            for (l1, l2) in [(0, 1), (0, 2), (1, 2)] {
                let (l1, l2) = (band * 3 + l1, band * 3 + l2);
                // pos[d]: where line 1 holds digit d.
                let mut pos = [0u8; 10];
                for k in 0..9 {
                    pos[g[at(l1, k)] as usize] = k as u8;
                }
                let mut seen = 0u16;
                for start in 0..9 {
                    if seen >> start & 1 == 1 {
                        continue;
                    }
                    let (mut k, mut len, mut cells) = (start, 0, 0 as Cells);
                    while seen >> k & 1 == 0 {
                        seen |= 1 << k;
                        len += 1;
                        cells |= 1 << at(l1, k) | 1 << at(l2, k);
                        k = pos[g[at(l2, k)] as usize] as usize;
                    }
                    if len >= 3 {
                        out.push(cells);
                    }
                }
            }
        }
    }
}

/// The cells where two grids differ.
fn differing(a: &Grid, b: &Grid) -> Cells {
    let (a, b) = (a.cells(), b.cells());
    let mut out: Cells = 0;
    for k in 0..10 {
        let chunk = |g: &[u8; 81]| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&g[8 * k..8 * k + 8]);
            u64::from_le_bytes(w)
        };
        // Digits are below 16: a byte of the XOR is nonzero when one of its low four bits is.
        let x = chunk(a) ^ chunk(b);
        let y = (x | x >> 1 | x >> 2 | x >> 3) & 0x0101_0101_0101_0101;
        // Gathers the eight byte flags into one byte, the first byte's in bit 0.
        let bits = y.wrapping_mul(0x0102_0408_1020_4080) >> 56;
        out |= Cells::from(bits as u8) << (8 * k);
    }
    out | Cells::from(a[80] != b[80]) << 80
}

/// Below this many givens, orbits go one at a time.
const BLOCK_FLOOR: usize = 30;
/// Block length is the surplus over [`BLOCK_FLOOR`] divided by this.
const BLOCK_DIV: usize = 2;

/// Pushes the unavoidable sets of a complete grid made of two digits: for digits a and b, the
/// cells holding either fall into swap components — an a and a b sharing a house must swap
/// together — and swapping a ↔ b on one component gives another valid grid. Components of four
/// cells are the unavoidable rectangles; the largest has all 18 cells.
///
/// The a and the b of a row share it, so a component is a set of rows (its a and b in each);
/// the a of row r also ties in the row of the b in its column and the row of the b in its box.
/// Components are the connected parts of that graph on nine rows, grown as 9-bit masks.
fn digit_pair_sets(s: &Grid, out: &mut Vec<Cells>) {
    // For digit d (0..9): the column and box of its cell in row r, the row of its cell in
    // column c and in box k, and the cell as a mask.
    let mut col = [[0u8; 9]; 9];
    let mut bx = [[0u8; 9]; 9];
    let mut col_row = [[0u8; 9]; 9];
    let mut box_row = [[0u8; 9]; 9];
    let mut bit = [[0 as Cells; 9]; 9];
    for (i, &v) in s.cells().iter().enumerate() {
        let (r, c) = (i / 9, i % 9);
        let (d, k) = (v as usize - 1, r / 3 * 3 + c / 3);
        col[d][r] = c as u8;
        bx[d][r] = k as u8;
        col_row[d][c] = r as u8;
        box_row[d][k] = r as u8;
        bit[d][r] = 1 << i;
    }
    for a in 0..9 {
        for b in a + 1..9 {
            let mut adj = [0u16; 9];
            for r in 0..9 {
                let r1 = col_row[b][col[a][r] as usize] as usize;
                let r2 = box_row[b][bx[a][r] as usize] as usize;
                adj[r] |= 1 << r1 | 1 << r2;
                adj[r1] |= 1 << r;
                adj[r2] |= 1 << r;
            }
            let mut rest = 0x1ffu16;
            while rest != 0 {
                let mut comp = rest & rest.wrapping_neg();
                let mut frontier = comp;
                while frontier != 0 {
                    let mut next = 0;
                    let mut f = frontier;
                    while f != 0 {
                        next |= adj[f.trailing_zeros() as usize];
                        f &= f - 1;
                    }
                    frontier = next & !comp;
                    comp |= next;
                }
                rest &= !comp;
                let mut cells: Cells = 0;
                let mut m = comp;
                while m != 0 {
                    let r = m.trailing_zeros() as usize;
                    cells |= bit[a][r] | bit[b][r];
                    m &= m - 1;
                }
                out.push(cells);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::fill::random_solution;
    use crate::rng::Rng;

    /// Every digit-pair set found is really unavoidable: swapping its two digits gives another
    /// valid grid; and the sets of a pair cover its 18 cells exactly.
    #[test]
    fn pair_sets_swap_to_valid_grids() {
        let mut rng = Rng::new(11);
        let mut found = 0;
        for _ in 0..300 {
            let s = random_solution(&mut rng);
            let mut sets = Vec::new();
            digit_pair_sets(&s, &mut sets);
            let cells: u32 = sets.iter().map(|d| d.count_ones()).sum();
            assert_eq!(cells, 36 * 18);
            for d in sets {
                if d.count_ones() == 4 {
                    found += 1;
                }
                let mut cells = *s.cells();
                let idx: Vec<usize> = (0..81).filter(|i| d >> i & 1 == 1).collect();
                let a = cells[idx[0]];
                let b = idx.iter().map(|&i| cells[i]).find(|&v| v != a).unwrap();
                for &i in &idx {
                    cells[i] = if cells[i] == a { b } else { a };
                }
                let t = Grid::from_cells(cells).unwrap();
                assert!(t.is_solution_of(&Grid::EMPTY));
                assert_ne!(t, s);
            }
        }
        assert!(found > 50, "only {found} rectangles in 300 grids");
    }

    /// The plain-solver path of `second_solution` (taken when the solution cannot be prepared
    /// for sub-puzzle checks) removes exactly what the sub-puzzle checks remove, block by block
    /// and cell by cell, with every way a walk can stop; and the result is unique and minimal.
    #[test]
    fn plain_solver_fallback_walks_alike() {
        let mut rng = Rng::new(5);
        for round in 0..40 {
            let s = random_solution(&mut rng);
            let mut orbits: Vec<Cells> = (0..81).map(|i| 1 << i).collect();
            rng.shuffle(&mut orbits);
            let stop = [Stop::Never, Stop::FirstFailure, Stop::AtMost(30)][round % 3];
            let all: Cells = (1 << 81) - 1;
            let mut fast = Remover::new(&s, all, stop);
            let mut plain = Remover::new(&s, all, stop);
            assert!(fast.sub.is_some());
            plain.sub = None;
            assert_eq!(fast.walk(&orbits, 0), plain.walk(&orbits, 0));
            assert_eq!(fast.givens(), plain.givens(), "round {round}");
            let p = puzzle_of(&s, plain.givens());
            assert_eq!(engine::solve(&p, 2).solutions, 1);
            if stop == Stop::Never {
                for i in (0..81).filter(|&i| plain.givens() >> i & 1 == 1) {
                    let fewer = puzzle_of(&s, plain.givens() & !(1 << i));
                    assert_eq!(engine::solve(&fewer, 2).solutions, 2, "cell {i} removable");
                }
            }
        }
    }

    #[test]
    #[ignore = "profiling aid: cargo test --lib generate::remove::tests::profile -- --ignored --nocapture"]
    fn profile() {
        let configs: Vec<String> = std::env::var("GEN_CONFIGS")
            .unwrap_or_else(|_| "30,2".into())
            .split(' ')
            .map(String::from)
            .collect();
        let mut best = vec![f64::MAX; configs.len()];
        let mut stats = vec![(0, 0, 0, 0); configs.len()];
        let n = 400;
        for round in 0..4 {
            for (k, conf) in configs.iter().enumerate() {
                let _ = conf;
                let mut rng = Rng::new(3 + round);
                let start = cpu_ns();
                let (mut checks, mut skipped, mut passed, mut clues) = (0, 0, 0, 0);
                for _ in 0..n {
                    let t = cpu_ns();
                    let s = random_solution(&mut rng);
                    let t1 = cpu_ns();
                    let mut orbits: Vec<Cells> = (0..81).map(|i| 1 << i).collect();
                    rng.shuffle(&mut orbits);
                    let mut rm = Remover::new(&s, (1 << 81) - 1, Stop::Never);
                    let t2 = cpu_ns();
                    rm.walk(&orbits, 0);
                    let t3 = cpu_ns();
                    PHASES.with(|p| {
                        let mut p = p.borrow_mut();
                        p[0] += t1 - t;
                        p[1] += t2 - t1;
                        p[2] += t3 - t2;
                    });
                    checks += rm.checks;
                    skipped += rm.skipped;
                    passed += rm.passed;
                    clues += rm.givens.count_ones();
                }
                best[k] = best[k].min((cpu_ns() - start) as f64 * 1e-9);
                stats[k] = (checks, skipped, passed, clues);
            }
        }
        PHASES.with(|t| println!("fill/new/walk {:?}", t.borrow()));
        for (k, conf) in configs.iter().enumerate() {
            let (c, s, p, g) = stats[k];
            let n = n as f64;
            println!(
                "{conf}: {:.0}/s checks {:.2} passed {:.2} skipped {:.2} clues {:.2}",
                n / best[k],
                c as f64 / n,
                p as f64 / n,
                s as f64 / n,
                g as f64 / n
            );
        }
    }

    /// Every line-pair set is unavoidable: exchanging the two lines' digits on it gives another
    /// valid grid. And there are some.
    #[test]
    fn line_pair_sets_swap_to_valid_grids() {
        let mut rng = Rng::new(12);
        let mut found = 0;
        for _ in 0..300 {
            let s = random_solution(&mut rng);
            let mut sets = Vec::new();
            line_pair_sets(&s, &mut sets);
            found += sets.len();
            for d in sets {
                let idx: Vec<usize> = (0..81).filter(|i| d >> i & 1 == 1).collect();
                assert!(idx.len() >= 6 && idx.len() % 2 == 0);
                let rows: std::collections::BTreeSet<usize> = idx.iter().map(|i| i / 9).collect();
                let mut cells = *s.cells();
                for &i in &idx {
                    // The other cell of the set on the same column (rows) or row (columns).
                    let j = if rows.len() == 2 {
                        *idx.iter().find(|&&j| j != i && j % 9 == i % 9).unwrap()
                    } else {
                        *idx.iter().find(|&&j| j != i && j / 9 == i / 9).unwrap()
                    };
                    cells[i] = s.cells()[j];
                }
                let t = Grid::from_cells(cells).unwrap();
                assert!(t.is_solution_of(&Grid::EMPTY), "{s} -> {t}");
                assert_ne!(t, s);
            }
        }
        assert!(found > 300, "only {found} line-pair sets in 300 grids");
    }

    #[test]
    fn differing_cells() {
        let mut rng = Rng::new(4);
        for _ in 0..200 {
            let (a, b) = (random_solution(&mut rng), random_solution(&mut rng));
            let slow = (0..81)
                .filter(|&i| a.cells()[i] != b.cells()[i])
                .fold(0 as Cells, |m, i| m | 1 << i);
            assert_eq!(differing(&a, &b), slow);
            assert_eq!(differing(&a, &a), 0);
            let mut c = *a.cells();
            for i in [0, 7, 8, 63, 64, 79, 80] {
                c[i] = 0;
            }
            let mask = 1 | 1 << 7 | 1 << 8 | 1 << 63 | 1 << 64 | 1 << 79 | 1 << 80;
            assert_eq!(differing(&a, &Grid::from_cells(c).unwrap()), mask);
        }
    }

    #[test]
    fn puzzle_and_mask_round_trip() {
        let s = random_solution(&mut Rng::new(1));
        let m: Cells = 0b1011 << 40 | 1;
        assert_eq!(mask_of(&puzzle_of(&s, m)), m);
    }
}
