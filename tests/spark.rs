//! The release-style binary under Spark's `RDD.pipe` (PySpark, local mode) over a corpus split
//! into several partitions: the union of `solve`'s rows must equal a local run's, and a
//! deduplication by canonical form (`canon` through `RDD.pipe`, then Spark's `reduceByKey`) must
//! keep exactly the lines a local `dedup --by canon` keeps.
//!
//! The test installs PySpark from PyPI into a virtual environment of its own under the target
//! directory (kept between runs, so only the first run downloads it). Without Java or python3
//! it is compiled as ignored (the build script probes for them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const PYSPARK: &str = "pyspark==4.0.1";

/// A venv with PySpark, made once.
fn pyspark_python() -> PathBuf {
    crate::common::python_venv("spark-venv", &[PYSPARK]).join("bin/python")
}

/// Rows keyed by everything but the line number, counted.
fn rows_by_puzzle(text: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for row in text.lines() {
        let key = row
            .split_once(',')
            .map_or(row, |(_, rest)| rest)
            .to_string();
        *m.entry(key).or_insert(0) += 1;
    }
    m
}

#[test]
#[cfg_attr(
    not(all(has_java, has_python3)),
    ignore = "needs java (Spark needs Java 17) and python3"
)]
fn spark_pipe_equals_a_local_run() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("spark-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A corpus with every status: the examples, invalid lines, the empty grid, an unsolvable one.
    let examples =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/examples.txt")).unwrap();
    let mut corpus = String::new();
    for i in 0..40 {
        for line in examples
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            corpus.push_str(line);
            corpus.push('\n');
        }
        corpus.push_str(&format!("bad line {i}\n"));
        corpus.push_str(&".".repeat(81));
        corpus.push('\n');
        corpus.push_str(
            "12345678.........9...............................................................\n",
        );
        // Equivalent copies of one example: the same puzzle for `dedup --by canon`.
        let g: sudoku_batch::Grid = examples
            .lines()
            .find(|l| !l.starts_with('#') && !l.trim().is_empty())
            .unwrap()
            .parse()
            .unwrap();
        let mut rng = sudoku_batch::rng::Rng::new(i);
        let t = sudoku_batch::transform::Transform::random(&mut rng);
        corpus.push_str(&t.apply(&g).to_line());
        corpus.push('\n');
    }
    let corpus_path = dir.join("corpus.txt");
    std::fs::write(&corpus_path, &corpus).unwrap();

    let bin = env!("CARGO_BIN_EXE_sudoku-batch");
    let local = Command::new(bin)
        .args(["solve", "--quiet", "--no-header", "--no-timing"])
        .arg(&corpus_path)
        .output()
        .unwrap();
    assert!(local.status.success());
    let local = String::from_utf8(local.stdout).unwrap();

    let python = pyspark_python();
    let out = dir.join("spark-rows.txt");
    let dedup_out = dir.join("spark-dedup.txt");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/spark/pipe_test.py");
    let started = std::time::Instant::now();
    let status = Command::new(&python)
        // Keep Spark's driver on loopback.
        .env("SPARK_LOCAL_IP", "127.0.0.1")
        .arg(script)
        .arg(bin)
        .arg(&corpus_path)
        .arg("4")
        .arg(&out)
        .arg(&dedup_out)
        .status()
        .unwrap();
    assert!(status.success(), "the Spark job failed");
    println!("spark job took {:.1} s", started.elapsed().as_secs_f64());
    let spark = std::fs::read_to_string(&out).unwrap();
    assert_eq!(spark.lines().count(), local.lines().count());
    assert_eq!(rows_by_puzzle(&spark), rows_by_puzzle(&local));

    let local_dedup = Command::new(bin)
        .args(["dedup", "--by", "canon", "--quiet"])
        .arg(&corpus_path)
        .output()
        .unwrap();
    assert!(local_dedup.status.success());
    let local_dedup = String::from_utf8(local_dedup.stdout).unwrap();
    let spark_dedup = std::fs::read_to_string(&dedup_out).unwrap();
    // The examples once, each bad line (all different), the empty and the unsolvable grid once;
    // every transformed copy dropped.
    assert!(local_dedup.lines().count() < corpus.lines().count() / 4);
    assert_eq!(spark_dedup, local_dedup);
}
