//! Benchmark exports, hyperfine-style: JSON (a `machine` object and a `results` array), CSV (one
//! row per result) and a markdown table, each to a file or `-` for stdout.
//!
//! A result is an ordered list of named JSON values ([`Fields`]), so the three formats are
//! written from one description and cannot drift apart: the CSV header is the JSON keys in the
//! same order, and the markdown table shows the columns it is given.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use serde_json::{Map, Value};

use crate::report::group;

/// One result: field names and values, in column order.
pub type Fields = Vec<(&'static str, Value)>;

/// Where an export goes: a file, or stdout for `-`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dest {
    Stdout,
    File(PathBuf),
}

impl Dest {
    /// `-` is stdout, anything else a path.
    pub fn from_arg(arg: &str) -> Dest {
        if arg == "-" {
            Dest::Stdout
        } else {
            Dest::File(PathBuf::from(arg))
        }
    }

    /// The name for messages.
    pub fn name(&self) -> String {
        match self {
            Dest::Stdout => "-".into(),
            Dest::File(p) => p.display().to_string(),
        }
    }

    /// Opens the destination for writing (creating or truncating a file). Opening every export
    /// before the benchmark runs makes a bad path fail at once, not after minutes of timing.
    pub fn open(&self) -> io::Result<Box<dyn Write>> {
        Ok(match self {
            Dest::Stdout => Box::new(io::stdout()),
            Dest::File(p) => Box::new(BufWriter::new(File::create(p)?)),
        })
    }
}

/// A JSON object with the fields in order.
pub fn object(fields: &Fields) -> Value {
    let mut m = Map::new();
    for (k, v) in fields {
        m.insert((*k).to_string(), v.clone());
    }
    Value::Object(m)
}

/// The JSON export: `{"machine": …, "settings": …, "results": [ … ]}`, pretty-printed.
pub fn write_json(
    w: &mut dyn Write,
    machine: Value,
    settings: Value,
    results: &[Fields],
) -> io::Result<()> {
    let doc = serde_json::json!({
        "machine": machine,
        "settings": settings,
        "results": results.iter().map(object).collect::<Vec<_>>(),
    });
    serde_json::to_writer_pretty(&mut *w, &doc)?;
    writeln!(w)?;
    w.flush()
}

/// The CSV export: a header of field names, then one row per result. Strings are written as
/// they are, numbers in full precision, `null` as an empty field, arrays as `;`-joined values.
pub fn write_csv(w: &mut dyn Write, results: &[Fields]) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(&mut *w);
    if let Some(first) = results.first() {
        out.write_record(first.iter().map(|(k, _)| *k))?;
    }
    for r in results {
        out.write_record(r.iter().map(|(_, v)| csv_value(v)))?;
    }
    out.flush()?;
    drop(out);
    w.flush()
}

fn csv_value(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(csv_value).collect::<Vec<_>>().join(";"),
        v => v.to_string(),
    }
}

/// How a markdown column shows its value.
#[derive(Clone, Copy, Debug)]
pub enum Style {
    /// As it is (strings without quotes); file paths are shortened to their last component.
    Text,
    /// A file name: the last path component, in backquotes.
    File,
    /// An integer with thousands separators.
    Int,
    /// A number with this many decimals.
    Fixed(usize),
    /// A percentage with this many decimals.
    Pct(usize),
    /// A fraction (1.0 = 100 %) shown as a percentage with this many decimals.
    Fraction(usize),
}

/// A markdown column: its header, the field it shows, how.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    pub header: &'static str,
    pub key: &'static str,
    pub style: Style,
}

