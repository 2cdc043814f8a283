//! Output files that never look complete before they are: `-o FILE` is written as
//! `FILE.partial` and renamed to `FILE` only when the run ends normally, and `--resume` picks a
//! `.partial` file up again.
//!
//! Resuming needs no side file: rows are written in input order and each row names its line
//! (and its input, with several), so the last complete row of the partial file says exactly
//! where to go on. A run killed with SIGKILL may leave a cut last row; [`repair`] keeps only the
//! complete, well-formed rows — each must parse, carry every column and follow the row before it
//! in input order — truncates the file after them, and reports the point to resume from.

use std::fs::OpenOptions;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::input::Input;
use crate::pipeline::ResumePoint;
use crate::report::{self, OutputFormat, Status, COLUMNS};

/// Whether writing `out` would overwrite one of `inputs` (both exist and are the same file once
/// links and relative parts are resolved).
pub fn overwrites_input<'a>(out: &Path, inputs: impl IntoIterator<Item = &'a Path>) -> bool {
    let Ok(out) = out.canonicalize() else {
        return false;
    };
    inputs
        .into_iter()
        .any(|p| p.canonicalize().is_ok_and(|p| p == out))
}

/// Whether `path` exists and is not a regular file (a device such as /dev/null, a FIFO, a
/// terminal): such an output is written directly, never through a `.partial` file and a rename,
/// which would replace it.
pub fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file())
}

/// The name a run writes `path` under until it ends: `path` + `.partial`.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// What a partial output file held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resume {
    /// Complete rows kept.
    pub rows: u64,
    /// Bytes of the file that were dropped (a cut or damaged tail).
    pub dropped_bytes: u64,
    /// Where to go on; `None` when no row was kept.
    pub after: Option<ResumePoint>,
    /// Whether the kept part starts with the header (CSV only).
    pub has_header: bool,
}

