"""Runs sudoku-batch under Spark's RDD.pipe in local mode and writes the rows it got back.

Usage: python pipe_test.py BINARY CORPUS PARTITIONS OUT

Each partition of the corpus is piped through `BINARY solve --no-header ...`; the rows of all
partitions are collected and written to OUT, one per line. Line numbers in the rows count from 1
within each partition (the binary only sees its partition), so the caller compares rows by
puzzle, not by line. Two details of RDD.pipe matter here: `env=` replaces the whole
environment (the binary must run with an empty one), and a non-zero exit is ignored unless
`checkCode=True`.
"""

import sys

from pyspark import SparkConf, SparkContext


def main() -> None:
    binary, corpus, partitions, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    conf = (
        SparkConf()
        .setMaster("local[2]")
        .setAppName("sudoku-batch-pipe-test")
        .set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1")
    )
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    try:
        lines = sc.textFile(corpus, minPartitions=partitions)
        got = lines.getNumPartitions()
        if got < partitions:
            raise SystemExit(f"expected at least {partitions} partitions, got {got}")
        rows = lines.pipe(
            f"{binary} solve --quiet --no-header --no-timing -j 1",
            env={},
            checkCode=True,
        ).collect()
    finally:
        sc.stop()
    with open(out, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(row + "\n")
    print(f"spark: {len(rows)} rows from {got} partitions")


if __name__ == "__main__":
    main()
