//! The CSV export: a header of field names, then one row per result.

use std::io::{self, Write};

use serde_json::Value;

use super::Fields;

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
