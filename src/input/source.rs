//! Opening an input: a file or stdin, behind a byte counter (for the progress bar), with gzip and
//! zstd decompressed on the fly.
//!
//! Compression is recognised by magic bytes first — on stdin as well — and only then by a `.gz` /
//! `.zst` extension, so a damaged compressed file is reported as such rather than read as text.
//! Both are looked for in the first read's buffer, in place: an uncompressed input is read
//! through that one buffer, with nothing in between.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::{Input, READ_BUFFER};

/// A buffered byte source: a file or stdin behind a byte counter.
pub type Source = BufReader<Box<dyn Read + Send>>;

impl Input {
    /// Opens the input for buffered reading. Every byte read is added to `counter`.
    ///
    /// Gzip (concatenated members too) and zstd (concatenated frames too) are decompressed on
    /// the fly, recognised by their magic bytes — on stdin as well — or, failing that, by a
    /// `.gz` / `.zst` extension (so a damaged file is reported as such, not read as text).
    pub fn open(&self, counter: Arc<AtomicU64>) -> io::Result<Source> {
        let (raw, by_name): (Box<dyn Read + Send>, Compression) = match &self.path {
            None => (Box::new(io::stdin()), Compression::None),
            Some(p) => {
                let f = File::open(p)?;
                if f.metadata()?.is_dir() {
                    return Err(io::Error::other("is a directory"));
                }
                (Box::new(f), Compression::by_extension(p))
            }
        };
        let counted: Box<dyn Read + Send> = Box::new(Counted {
            inner: raw,
            counter,
        });
        // The first read, looked at in place: magic bytes say whether it is compressed, and
        // (decompressed) whether it is text.
        let mut buffered: Source = BufReader::with_capacity(READ_BUFFER, counted);
        let by_magic = magic(buffered.fill_buf()?);
        let mut source: Source = match by_magic.or(by_name) {
            Compression::None => buffered,
            Compression::Gzip => BufReader::with_capacity(
                READ_BUFFER,
                Box::new(flate2::bufread::MultiGzDecoder::new(buffered)),
            ),
            Compression::Zstd => BufReader::with_capacity(
                READ_BUFFER,
                Box::new(zstd::stream::read::Decoder::with_buffer(buffered)?),
            ),
        };
        // The first block of text is read here anyway: a NUL in it means binary.
        if super::detect::is_binary(source.fill_buf()?) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                super::detect::binary_message(),
            ));
        }
        Ok(source)
    }

    /// Refuses a regular file that is binary before anything is written (stdin and other
    /// streams are checked when they are read: looking would consume them).
    pub fn check_text(&self) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            return Ok(());
        }
        match self.open(Arc::new(AtomicU64::new(0))) {
            Err(e) if e.kind() == io::ErrorKind::InvalidData => Err(format!("{}: {e}", self.name)),
            // Other failures (unreadable, damaged) are reported when the run reads it.
            _ => Ok(()),
        }
    }
}

/// How an input is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    fn by_extension(p: &Path) -> Compression {
        if has_extension(p, "gz") {
            Compression::Gzip
        } else if has_extension(p, "zst") {
            Compression::Zstd
        } else {
            Compression::None
        }
    }

    /// This, unless it is `None`, else `other`.
    fn or(self, other: Compression) -> Compression {
        if self == Compression::None {
            other
        } else {
            self
        }
    }
}

/// The compression the first bytes of a stream announce.
fn magic(head: &[u8]) -> Compression {
    match head {
        [0x1f, 0x8b, ..] => Compression::Gzip,
        [0x28, 0xb5, 0x2f, 0xfd, ..] => Compression::Zstd,
        _ => Compression::None,
    }
}

/// The path without a `.gz` or `.zst` extension (`a.csv.gz` → `a.csv`).
pub(super) fn without_compression(p: &Path) -> PathBuf {
    if Compression::by_extension(p) == Compression::None {
        p.to_path_buf()
    } else {
        p.with_extension("")
    }
}

pub(super) fn has_extension(p: &Path, ext: &str) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// A reader that adds the bytes it reads to a shared counter (for the progress bar).
struct Counted<R> {
    inner: R,
    counter: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}
