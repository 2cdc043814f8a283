"""`--format parquet` read back with pyarrow and pandas: the same columns, values and row order
as the CSV of the same run on every corpus (invalid and multi-solution lines included), the
provenance in the file's metadata, and the dataset recipe of docs/guide.md end to end."""

import json
import subprocess

import pandas as pd
import pyarrow.parquet as pq
import pytest


def run(binary, *args):
    out = subprocess.run([str(binary), *map(str, args)], capture_output=True, check=False)
    assert out.returncode == 0, out.stderr.decode()
    return out


def same(value, text):
    """A Parquet value against its CSV field (empty = null; numbers as numbers)."""
    if value is None or (isinstance(value, float) and value != value):
        return text == ""
    if isinstance(value, bool):
        return text == ("true" if value else "false")
    if isinstance(value, (int, float)):
        return text != "" and float(text) == value
    return value == text


def assert_agree(binary, tmp_path, name, *args):
    csv_path = tmp_path / f"{name}.csv"
    pq_path = tmp_path / f"{name}.parquet"
    run(binary, *args, "-q", "--format", "csv", "-o", csv_path)
    run(binary, *args, "-q", "--format", "parquet", "-o", pq_path)
    table = pq.read_table(pq_path)
    frame = pd.read_csv(csv_path, dtype=str, keep_default_na=False)
    assert table.column_names == list(frame.columns)
    assert table.num_rows == len(frame)
    for column in frame.columns:
        got = table.column(column).to_pylist()
        for i, (v, t) in enumerate(zip(got, frame[column])):
            assert same(v, t), (args, column, i, v, t)
    return table


def test_parquet_equals_csv_on_every_corpus(cli, data, tmp_path):
    corpora = sorted(data.glob("*.txt"))
    assert len(corpora) >= 10
    for path in corpora:
        t = assert_agree(cli.binary, tmp_path, path.stem + "-solve", "solve", "--no-timing", path)
        assert str(t.schema.field("line").type) == "int64"
        assert str(t.schema.field("puzzle").type) == "string"
        assert_agree(cli.binary, tmp_path, path.stem + "-canon", "canon", path)
    t = assert_agree(cli.binary, tmp_path, "rate", "rate", data / "multi_solution.txt")
    assert str(t.schema.field("rating").type) == "double"
    assert str(t.schema.field("singles").type) == "bool"
    statuses = set(
        assert_agree(cli.binary, tmp_path, "inv", "solve", "--no-timing", data / "invalid.txt")
        .column("status")
        .to_pylist()
    )
    assert "invalid" in statuses


def test_provenance_in_the_metadata(cli, data, tmp_path):
    out = tmp_path / "r.parquet"
    run(cli.binary, "rate", "-q", "--seed", "5", data / "top95.txt", "--format", "parquet", "-o", out)
    meta = pq.read_metadata(out).metadata
    record = json.loads(meta[b"sudoku_batch.provenance"])
    assert record["seeds"] == {"--seed": 5}
    assert record["inputs"][0]["size"] == (data / "top95.txt").stat().st_size
    assert len(record["inputs"][0]["sha256"]) == 64
    printed = json.loads(run(cli.binary, "provenance", out).stdout)
    assert printed == record


def test_the_guide_recipe(cli, data, tmp_path):
    """docs/guide.md, "A dataset in Parquet": dedup by canon, split leak-free, rate to Parquet,
    then pandas."""
    b = cli.binary
    corpus = data / "kaggle3m_rated_sample.txt"
    run(b, "dedup", "-q", "--by", "canon", corpus, "-o", tmp_path / "unique.txt")
    run(b, "split", "-q", "--test", "0.1", "--seed", "1", "--prefix", tmp_path / "ds",
        tmp_path / "unique.txt")
    for side in ("train", "test"):
        run(b, "rate", "-q", "--seed", "1", tmp_path / f"ds.{side}.txt",
            "--format", "parquet", "-o", tmp_path / f"{side}.parquet")
        run(b, "canon", "-q", tmp_path / f"ds.{side}.txt",
            "--format", "parquet", "-o", tmp_path / f"{side}-canon.parquet")
    train = pd.read_parquet(tmp_path / "train.parquet")
    test = pd.read_parquet(tmp_path / "test.parquet")
    assert len(train) > 5 * len(test) > 0
    assert train["rating"].dtype == "float64" and train["line"].dtype == "int64"
    # Deduplicated, and leak-free: no canonical form twice, none on both sides.
    canon_train = pd.read_parquet(tmp_path / "train-canon.parquet")["canonical"]
    canon_test = pd.read_parquet(tmp_path / "test-canon.parquet")["canonical"]
    assert canon_train.is_unique and canon_test.is_unique
    assert not set(canon_train) & set(canon_test)
