//! Lines with a bounded buffer, and the one rule for which lines hold no record.
//!
//! [`LineReader`] keeps at most [`MAX_LINE`] bytes of any line and skips the rest, so a
//! multi-megabyte line with no newline costs no more memory than a normal one and still yields
//! exactly one (invalid) record. Every reader of every format — puzzles, blocks, CSV, pairs —
//! skips the same lines: blank ones and `#` comments ([`is_skippable`]).

use std::io::{self, BufRead};

use super::Source;

/// The most bytes of one line that are kept; the rest of a longer line is read and dropped.
pub const MAX_LINE: usize = 64 * 1024;

/// One line as read.
pub struct Line<'a> {
    /// 1-based line number.
    pub number: u64,
    /// Whether the line was longer than [`MAX_LINE`] and cut there.
    pub truncated: bool,
    /// The kept bytes, without the line ending.
    pub text: &'a [u8],
}

/// Reads lines with a bounded buffer: CR before LF is dropped, a UTF-8 BOM at the very start is
/// dropped, and at most [`MAX_LINE`] bytes of a line are kept.
pub struct LineReader {
    inner: Source,
    buf: Vec<u8>,
    line: u64,
    truncated: bool,
    /// Bytes of `inner`'s buffer that the line last returned still borrows: consumed at the
    /// start of the next call (a line that lies whole in the buffer is never copied).
    pending: usize,
}

impl LineReader {
    pub fn new(inner: Source) -> Self {
        LineReader {
            inner,
            buf: Vec::with_capacity(256),
            line: 0,
            truncated: false,
            pending: 0,
        }
    }

    /// The next line, without its line ending, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.inner.consume(std::mem::take(&mut self.pending));
        self.buf.clear();
        self.truncated = false;
        // Fast path: the whole line, newline included, is already in the buffer. It is handed
        // out in place and consumed on the next call.
        let found = memchr::memchr(b'\n', self.inner.buffer());
        if let Some(end) = found {
            if end <= MAX_LINE {
                let whole = self.inner.buffer();
                self.pending = end + 1;
                self.line += 1;
                let mut text = &whole[..end];
                if self.line == 1 && text.starts_with(b"\xEF\xBB\xBF") {
                    text = &text[3..];
                }
                if let [rest @ .., b'\r'] = text {
                    text = rest;
                }
                return Ok(Some(Line {
                    number: self.line,
                    truncated: false,
                    text,
                }));
            }
        }
        let mut any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, done) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            let room = MAX_LINE - self.buf.len();
            if take > room {
                self.truncated = true;
            }
            self.buf.extend_from_slice(&chunk[..take.min(room)]);
            self.inner.consume(if done { take + 1 } else { take });
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line += 1;
        if self.line == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.buf.drain(..3);
        }
        if !self.truncated && self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Ok(Some(Line {
            number: self.line,
            truncated: self.truncated,
            text: &self.buf,
        }))
    }

    /// The 1-based number of the line last returned.
    pub fn line_number(&self) -> u64 {
        self.line
    }

    /// Whether the next line can be read without waiting on the source (for flushing partial
    /// chunks when the input is interactive).
    pub fn has_buffered(&self) -> bool {
        self.inner.buffer().len() > self.pending
    }
}

/// Whether a line is blank or a comment (no record).
pub fn is_skippable(line: &[u8]) -> bool {
    match line.iter().find(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(&b) => b == b'#',
    }
}
