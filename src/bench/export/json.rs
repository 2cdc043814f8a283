//! The JSON export: `{"machine": …, "settings": …, "results": [ … ]}`, fields in column order.

use std::io::{self, Write};

use serde_json::{Map, Value};

use super::Fields;

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
