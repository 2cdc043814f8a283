//! `export` through the real binary, on real corpora: the HRM layout read back array by array
//! (every invariant HRM's and TRM's loaders rely on: dtypes, shapes, token ranges, indices that
//! start at 0 and grow, group sizes, labels that are the unique solutions of the inputs, copies
//! that are equivalent to their originals), the same bytes with any `-j`; the Hugging Face
//! layout's rows, types, files and card; bad records counted and listed, never fatal; the
//! output folder's rules (`--force`). Loading both layouts in NumPy and `datasets` is
//! `python/tests/test_export.py`'s part.

use std::collections::HashMap;
use std::path::Path;

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use sudoku_batch::export::npy;
use sudoku_batch::transform::Transform;

use crate::common::cli::{run, run_stdin, tmp, write, LEET, LEET_SOLUTION, UNSOLVABLE};
use crate::common::{is_complete_valid, parse, reference_solve, Cells};

/// A `.npy` file: its header and data.
fn npy_file(path: &Path) -> (npy::Header, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let h = npy::parse_header(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!h.fortran_order, "{}", path.display());
    let data = bytes[h.data_offset..].to_vec();
    (h, data)
}

/// A `uint8 [N, 81]` array as grids of cell tokens.
fn grids(path: &Path) -> Vec<[u8; 81]> {
    let (h, data) = npy_file(path);
    assert_eq!(h.descr, "|u1", "{}", path.display());
    assert_eq!(h.shape.len(), 2, "{}", path.display());
    assert_eq!(h.shape[1], 81, "{}", path.display());
    assert_eq!(data.len() as u64, h.shape[0] * 81, "{}", path.display());
    data.chunks(81).map(|c| c.try_into().unwrap()).collect()
}

