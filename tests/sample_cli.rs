//! `sample` through the real binary, on real files: the kept rows are those a plain reference
//! picks (sort each band's rows by priority, take the first N) on many generated tables; the
//! same rows whatever `-j`, the input's order or its shards; short bands and rows without a
//! value reported; values computed from plain puzzle files as `rate` computes them; JSON lines
//! and Parquet in and out.

use std::collections::BTreeMap;

use sudoku_batch::sample::{judge::priority, Bands, By, Value};
use sudoku_batch::Grid;

use crate::common::cli::{run, run_stdin, tmp, write, Out, LEET};
use crate::common::Rng;
use crate::dataset_cli::table;

/// A rated table of `n` generated rows (`line,puzzle,status,er,note`): random puzzles (some
/// repeated, with other fields, to make ties), ER values across the default bands, and rows
/// that must be skipped — other statuses, empty and unreadable values, unreadable puzzles.
fn rated_table(rng: &mut Rng, n: usize) -> String {
    let mut text = String::from("line,puzzle,status,er,note\n");
    let mut earlier: Vec<String> = Vec::new();
    for i in 0..n {
        let puzzle: String = if !earlier.is_empty() && rng.chance(1, 10) {
            earlier[rng.below(earlier.len())].clone()
        } else {
            (0..81)
                .map(|_| {
                    if rng.chance(1, 3) {
                        char::from(b'1' + rng.below(9) as u8)
                    } else {
                        '.'
                    }
                })
                .collect()
        };
        earlier.push(puzzle.clone());
        let (status, er) = match rng.below(40) {
            0 => ("multiple", String::new()),
            1 => ("gave-up", String::new()),
            2 => ("solved", String::new()),
            3 => ("solved", "hard".to_string()),
            // Skewed towards low ratings so that the high bands run short.
            _ => (
                "solved",
                format!("{:.1}", 1.0 + (rng.below(100) as f64 / 10.0).powi(2) / 10.0),
            ),
        };
        let puzzle = if rng.chance(1, 50) {
            "not a puzzle".to_string()
        } else {
            puzzle
        };
        let note = if rng.chance(1, 5) {
            "\"a, quoted note\"".to_string()
        } else {
            format!("n{}", rng.below(3))
        };
        text.push_str(&format!("{},{puzzle},{status},{er},{note}\n", i + 1));
    }
    text
}

/// A row as the reference orders it: priority, puzzle, fields, then its index in the file.
type Ranked = (u64, [u8; 81], Vec<Value>, usize);

/// The reference sample of a CSV table: per band, the rows with a value sorted by (priority,
/// puzzle, fields, line), the first `per_band` of them; all kept rows back in input order.
fn reference(text: &str, bands: &Bands, per_band: usize, seed: u64) -> Vec<Vec<String>> {
    let (header, rows) = table(text);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (puzzle, status, value) = (col("puzzle"), col("status"), col(bands.by().column()));
    let mut by_band: BTreeMap<usize, Vec<Ranked>> = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        if row[status] != "solved" {
            continue;
        }
        let Some(band) = bands.of_text(&row[value]) else {
            continue;
        };
        let Ok(grid) = Grid::parse_cells(row[puzzle].as_bytes()) else {
            continue;
        };
        let fields: Vec<Value> = row
            .iter()
            .map(|f| match f.as_str() {
                "" => Value::Null,
                f => Value::Text(f.to_string()),
            })
            .collect();
        let cells = *grid.cells();
        by_band
            .entry(band)
            .or_default()
            .push((priority(seed, &cells), cells, fields, i));
    }
    let mut kept: Vec<(usize, usize)> = Vec::new();
    for (band, mut entries) in by_band {
        entries.sort();
        kept.extend(entries.iter().take(per_band).map(|e| (e.3, band)));
    }
    kept.sort();
    kept.iter()
        .map(|&(i, band)| {
            let mut r = rows[i].clone();
            r.push(bands.label(band).to_string());
            r
        })
        .collect()
}

fn ok(out: Out) -> Out {
    assert_eq!(out.code, 0, "{}", out.stderr);
    out
}

fn sorted(text: &str) -> Vec<Vec<String>> {
    let mut rows = table(text).1;
    rows.sort();
    rows
}

