//! The dataset card (`README.md`) of a Hugging Face export: a YAML header the `datasets` library
//! reads (the `default` config with each split's files, the features with their dtypes, each
//! split's row count), then for people: how to load it, the splits, the columns, what was left
//! out and why, clue and rating histograms per split, the provenance of every input, and the
//! audit's verdict ([`audit_section`]).
//!
//! Everything in it comes from the export's report and the provenance record, so the card cannot
//! disagree with the files beside it.

use std::fmt::Write as _;

use super::hf::{dtype, Histogram, SplitFiles, OWN_COLUMNS};
use super::read::Column;
use super::{Context, Reason, Report, Split};
use crate::human::group;
use crate::run::parquet::Kind;

/// A YAML scalar: a JSON string, which YAML reads as the same text.
fn yaml(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The whole card.
pub fn card(
    report: &Report,
    context: &Context<'_>,
    splits: &[SplitFiles],
    ratings: &[&Column],
    audit: &crate::audit::Counts,
) -> String {
    let req = context.request;
    let mut out = String::new();
    let columns: Vec<(String, Kind)> = OWN_COLUMNS
        .iter()
        .map(|(n, k)| (n.to_string(), *k))
        .chain(report.columns.iter().map(|c| (c.name.clone(), c.kind)))
        .collect();

    // The header the `datasets` library reads.
    out.push_str("---\ntags:\n- sudoku\nconfigs:\n- config_name: default\n  data_files:\n");
    for s in splits {
        let _ = writeln!(
            out,
            "  - split: {}\n    path: {}",
            s.split.hf_name(),
            yaml(&format!("{}/*.parquet", s.split.dir()))
        );
    }
    out.push_str("dataset_info:\n  config_name: default\n  features:\n");
    for (name, kind) in &columns {
        let _ = writeln!(out, "  - name: {}\n    dtype: {}", yaml(name), dtype(*kind));
    }
    out.push_str("  splits:\n");
    for s in &report.splits {
        let bytes = splits
            .iter()
            .find(|f| f.split == s.split)
            .map_or(0, |f| f.num_bytes);
        let _ = writeln!(
            out,
            "  - name: {}\n    num_bytes: {bytes}\n    num_examples: {}",
            s.split.hf_name(),
            s.examples
        );
    }
    out.push_str("---\n\n");

    let title = req
        .output
        .components()
        .next_back()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_else(|| "sudoku".into());
    let _ = writeln!(out, "# {title}\n");
    let total: u64 = report.splits.iter().map(|s| s.examples).sum();
    let _ = writeln!(
        out,
        "{} sudoku puzzles, each with its unique solution, exported by sudoku-batch {} \
         (`export --to hf`). Every puzzle has exactly one solution, proven by the solver, and \
         `solution` is that solution; records that are not such puzzles were left out (below).\n",
        group(total),
        env!("CARGO_PKG_VERSION")
    );
    out.push_str("```python\nfrom datasets import load_dataset\n\n");
    let _ = writeln!(out, "ds = load_dataset({})", yaml(&title));
    out.push_str("```\n\n");

    // Splits.
    out.push_str("## Splits\n\n| split | input | rows | records read | left out |\n");
    out.push_str("|---|---|--:|--:|--:|\n");
    for s in &report.splits {
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} |",
            s.split.hf_name(),
            s.input,
            group(s.examples),
            group(s.read),
            group(s.left_out_total())
        );
    }
    out.push('\n');

    // Columns.
    out.push_str("## Columns\n\n| column | type | what it holds |\n|---|---|---|\n");
    for (name, kind) in &columns {
        let _ = writeln!(out, "| `{name}` | {} | {} |", dtype(*kind), meaning(name));
    }
    out.push('\n');

    // What was left out.
    out.push_str("## Left out\n\n");
    if report.left_out_total() == 0 {
        out.push_str("Nothing: every record read was a puzzle with exactly one solution.\n\n");
    } else {
        out.push_str(
            "Records that were not exported, by reason (each is listed with its file, line and \
             the reason in `left_out.csv`):\n\n| reason |",
        );
        out.push_str(&split_header(report));
        for r in Reason::ALL {
            let _ = write!(out, "| {} |", r.meaning());
            for s in &report.splits {
                let _ = write!(out, " {} |", group(s.left_out[r as usize]));
            }
            out.push('\n');
        }
        out.push('\n');
    }

    // Histograms.
    out.push_str("## Clues\n\nGivens per puzzle.\n\n");
    let clues: Vec<(Split, &Histogram)> = splits.iter().map(|s| (s.split, &s.clues)).collect();
    out.push_str(&histogram(&clues, true));
    for (i, c) in ratings.iter().enumerate() {
        let _ = writeln!(out, "## Rating: `{}`\n", c.name);
        let _ = writeln!(out, "{}\n", meaning(&c.name));
        let h: Vec<(Split, &Histogram)> = splits.iter().map(|s| (s.split, &s.ratings[i])).collect();
        out.push_str(&histogram(&h, c.kind == Kind::Int));
    }
    if ratings.is_empty() {
        out.push_str(
            "## Ratings\n\nThe inputs carry no rating column: export the rows of `sudoku-batch \
             rate` (`--se` for Sudoku Explainer's ER/EP/ED) to have them here.\n\n",
        );
    }

    out.push_str(&provenance_section(report, context));
    out.push_str(&audit_section(report, audit));
    out
}

