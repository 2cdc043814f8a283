//! One test per technique on a fixed position: the producer, asked alone through
//! [`path::ask`], must find exactly the step Sudoku Explainer takes there (technique name, SE's
//! rating, the placement or eliminations, SE's description), and on a position without the
//! pattern it must find nothing.
//!
//! The positions are written out (the grid's values, then the candidates removed from what
//! [`Board::new`] leaves), not computed from the path at test time, so each pins its technique on
//! its own: they were captured from the explainer's path on the puzzles of
//! `../shared/se-reference`, just before a step of the technique (whose path, rating and text
//! agree with `serate`'s), choosing the occurrence with the fewest removed candidates. A
//! negative is a position where the path went on to a later technique: SE had asked this
//! producer there and it had nothing.
//!
//! Techniques are called only through `path::ask`, and positions built only with `Board::new`
//! and `Board::remove`, so these tests hold whatever the producers' insides become.

/// One test per entry: `name: producer, "values", &[removed], Some(Want { .. }) or None;`, the
/// producer written as a [`Producer`] variant or one of the nested modes below.
macro_rules! positions {
    ($($(#[$doc:meta])* $test:ident: $p:expr, $puzzle:literal, $removed:expr, $want:expr;)*) => {
        $(
            $(#[$doc])*
            #[test]
            fn $test() {
                #[allow(unused_imports)]
                use $crate::explain::path::Producer::*;
                check($p, &board($puzzle, $removed), $want);
            }
        )*
    };
}

mod basic;
mod chains;
mod exclusion;
mod unique;

use super::board::{digits_of, Board};
use super::chains::{Chainer, Mode};
use super::hint::Hint;
use super::path::{self, Producer};
use crate::grid::Grid;

/// A position: `puzzle`'s values (81 characters, `.` for empty), SE's candidates for them, less
/// `removed` (`(cell 0..81, digit)`, each of which must still be a candidate).
fn board(puzzle: &str, removed: &[(usize, u8)]) -> Board {
    let g: Grid = puzzle.parse().expect("an 81-cell grid");
    let mut b = Board::new(&g);
    for &(c, v) in removed {
        assert!(
            b.has(c, v),
            "r{}c{}: {v} is not a candidate",
            c / 9 + 1,
            c % 9 + 1
        );
        b.remove(c, v);
    }
    b
}

/// What a producer must find.
struct Want {
    name: &'static str,
    /// SE's rating in tenths, as serate prints it.
    tenths: u32,
    place: Option<(u8, u8)>,
    /// `(cell, digit)`, ascending by cell then digit.
    elims: &'static [(u8, u8)],
    /// SE's one-line description.
    text: &'static str,
}

/// A small deterministic generator (xorshift64) for the tests on random positions and sets.
pub(super) fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

fn ask(p: Producer, b: &Board) -> Option<Hint> {
    path::ask(p, b, &mut Chainer::new())
}

/// Asks `p` on the position and checks that it finds `want` (`None`: nothing).
fn check(p: Producer, b: &Board, want: Option<Want>) {
    let found = ask(p, b);
    let Some(want) = want else {
        if let Some(h) = found {
            panic!("{p:?} must find nothing here, found {}", h.text());
        }
        return;
    };
    let h = found.unwrap_or_else(|| panic!("{p:?} found nothing, want {}", want.text));
    let elims: Vec<(u8, u8)> = h
        .elims
        .iter()
        .flat_map(|&(c, m)| digits_of(m).map(move |v| (c, v)))
        .collect();
    assert_eq!(
        (
            h.name().as_ref(),
            h.tenths(),
            h.place,
            elims.as_slice(),
            h.text().as_str()
        ),
        (want.name, want.tenths, want.place, want.elims, want.text),
        "{p:?}"
    );
    // Sound as well as SE's: the step keeps the position's solution.
    let mut after = b.clone();
    h.apply(&mut after);
    assert_eq!(
        solutions(&after),
        1,
        "{p:?}: {} loses the solution",
        want.text
    );
}

/// SE's dynamic (+) chains and its nested levels, as `path::producers` lists them.
const DYNAMIC_PLUS: Producer = Producer::Chains(Mode::new(true, true, false, 1, 0));
const NESTED_FORCING: Producer = Producer::Chains(Mode::new(true, true, false, 2, 0));
const NESTED_MULTIPLE: Producer = Producer::Chains(Mode::new(true, true, false, 3, 0));
const NESTED_DYNAMIC: Producer = Producer::Chains(Mode::new(true, true, false, 4, 0));

/// Solutions of a position (0, 1 or 2 meaning more), candidates included, by plain search.
fn solutions(b: &Board) -> u32 {
    fn go(b: &Board, n: &mut u32) {
        if *n >= 2 {
            return;
        }
        let Some(cell) = (0..81)
            .filter(|&c| b.values[c] == 0)
            .min_by_key(|&c| b.count(c))
        else {
            *n += 1;
            return;
        };
        for v in digits_of(b.cands[cell]) {
            let mut next = b.clone();
            next.place(cell, v);
            go(&next, n);
        }
    }
    let mut n = 0;
    go(b, &mut n);
    n
}

/// A solved grid with the four cells of a rectangle emptied: two digits in each, two solutions
/// (the deadly pattern). Nothing can be deduced, so no technique may find anything: every
/// candidate is in some solution, and no rectangle or BUG has the extra candidate its uniqueness
/// argument needs.
#[test]
fn nothing_on_a_deadly_pattern() {
    // The solution of the first puzzle of data/examples.txt.
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let mut g = solved.as_bytes().to_vec();
    let (cells, a, b) = deadly_rectangle(solved);
    for &c in &cells {
        g[c] = b'.';
    }
    let puzzle = String::from_utf8(g).expect("ascii");
    let board = board(&puzzle, &[]);
    for &c in &cells {
        assert_eq!(board.cands[c], (1 << a) | (1 << b));
    }
    assert_eq!(solutions(&board), 2);
    for p in path::PRODUCERS {
        check(p, &board, None);
    }
}

/// The first rectangle of a solved grid (two rows, two columns, two blocks) whose corners hold
/// just two digits, crosswise: its cells and the two digits.
fn deadly_rectangle(solved: &str) -> ([usize; 4], u8, u8) {
    let v: Vec<u8> = solved.bytes().map(|b| b - b'0').collect();
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    let same_band = r1 / 3 == r2 / 3;
                    let same_stack = c1 / 3 == c2 / 3;
                    if same_band == same_stack {
                        continue;
                    }
                    let (p, q) = (v[r1 * 9 + c1], v[r1 * 9 + c2]);
                    if v[r2 * 9 + c1] == q && v[r2 * 9 + c2] == p {
                        return (
                            [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2],
                            p.min(q),
                            p.max(q),
                        );
                    }
                }
            }
        }
    }
    panic!("no deadly rectangle in {solved}");
}