#[test]
fn the_sample_is_the_reference_on_generated_tables() {
    let dir = tmp("sample-reference");
    let mut rng = Rng::new(48);
    let bands = Bands::new(By::Er, None).unwrap();
    for case in 0..12 {
        let n = [0, 1, 50, 700, 3000][case % 5];
        let per_band = [1, 3, 20, 200][case % 4];
        let seed = rng.next_u64() % 1000;
        let text = rated_table(&mut rng, n);
        let f = write(&dir, &format!("t{case}.csv"), &text);
        let want = reference(&text, &bands, per_band, seed);
        for threads in ["1", "2"] {
            let out = ok(run(&[
                "sample",
                "-q",
                "--by",
                "er",
                "--per-band",
                &per_band.to_string(),
                "--seed",
                &seed.to_string(),
                "-j",
                threads,
                &f,
            ]));
            let (header, rows) = table(&out.stdout);
            assert_eq!(header.join(","), "line,puzzle,status,er,note,band");
            assert_eq!(
                rows, want,
                "case {case} (n {n}, per band {per_band}, -j {threads})"
            );
        }
    }
}

#[test]
fn any_threads_order_or_shards_keep_the_same_rows() {
    let dir = tmp("sample-order");
    let mut rng = Rng::new(7);
    let text = rated_table(&mut rng, 4000);
    let whole = write(&dir, "whole.csv", &text);
    let args = [
        "sample",
        "-q",
        "--by",
        "er",
        "--per-band",
        "40",
        "--seed",
        "9",
    ];
    let base = ok(run(&[&args[..], &["-j", "1", &whole]].concat())).stdout;
    assert!(table(&base).1.len() > 200, "{base}");
    let two = ok(run(&[&args[..], &["-j", "2", &whole]].concat())).stdout;
    assert_eq!(two, base, "-j 2 writes the same bytes");
    // Shuffled rows: the same rows, written in their new order.
    let mut lines: Vec<&str> = text.lines().skip(1).collect();
    rng.shuffle(&mut lines);
    let shuffled = write(
        &dir,
        "shuffled.csv",
        format!("line,puzzle,status,er,note\n{}\n", lines.join("\n")),
    );
    let out = ok(run(&[&args[..], &[&shuffled]].concat())).stdout;
    assert_eq!(sorted(&out), sorted(&base));
    // Three shards, each sampled, then their samples sampled together.
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = dir.join(format!("part{k}.csv"));
        let part = part.to_str().unwrap().to_string();
        let shard = format!("{k}/3");
        ok(run(
            &[&args[..], &["--shard", &shard, "-o", &part, &whole]].concat()
        ));
        parts.push(part);
    }
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    let merged = ok(run(&[&args[..], &parts[..]].concat())).stdout;
    assert_eq!(
        sorted(&merged),
        sorted(&base),
        "the sample of the shards' samples"
    );
    // Split files (not line shards) sampled apart, then together.
    let (a, b) = lines.split_at(lines.len() / 3);
    let header = "line,puzzle,status,er,note\n";
    let fa = write(&dir, "a.csv", format!("{header}{}\n", a.join("\n")));
    let fb = write(&dir, "b.csv", format!("{header}{}\n", b.join("\n")));
    let sa = write(
        &dir,
        "sa.csv",
        ok(run(&[&args[..], &[&fa]].concat())).stdout,
    );
    let sb = write(
        &dir,
        "sb.csv",
        ok(run(&[&args[..], &[&fb]].concat())).stdout,
    );
    let merged = ok(run(&[&args[..], &[&sb, &sa]].concat())).stdout;
    assert_eq!(
        sorted(&merged),
        sorted(&base),
        "the sample of the files' samples"
    );
    // Another seed keeps other rows.
    let other = ok(run(&[
        "sample",
        "-q",
        "--by",
        "er",
        "--per-band",
        "40",
        "--seed",
        "10",
        &whole,
    ]))
    .stdout;
    assert_ne!(sorted(&other), sorted(&base));
}

