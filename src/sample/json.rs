//! The fields of a JSON lines row, in the order written and with each value's JSON text kept,
//! so that a row read from JSON lines is written back unchanged. serde_json (without its
//! `preserve_order` feature) sorts an object's keys and re-prints numbers in its own form (`1e2`
//! comes back as `100.0`), so the line is checked with it and then cut into fields by a small
//! scan that trusts the checked structure.

use super::Value;

/// The top-level fields of a JSON object, in the order written: a string as its text, `null`
/// as null, anything else as its JSON text, unchanged. An error says why it is not an object.
pub fn object_fields(line: &[u8]) -> Result<Vec<(String, Value)>, String> {
    // Checked first, so the scan below may trust the structure.
    let whole: serde_json::Value =
        serde_json::from_slice(line).map_err(|e| format!("not JSON: {e}"))?;
    if !whole.is_object() {
        return Err("not a JSON object".into());
    }
    let bad = || "not a JSON object".to_string();
    let mut fields = Vec::new();
    let mut i = skip_space(line, 0) + 1;
    loop {
        i = skip_space(line, i);
        match line.get(i) {
            Some(b'}') | None => break,
            Some(b',') => {
                i += 1;
                continue;
            }
            Some(b'"') => {}
            Some(_) => return Err(bad()),
        }
        let key_end = string_end(line, i);
        let key: String =
            serde_json::from_slice(line.get(i..key_end).ok_or_else(bad)?).map_err(|_| bad())?;
        i = skip_space(line, key_end);
        if line.get(i) != Some(&b':') {
            return Err(bad());
        }
        i = skip_space(line, i + 1);
        let end = value_end(line, i);
        let raw = line.get(i..end).ok_or_else(bad)?;
        let value = match raw.first() {
            Some(b'"') => Value::Text(serde_json::from_slice(raw).map_err(|_| bad())?),
            _ if raw == b"null" => Value::Null,
            _ => Value::Json(String::from_utf8(raw.to_vec()).map_err(|_| bad())?),
        };
        fields.push((key, value));
        i = end;
    }
    Ok(fields)
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while b
        .get(i)
        .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
    {
        i += 1;
    }
    i
}

/// The index after the string starting at `start` (its opening quote).
fn string_end(b: &[u8], start: usize) -> usize {
    let mut j = start + 1;
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// The index after the value starting at `start`.
fn value_end(b: &[u8], start: usize) -> usize {
    match b.get(start) {
        Some(b'"') => string_end(b, start),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = start;
            while let Some(&c) = b.get(j) {
                match c {
                    b'"' => {
                        j = string_end(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            b.len()
        }
        _ => {
            let mut j = start;
            while b
                .get(j)
                .is_some_and(|c| !matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n'))
            {
                j += 1;
            }
            j
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_objects_keep_their_order_and_raw_values() {
        let line = br#" {"line": 3, "puzzle":"5.3\"x", "er":9.0,"steps":[{"a":[1,"]"]}],"e":null,"t":true} "#;
        let f = object_fields(line).unwrap();
        let keys: Vec<&str> = f.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["line", "puzzle", "er", "steps", "e", "t"]);
        assert_eq!(f[0].1, Value::Json("3".into()));
        assert_eq!(f[1].1, Value::Text("5.3\"x".into()));
        assert_eq!(f[2].1, Value::Json("9.0".into()));
        assert_eq!(f[3].1, Value::Json(r#"[{"a":[1,"]"]}]"#.into()));
        assert_eq!(f[4].1, Value::Null);
        assert_eq!(f[5].1, Value::Json("true".into()));
        assert!(object_fields(b"[1,2]").is_err());
        assert!(object_fields(b"{\"a\":").is_err());
        assert!(object_fields(b"").is_err());
        assert_eq!(object_fields(b"{}").unwrap(), vec![]);
    }
}
