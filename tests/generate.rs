//! `generate` and `minimize` through the real binary, checked by the deliberately naive
//! backtracking solver of `common` (never the engine that made the puzzles) and the plain-loop
//! technique reference: unique, minimal when asked, symmetric as asked, targets met, and the same
//! output for a seed whatever `-j`, `--shard`, `--start` or an interrupted and resumed run.

use crate::common::cli::{run, tmp, write, EMPTY, LEET, UNSOLVABLE};
use crate::common::{reference_solve, Cells};
use crate::reference::techniques;

fn cells(line: &str) -> Cells {
    let mut c = [0u8; 81];
    for (o, b) in c.iter_mut().zip(line.bytes()) {
        *o = if b.is_ascii_digit() { b - b'0' } else { 0 };
    }
    c
}

fn unique(p: &Cells) -> bool {
    reference_solve(p, 2).count == 1
}

/// No orbit of `map`'s symmetry (cells `i`, `map(i)`, `map(map(i))`, …) can be removed.
fn minimal_under(p: &Cells, map: impl Fn(usize) -> usize) -> bool {
    (0..81).filter(|&i| p[i] != 0).all(|i| {
        let mut q = *p;
        let mut j = i;
        loop {
            q[j] = 0;
            j = map(j);
            if j == i {
                break;
            }
        }
        reference_solve(&q, 2).count >= 2
    })
}

fn generate(args: &[&str]) -> Vec<String> {
    let mut all = vec!["generate", "-q"];
    all.extend_from_slice(args);
    let out = run(&all);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout.lines().map(String::from).collect()
}

#[test]
fn generated_puzzles_are_unique_and_minimal_and_reproducible() {
    let one = generate(&["40", "--seed", "11", "-j", "1"]);
    let two = generate(&["40", "--seed", "11", "-j", "2"]);
    assert_eq!(one, two);
    assert_eq!(one.len(), 40);
    let mut distinct = one.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 40);
    for line in &one {
        assert_eq!(line.len(), 81);
        let p = cells(line);
        assert!(unique(&p), "{line}");
        assert!(minimal_under(&p, |i| i), "{line}");
    }
    // Another seed, another set.
    assert_ne!(generate(&["5", "--seed", "12"]), one[..5]);
}

#[test]
fn symmetries_hold_and_minimality_is_among_symmetric_removals() {
    type Map = fn(usize) -> usize;
    let maps: [(&str, Map); 4] = [
        ("rot180", |i| 80 - i),
        ("rot90", |i| (i % 9) * 9 + (8 - i / 9)),
        ("mirror", |i| (i / 9) * 9 + (8 - i % 9)),
        ("diagonal", |i| (i % 9) * 9 + i / 9),
    ];
    for (name, map) in maps {
        for line in generate(&["4", "--seed", "3", "--symmetry", name]) {
            let p = cells(&line);
            for i in 0..81 {
                assert_eq!(p[i] != 0, p[map(i)] != 0, "{name}: {line}");
            }
            assert!(unique(&p), "{name}: {line}");
            assert!(minimal_under(&p, map), "{name}: {line}");
        }
    }
}

