//! `--format parquet` and provenance through the real binary: every row-writing command's
//! Parquet file read back (with the parquet crate's own reader) holds the same columns, values
//! and row order as the CSV of the same run, on every corpus plus invalid and multi-solution
//! lines; the provenance record is written, read back and reproduces a drawn seed's output.

use std::path::Path;

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;

use crate::common::cli::{run, tmp, write, LEET};
use crate::dataset_cli::table as csv_table;

/// The column names and rows of a Parquet file.
fn parquet_table(path: &Path) -> (Vec<String>, Vec<Vec<Field>>) {
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let names = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let rows = reader
        .get_row_iter(None)
        .unwrap()
        .map(|r| {
            r.unwrap()
                .get_column_iter()
                .map(|(_, f)| f.clone())
                .collect()
        })
        .collect();
    (names, rows)
}

/// Whether a Parquet value is the CSV field `text` (an empty field is a null; numbers compare
/// as numbers, since CSV may write `2.0` for 2).
fn same(field: &Field, text: &str) -> bool {
    match field {
        Field::Null => text.is_empty(),
        Field::Long(v) => text.parse::<i64>() == Ok(*v),
        Field::Double(v) => text.parse::<f64>() == Ok(*v),
        Field::Bool(v) => text == if *v { "true" } else { "false" },
        Field::Str(s) => s == text,
        _ => false,
    }
}

/// Runs `args` twice, as CSV (`--format csv`) on stdout and as Parquet into `dir`, and checks they agree; returns
/// the number of rows.
fn agree(dir: &Path, name: &str, args: &[&str]) -> usize {
    agree_with(dir, name, args, &[], 0)
}

/// [`agree`], with `csv_only` added to the CSV run (`-o -` for verify's rows on stdout) and
/// `code` the exit code both runs must end with.
fn agree_with(dir: &Path, name: &str, args: &[&str], csv_only: &[&str], code: i32) -> usize {
    let csv = run(&[args, &["-q", "--format", "csv"], csv_only].concat());
    assert_eq!(csv.code, code, "{args:?}: {}", csv.stderr);
    let out = dir.join(format!("{name}.parquet"));
    let out_s = out.to_str().unwrap();
    let pq = run(&[args, &["-q", "--format", "parquet", "-o", out_s]].concat());
    assert_eq!(pq.code, code, "{args:?} parquet: {}", pq.stderr);
    assert!(!dir.join(format!("{name}.parquet.partial")).exists());
    let (header, rows) = csv_table(&csv.stdout);
    let (names, prows) = parquet_table(&out);
    assert_eq!(names, header, "{args:?}");
    assert_eq!(prows.len(), rows.len(), "{args:?}");
    for (i, (p, c)) in prows.iter().zip(&rows).enumerate() {
        assert_eq!(p.len(), c.len());
        for (j, (f, t)) in p.iter().zip(c).enumerate() {
            assert!(
                same(f, t),
                "{args:?} row {i} column {}: parquet {f:?}, csv {t:?}",
                header[j]
            );
        }
    }
    rows.len()
}

/// The first `n` lines of `path`, as a file in `dir`.
fn head(dir: &Path, path: &Path, n: usize) -> String {
    let name = format!("{n}-{}", path.file_name().unwrap().to_str().unwrap());
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().take(n).collect();
    write(dir, &name, lines.join("\n") + "\n")
}

#[test]
#[cfg_attr(not(corpora), ignore = "needs the corpora in ../shared/data")]
fn parquet_matches_csv_on_every_corpus_and_command() {
    let dir = tmp("parquet-corpora");
    let data = sudoku_batch::corpora::dir().expect("corpora");
    let mut corpora: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    corpora.sort();
    assert!(corpora.len() >= 10, "{corpora:?}");
    let mut total = 0;
    for path in &corpora {
        let f = path.to_str().unwrap();
        // solve and canon on the whole corpus, rate on its first 2,000 lines; the slow ones
        // (SE ratings, minimizing, augmenting) on its first lines.
        let small = head(&dir, path, 12);
        let some = head(&dir, path, 2000);
        let name = path.file_stem().unwrap().to_str().unwrap();
        total += agree(&dir, &format!("{name}-solve"), &["solve", "--no-timing", f]);
        total += agree(
            &dir,
            &format!("{name}-rate"),
            &["rate", "--seed", "3", &some],
        );
        total += agree(&dir, &format!("{name}-canon"), &["canon", "--transform", f]);
        for (cmd, args) in [
            ("rate-se", &["rate", "--se", "--se-budget", "20000"][..]),
            ("explain", &["explain", "--se-budget", "20000"][..]),
            ("minimize", &["minimize", "--seed", "2"][..]),
            ("augment", &["augment", "--copies", "3", "--seed", "4"][..]),
        ] {
            total += agree(
                &dir,
                &format!("{name}-{cmd}"),
                &[args, &[small.as_str()][..]].concat(),
            );
        }
    }
    // Several inputs: the file column follows.
    let both = [
        data.join("invalid.txt").to_str().unwrap().to_string(),
        data.join("multi_solution.txt")
            .to_str()
            .unwrap()
            .to_string(),
    ];
    total += agree(
        &dir,
        "two-solve",
        &["solve", "--no-timing", &both[0], &both[1]],
    );
    total += agree(&dir, "generate", &["generate", "50", "--seed", "9"]);
    // verify -o (rows without a solution among them: exit 1) and split --label.
    let solved = run(&["solve", "-q", "--first", &both[0], &both[1]]).stdout;
    let pairs = write(&dir, "pairs.csv", solved);
    total += agree_with(&dir, "verify", &["verify", &pairs], &["-o", "-"], 1);
    let mixed = data.join("top1465.txt").to_str().unwrap().to_string();
    total += agree(
        &dir,
        "split",
        &[
            "split", "--label", "--test", "0.3", "--seed", "2", &mixed, &both[0],
        ],
    );
    assert!(total > 200_000, "{total} rows compared");
}