#[test]
fn short_bands_and_rows_without_a_value_are_reported() {
    let dir = tmp("sample-report");
    let p = LEET;
    let text = format!(
        "line,puzzle,status,er\n1,{p},solved,1.5\n2,{p},multiple,\n3,{p},solved,\n4,{p},solved,x\n\
         5,abc,solved,2.5\n6,{p},gave-up,\n7,{p},solved,9.9\n"
    );
    let f = write(&dir, "r.csv", text);
    let out = ok(run(&[
        "sample",
        "--by",
        "er",
        "--bands",
        "2.0,9.5",
        "--per-band",
        "2",
        &f,
    ]));
    let (_, rows) = table(&out.stdout);
    let lines: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(lines, ["1", "7"]);
    assert_eq!(rows[0][4], "<2.0");
    assert_eq!(rows[1][4], ">=9.5");
    let e = &out.stderr;
    assert!(
        e.contains("7 rows read, 2 with a value, 2 per band asked"),
        "{e}"
    );
    for band in ["<2.0", "[2.0,9.5)", ">=9.5"] {
        let line = e
            .lines()
            .find(|l| l.trim_start().starts_with(band))
            .unwrap();
        assert!(line.contains("short: asked 2, only"), "{line}");
    }
    assert!(
        e.contains(
            "skipped 5 rows without a value: 1 status gave-up, 1 status multiple, 1 no er, \
             1 unreadable er, 1 unreadable puzzle"
        ),
        "{e}"
    );
    // --strict: a short band is exit 1 (with the rows still written); -q says nothing.
    let strict = run(&[
        "sample",
        "-q",
        "--strict",
        "--by",
        "er",
        "--per-band",
        "2",
        &f,
    ]);
    assert_eq!(strict.code, 1);
    assert_eq!(strict.stderr, "");
    assert_eq!(strict.stdout, {
        let o = ok(run(&["sample", "-q", "--by", "er", "--per-band", "2", &f]));
        o.stdout
    });
    let enough = run(&[
        "sample",
        "-q",
        "--strict",
        "--by",
        "er",
        "--bands",
        "9.5",
        "--per-band",
        "1",
        &f,
    ]);
    assert_eq!(enough.code, 0, "{}", enough.stderr);
}