/// The audit's verdict on the splits: `sudoku-batch audit --across` of the exported puzzles,
/// run as the card is written (every kind: exact, equivalent, neighbour, same-solution).
pub fn audit_section(report: &Report, audit: &crate::audit::Counts) -> String {
    let inputs: Vec<&str> = report.splits.iter().map(|s| s.input.as_str()).collect();
    let mut s = String::from("## Audit\n\n");
    if audit.leaks() {
        s.push_str("**Leaks: puzzles of one split are related to puzzles of another.** Pairs across splits:\n\n");
    } else {
        s.push_str(
            "**Clean: no puzzle of one split is related to a puzzle of another** — \
                    none exact, equivalent (relabelled, transposed, permuted), one clue apart, \
                    or with an equivalent solution. Pairs across splits:\n\n",
        );
    }
    s.push_str("| kind | pairs across splits |\n|---|--:|\n");
    for k in crate::audit::Kind::ALL {
        let _ = writeln!(
            s,
            "| {} | {} |",
            k.as_str(),
            group(audit.across[k as usize])
        );
    }
    let _ = writeln!(
        s,
        "\nTo list them: `sudoku-batch audit --across {}`.",
        inputs.join(" ")
    );
    s
}

/// `| train | test |…` and the alignment row, for tables with a column per split.
fn split_header(report: &Report) -> String {
    let mut s = String::new();
    for r in &report.splits {
        let _ = write!(s, " {} |", r.split.hf_name());
    }
    s.push_str("\n|---|");
    for _ in &report.splits {
        s.push_str("--:|");
    }
    s.push('\n');
    s
}

/// What a column holds, for the card.
fn meaning(name: &str) -> String {
    match name {
        "puzzle" => "the puzzle: 81 characters row by row, `.` for a blank".into(),
        "solution" => "its unique solution: 81 digits row by row".into(),
        "source" => "the input file the row was read from".into(),
        "line" => "the line of that file where the record starts (Parquet: its row number)".into(),
        "origin_line" => "the input's own `line` column: the puzzle's line in the corpus \
                          `solve` or `rate` read it from"
            .into(),
        "file" => "the corpus file `solve` or `rate` read the puzzle from".into(),
        "clues" => "givens".into(),
        "guesses" => {
            "in `solve` and `rate` rows: the solver's guesses proving the solution unique".into()
        }
        "rating" => {
            "in `rate` rows: the solver's mean guesses over random equivalent copies".into()
        }
        "singles" => "naked and hidden singles alone solve it".into(),
        "class" => "QQWing's class: simple, easy, intermediate or expert".into(),
        "er" => "Sudoku Explainer's rating: the hardest step".into(),
        "ep" => "Sudoku Explainer's EP: the hardest step before the first placement".into(),
        "ed" => "Sudoku Explainer's ED: the first step's rating".into(),
        "er_technique" => "the technique that set ER".into(),
        n if n.starts_with("origin_") => format!("the input's own `{}` column", &n[7..]),
        _ => "carried from the input rows".into(),
    }
}

/// The bin width for values from `lo` to `hi`: the first of 1, 2, 5, 10, 20, 50, … that makes
/// at most 20 bins.
fn bin_width(lo: i64, hi: i64) -> i64 {
    let range = hi.saturating_sub(lo).saturating_add(1);
    let mut w: i64 = 1;
    let steps = [1, 2, 5];
    let mut k = 0;
    loop {
        let width = steps[k % 3] * w;
        if range.div_euclid(width) + i64::from(range % width != 0) <= 20 || width > i64::MAX / 20 {
            return width;
        }
        k += 1;
        if k % 3 == 0 {
            w = w.saturating_mul(10);
        }
    }
}