/// An `int32 [N]` array.
fn ints(path: &Path) -> Vec<i32> {
    let (h, data) = npy_file(path);
    assert_eq!(h.descr, "<i4", "{}", path.display());
    assert_eq!(h.shape.len(), 1, "{}", path.display());
    assert_eq!(data.len() as u64, h.shape[0] * 4, "{}", path.display());
    data.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Parses CSV text into its header and rows.
fn table(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    crate::dataset_cli::table(text)
}

/// Tokens back to cells: 1 is a blank, d + 1 is digit d.
fn cells_of(tokens: &[u8; 81]) -> Cells {
    let mut c = [0u8; 81];
    for (o, &t) in c.iter_mut().zip(tokens) {
        assert!((1..=10).contains(&t), "token {t} out of 1..=10");
        *o = t - 1;
    }
    c
}

fn lines_of(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// The first `n` lines of corpus `name`, from line `from` (0-based).
fn corpus_lines(name: &str, from: usize, n: usize) -> Vec<String> {
    let p = sudoku_batch::corpora::path(name);
    std::fs::read_to_string(&p)
        .unwrap()
        .lines()
        .skip(from)
        .take(n)
        .map(String::from)
        .collect()
}

/// What one split of an HRM export must hold, checked against the input lines and the
/// reference solver: returns the number of examples.
fn check_hrm_split(dir: &Path, split: &str, input: &str, copies: usize) -> usize {
    let d = dir.join(split);
    let inputs = grids(&d.join("all__inputs.npy"));
    let labels = grids(&d.join("all__labels.npy"));
    let ids = ints(&d.join("all__puzzle_identifiers.npy"));
    let puzzle_indices = ints(&d.join("all__puzzle_indices.npy"));
    let group_indices = ints(&d.join("all__group_indices.npy"));
    let n = inputs.len();
    assert_eq!(labels.len(), n, "{split}");
    assert_eq!(ids, vec![0; n], "{split}: one identifier, 0");
    // One example per puzzle: puzzle_indices is 0, 1, …, N.
    assert_eq!(
        puzzle_indices,
        (0..=n as i32).collect::<Vec<_>>(),
        "{split}"
    );
    // Groups: from 0 to the last puzzle, each 1 + copies puzzles.
    assert_eq!(group_indices[0], 0, "{split}");
    assert_eq!(*group_indices.last().unwrap() as usize, n, "{split}");
    let groups = group_indices.len() - 1;
    for w in group_indices.windows(2) {
        assert_eq!((w[1] - w[0]) as usize, 1 + copies, "{split}: group sizes");
    }
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("dataset.json")).unwrap()).unwrap();
    assert_eq!(
        meta,
        serde_json::json!({
            "pad_id": 0, "ignore_label_id": 0, "blank_identifier_id": 0, "vocab_size": 11,
            "seq_len": 81, "num_puzzle_identifiers": 1, "total_groups": groups,
            "mean_puzzle_examples": 1.0, "total_puzzles": n, "sets": ["all"]
        }),
        "{split}"
    );
    // Every label solves its input: a complete grid that breaks no rule and keeps the givens.
    for (i, (inp, lab)) in inputs.iter().zip(&labels).enumerate() {
        let (p, s) = (cells_of(inp), cells_of(lab));
        assert!(
            is_complete_valid(&s),
            "{split} example {i}: label is not a solved grid"
        );
        assert!(
            p.iter().zip(&s).all(|(&a, &b)| a == 0 || a == b),
            "{split} example {i}: the label changes a given"
        );
    }
    // examples.csv: each example's group, copy, source line and transform.
    let (header, rows) = table(&std::fs::read_to_string(d.join("examples.csv")).unwrap());
    assert_eq!(
        header,
        ["example", "group", "copy", "source", "line", "transform"]
    );
    assert_eq!(rows.len(), n, "{split}");
    let text = lines_of(input);
    for (i, r) in rows.iter().enumerate() {
        let group: usize = r[1].parse().unwrap();
        let copy: usize = r[2].parse().unwrap();
        assert_eq!(r[0], i.to_string());
        assert_eq!(group_indices[group] as usize + copy, i, "{split} row {i}");
        assert_eq!(r[3], input);
        let t: Transform = r[5].parse().unwrap();
        let original = group_indices[group] as usize;
        // The copy is its original under the recorded transform (inputs and labels alike), and
        // the original is the input's line.
        let orig_cells = cells_of(&inputs[original]);
        assert_eq!(
            t.apply_cells(&orig_cells),
            cells_of(&inputs[i]),
            "{split} row {i}"
        );
        assert_eq!(
            t.apply_cells(&cells_of(&labels[original])),
            cells_of(&labels[i]),
            "{split} row {i}"
        );
        if copy == 0 {
            assert_eq!(t, Transform::IDENTITY);
            let line: usize = r[4].parse().unwrap();
            assert_eq!(
                parse(&text[line - 1][..81]),
                orig_cells,
                "{split} row {i}: not the puzzle of line {line}"
            );
            // The label is the unique solution, by the reference solver.
            let found = reference_solve(&orig_cells, 2);
            assert_eq!(found.count, 1, "{split} line {line}");
            assert_eq!(
                found.first.unwrap(),
                cells_of(&labels[i]),
                "{split} line {line}"
            );
        }
    }
    n
}

