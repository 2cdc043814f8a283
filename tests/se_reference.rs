//! Sudoku Explainer agreement: every puzzle of the reference set (`../shared/se-reference`,
//! rated by `serate` in SE 1.2.1 mode, see its README) must get the same ER, EP and ED, with the
//! same technique names, from `explain`; for the puzzles whose full step path the set holds,
//! every step must match (rating and SE's description). Disagreements are all printed, with the
//! puzzle, both ratings and the first step where the paths part, then the per-band tally.

use rayon::prelude::*;
use sudoku_batch::explain::{self, Explanation};
use sudoku_batch::Grid;

/// The ER bands the issue and the speed table use, by serate's ER in tenths.
const BANDS: [(u32, u32, &str); 7] = [
    (0, 20, "< 2.0"),
    (20, 40, "2.0-4.0"),
    (40, 62, "4.0-6.2"),
    (62, 75, "6.2-7.5"),
    (75, 85, "7.5-8.5"),
    (85, 95, "8.5-9.5"),
    (95, 1000, ">= 9.5"),
];

struct Reference {
    puzzle: String,
    er: String,
    ep: String,
    ed: String,
    names: [String; 3],
    steps: Option<Vec<(String, String)>>,
}

fn tenths(s: &str) -> u32 {
    let (a, b) = s.split_once('.').unwrap_or((s, "0"));
    a.parse::<u32>().unwrap_or(0) * 10 + b.parse::<u32>().unwrap_or(0)
}

#[cfg(se_reference)]
fn load() -> Vec<Reference> {
    let dir = std::path::Path::new(env!("SE_REFERENCE_DIR"));
    let tsv = std::fs::read_to_string(dir.join("ratings.tsv")).expect("ratings.tsv");
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name} in ratings.tsv"))
    };
    let (p, er, ep, ed, st) = (
        col("puzzle"),
        col("er"),
        col("ep"),
        col("ed"),
        col("status"),
    );
    let (ert, ept, edt) = (
        col("er_technique"),
        col("ep_technique"),
        col("ed_technique"),
    );
    let mut traces = std::collections::HashMap::new();
    let jsonl = std::fs::read_to_string(dir.join("traces.jsonl")).expect("traces.jsonl");
    for line in jsonl.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON trace");
        let steps = v["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .map(|s| {
                (
                    format!("{:.1}", s["rating"].as_f64().expect("rating")),
                    s["text"].as_str().expect("text").to_string(),
                )
            })
            .collect::<Vec<_>>();
        traces.insert(v["puzzle"].as_str().expect("puzzle").to_string(), steps);
    }
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.len() > st && f[st] == "ok")
        .map(|f| Reference {
            puzzle: f[p].to_string(),
            er: f[er].to_string(),
            ep: f[ep].to_string(),
            ed: f[ed].to_string(),
            names: [f[ert].to_string(), f[ept].to_string(), f[edt].to_string()],
            steps: traces.remove(f[p]),
        })
        .collect()
}

#[cfg(not(se_reference))]
fn load() -> Vec<Reference> {
    Vec::new()
}

/// What went wrong on one puzzle, as text; `None` when it agrees.
fn disagreement(r: &Reference, got: &Result<Explanation, explain::Unrated>) -> Option<String> {
    let e = match got {
        Ok(e) => e,
        Err(g) => {
            return Some(format!(
                "{}: no rating ({g}); serate {}/{}/{}",
                r.puzzle, r.er, r.ep, r.ed
            ))
        }
    };
    let ours = (
        e.rating.er.to_string(),
        e.rating.ep.to_string(),
        e.rating.ed.to_string(),
    );
    let names = [
        e.rating.er_technique.clone(),
        e.rating.ep_technique.clone(),
        e.rating.ed_technique.clone(),
    ];
    let mut out = String::new();
    if ours != (r.er.clone(), r.ep.clone(), r.ed.clone()) || names != r.names {
        out += &format!(
            "{}: serate {}/{}/{} ({}), ours {}/{}/{} ({})",
            r.puzzle, r.er, r.ep, r.ed, r.names[0], ours.0, ours.1, ours.2, names[0]
        );
    }
    if let Some(steps) = &r.steps {
        let mine: Vec<(String, String)> = e
            .steps
            .iter()
            .map(|s| (s.rating.to_string(), s.text.clone()))
            .collect();
        if &mine != steps {
            let i = mine
                .iter()
                .zip(steps)
                .position(|(a, b)| a != b)
                .unwrap_or(mine.len().min(steps.len()));
            if out.is_empty() {
                out += &format!("{}: same ratings, but the paths part", r.puzzle);
            }
            out += &format!(
                "\n    first difference at step {}: serate {:?}, ours {:?}",
                i + 1,
                steps.get(i),
                mine.get(i)
            );
        }
    }
    (!out.is_empty()).then_some(out)
}

#[test]
#[cfg_attr(
    not(se_reference),
    ignore = "needs Sudoku Explainer's reference ratings in ../shared/se-reference (or $SE_REFERENCE)"
)]
fn explain_agrees_with_serate_on_every_reference_puzzle() {
    let refs = load();
    assert!(
        refs.len() > 1000,
        "the reference set has {} puzzles",
        refs.len()
    );
    assert!(refs.iter().filter(|r| r.steps.is_some()).count() >= 300);
    let results: Vec<Option<String>> = refs
        .par_iter()
        .map(|r| {
            let grid: Grid = r.puzzle.parse().expect("a reference puzzle parses");
            let explained = explain::explain(&grid, explain::DEFAULT_BUDGET);
            // `rate` stops once the rest of the path cannot change a rating; it must give
            // what the whole path gives.
            let rated = explain::rate(&grid, explain::DEFAULT_BUDGET);
            let same = match (&explained, &rated) {
                (Ok(e), Ok(r)) => &e.rating == r,
                (Err(_), Err(_)) => true,
                _ => false,
            };
            match disagreement(r, &explained) {
                None if !same => Some(format!(
                    "{}: rate gives {:?}, explain {:?}",
                    r.puzzle,
                    rated.map(|x| (x.er, x.ep, x.ed, x.er_technique)),
                    explained.map(|x| x.rating.er)
                )),
                d => d,
            }
        })
        .collect();
    let mut table = String::from("band        agree / puzzles (traced paths agree / traced)\n");
    for (lo, hi, name) in BANDS {
        let in_band: Vec<usize> = (0..refs.len())
            .filter(|&i| (lo..hi).contains(&tenths(&refs[i].er)))
            .collect();
        let agree = in_band.iter().filter(|&&i| results[i].is_none()).count();
        let traced: Vec<&usize> = in_band
            .iter()
            .filter(|&&i| refs[i].steps.is_some())
            .collect();
        let traced_ok = traced.iter().filter(|&&&i| results[i].is_none()).count();
        table += &format!(
            "{name:<10} {agree:>5} / {:<5} ({traced_ok} / {})\n",
            in_band.len(),
            traced.len()
        );
    }
    let bad: Vec<&String> = results.iter().flatten().collect();
    for b in &bad {
        eprintln!("{b}");
    }
    eprintln!("{table}");
    assert!(
        bad.is_empty(),
        "{} of {} puzzles disagree with serate:\n{table}",
        bad.len(),
        refs.len()
    );
}
