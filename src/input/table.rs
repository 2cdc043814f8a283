//! CSV tables: the header, columns looked up by name, and records numbered by the line they
//! start on — the one CSV layer under `solve`'s puzzle column and `verify`'s puzzle and solution
//! columns.
//!
//! Line numbers are the contract of every row (`--resume` and error messages rely on them being
//! strictly increasing). The csv crate counts lines by LF only, so in a file that ends its lines
//! with a lone CR every record would claim the header's line; such a record is counted as the
//! next line instead. A malformed record becomes one row that says so, never a stopped run.

use std::io;

use super::Source;

/// A CSV input after its header.
pub struct Table {
    rdr: csv::Reader<Source>,
    record: csv::ByteRecord,
    line: u64,
    /// The column names, trimmed, a UTF-8 BOM dropped.
    pub names: Vec<String>,
}

/// One record: its line, and its fields or why it could not be read.
pub struct Row<'a> {
    pub line: u64,
    pub fields: Result<&'a csv::ByteRecord, String>,
}

impl Table {
    /// Reads the header. An error is a message for the user.
    pub fn new(src: Source) -> Result<Table, String> {
        let mut rdr = csv::ReaderBuilder::new()
            .flexible(true)
            .comment(Some(b'#'))
            .from_reader(src);
        let headers = rdr
            .byte_headers()
            .map_err(|e| format!("cannot read the CSV header: {e}"))?;
        let names = headers
            .iter()
            .map(|h| {
                let h = h.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(h);
                String::from_utf8_lossy(h).trim().to_string()
            })
            .collect();
        Ok(Table {
            rdr,
            record: csv::ByteRecord::new(),
            line: 1,
            names,
        })
    }

    /// The index of the column `named`, or else of the first of `defaults` present. The error
    /// names what was looked for, what there is, and the flag (`flag`) that chooses another.
    pub fn column(
        &self,
        named: Option<&str>,
        defaults: &[&str],
        what: &str,
        flag: &str,
    ) -> Result<usize, String> {
        let wanted: Vec<&str> = match named {
            Some(n) => vec![n],
            None => defaults.to_vec(),
        };
        wanted
            .iter()
            .find_map(|w| self.names.iter().position(|n| n == w))
            .ok_or_else(|| {
                format!(
                    "no {what}column named {} in the CSV header (columns: {}); choose one with {flag}",
                    wanted
                        .iter()
                        .map(|w| format!("'{w}'"))
                        .collect::<Vec<_>>()
                        .join(" or "),
                    self.names.join(", ")
                )
            })
    }

    /// The next record, `None` at the end; an `Err` only for an I/O failure.
    pub fn next_row(&mut self) -> io::Result<Option<Row<'_>>> {
        match self.rdr.read_byte_record(&mut self.record) {
            Ok(false) => Ok(None),
            Ok(true) => {
                let reported = self.record.position().map_or(0, |p| p.line());
                self.line = reported.max(self.line + 1);
                Ok(Some(Row {
                    line: self.line,
                    fields: Ok(&self.record),
                }))
            }
            Err(e) => match e.into_kind() {
                csv::ErrorKind::Io(e) => Err(e),
                kind => {
                    self.line += 1;
                    Ok(Some(Row {
                        line: self.line,
                        fields: Err(format!("bad CSV row: {kind:?}")),
                    }))
                }
            },
        }
    }

    /// The line reading has reached (for error messages).
    pub fn line_number(&self) -> u64 {
        self.line
    }
}