/// A markdown table of `per_split` histograms with shared bins (integers: bins of whole
/// values; numbers: half-open ranges).
fn histogram(per_split: &[(Split, &Histogram)], integers: bool) -> String {
    let keys = per_split.iter().flat_map(|(_, h)| h.keys().copied());
    let (Some(lo), Some(hi)) = (keys.clone().min(), keys.max()) else {
        return "No values.\n\n".into();
    };
    let w = bin_width(lo, hi);
    let start = lo.div_euclid(w) * w;
    let mut out = String::from("| value |");
    for (s, _) in per_split {
        let _ = write!(out, " {} |", s.hf_name());
    }
    out.push_str("\n|--:|");
    for _ in per_split {
        out.push_str("--:|");
    }
    out.push('\n');
    let mut a = start;
    while a <= hi {
        let b = a.saturating_add(w);
        let label = match (integers, w) {
            (true, 1) => a.to_string(),
            (true, _) => format!("{a}–{}", b - 1),
            (false, _) => format!("[{a}, {b})"),
        };
        let _ = write!(out, "| {label} |");
        for (_, h) in per_split {
            let n: u64 = h.range(a..b).map(|(_, n)| n).sum();
            let _ = write!(out, " {} |", group(n));
        }
        out.push('\n');
        if b == a {
            break;
        }
        a = b;
    }
    out.push('\n');
    out
}

/// Where the data came from: the tool, the command, each input's size and SHA-256.
fn provenance_section(report: &Report, context: &Context<'_>) -> String {
    let mut out = String::from("## Provenance\n\n");
    let Some(p) = &context.provenance else {
        out.push_str("Not recorded (the export was run with --no-provenance).\n\n");
        return out;
    };
    let text = |v: &serde_json::Value| -> String {
        match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Null => "unknown".into(),
            other => other.to_string(),
        }
    };
    let _ = writeln!(
        out,
        "Made by sudoku-batch {} (commit {}) on {}:\n",
        text(&p["version"]),
        text(&p["git_commit"]),
        text(&p["created"])
    );
    if let Some(args) = p["command_line"].as_array() {
        let args: Vec<String> = args.iter().map(text).collect();
        let _ = writeln!(out, "```\n{}\n```\n", args.join(" "));
    }
    out.push_str("| split | input | bytes | SHA-256 |\n|---|---|--:|---|\n");
    for input in p["inputs"].as_array().into_iter().flatten() {
        let name = text(&input["name"]);
        let split = report
            .splits
            .iter()
            .find(|s| s.input == name)
            .map_or("", |s| s.split.hf_name());
        let size = input["size"].as_u64().map_or("unknown".into(), group);
        let sha = match &input["sha256"] {
            serde_json::Value::String(s) => format!("`{s}`"),
            _ => "unknown (stdin)".into(),
        };
        let _ = writeln!(out, "| {split} | `{name}` | {size} | {sha} |");
    }
    out.push_str(
        "\nEach Parquet file holds the same record in its metadata (`sudoku-batch provenance \
         FILE` prints it), and `export.json` beside this card holds it with the counts.\n\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_stay_few_and_cover_everything() {
        assert_eq!(bin_width(17, 30), 1);
        assert_eq!(bin_width(0, 19), 1);
        assert_eq!(bin_width(0, 20), 2);
        assert_eq!(bin_width(0, 99), 5);
        assert_eq!(bin_width(0, 1000), 100);
        assert_eq!(bin_width(-5, 5), 1);
        let mut a = Histogram::new();
        a.insert(17, 3);
        a.insert(60, 1);
        let mut b = Histogram::new();
        b.insert(25, 2);
        let t = histogram(&[(Split::Train, &a), (Split::Test, &b)], true);
        let rows: Vec<&str> = t.lines().skip(2).filter(|l| !l.is_empty()).collect();
        assert!(rows.len() <= 20, "{t}");
        assert!(rows[0].starts_with("| 15–19 |"), "{t}");
        let sum = |col: usize| -> u64 {
            rows.iter()
                .map(|r| {
                    r.split('|')
                        .nth(col)
                        .unwrap()
                        .trim()
                        .parse::<u64>()
                        .unwrap()
                })
                .sum()
        };
        assert_eq!((sum(2), sum(3)), (4, 2), "{t}");
        assert_eq!(
            histogram(&[(Split::Train, &Histogram::new())], false),
            "No values.\n\n"
        );
        let t = histogram(&[(Split::Train, &b)], false);
        assert!(t.contains("| [25, 26) | 2 |"), "{t}");
    }
}
