//! Telling an input's layout from its first lines when no `--input-format` is given, and
//! refusing binary files before anything is read from them.
//!
//! The write-ups people learn from give puzzles three ways: 81 cells on a line (this tool's
//! fast path), a 9×9 block of cells separated by spaces, or a LeetCode JSON board. The first
//! line that is not blank or a `#` comment decides: a line starting with `[` is JSON, a row of
//! exactly 9 cells (or the `---+---` drawing of a printed grid) starts a block, anything else is
//! read line by line. Only that one line is looked at, in the bytes the reader had buffered
//! anyway, so a line-per-puzzle corpus pays one short scan per file and nothing per puzzle.
//!
//! A file with a NUL byte in its first block is binary (git and ripgrep decide the same way):
//! read as text it would give hundreds of `invalid` rows, so it is refused instead.

use std::io::{self, BufRead, Read};

use super::{InputFormat, Source, READ_BUFFER};
use crate::grid::cell_value;

/// How many leading bytes are looked at for a NUL (git's `buffer_is_binary` looks at 8,000).
pub const BINARY_PROBE: usize = 8000;

/// How far detection reads on when the first read held no deciding line (a file opening with
/// a long comment): past this the input is read line by line.
const LOOK_AHEAD: usize = 1 << 20;

/// Whether the first bytes of an input say it is binary: a NUL among the first
/// [`BINARY_PROBE`] bytes.
pub fn is_binary(head: &[u8]) -> bool {
    memchr::memchr(0, &head[..head.len().min(BINARY_PROBE)]).is_some()
}

/// The message for an input refused as binary.
pub fn binary_message() -> String {
    format!(
        "is a binary file (a NUL byte in its first {BINARY_PROBE} bytes), not puzzles as \
         text; nothing was read from it"
    )
}

/// The layout of `src`, told from its first deciding line, and a source that still starts at
/// the beginning. Nearly always the first read of the buffer decides, and `src` is handed back
/// as it was.
pub fn detect(mut src: Source) -> io::Result<(InputFormat, Source)> {
    let first = src.fill_buf()?;
    if let Some(format) = decide(first, first.is_empty()) {
        return Ok((format, src));
    }
    // No deciding line in the first read (a pipe delivering a little at a time, or a long
    // comment): read on into a prefix, then hand back the prefix followed by the rest.
    let mut prefix = first.to_vec();
    let n = prefix.len();
    src.consume(n);
    let mut at_end = false;
    while decide(&prefix, false).is_none() && prefix.len() < LOOK_AHEAD {
        let chunk = src.fill_buf()?;
        if chunk.is_empty() {
            at_end = true;
            break;
        }
        prefix.extend_from_slice(chunk);
        let n = chunk.len();
        src.consume(n);
    }
    let format = decide(&prefix, true).unwrap_or(InputFormat::Line);
    let rest: Box<dyn Read + Send> = if at_end {
        Box::new(io::Cursor::new(prefix))
    } else {
        Box::new(io::Cursor::new(prefix).chain(src))
    };
    Ok((format, io::BufReader::with_capacity(READ_BUFFER, rest)))
}

/// The layout the first deciding line of `head` gives, or `None` when `head` holds none yet
/// (`at_end`: `head` is all there is, so a last line without a newline counts, and no deciding
/// line means lines).
fn decide(head: &[u8], at_end: bool) -> Option<InputFormat> {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let mut rest = head;
    loop {
        let (line, complete) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], true),
            None => (rest, at_end),
        };
        let text = line.trim_ascii();
        let skip = text.is_empty() || text[0] == b'#';
        if !skip {
            if text[0] == b'[' {
                return Some(InputFormat::Json);
            }
            // A row of 9 cells is short: a long unfinished line is not one.
            if complete || text.len() > 256 {
                return Some(if is_block_row(text) || is_rule(text) {
                    InputFormat::Block
                } else {
                    InputFormat::Line
                });
            }
        }
        if !complete {
            return at_end.then_some(InputFormat::Line);
        }
        match memchr::memchr(b'\n', rest) {
            Some(i) => rest = &rest[i + 1..],
            None => return Some(InputFormat::Line),
        }
    }
}