/// The puzzles of a small real-world mix: easy and hard, unique or not, and lines that are not
/// puzzles.
fn puzzle_file(dir: &std::path::Path) -> String {
    let mut rng = Rng::new(3);
    let mut text = String::from("# puzzles\n");
    let hard = [
        "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    ];
    for i in 0..120 {
        let g: Grid = LEET.parse().unwrap();
        let cells = crate::common::transform(g.cells(), &mut rng);
        let mut line: String = cells
            .iter()
            .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
            .collect();
        if i % 10 == 3 {
            // One given fewer: most such puzzles have several solutions.
            let at = line.find(|c: char| c != '.').unwrap();
            line.replace_range(at..=at, ".");
        }
        text.push_str(&line);
        text.push('\n');
        if i % 40 == 0 {
            text.push_str(hard[i / 40]);
            text.push('\n');
            text.push_str("not a puzzle\n");
        }
    }
    write(dir, "puzzles.txt", text)
}

#[test]
fn puzzles_are_rated_on_the_fly_as_rate_rates_them() {
    let dir = tmp("sample-fly");
    let f = puzzle_file(&dir);
    for (by, bands, rate) in [
        ("clues", Some("27,29"), &["rate"][..]),
        ("class", None, &["rate"][..]),
        ("rating", Some("0.5,2"), &["rate"][..]),
        ("er", None, &["rate", "--se"][..]),
    ] {
        let rated = dir.join(format!("rated-{by}.csv"));
        let rated = rated.to_str().unwrap();
        ok(run(&[rate, &["-q", &f, "-o", rated]].concat()));
        let mut args = vec!["sample", "--by", by, "--per-band", "4", "--seed", "5"];
        if let Some(b) = bands {
            args.extend(["--bands", b]);
        }
        let from_rows = ok(run(&[&args[..], &[rated]].concat()));
        let from_puzzles = ok(run(&[&args[..], &["-j", "2", &f]].concat()));
        assert_eq!(from_puzzles.stdout, from_rows.stdout, "--by {by}");
        assert!(table(&from_rows.stdout).1.len() >= 4, "--by {by}");
        // The same counts, skipped rows by the status rate gave them.
        assert_eq!(from_puzzles.stderr, from_rows.stderr, "--by {by}");
        assert!(
            from_rows.stderr.contains("status invalid"),
            "{}",
            from_rows.stderr
        );
    }
    // A CSV of puzzles without the value's column is read as puzzles too.
    let csv = write(
        &dir,
        "quizzes.csv",
        format!("quizzes,solutions\n{LEET},x\n{LEET},y\n"),
    );
    let out = ok(run(&[
        "sample",
        "-q",
        "--by",
        "clues",
        "--bands",
        "30",
        "--per-band",
        "5",
        &csv,
    ]));
    let (header, rows) = table(&out.stdout);
    assert_eq!(
        header.join(","),
        "line,puzzle,status,solutions,clues,guesses,rating,singles,class,error,band"
    );
    assert_eq!(rows.len(), 2, "duplicates are kept together");
}

#[test]
fn parquet_and_json_lines_in_and_out() {
    let dir = tmp("sample-formats");
    let f = puzzle_file(&dir);
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for (name, format) in [
        ("r.csv", "csv"),
        ("r.jsonl", "jsonl"),
        ("r.parquet", "parquet"),
    ] {
        ok(run(&[
            "rate",
            "--se",
            "-q",
            &f,
            "--format",
            format,
            "-o",
            &path(name),
        ]));
    }
    let args = [
        "sample",
        "-q",
        "--by",
        "er",
        "--per-band",
        "3",
        "--seed",
        "2",
    ];
    let want = ok(run(&[&args[..], &[&path("r.csv")]].concat())).stdout;
    for input in ["r.jsonl", "r.parquet"] {
        let got = ok(run(&[&args[..], &[&path(input)]].concat())).stdout;
        assert_eq!(got, want, "{input} gives the CSV's rows");
    }
    // Rows piped in (`rate … | sample`): told from the header, or from the first object.
    for name in ["r.csv", "r.jsonl"] {
        let text = std::fs::read(path(name)).unwrap();
        let got = ok(run_stdin(&args, text)).stdout;
        assert_eq!(got, want, "{name} on stdin");
    }
    // JSON lines out, from JSON lines in: each row as rate wrote it, with its band.
    let jsonl = ok(run(
        &[&args[..], &["--format", "jsonl", &path("r.jsonl")]].concat()
    ))
    .stdout;
    let rated = std::fs::read_to_string(path("r.jsonl")).unwrap();
    for line in jsonl.lines() {
        let (row, band) = line.rsplit_once(",\"band\":").unwrap();
        assert!(rated.contains(&format!("{row}}}\n")), "{line}");
        assert!(band.starts_with('"'), "{line}");
    }
    assert_eq!(jsonl.lines().count(), table(&want).1.len());
    // Parquet out: refused on stdout; with -o its provenance is recorded and it reads back.
    let refused = run(&[&args[..], &["--format", "parquet", &path("r.csv")]].concat());
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains("needs -o FILE"),
        "{}",
        refused.stderr
    );
    ok(run(&[
        &args[..],
        &[
            "--format",
            "parquet",
            "-o",
            &path("s.parquet"),
            &path("r.parquet"),
        ],
    ]
    .concat()));
    let again = ok(run(&[&args[..], &[&path("s.parquet")]].concat())).stdout;
    assert_eq!(again, want, "a sample's Parquet file, sampled again");
    let prov = ok(run(&["provenance", &path("s.parquet")])).stdout;
    assert!(prov.contains("\"--seed\": 2"), "{prov}");
    // CSV out with -o: the file and its provenance side file.
    ok(run(
        &[&args[..], &["-o", &path("s.csv"), &path("r.csv")]].concat()
    ));
    assert_eq!(std::fs::read_to_string(path("s.csv")).unwrap(), want);
    assert!(std::path::Path::new(&path("s.csv.provenance.json")).exists());
}

#[test]
fn inputs_that_cannot_be_sampled_are_refused() {
    let dir = tmp("sample-refused");
    let rated = write(
        &dir,
        "rated.csv",
        format!("line,puzzle,status,clues\n1,{LEET},solved,30\n"),
    );
    let puzzles = write(&dir, "p.txt", format!("{LEET}\n"));
    let cases: [(&[&str], &str); 6] = [
        (
            &["--by", "er", &rated],
            "no 'er' column (columns: line, puzzle, status, clues)",
        ),
        (
            &["--by", "clues", "--bands", "30", &rated, &puzzles],
            "the inputs of one sample must have the same columns",
        ),
        (&["--by", "rating", &rated], "--by rating needs --bands"),
        (
            &["--by", "clues", "--bands", "30,20", &rated],
            "must increase",
        ),
        (&["--by", "class", "--bands", "1", &rated], "drop --bands"),
        (
            &["--by", "clues", "--bands", "30", "-o", &rated, &rated],
            "the output file is also an input",
        ),
    ];
    for (args, message) in cases {
        let out = run(&[&["sample", "--per-band", "3"][..], args].concat());
        assert_eq!(out.code, 2, "{args:?}");
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
    }
    let missing = run(&[
        "sample",
        "--by",
        "er",
        "--per-band",
        "1",
        "-o",
        "/nonexistent/x.csv",
        &rated,
    ]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("/nonexistent"),
        "{}",
        missing.stderr
    );
}