/// Scans the partial output at `path`, written in `format` for `inputs` (with a header when
/// `header`), keeps its complete rows, truncates the rest, and says where to resume. An error is
/// a message for the user.
pub fn repair(
    path: &Path,
    format: OutputFormat,
    inputs: &[Input],
    header: bool,
) -> Result<Resume, String> {
    let with_file = inputs.len() > 1;
    let mut expected_header = Vec::new();
    if header {
        report::write_header(&mut expected_header, format, with_file);
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let total = file
        .metadata()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    let mut kept = 0u64;
    let mut rows = 0u64;
    let mut has_header = false;
    let mut after: Option<ResumePoint> = None;
    let read_line = |reader: &mut BufReader<std::fs::File>, line: &mut Vec<u8>| {
        line.clear();
        reader.read_until(b'\n', line)
    };
    if !expected_header.is_empty() {
        let n =
            read_line(&mut reader, &mut line).map_err(|e| format!("{}: {e}", path.display()))?;
        if n > 0 && line == expected_header {
            has_header = true;
            kept = n as u64;
        } else if n > 0 && line.ends_with(b"\n") {
            return Err(format!(
                "{}: its first line is not the header this run writes; was it written with \
                 other options (--format, number of inputs)?",
                path.display()
            ));
        }
    }
    if has_header || expected_header.is_empty() {
        loop {
            let n = read_line(&mut reader, &mut line)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if n == 0 || !line.ends_with(b"\n") {
                break;
            }
            let Some(point) = parse_row(&line, format, inputs) else {
                break;
            };
            let in_order = after.is_none_or(|a| (point.input, point.line) > (a.input, a.line));
            if !in_order {
                break;
            }
            after = Some(point);
            rows += 1;
            kept += n as u64;
        }
    }
    let f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    f.set_len(kept)
        .map_err(|e| format!("{}: cannot truncate: {e}", path.display()))?;
    Ok(Resume {
        rows,
        dropped_bytes: total - kept.min(total),
        after,
        has_header,
    })
}

/// The (input, line) of one complete output row, or `None` when it is not a whole row.
fn parse_row(line: &[u8], format: OutputFormat, inputs: &[Input]) -> Option<ResumePoint> {
    let with_file = inputs.len() > 1;
    let (line_no, status, file): (u64, String, Option<String>) = match format {
        OutputFormat::Csv => {
            let mut rdr = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(line);
            let rec = rdr.records().next()?.ok()?;
            if rec.len() != COLUMNS.len() + usize::from(with_file) {
                return None;
            }
            (
                rec.get(0)?.parse().ok()?,
                rec.get(2)?.to_string(),
                rec.get(COLUMNS.len()).map(str::to_string),
            )
        }
        OutputFormat::Jsonl => {
            let v: serde_json::Value = serde_json::from_slice(line).ok()?;
            let obj = v.as_object()?;
            if COLUMNS.iter().any(|c| !obj.contains_key(*c)) {
                return None;
            }
            (
                obj.get("line")?.as_u64()?,
                obj.get("status")?.as_str()?.to_string(),
                obj.get("file").and_then(|f| f.as_str()).map(str::to_string),
            )
        }
    };
    if !Status::ALL.iter().any(|s| s.as_str() == status) {
        return None;
    }
    let input = match (with_file, file) {
        (false, _) => 0,
        (true, Some(name)) => inputs.iter().position(|i| i.name == name)?,
        (true, None) => return None,
    };
    Some(ResumePoint {
        input,
        line: line_no,
    })
}

/// Moves the finished partial file to its final name.
pub fn finish(partial: &Path, path: &Path) -> io::Result<()> {
    std::fs::rename(partial, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "line,puzzle,status,solutions,solution,guesses,solve_ns,error\n";

    fn tmp(name: &str, text: &str) -> PathBuf {
        let p =
            std::env::temp_dir().join(format!("sudoku-batch-out-{}-{name}", std::process::id()));
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn keeps_complete_rows_and_cuts_the_rest() {
        let inputs = [Input::from_arg("a.txt")];
        let text = format!("{HEADER}3,p,solved,1,s,0,5,\n7,,invalid,0,,0,0,\"bad, row\"\n9,p,sol");
        let p = tmp("cut.csv", &text);
        let r = repair(&p, OutputFormat::Csv, &inputs, true).unwrap();
        assert_eq!(r.rows, 2);
        assert_eq!(r.after, Some(ResumePoint { input: 0, line: 7 }));
        assert!(r.has_header);
        assert_eq!(r.dropped_bytes, "9,p,sol".len() as u64);
        let kept = std::fs::read_to_string(&p).unwrap();
        assert!(kept.ends_with("row\"\n") && !kept.contains("sol\n"));
        // A row out of order, or with a missing column, ends the kept part.
        let p = tmp(
            "order.csv",
            &format!("{HEADER}3,p,solved,1,s,0,5,\n2,p,solved,1,s,0,5,\n"),
        );
        assert_eq!(
            repair(&p, OutputFormat::Csv, &inputs, true).unwrap().rows,
            1
        );
        let p = tmp("short.csv", &format!("{HEADER}3,p,solved,1,s,0,5\n"));
        let r = repair(&p, OutputFormat::Csv, &inputs, true).unwrap();
        assert_eq!((r.rows, r.after), (0, None));
        assert_eq!(std::fs::read_to_string(&p).unwrap(), HEADER);
    }

    #[test]
    fn header_and_inputs() {
        let inputs = [Input::from_arg("a.txt"), Input::from_arg("b.txt")];
        let header = HEADER.replace('\n', ",file\n");
        let p = tmp(
            "multi.csv",
            &format!("{header}5,p,solved,1,s,0,5,,a.txt\n2,p,solved,1,s,0,5,,b.txt\n"),
        );
        let r = repair(&p, OutputFormat::Csv, &inputs, true).unwrap();
        assert_eq!(r.after, Some(ResumePoint { input: 1, line: 2 }));
        // A cut header is dropped whole; a different header is refused.
        let p = tmp("cuthead.csv", "line,puz");
        let r = repair(&p, OutputFormat::Csv, &inputs, true).unwrap();
        assert_eq!((r.has_header, r.rows), (false, 0));
        assert_eq!(std::fs::read(&p).unwrap(), b"");
        let p = tmp("other.csv", HEADER);
        assert!(repair(&p, OutputFormat::Csv, &inputs, true).is_err());
        // Without a header (--no-header) rows start at once.
        let p = tmp("nohead.csv", "5,p,solved,1,s,0,5,,a.txt\n6,p,sol");
        let r = repair(&p, OutputFormat::Csv, &inputs, false).unwrap();
        assert_eq!((r.rows, r.has_header), (1, false));
        assert_eq!(r.after, Some(ResumePoint { input: 0, line: 5 }));
    }

    #[test]
    fn json_lines() {
        let inputs = [Input::from_arg("-")];
        let row = r#"{"line":4,"puzzle":null,"status":"invalid","solutions":0,"solution":null,"guesses":0,"solve_ns":0,"error":"x"}"#;
        let p = tmp("rows.jsonl", &format!("{row}\n{row}\n{{\"line\":9"));
        let r = repair(&p, OutputFormat::Jsonl, &inputs, true).unwrap();
        // The second row repeats line 4: not in order, so it is dropped with the cut tail.
        assert_eq!(r.rows, 1);
        assert_eq!(r.after, Some(ResumePoint { input: 0, line: 4 }));
        assert_eq!(
            partial_path(Path::new("x/out.csv")),
            Path::new("x/out.csv.partial")
        );
    }
}
