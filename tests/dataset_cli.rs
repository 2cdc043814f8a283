//! The dataset commands (`rate`, `canon`, `dedup`, `split`) through the real binary, on real
//! files: the row contract of `solve` (one row per non-blank, non-comment line, bad lines as
//! `invalid` rows), results independent of `-j`, chunking and `--shard`, and what each command
//! promises about its fields.

use crate::common::cli::{run, tmp, write, EMPTY, LEET, UNSOLVABLE};

/// Parses CSV text into its header and rows.
fn table(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
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
    // Rating fields empty where they do not apply; a reason for each invalid row.
    for r in &rows[2..4] {
        assert_eq!(&r[6..9], ["", "", ""], "{r:?}");
    }
    for r in &rows[4..] {
        assert!(!r[9].is_empty(), "{r:?}");
        assert_eq!(&r[3..9], ["", "", "", "", "", ""], "{r:?}");
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
