//! Famous published puzzles with their published solutions.
//!
//! `data/examples.txt` holds them one per line, `data/examples-block.txt` in the 9-rows-of-9
//! layout books print. The known solutions live here, not in the data files. Each was checked
//! when it was typed in: the naive reference solver in `tests/common` finds exactly one solution
//! and it is the published one. (That check is not repeated here because the naive solver takes
//! about ten seconds on Norvig's grid2; the engine's counting is compared with the reference in
//! `tests/differential.rs`.)
//!
//! One extra entry, a textbook depth-first-search exercise, is only in the block file: it is not
//! a proper puzzle (2,358 solutions), and the exercise's expected answer is the first solution a
//! row-major, 1-to-9 search finds — which the reference solver's order reproduces.

use crate::common::{is_complete_valid, parse, reference_solve, Cells};
use sudoku_batch::{engine, Grid};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/examples.txt");
const BLOCKS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/examples-block.txt");

/// (name, puzzle, published solution), in the order of the data files.
const KNOWN: [(&str, &str, &str); 8] = [
    (
        "LeetCode 37 / Wikipedia",
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    ),
    (
        "Project Euler 96 Grid 01 / Norvig grid1",
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382",
    ),
    (
        "Norvig grid2 (top95 #1)",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293",
    ),
    (
        "Norvig hardest.txt #1",
        "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
        "859612437723854169164379528986147352375268914241593786432981675617425893598736241",
    ),
    (
        "Norvig hardest.txt #2",
        "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
        "145327698839654127672918543496185372218473956753296481367542819984761235521839764",
    ),
    (
        "AI Escargot (Inkala 2006)",
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        "162857493534129678789643521475312986913586742628794135356478219241935867897261354",
    ),
    (
        "Inkala 2012",
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
    ),
    (
        "Easter Monster (JPF 2007)",
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        "174385962293467158586192734451923876928674315367851249719548623635219487842736591",
    ),
];

/// The Jisuanke depth-first-search exercise (block file only) and the answer it expects.
const TEXTBOOK: (&str, &str) = (
    ".26.........5.2..4...1....7.3..2.18....3.9....54.1..7.5....1...6..9.7.........75.",
    "126734598378592614495168237739425186861379425254816379547281963613957842982643751",
);

/// Whether `solution` is complete, breaks no rule and keeps every given of `puzzle`: the test's
/// own check, next to the library's `is_solution_of`.
fn solves(solution: &Cells, puzzle: &Cells) -> bool {
    is_complete_valid(solution) && (0..81).all(|i| puzzle[i] == 0 || puzzle[i] == solution[i])
}

/// Checks that `puzzle` has exactly one solution according to the engine, and that it is the
/// published one.
fn check_unique(name: &str, puzzle: &Grid, published: &str) {
    let known: Grid = published.parse().expect("published solution parses");
    assert!(
        solves(known.cells(), puzzle.cells()),
        "{name}: the published solution does not solve the puzzle"
    );
    assert!(known.is_solution_of(puzzle), "{name}: is_solution_of");
    assert!(puzzle.check_givens().is_ok(), "{name}: givens conflict");
    let found = engine::solve(puzzle, 2);
    assert_eq!(found.solutions, 1, "{name}: solution count");
    assert_eq!(
        found.first.map(|g| g.to_line()),
        Some(published.to_string()),
        "{name}"
    );
}

#[test]
fn line_file_puzzles_solve_to_their_published_solutions() {
    let text = std::fs::read_to_string(EXAMPLES).expect("read data/examples.txt");
    let puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| Grid::parse_line(l.as_bytes()).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(puzzles.len(), KNOWN.len(), "puzzles in data/examples.txt");
    for (puzzle, (name, line, solution)) in puzzles.iter().zip(KNOWN) {
        assert_eq!(
            puzzle.to_line(),
            line,
            "{name}: data file and table disagree"
        );
        check_unique(name, puzzle, solution);
    }
}

/// The test's own reader for the block layout: `#` lines are comments, a blank line ends a
/// puzzle, every other line is one row of 9 cells (spaces ignored; `*`, `0` and `.` are blanks).
fn read_blocks(text: &str) -> Vec<Cells> {
    let mut puzzles = Vec::new();
    let mut rows: Vec<Vec<u8>> = Vec::new();
    let mut finish = |rows: &mut Vec<Vec<u8>>| {
        if !rows.is_empty() {
            assert_eq!(rows.len(), 9, "a puzzle with {} rows: {rows:?}", rows.len());
            let mut cells = [0u8; 81];
            for (i, v) in rows.concat().into_iter().enumerate() {
                cells[i] = v;
            }
            puzzles.push(cells);
            rows.clear();
        }
    };
    for line in text.lines() {
        if line.starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            finish(&mut rows);
            continue;
        }
        let row: Vec<u8> = line
            .chars()
            .filter(|c| *c != ' ')
            .map(|c| match c {
                '1'..='9' => c as u8 - b'0',
                '*' | '0' | '.' => 0,
                _ => panic!("unexpected {c:?} in block row {line:?}"),
            })
            .collect();
        assert_eq!(row.len(), 9, "row with {} cells: {line:?}", row.len());
        rows.push(row);
    }
    finish(&mut rows);
    puzzles
}

#[test]
fn block_file_puzzles_solve_to_their_published_solutions() {
    let text = std::fs::read_to_string(BLOCKS).expect("read data/examples-block.txt");
    let puzzles = read_blocks(&text);
    assert_eq!(
        puzzles.len(),
        KNOWN.len() + 1,
        "puzzles in data/examples-block.txt"
    );
    for (cells, (name, line, solution)) in puzzles.iter().zip(KNOWN) {
        assert_eq!(*cells, parse(line), "{name}: block file and table disagree");
        check_unique(name, &Grid::from_cells(*cells).unwrap(), solution);
    }

    // The textbook exercise: many solutions; the expected answer is one of them, the first in
    // row-major 1-to-9 order.
    let cells = puzzles[KNOWN.len()];
    let (line, answer) = TEXTBOOK;
    assert_eq!(
        cells,
        parse(line),
        "textbook exercise: block file and table disagree"
    );
    let puzzle = Grid::from_cells(cells).unwrap();
    let expected = parse(answer);
    assert!(
        solves(&expected, &cells),
        "the exercise's answer does not solve it"
    );
    assert!(Grid::from_cells(expected).unwrap().is_solution_of(&puzzle));
    assert_eq!(reference_solve(&cells, 1).first, Some(expected));
    assert_eq!(reference_solve(&cells, 3).count, 3);
    let found = engine::solve(&puzzle, 2);
    assert_eq!(found.solutions, 2, "textbook exercise: not unique");
    assert!(found.first.unwrap().is_solution_of(&puzzle));
}

#[test]
fn block_reader_reads_what_it_should() {
    let text = "# c\n1 2 3 4 5 6 7 8 9\n* * * * * * * * *\n0 0 0 0 0 0 0 0 0\n. . . . . . . . .\n\
                123456789\n*********\n.........\n.........\n.........\n\n# next\n\n";
    let puzzles = read_blocks(text);
    assert_eq!(puzzles.len(), 1);
    assert_eq!(&puzzles[0][..9], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(&puzzles[0][36..45], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(puzzles[0].iter().filter(|&&v| v != 0).count(), 18);
}
