//! The markdown export: the results as a table for a README, columns chosen by the caller.

use std::io::{self, Write};

use serde_json::Value;

use super::Fields;
use crate::human::group;

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
