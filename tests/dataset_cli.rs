//! The dataset commands (`rate`, `canon`, `dedup`, `split`) through the real binary, on real
//! files: the row contract of `solve` (one row per non-blank, non-comment line, bad lines as
//! `invalid` rows), results independent of `-j`, chunking and `--shard`, and what each command
//! promises about its fields.

use crate::common::cli::{run, tmp, write, EMPTY, LEET, UNSOLVABLE};

/// Parses CSV text into its header and rows.
pub fn table(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let header = rdr.headers().unwrap().iter().map(String::from).collect();
    let rows = rdr
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// Puzzles of every kind for the row contract: unique (easy and hard), several solutions, none,
/// bad text, conflicting givens, with a comment and a blank line between them.
fn mixed_file(name: &str) -> String {
    let hard = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
    let conflict = format!("55{}", &LEET[2..]);
    let text = format!(
        "# a comment\n{LEET}\n{hard}\n\n{EMPTY}\n{UNSOLVABLE}\nnot a puzzle\n{conflict}\n{}\n",
        &LEET[..80]
    );
    write(&tmp(name), "mixed.txt", text)
}

#[test]
fn rate_rows_follow_the_contract() {
    let f = mixed_file("rate-rows");
    let out = run(&["rate", "-q", &f]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (header, rows) = table(&out.stdout);
    assert_eq!(
        header.join(","),
        "line,puzzle,status,solutions,clues,guesses,rating,singles,class,error"
    );
    let status: Vec<&str> = rows.iter().map(|r| r[2].as_str()).collect();
    assert_eq!(
        status,
        [
            "solved",
            "solved",
            "multiple",
            "unsolvable",
            "invalid",
            "invalid",
            "invalid"
        ]
    );
    let lines: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(lines, ["2", "3", "5", "6", "7", "8", "9"]);
    // The easy one: no guess, singles solve it, rating 0.
    assert_eq!(&rows[0][3..9], ["1", "30", "0", "0", "true", "simple"]);
    // The hard one: a rating, not singles, expert.
    assert_eq!(rows[1][7], "false");
    assert_eq!(rows[1][8], "expert");
    assert!(rows[1][6].parse::<f64>().unwrap() > 0.0);
    // Rating fields empty where they do not apply; a reason for each invalid row, whose
    // solutions and guesses are 0 as in solve.
    for r in &rows[2..4] {
        assert_eq!(&r[6..9], ["", "", ""], "{r:?}");
    }
    for r in &rows[4..] {
        assert!(!r[9].is_empty(), "{r:?}");
        assert_eq!(&r[3..9], ["0", "", "0", "", "", ""], "{r:?}");
    }
    assert_eq!(run(&["rate", "-q", "--strict", &f]).code, 1);
}

#[test]
fn ratings_do_not_depend_on_threads_chunks_or_shards() {
    let dir = tmp("rate-seeds");
    let mut text = String::new();
    // The same hard puzzles many times, so chunk boundaries fall everywhere.
    let hard = [
        "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    ];
    for i in 0..60 {
        text.push_str(hard[i % 3]);
        text.push('\n');
    }
    let f = write(&dir, "hard.txt", text);
    let one = run(&["rate", "-q", "-j", "1", "--seed", "9", &f]);
    let two = run(&[
        "rate",
        "-q",
        "-j",
        "2",
        "--chunk-size",
        "7",
        "--seed",
        "9",
        &f,
    ]);
    assert_eq!(one.stdout, two.stdout);
    let (_, rows) = table(&one.stdout);
    // A row's rating depends on the puzzle, not its place: every copy has the same rating.
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r[6], rows[i % 3][6], "line {}", r[0]);
    }
    // Shards: each row as in the whole run.
    let mut sharded: Vec<Vec<String>> = Vec::new();
    for k in 1..=3 {
        let s = run(&[
            "rate",
            "-q",
            "--seed",
            "9",
            "--shard",
            &format!("{k}/3"),
            &f,
        ]);
        sharded.extend(table(&s.stdout).1);
    }
    sharded.sort_by_key(|r| r[0].parse::<u64>().unwrap());
    assert_eq!(sharded, rows);
    // Another seed draws other transforms: some rating changes.
    let other = run(&["rate", "-q", "--seed", "10", &f]);
    assert_ne!(other.stdout, one.stdout);
}

/// Puzzles and random equivalent copies of them (relabeled, transposed, rows and columns
/// permuted), by the library's transforms.
fn with_copies(puzzles: &[&str], copies: usize, seed: u64) -> Vec<(usize, String)> {
    use sudoku_batch::rng::Rng;
    use sudoku_batch::transform::Transform;
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for (i, p) in puzzles.iter().enumerate() {
        let g: sudoku_batch::Grid = p.parse().unwrap();
        out.push((i, g.to_line()));
        for _ in 0..copies {
            out.push((i, Transform::random(&mut rng).apply(&g).to_line()));
        }
    }
    out
}

const HARD: [&str; 3] = [
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
];

#[test]
fn canon_gives_equivalent_puzzles_one_form_and_a_transform_that_reaches_it() {
    use sudoku_batch::transform::Transform;
    let lines = with_copies(&[LEET, HARD[0], HARD[1]], 6, 3);
    let text: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
    let f = write(&tmp("canon-forms"), "copies.txt", format!("{text}bad\n"));
    let out = run(&["canon", "-q", "--transform", &f]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (header, rows) = table(&out.stdout);
    assert_eq!(
        header.join(","),
        "line,puzzle,status,canonical,automorphisms,transform,error"
    );
    assert_eq!(rows.len(), lines.len() + 1);
    for (r, (source, _)) in rows.iter().zip(&lines) {
        assert_eq!(r[2], "ok");
        // Every copy of a source has the source's form; different sources differ.
        assert_eq!(r[3], rows[source * 7][3], "line {}", r[0]);
        // The written transform maps the puzzle onto its form.
        let t: Transform = r[5].parse().unwrap();
        let p: sudoku_batch::Grid = r[1].parse().unwrap();
        assert_eq!(
            t.apply(&p).cells().map(|v| b'0' + v),
            r[3].as_bytes(),
            "{r:?}"
        );
    }
    assert_ne!(rows[0][3], rows[7][3]);
    let last = rows.last().unwrap();
    assert_eq!((last[2].as_str(), last[3].as_str()), ("invalid", ""));
    // Without --transform the column is not there.
    let (header, _) = table(&run(&["canon", "-q", &f]).stdout);
    assert!(!header.contains(&"transform".to_string()));
}

#[test]
fn dedup_keeps_first_occurrences_exactly_or_up_to_equivalence() {
    let dir = tmp("dedup");
    let lines = with_copies(&HARD, 2, 8);
    // Each source once more, with `0` blanks and a trailing comment: the same exact puzzle.
    let mut text: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
    for h in HARD {
        text.push_str(&format!("{} # again\n", h.replace('.', "0")));
    }
    text.push_str("# a comment\nnot a puzzle\n");
    let f = write(&dir, "in.txt", text);
    let report = dir.join("report.csv");
    let out = run(&[
        "dedup",
        "--by",
        "exact",
        &f,
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let kept: Vec<&str> = out.stdout.lines().collect();
    // 9 distinct puzzles (3 sources and 6 copies; copies of random transforms are distinct),
    // the unreadable line kept; the 3 repeats dropped.
    assert_eq!(kept.len(), 10, "{}", out.stdout);
    assert_eq!(kept.last(), Some(&"not a puzzle"));
    assert!(
        out.stderr.contains("in.txt:14: not a valid puzzle"),
        "{}",
        out.stderr
    );
    let (_, dropped) = table(&std::fs::read_to_string(&report).unwrap());
    let dropped: Vec<(&str, &str)> = dropped
        .iter()
        .map(|r| (r[1].as_str(), r[3].as_str()))
        .collect();
    assert_eq!(dropped, [("10", "1"), ("11", "4"), ("12", "7")]);
    // Up to equivalence: only the three sources survive, each at its first line.
    let out = run(&["dedup", "--by", "canon", "-q", &f]);
    let kept: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        kept,
        [
            lines[0].1.as_str(),
            &lines[3].1,
            &lines[6].1,
            "not a puzzle"
        ]
    );
    // The same with -j 1 and -j 2.
    let one = run(&["dedup", "--by", "canon", "-q", "-j", "1", &f]);
    assert_eq!(one.stdout, out.stdout);
}

#[test]
fn split_sends_equivalent_puzzles_to_one_side_and_shards_agree() {
    let dir = tmp("split");
    let lines = with_copies(&[LEET, HARD[0], HARD[1], HARD[2], EMPTY, UNSOLVABLE], 4, 21);
    let text: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
    let f = write(&dir, "in.txt", text);
    let prefix = dir.join("out");
    let out = run(&[
        "split",
        "--test",
        "0.4",
        "--valid",
        "0.2",
        "--seed",
        "5",
        "--prefix",
        prefix.to_str().unwrap(),
        "-q",
        &f,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let side_of = |line: &str| {
        ["train", "valid", "test"]
            .into_iter()
            .find(|s| {
                std::fs::read_to_string(dir.join(format!("out.{s}.txt")))
                    .unwrap()
                    .lines()
                    .any(|l| l == line)
            })
            .unwrap()
    };
    // Every line lands on exactly one side, and copies land with their source.
    let total: usize = ["train", "valid", "test"]
        .iter()
        .map(|s| {
            std::fs::read_to_string(dir.join(format!("out.{s}.txt")))
                .unwrap()
                .lines()
                .count()
        })
        .sum();
    assert_eq!(total, lines.len());
    let used: std::collections::HashSet<&str> = lines.iter().map(|(_, l)| side_of(l)).collect();
    assert!(
        used.len() >= 2,
        "every source on one side: the test would prove nothing"
    );
    for (source, line) in &lines {
        assert_eq!(side_of(line), side_of(&lines[source * 5].1), "{line}");
    }
    // --label says the same, and splitting halves of the file separately agrees.
    let labels = run(&[
        "split", "--test", "0.4", "--valid", "0.2", "--seed", "5", "--label", "-q", &f,
    ]);
    let (_, rows) = table(&labels.stdout);
    for (r, (_, line)) in rows.iter().zip(&lines) {
        assert_eq!(r[2], side_of(line));
    }
    let half = write(
        &dir,
        "half.txt",
        lines[lines.len() / 2..]
            .iter()
            .map(|(_, l)| format!("{l}\n"))
            .collect::<String>(),
    );
    let (_, half_rows) = table(
        &run(&[
            "split", "--test", "0.4", "--valid", "0.2", "--seed", "5", "--label", "-q", &half,
        ])
        .stdout,
    );
    for (r, (_, line)) in half_rows.iter().zip(&lines[lines.len() / 2..]) {
        assert_eq!(r[2], side_of(line));
    }
    assert_eq!(
        run(&["split", "--test", "0.8", "--valid", "0.4", "--seed", "1", "--label", &f]).code,
        2
    );
}

#[test]
fn augment_writes_traceable_equivalent_copies() {
    use sudoku_batch::transform::Transform;
    use sudoku_batch::Grid;
    let f = mixed_file("augment");
    let out = run(&["augment", "-q", "--copies", "3", "--seed", "4", &f]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (header, rows) = table(&out.stdout);
    assert_eq!(
        header.join(","),
        "line,puzzle,status,copy,augmented,solution,transform,error"
    );
    // 4 valid puzzles × 3 copies, 3 invalid lines × 1 row.
    assert_eq!(rows.len(), 4 * 3 + 3);
    for r in rows.iter().filter(|r| r[2] == "ok") {
        let p: Grid = r[1].parse().unwrap();
        let t: Transform = r[6].parse().unwrap();
        let copy: Grid = r[4].parse().unwrap();
        assert_eq!(t.apply(&p), copy, "{r:?}");
        assert_eq!(t.inverse().apply(&copy), p);
        if r[1] == LEET {
            let s: Grid = r[5].parse().unwrap();
            assert!(s.is_solution_of(&copy));
        }
        if r[1] == EMPTY || r[1] == UNSOLVABLE {
            assert_eq!(r[5], "", "no unique solution, no solution column");
        }
    }
    assert_eq!(rows.iter().filter(|r| r[2] == "invalid").count(), 3);
    // Independent of threads and chunks; refuses --resume.
    let two = run(&[
        "augment",
        "-q",
        "--copies",
        "3",
        "--seed",
        "4",
        "-j",
        "2",
        "--chunk-size",
        "1",
        &f,
    ]);
    assert_eq!(two.stdout, out.stdout);
    let o = tmp("augment").join("out.csv");
    let r = run(&["augment", "-q", &f, "-o", o.to_str().unwrap(), "--resume"]);
    assert_eq!(r.code, 2);
}
