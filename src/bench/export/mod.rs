//! Benchmark exports, hyperfine-style: one file per format — [`json`] (a `machine` object and a
//! `results` array), [`csv`] (one row per result), [`markdown`] (a table), [`svg`] (the
//! solve-time histogram) — each to a file or `-` for stdout.
//!
//! A result is an ordered list of named JSON values ([`Fields`]), so the three formats are
//! written from one description and cannot drift apart: the CSV header is the JSON keys in the
//! same order, and the markdown table shows the columns it is given.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use serde_json::Value;

pub mod csv;
pub mod json;
pub mod markdown;
pub mod svg;

pub use self::csv::write_csv;
pub use json::{object, write_json};
pub use markdown::{cell, write_markdown, Column, Style};

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