#[test]
fn targets_hold_and_impossible_ones_are_refused() {
    let out = run(&[
        "generate", "-q", "6", "--seed", "5", "--format", "csv", "--clues", "25..27",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut rdr = csv::Reader::from_reader(out.stdout.as_bytes());
    for r in rdr.records() {
        let r = r.unwrap();
        let clues: usize = r[3].parse().unwrap();
        assert!((25..=27).contains(&clues), "{r:?}");
        assert_eq!(cells(&r[1]).iter().filter(|&&v| v != 0).count(), clues);
        // The solution column is the puzzle's one solution, by the reference.
        let s = reference_solve(&cells(&r[1]), 2);
        assert_eq!(s.first.unwrap(), cells(&r[2]));
    }
    for line in generate(&["4", "--seed", "2", "--class", "expert"]) {
        assert_eq!(techniques::class(&cells(&line)), "expert", "{line}");
    }
    for line in generate(&["4", "--seed", "2", "--class", "simple", "--no-minimal"]) {
        assert_eq!(techniques::class(&cells(&line)), "simple", "{line}");
    }
    for bad in [
        &["--clues", "10..16"][..],
        &["--clues", "50..60"],
        &["--clues", "90"],
    ] {
        let mut args = vec!["generate", "3", "--seed", "1"];
        args.extend_from_slice(bad);
        let out = run(&args);
        assert_eq!(out.code, 2, "{bad:?}");
        assert!(out.stderr.contains("error"), "{}", out.stderr);
    }
    // A target that is hard to meet stops at --max-tries with exit 1 and what was found.
    let out = run(&[
        "generate",
        "-q",
        "3",
        "--seed",
        "1",
        "--clues",
        "17..19",
        "--max-tries",
        "2",
    ]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("--max-tries"), "{}", out.stderr);
}

#[test]
fn shards_starts_and_resumes_give_slices_of_one_set() {
    let whole = generate(&["24", "--seed", "9"]);
    let mut sharded = vec![String::new(); 24];
    for k in 1..=3 {
        let part = generate(&["24", "--seed", "9", "--shard", &format!("{k}/3")]);
        for (j, line) in part.into_iter().enumerate() {
            sharded[j * 3 + (k - 1)] = line;
        }
    }
    assert_eq!(sharded, whole);
    assert_eq!(
        generate(&["10", "--seed", "9", "--start", "14"]),
        whole[14..]
    );
    // A run cut after 7 puzzles and half a line, then resumed, equals the whole.
    let dir = tmp("generate-resume");
    let out = dir.join("set.txt");
    let mut partial = whole[..7].join("\n");
    partial.push('\n');
    partial.push_str(&whole[7][..40]);
    write(&dir, "set.txt.partial", partial);
    let r = run(&[
        "generate",
        "-q",
        "24",
        "--seed",
        "9",
        "-o",
        out.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().collect::<Vec<_>>(), whole);
    // The same with CSV rows, keyed by index.
    let csv_whole = run(&["generate", "-q", "12", "--seed", "9", "--format", "csv"]).stdout;
    let cut = csv_whole.lines().take(6).collect::<Vec<_>>().join("\n") + "\n3,";
    write(&dir, "set.csv.partial", cut);
    let csv_out = dir.join("set.csv");
    let r = run(&[
        "generate",
        "-q",
        "12",
        "--seed",
        "9",
        "--format",
        "csv",
        "-o",
        csv_out.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&csv_out).unwrap(), csv_whole);
}

#[test]
fn minimize_keeps_the_solution_and_reaches_minimality() {
    let dir = tmp("minimize");
    let text = format!("{LEET}\n{EMPTY}\n{UNSOLVABLE}\nbad\n");
    let f = write(&dir, "in.txt", text);
    let out = run(&["minimize", "-q", "--seed", "3", &f]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut rdr = csv::Reader::from_reader(out.stdout.as_bytes());
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    let status: Vec<&str> = rows.iter().map(|r| &r[2]).collect();
    assert_eq!(status, ["solved", "multiple", "unsolvable", "invalid"]);
    let (p, m) = (cells(LEET), cells(&rows[0][4]));
    assert!(unique(&m));
    assert!(minimal_under(&m, |i| i));
    assert_eq!(reference_solve(&m, 1).first, reference_solve(&p, 1).first);
    for i in 0..81 {
        assert!(m[i] == 0 || m[i] == p[i], "only givens are removed");
    }
    // A puzzle minimize leaves as it is (here: two solutions) is written unchanged.
    assert_eq!(rows[1][4], rows[1][1]);
    // Seeded: the same seed gives the same reduction.
    assert_eq!(
        run(&["minimize", "-q", "--seed", "3", &f]).stdout,
        out.stdout
    );
}