/// A block's row: exactly 9 cells, with only spaces, tabs, `,` and `|` between them.
fn is_block_row(text: &[u8]) -> bool {
    let mut cells = 0;
    for &b in text {
        if b.is_ascii_whitespace() || b == b',' || b == b'|' {
            continue;
        }
        if cell_value(b).is_none() {
            return false;
        }
        cells += 1;
        if cells > 9 {
            return false;
        }
    }
    cells == 9
}

/// The drawing of a printed grid: `---+---+---`, `|`, `=` and nothing else.
fn is_rule(text: &[u8]) -> bool {
    text.iter().any(|&b| b == b'-' || b == b'=')
        && text
            .iter()
            .all(|b| matches!(b, b'-' | b'+' | b'=' | b'|') || b.is_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format_of(text: &str) -> InputFormat {
        decide(text.as_bytes(), true).unwrap()
    }

    #[test]
    fn the_first_deciding_line_decides() {
        let leet =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        assert_eq!(format_of(leet), InputFormat::Line);
        assert_eq!(format_of(&format!("# c\n\n{leet}\n")), InputFormat::Line);
        assert_eq!(format_of("0 6 1 0 3 0 0 2 0\n"), InputFormat::Block);
        assert_eq!(
            format_of("\u{feff}* 6 1 * 3 * * 2 *\r\n"),
            InputFormat::Block
        );
        assert_eq!(format_of("061030020\n"), InputFormat::Block);
        assert_eq!(format_of("+-------+-------+\n"), InputFormat::Block);
        assert_eq!(format_of("5 3 . | . 7 . | . . .\n"), InputFormat::Block);
        assert_eq!(format_of("  [[\"5\",\"3\"]]"), InputFormat::Json);
        assert_eq!(format_of("[\n"), InputFormat::Json);
        // Eight or ten cells, text, a CSV header: lines (each then an invalid or CSV row).
        assert_eq!(format_of("0 6 1 0 3 0 0 2\n"), InputFormat::Line);
        assert_eq!(format_of("0 6 1 0 3 0 0 2 0 0\n"), InputFormat::Line);
        assert_eq!(format_of("hello\n"), InputFormat::Line);
        assert_eq!(format_of("quizzes,solutions\n"), InputFormat::Line);
        assert_eq!(format_of(""), InputFormat::Line);
        assert_eq!(format_of("# only a comment"), InputFormat::Line);
        // Not at the end: an unfinished short line or nothing but comments decides nothing.
        assert_eq!(decide(b"# c\n0 6 1", false), None);
        assert_eq!(decide(b"# c\n", false), None);
        assert_eq!(decide(b"[", false), Some(InputFormat::Json));
    }

    #[test]
    fn detection_reads_on_past_a_first_read_without_a_deciding_line() {
        // A reader handing out a few bytes at a time, as a pipe may.
        struct Trickle(Vec<u8>, usize);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(3).min(self.0.len() - self.1);
                buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
                self.1 += n;
                Ok(n)
            }
        }
        let text = b"# a comment\n0 6 1 0 3 0 0 2 0\n".to_vec();
        let src: Source = io::BufReader::new(Box::new(Trickle(text.clone(), 0)));
        let (format, mut src) = detect(src).unwrap();
        assert_eq!(format, InputFormat::Block);
        let mut back = Vec::new();
        src.read_to_end(&mut back).unwrap();
        assert_eq!(back, text, "nothing lost or repeated");
    }

    #[test]
    fn binary_means_a_nul_in_the_first_block() {
        assert!(is_binary(b"53..7\0"));
        assert!(!is_binary(b"53..7....\n"));
        let mut late = vec![b'.'; BINARY_PROBE];
        late.push(0);
        assert!(!is_binary(&late));
    }
}