/// A solved grid's digits (the solution of the first puzzle of data/examples.txt).
pub(super) fn solved_digits() -> Vec<u8> {
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
        .bytes()
        .map(|b| b - b'0')
        .collect()
}

/// The digits of `solved` at up to `tries` random cells (the others empty).
pub(super) fn some_of(solved: &[u8], tries: usize, rng: &mut impl FnMut() -> u64) -> [u8; 81] {
    let mut cells = [0u8; 81];
    for _ in 0..tries {
        let c = (rng() % 81) as usize;
        cells[c] = solved[c];
    }
    cells
}

/// The helper itself: removing a digit that is not a candidate is a mistake in the test.
#[test]
#[should_panic(expected = "is not a candidate")]
fn board_refuses_removing_a_non_candidate() {
    board(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        &[(2, 5)],
    );
}

/// `Board::new_checked` builds, from each region's givens, the board SE builds peer by peer, and
/// says whether the givens are consistent; on random grids, with conflicts among them.
#[test]
fn board_from_region_givens_is_the_peer_by_peer_board() {
    use super::board::{PEERS, PEER_MASK};
    let mut rng = xorshift(0x5eed_b0a2d);
    for round in 0..3000 {
        let mut cells = [0u8; 81];
        let givens = 5 + round % 40;
        for _ in 0..givens {
            cells[(rng() % 81) as usize] = (rng() % 10) as u8;
        }
        let g = Grid::from_cells(cells).expect("values up to 9");
        // SE's build: every digit everywhere empty, then each given's digit out of its peers.
        let mut want = [0u16; 81];
        for c in 0..81 {
            if cells[c] == 0 {
                want[c] = 0x3fe;
            }
        }
        for c in 0..81 {
            if cells[c] != 0 {
                for &p in &PEERS[c] {
                    want[p as usize] &= !(1 << cells[c]);
                }
            }
        }
        let consistent = (0..81).all(|c| {
            cells[c] == 0
                || (0..81).all(|p| PEER_MASK[c] & (1u128 << p) == 0 || cells[p] != cells[c])
        });
        let (b, ok) = Board::new_checked(&g);
        assert_eq!(ok, consistent, "{g}");
        assert_eq!(b.values, cells);
        assert_eq!(b.cands, want, "{g}");
        let mut fresh = b.clone();
        fresh.rebuild_digits();
        assert!(fresh == b, "{g}");
    }
}

/// The path counts the solutions only once it gets past the steps every solution agrees with
/// (`path::solve_path`): puzzles with none or several, made from a solved grid by keeping some
/// givens and perhaps changing one, are still refused as the solver counts them, by `rate` and
/// `explain` alike, and the unique ones get the same ratings from both.
#[test]
fn puzzles_without_one_solution_are_refused_whatever_the_path_does() {
    use super::{explain, rate, Unrated, DEFAULT_BUDGET};
    let solved = solved_digits();
    let mut rng = xorshift(0x0e5_1e55);
    let mut seen = [0usize; 3];
    for round in 0..600 {
        // From 24 to 59 givens: from many solutions to a few empty cells.
        let mut cells = some_of(&solved, (24 + round % 36) * 2, &mut rng);
        if round % 3 == 0 {
            // A wrong digit where no peer holds it yet: consistent givens, no solution.
            let c = (rng() % 81) as usize;
            let v = (rng() % 9 + 1) as u8;
            if v != solved[c] {
                cells[c] = v;
            }
        }
        let g = Grid::from_cells(cells).expect("values up to 9");
        let solutions = crate::engine::solve(&g, 2).solutions;
        seen[solutions as usize] += 1;
        let rated = rate(&g, DEFAULT_BUDGET);
        let explained = explain(&g, DEFAULT_BUDGET);
        if solutions == 1 {
            let r = rated.expect("one solution: rated");
            let e = explained.expect("one solution: explained");
            assert_eq!(r, e.rating, "{g}");
        } else {
            assert_eq!(rated, Err(Unrated::NotUnique { solutions }), "{g}");
            assert_eq!(
                explained.map(|e| e.rating),
                Err(Unrated::NotUnique { solutions }),
                "{g}"
            );
        }
    }
    // Each kind came up often enough to mean something.
    assert!(seen.iter().all(|&n| n >= 50), "{seen:?}");
}