#[test]
#[cfg_attr(not(corpora), ignore = "needs the corpora in ../shared/data")]
fn hrm_layout_holds_every_invariant_training_code_relies_on() {
    let dir = tmp("export-hrm");
    // Train: easy puzzles with every kind of bad record among them.
    let mut train = corpus_lines("kaggle_sample.txt", 0, 300);
    train.insert(10, "# a comment".into());
    train.insert(20, String::new());
    train.insert(30, "not a puzzle".into());
    train.insert(40, format!("55{}", &LEET[2..]));
    train.insert(50, UNSOLVABLE.into());
    train.extend(corpus_lines("multi_solution.txt", 0, 3));
    train.extend(corpus_lines("invalid.txt", 0, 2));
    let train = write(&dir, "train.txt", train.join("\n") + "\n");
    let test = sudoku_batch::corpora::path("norvig_easy50.txt");
    let test = test.to_str().unwrap();
    let valid = write(
        &dir,
        "valid.txt",
        corpus_lines("kaggle_sample.txt", 300, 40).join("\n") + "\n",
    );
    let out = dir.join("hrm");
    let o = out.to_str().unwrap();
    let r = run(&[
        "export",
        "--to",
        "hrm",
        "--train",
        &train,
        "--test",
        test,
        "--valid",
        &valid,
        "-o",
        o,
        "--augment",
        "3",
        "--seed",
        "11",
        "-j",
        "2",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(check_hrm_split(&out, "train", &train, 3), 300 * 4);
    assert_eq!(check_hrm_split(&out, "test", test, 0), 49);
    assert_eq!(check_hrm_split(&out, "valid", &valid, 0), 40);
    assert_eq!(
        std::fs::read_to_string(out.join("identifiers.json"))
            .unwrap()
            .trim(),
        "[\"<blank>\"]"
    );
    // Every bad record: on stderr with its line, in left_out.csv, counted in export.json.
    let (header, rows) = table(&std::fs::read_to_string(out.join("left_out.csv")).unwrap());
    assert_eq!(header, ["split", "source", "line", "reason", "detail"]);
    let got: Vec<(String, &str)> = rows.iter().map(|r| (r[2].clone(), r[3].as_str())).collect();
    let want = [
        ("31", "invalid"),
        ("41", "invalid"),
        ("51", "unsolvable"),
        ("306", "multiple"),
        ("307", "multiple"),
        ("308", "multiple"),
        ("309", "unsolvable"),
        ("310", "unsolvable"),
    ];
    assert_eq!(
        got,
        want.iter()
            .map(|(l, r)| (l.to_string(), *r))
            .collect::<Vec<_>>()
    );
    for (line, reason) in want {
        assert!(
            r.stderr
                .contains(&format!("{train}:{line}: left out of train ({reason})")),
            "{line}: {}",
            r.stderr
        );
    }
    for multi in corpus_lines("multi_solution.txt", 0, 3) {
        assert_eq!(reference_solve(&parse(&multi[..81]), 2).count, 2);
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("export.json")).unwrap()).unwrap();
    let t = &manifest["splits"]["train"];
    assert_eq!(t["read"], 308);
    assert_eq!(t["puzzles"], 300);
    assert_eq!(t["examples"], 1200);
    assert_eq!(
        t["left_out"],
        serde_json::json!({"invalid": 2, "multiple": 3, "unsolvable": 3, "wrong-solution": 0})
    );
    assert_eq!(manifest["splits"]["test"]["puzzles"], 49);
    assert_eq!(manifest["provenance"]["seeds"]["--seed"], 11);
    assert!(!dir.join("hrm.partial").exists());
    // --strict: the same export, exit 1 because records were left out.
    let r = run(&[
        "export", "--to", "hrm", "--train", &train, "--test", test, "-o", o, "--force", "-q",
        "--strict",
    ]);
    assert_eq!((r.code, r.stderr.as_str()), (1, ""));
}

#[test]
#[cfg_attr(not(corpora), ignore = "needs the corpora in ../shared/data")]
fn hrm_bytes_are_the_same_with_any_thread_count() {
    let dir = tmp("export-hrm-threads");
    let train = sudoku_batch::corpora::path("top1465.txt");
    let test = sudoku_batch::corpora::path("top95.txt");
    let export = |name: &str, j: &str, seed: &str| {
        let o = dir.join(name);
        let r = run(&[
            "export",
            "--to",
            "hrm",
            "--train",
            train.to_str().unwrap(),
            "--test",
            test.to_str().unwrap(),
            "-o",
            o.to_str().unwrap(),
            "--augment",
            "5",
            "--seed",
            seed,
            "-j",
            j,
            "-q",
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        o
    };
    let one = export("j1", "1", "5");
    let three = export("j3", "3", "5");
    let other = export("seed6", "3", "6");
    for split in ["train", "test"] {
        for f in [
            "all__inputs.npy",
            "all__labels.npy",
            "all__puzzle_identifiers.npy",
            "all__puzzle_indices.npy",
            "all__group_indices.npy",
            "dataset.json",
            "examples.csv",
        ] {
            let a = std::fs::read(one.join(split).join(f)).unwrap();
            let b = std::fs::read(three.join(split).join(f)).unwrap();
            assert!(a == b, "{split}/{f} differs between -j 1 and -j 3");
        }
    }
    // Another seed draws other copies (the originals and the unaugmented test stay).
    let a = grids(&one.join("train/all__inputs.npy"));
    let b = grids(&other.join("train/all__inputs.npy"));
    assert_eq!(a.len(), 1465 * 6);
    assert_eq!(a[0], b[0]);
    assert_ne!(a[1], b[1]);
    assert_eq!(
        std::fs::read(one.join("test/all__inputs.npy")).unwrap(),
        std::fs::read(other.join("test/all__inputs.npy")).unwrap()
    );
}

/// A Parquet file's columns (name, physical type) and rows (column name → value).
type ParquetRows = (Vec<(String, String)>, Vec<HashMap<String, Field>>);

/// The columns and rows of a Parquet file.
fn parquet_rows(path: &Path) -> ParquetRows {
    let r = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let schema: Vec<(String, String)> = r
        .metadata()
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .map(|c| (c.name().to_string(), format!("{:?}", c.physical_type())))
        .collect();
    let rows = r
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            row.unwrap()
                .get_column_iter()
                .map(|(n, f)| (n.clone(), f.clone()))
                .collect()
        })
        .collect();
    (schema, rows)
}

#[test]
#[cfg_attr(not(corpora), ignore = "needs the corpora in ../shared/data")]
fn hf_rows_carry_the_inputs_columns_typed() {
    let dir = tmp("export-hf");
    // Train: rate's rows (ratings travel along), with bad records among them.
    let mut lines = corpus_lines("top1465.txt", 0, 120);
    lines.push("not a puzzle".into());
    lines.extend(corpus_lines("multi_solution.txt", 0, 2));
    let puzzles = write(&dir, "puzzles.txt", lines.join("\n") + "\n");
    let rated = dir.join("rated.csv");
    let r = run(&["rate", "-q", &puzzles, "-o", rated.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Test: a table with its own solution column, one of them wrong, and a rating of its own.
    let mut test = String::from("question,answer,rating\n");
    test.push_str(&format!("{LEET},{LEET_SOLUTION},3\n"));
    let wrong = format!("{}1", &LEET_SOLUTION[..80]);
    test.push_str(&format!("{LEET},{wrong},4\n"));
    test.push_str(&format!("{},,2.5\n", corpus_lines("top95.txt", 0, 1)[0]));
    let test = write(&dir, "test.csv", test);
    let out = dir.join("hf");
    let r = run(&[
        "export",
        "--to",
        "hf",
        "--train",
        rated.to_str().unwrap(),
        "--test",
        &test,
        "--column",
        "question",
        "--solution-column",
        "answer",
        "-o",
        out.to_str().unwrap(),
        "--rows-per-file",
        "50",
    ]);
    // `--column question` names the test table's column; rate's rows have `puzzle`, which the
    // default finds, but a named column must exist in every table.
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("no puzzle column named 'question'"),
        "{}",
        r.stderr
    );
    let test = test.replace(".csv", "-renamed.csv");
    std::fs::write(
        &test,
        std::fs::read_to_string(dir.join("test.csv"))
            .unwrap()
            .replacen("question,answer", "puzzle,solution", 1),
    )
    .unwrap();
    let r = run(&[
        "export",
        "--to",
        "hf",
        "--train",
        rated.to_str().unwrap(),
        "--test",
        &test,
        "-o",
        out.to_str().unwrap(),
        "--rows-per-file",
        "50",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut files: Vec<String> = std::fs::read_dir(out.join("train"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_str().unwrap().to_string())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "train-00000-of-00003.parquet",
            "train-00001-of-00003.parquet",
            "train-00002-of-00003.parquet"
        ]
    );
    let (_, rated_rows) = table(&std::fs::read_to_string(&rated).unwrap());
    let solved: Vec<&Vec<String>> = rated_rows.iter().filter(|r| r[2] == "solved").collect();
    assert_eq!(solved.len(), 120);
    let mut rows = Vec::new();
    for f in &files {
        let (schema, r) = parquet_rows(&out.join("train").join(f));
        let names: Vec<&str> = schema.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "puzzle",
                "solution",
                "source",
                "line",
                "origin_line",
                "clues",
                "guesses",
                "rating",
                "singles",
                "class"
            ]
        );
        let types: Vec<&str> = schema.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            types,
            [
                "BYTE_ARRAY",
                "BYTE_ARRAY",
                "BYTE_ARRAY",
                "INT64",
                "INT64",
                "INT64",
                "INT64",
                "DOUBLE",
                "BOOLEAN",
                "BYTE_ARRAY"
            ]
        );
        rows.extend(r);
    }
    assert_eq!(rows.len(), 120);
    for (row, src) in rows.iter().zip(&solved) {
        let text = |n: &str| match &row[n] {
            Field::Str(s) => s.clone(),
            other => panic!("{n}: {other:?}"),
        };
        assert_eq!(text("puzzle"), src[1]);
        let (p, s) = (parse(&src[1]), parse(&text("solution")));
        assert!(is_complete_valid(&s) && p.iter().zip(&s).all(|(&a, &b)| a == 0 || a == b));
        assert_eq!(text("source"), rated.to_str().unwrap());
        // The export's line is the line in rated.csv (the header is line 1); origin_line is the
        // puzzle's line in puzzles.txt.
        assert_eq!(row["origin_line"], Field::Long(src[0].parse().unwrap()));
        assert_eq!(row["line"], Field::Long(src[0].parse::<i64>().unwrap() + 1));
        assert_eq!(row["clues"], Field::Long(src[4].parse().unwrap()));
        assert_eq!(row["rating"], Field::Double(src[6].parse().unwrap()));
        assert_eq!(row["singles"], Field::Bool(src[7] == "true"));
        assert_eq!(text("class"), src[8]);
    }
    // Test: the right claim kept, the wrong one left out, the rating column typed as a number.
    let (schema, test_rows) = parquet_rows(&out.join("test/test-00000-of-00001.parquet"));
    assert_eq!(test_rows.len(), 2);
    assert!(schema.contains(&("rating".to_string(), "DOUBLE".to_string())));
    assert_eq!(test_rows[0]["rating"], Field::Double(3.0));
    assert_eq!(test_rows[1]["rating"], Field::Double(2.5));
    assert_eq!(test_rows[1]["line"], Field::Long(4));
    let (_, left) = table(&std::fs::read_to_string(out.join("left_out.csv")).unwrap());
    let left: Vec<(&str, &str, &str)> = left
        .iter()
        .map(|r| (r[0].as_str(), r[2].as_str(), r[3].as_str()))
        .collect();
    assert_eq!(
        left,
        [
            ("train", "122", "invalid"),
            ("train", "123", "multiple"),
            ("train", "124", "multiple"),
            ("test", "3", "wrong-solution")
        ]
    );
    // The card: the header datasets reads, and the counts.
    let card = std::fs::read_to_string(out.join("README.md")).unwrap();
    for want in [
        "configs:\n- config_name: default\n  data_files:\n  - split: train\n    path: \"train/*.parquet\"\n  - split: test\n    path: \"test/*.parquet\"\n",
        "  - name: \"rating\"\n    dtype: float64\n",
        "  - name: \"singles\"\n    dtype: bool\n",
        "  - name: train\n    num_bytes: ",
        "    num_examples: 120\n",
        "    num_examples: 2\n",
        "| train | `",
        "## Rating: `rating`",
        "| more than one solution | 2 | 0 |",
        "| its solution column is not the puzzle's unique solution | 0 | 1 |",
        "## Audit\n\n**",
        "| kind | pairs across splits |\n|---|--:|\n| exact | ",
        "| same-solution | ",
    ] {
        assert!(card.contains(want), "{want:?} not in the card:\n{card}");
    }
    // Every Parquet file records the provenance, as the other commands' files do.
    let r = run(&[
        "provenance",
        out.join("train/train-00000-of-00003.parquet")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("\"command\": \"export\""), "{}", r.stdout);
}

#[test]
fn the_output_folder_is_never_clobbered() {
    let dir = tmp("export-force");
    let train = write(&dir, "train.txt", format!("{LEET}\n"));
    let test = write(&dir, "test.txt", format!("{LEET}\n"));
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let export = |extra: &[&str]| {
        let args = [
            &[
                "export", "--to", "hrm", "--train", &train, "--test", &test, "-o", o, "-q",
            ][..],
            extra,
        ]
        .concat();
        run(&args)
    };
    assert_eq!(export(&[]).code, 0);
    let r = export(&[]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("exists") && r.stderr.contains("--force"),
        "{}",
        r.stderr
    );
    assert_eq!(export(&["--force"]).code, 0);
    // A folder holding anything an export does not write is never replaced.
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let r = export(&["--force"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("does not write"), "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    // Nor one that holds an input.
    std::fs::remove_file(out.join("notes.txt")).unwrap();
    std::fs::remove_dir_all(out.join("train")).unwrap();
    let inside = write(&out, "train", format!("{LEET}\n"));
    let r = run(&[
        "export", "--to", "hrm", "--train", &inside, "--test", &test, "-o", o, "--force",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("inside"), "{}", r.stderr);
    assert!(Path::new(&inside).is_file());
    // A file is not a folder; - is not a folder.
    let file = write(&dir, "file", "x");
    let r = run(&[
        "export", "--to", "hf", "--train", &train, "--test", &test, "-o", &file,
    ]);
    assert_eq!(r.code, 2);
    let r = run(&[
        "export", "--to", "hf", "--train", &train, "--test", &test, "-o", "-",
    ]);
    assert_eq!(r.code, 2);
    // A folder an interrupted export left (DIR.partial) is replaced.
    let out2 = dir.join("out2");
    std::fs::create_dir_all(dir.join("out2.partial/train")).unwrap();
    let r = run(&[
        "export",
        "--to",
        "hf",
        "--train",
        &train,
        "--test",
        &test,
        "-o",
        out2.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(out2.join("README.md").is_file() && !dir.join("out2.partial").exists());
}

#[test]
fn bad_inputs_are_reported_never_fatal() {
    let dir = tmp("export-bad");
    let train = write(&dir, "train.txt", format!("{LEET}\n"));
    // Every record of a split left out: the split is still there, empty, and loads.
    let test = write(&dir, "test.txt", format!("{UNSOLVABLE}\nxyz\n"));
    let out = dir.join("hrm");
    let r = run(&[
        "export",
        "--to",
        "hrm",
        "--train",
        &train,
        "--test",
        &test,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("test.txt:2: left out of test (invalid)"),
        "{}",
        r.stderr
    );
    assert!(grids(&out.join("test/all__inputs.npy")).is_empty());
    assert_eq!(ints(&out.join("test/all__group_indices.npy")), [0]);
    assert_eq!(ints(&out.join("test/all__puzzle_indices.npy")), [0]);
    let out = dir.join("hf");
    let r = run(&[
        "export",
        "--to",
        "hf",
        "--train",
        &train,
        "--test",
        &test,
        "-o",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (_, rows) = parquet_rows(&out.join("test/test-00000-of-00001.parquet"));
    assert!(rows.is_empty());
    // A CSV field that is not UTF-8 leaves its row out, with the reason.
    let mut bytes = format!("puzzle,note\n{LEET},ok\n{LEET},").into_bytes();
    bytes.extend_from_slice(b"\xff\xfe\n");
    let csv = write(&dir, "notes.csv", bytes);
    let out = dir.join("hf2");
    let r = run(&[
        "export",
        "--to",
        "hf",
        "--train",
        &csv,
        "--test",
        &test,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("notes.csv:3: left out of train (invalid): its 'note' field is not UTF-8"),
        "{}",
        r.stderr
    );
    // Inputs that cannot be read at all, and options that do not go together: usage errors.
    let binary = write(&dir, "binary.bin", b"\x00\x01\x02PAR");
    for args in [
        vec!["--to", "hrm", "--train", "/nonexistent", "--test", &test],
        vec!["--to", "hrm", "--train", &binary, "--test", &test],
        vec![
            "--to",
            "hf",
            "--augment",
            "2",
            "--train",
            &train,
            "--test",
            &test,
        ],
        vec!["--to", "hrm", "--train", "-", "--test", "-"],
        vec![
            "--to",
            "hf",
            "--train",
            &train,
            "--test",
            &test,
            "--solution-column",
            "x",
            "--valid",
            &csv,
        ],
    ] {
        let o = dir.join("never");
        let mut a = vec!["export", "-o", o.to_str().unwrap()];
        a.extend(args.iter().copied());
        let r = run(&a);
        assert_eq!(r.code, 2, "{a:?}: {}", r.stderr);
        assert!(
            r.stderr.starts_with("sudoku-batch: error: "),
            "{a:?}: {}",
            r.stderr
        );
        assert!(!o.exists() && !dir.join("never.partial").exists(), "{a:?}");
    }
    // Stdin is one split's input like any file.
    let out = dir.join("stdin");
    let r = run_stdin(
        &[
            "export",
            "--to",
            "hrm",
            "--train",
            "-",
            "--test",
            &test,
            "-o",
            out.to_str().unwrap(),
            "-q",
        ],
        format!("{LEET}\n{LEET}\n"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(grids(&out.join("train/all__inputs.npy")).len(), 2);
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_str().unwrap().to_string())
        .collect();
    assert!(!names.iter().any(|n| n.starts_with('.')), "{names:?}");
}