/// Formats one value for a table cell.
pub fn cell(v: &Value, style: Style) -> String {
    match (style, v) {
        (_, Value::Null) => "–".into(),
        (Style::File, Value::String(s)) => {
            let base = std::path::Path::new(s)
                .file_name()
                .map_or_else(|| s.clone(), |b| b.to_string_lossy().into_owned());
            format!("`{}`", base.replace('|', "\\|"))
        }
        (_, Value::String(s)) => s.replace('|', "\\|"),
        (Style::Int, v) => v
            .as_f64()
            .map_or_else(|| v.to_string(), |x| group(x.max(0.0).round() as u64)),
        (Style::Fixed(d), v) => v
            .as_f64()
            .map_or_else(|| v.to_string(), |x| format!("{x:.d$}")),
        (Style::Pct(d), v) => v
            .as_f64()
            .map_or_else(|| v.to_string(), |x| format!("{x:.d$} %")),
        (Style::Fraction(d), v) => v
            .as_f64()
            .map_or_else(|| v.to_string(), |x| format!("{:.d$} %", x * 100.0)),
        (Style::Text | Style::File, v) => v.to_string(),
    }
}

/// The markdown export: a table with the given columns (numbers right-aligned), then an
/// italic line describing the machine.
pub fn write_markdown(
    w: &mut dyn Write,
    columns: &[Column],
    results: &[Fields],
    machine_line: &str,
) -> io::Result<()> {
    let headers: Vec<&str> = columns.iter().map(|c| c.header).collect();
    writeln!(w, "| {} |", headers.join(" | "))?;
    let rule: Vec<&str> = columns
        .iter()
        .map(|c| match c.style {
            Style::Text | Style::File => "---",
            _ => "---:",
        })
        .collect();
    writeln!(w, "|{}|", rule.join("|"))?;
    for r in results {
        let cells: Vec<String> = columns
            .iter()
            .map(|c| {
                let v = r
                    .iter()
                    .find(|(k, _)| *k == c.key)
                    .map_or(&Value::Null, |(_, v)| v);
                cell(v, c.style)
            })
            .collect();
        writeln!(w, "| {} |", cells.join(" | "))?;
    }
    writeln!(w)?;
    writeln!(w, "_{machine_line}_")?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Vec<Fields> {
        vec![
            vec![
                ("file", json!("../data/a|b.txt")),
                ("puzzles", json!(12345)),
                ("rate", json!(1.5)),
                ("note", Value::Null),
            ],
            vec![
                ("file", json!("c.txt")),
                ("puzzles", json!(1)),
                ("rate", json!(2.26)),
                ("note", json!("x,y")),
            ],
        ]
    }

    #[test]
    fn csv_has_header_and_rows() {
        let mut buf = Vec::new();
        write_csv(&mut buf, &sample()).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(
            text,
            "file,puzzles,rate,note\n../data/a|b.txt,12345,1.5,\nc.txt,1,2.26,\"x,y\"\n"
        );
    }

    #[test]
    fn json_keeps_order_and_values() {
        let mut buf = Vec::new();
        write_json(&mut buf, json!({"cpu": null}), json!({}), &sample()).unwrap();
        let v: Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(v["results"][0]["puzzles"], 12345);
        assert!(v["results"][0]["note"].is_null());
        assert_eq!(v["results"][1]["note"], "x,y");
        assert!(v["machine"]["cpu"].is_null());
    }

    #[test]
    fn markdown_table() {
        let cols = [
            Column {
                header: "file",
                key: "file",
                style: Style::File,
            },
            Column {
                header: "puzzles",
                key: "puzzles",
                style: Style::Int,
            },
            Column {
                header: "rate",
                key: "rate",
                style: Style::Fixed(1),
            },
            Column {
                header: "note",
                key: "note",
                style: Style::Text,
            },
        ];
        let mut buf = Vec::new();
        write_markdown(&mut buf, &cols, &sample(), "a machine").unwrap();
        let text = String::from_utf8(buf).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "| file | puzzles | rate | note |");
        assert_eq!(lines[1], "|---|---:|---:|---|");
        assert_eq!(lines[2], "| `a\\|b.txt` | 12,345 | 1.5 | – |");
        assert_eq!(lines[3], "| `c.txt` | 1 | 2.3 | x,y |");
        assert_eq!(lines[5], "_a machine_");
    }
}
