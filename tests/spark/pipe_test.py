"""Runs sudoku-batch under Spark's RDD.pipe in local mode and writes what it got back.

Usage: python pipe_test.py BINARY CORPUS PARTITIONS OUT [DEDUP_OUT]

With DEDUP_OUT it also deduplicates the corpus by canonical form, the way the README's "Beyond
one machine" section shows: every partition piped through `BINARY canon`, each line paired with
its row (one row per line, in order, within a partition), keyed by its canonical form (a line
that is not a valid puzzle by its own text), Spark's reduceByKey keeping the first line of each
key, and the kept lines written in input order — which must equal a local `dedup --by canon`.

Each partition of the corpus is piped through `BINARY solve --no-header ...`; the rows of all
partitions are collected and written to OUT, one per line. Line numbers in the rows count from 1
within each partition (the binary only sees its partition), so the caller compares rows by
puzzle, not by line. Two details of RDD.pipe matter here: `env=` replaces the whole
environment (the binary must run with an empty one), and a non-zero exit is ignored unless
`checkCode=True`.
"""

import sys

from pyspark import SparkConf, SparkContext


def dedup_by_canon(lines, binary):
    """The kept lines of a dedup by canonical form, in input order."""
    indexed = lines.zipWithIndex()  # (line, index in the whole corpus)
    rows = lines.pipe(f"{binary} canon --quiet --no-header -j 1", env={}, checkCode=True)
    # canon's columns: line,puzzle,status,canonical,automorphisms,error; the canonical form
    # has no comma, so the fourth field is it ("" for an invalid line).
    keyed = indexed.zip(rows).map(
        lambda pair: (pair[1].split(",")[3] or "line:" + pair[0][0], (pair[0][1], pair[0][0]))
    )
    first = keyed.reduceByKey(min).values()
    return [line for _, line in sorted(first.collect())]


def main() -> None:
    binary, corpus, partitions, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    dedup_out = sys.argv[5] if len(sys.argv) > 5 else None
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
        if dedup_out is not None:
            kept = dedup_by_canon(lines, binary)
            with open(dedup_out, "w", encoding="utf-8") as f:
                for line in kept:
                    f.write(line + "\n")
    finally:
        sc.stop()
    with open(out, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(row + "\n")
    print(f"spark: {len(rows)} rows from {got} partitions")


if __name__ == "__main__":
    main()