#[test]
fn parquet_refusals_are_clear_and_leave_nothing() {
    let dir = tmp("parquet-refusals");
    let f = write(&dir, "p.txt", format!("{LEET}\n"));
    let out = run(&["solve", "-q", "--format", "parquet", &f]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("needs -o FILE"), "{}", out.stderr);
    let o = dir.join("o.parquet");
    let o_s = o.to_str().unwrap();
    let out = run(&[
        "solve", "-q", "--format", "parquet", "-o", o_s, "--resume", &f,
    ]);
    assert_eq!(out.code, 2);
    assert!(out
        .stderr
        .contains("--resume does not work with --format parquet"));
    assert!(!o.exists() && !dir.join("o.parquet.partial").exists());
}

/// The provenance record of `path`, through the `provenance` command.
fn provenance(path: &str) -> serde_json::Value {
    let out = run(&["provenance", path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

#[test]
fn provenance_is_recorded_read_back_and_reproducible() {
    let dir = tmp("provenance");
    let f = write(&dir, "p.txt", format!("{LEET}\nnot a puzzle\n"));
    let (size, sha) = sudoku_batch::provenance::hash_file(Path::new(&f)).unwrap();
    let pq = dir.join("r.parquet").to_str().unwrap().to_string();
    let args = [
        "rate", "-q", "--seed", "11", &f, "--format", "parquet", "-o", &pq,
    ];
    assert_eq!(run(&args).code, 0);
    let mut first = provenance(&pq);
    assert_eq!(first["tool"], "sudoku-batch");
    assert_eq!(first["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(first["seeds"]["--seed"], 11);
    assert_eq!(first["inputs"][0]["name"], f.as_str());
    assert_eq!(first["inputs"][0]["size"], size);
    assert_eq!(first["inputs"][0]["sha256"], sha.as_str());
    assert_eq!(
        first["command_line"].as_array().unwrap()[1..],
        args.map(serde_json::Value::from)[..]
    );
    // A second run: the same record but for the time stamp.
    assert_eq!(run(&args).code, 0);
    let mut second = provenance(&pq);
    first.as_object_mut().unwrap().remove("created");
    second.as_object_mut().unwrap().remove("created");
    assert_eq!(first, second);

    // CSV: a side file, read back by the same command; none with --no-provenance.
    let csv = dir.join("s.csv").to_str().unwrap().to_string();
    assert_eq!(run(&["solve", "-q", &f, "-o", &csv]).code, 0);
    assert_eq!(provenance(&csv)["command"], "solve");
    assert!(Path::new(&format!("{csv}.provenance.json")).exists());
    let bare = dir.join("n.parquet").to_str().unwrap().to_string();
    let out = run(&[
        "solve",
        "-q",
        &f,
        "--no-provenance",
        "--format",
        "parquet",
        "-o",
        &bare,
    ]);
    assert_eq!(out.code, 0);
    let out = run(&["provenance", &bare]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no provenance"), "{}", out.stderr);
    let plain = dir.join("n.csv").to_str().unwrap().to_string();
    assert_eq!(
        run(&["solve", "-q", &f, "--no-provenance", "-o", &plain]).code,
        0
    );
    assert!(!Path::new(&format!("{plain}.provenance.json")).exists());

    // A drawn seed is recorded, and running with it reproduces the output.
    let g1 = dir.join("g1.parquet").to_str().unwrap().to_string();
    let out = run(&["generate", "20", "--format", "parquet", "-o", &g1]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let seed = provenance(&g1)["seeds"]["--seed"].as_u64().unwrap();
    let g2 = dir.join("g2.parquet").to_str().unwrap().to_string();
    let s = seed.to_string();
    let out = run(&[
        "generate", "20", "--seed", &s, "--format", "parquet", "-o", &g2,
    ]);
    assert_eq!(out.code, 0);
    let (n1, r1) = parquet_table(Path::new(&g1));
    let (n2, r2) = parquet_table(Path::new(&g2));
    assert_eq!((n1, r1.len()), (n2, 20));
    assert_eq!(r1, r2);
}
