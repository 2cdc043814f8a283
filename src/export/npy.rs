//! NumPy's `.npy` format, version 1.0, written by hand: the arrays of the HRM layout are plain
//! C-order blocks of `uint8` or little-endian `int32`, so a writer is a magic string, a header
//! dictionary and the bytes — no dependency needed.
//!
//! The header is a fixed [`HEADER_LEN`] bytes (padded with spaces, ending in a newline, as the
//! format asks, and a multiple of 64 so the data stays aligned), so an array whose length is only
//! known at the end can be streamed: a placeholder first, the rows, then the real header written
//! over the placeholder ([`NpyWriter::finish`]). [`parse_header`] reads the header back, for tests
//! and for checking a file without NumPy.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The whole header (magic, version, length, dictionary) in bytes: room for any shape of two
/// 20-digit dimensions, and a multiple of 64.
pub const HEADER_LEN: usize = 128;

const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// The element types the HRM layout uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// `uint8` (`|u1`).
    U8,
    /// Little-endian `int32` (`<i4`).
    I32,
}

impl Dtype {
    /// The `descr` NumPy writes for it.
    pub fn descr(self) -> &'static str {
        match self {
            Dtype::U8 => "|u1",
            Dtype::I32 => "<i4",
        }
    }

    pub fn size(self) -> usize {
        match self {
            Dtype::U8 => 1,
            Dtype::I32 => 4,
        }
    }
}

/// The [`HEADER_LEN`]-byte header of a C-order array of `dtype` and `shape`.
pub fn header(dtype: Dtype, shape: &[u64]) -> Vec<u8> {
    let dims = match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {dims}, }}",
        dtype.descr()
    );
    let mut out = Vec::with_capacity(HEADER_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&((HEADER_LEN - 10) as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    // A shape too long for the fixed header cannot happen with two u64 dimensions; the
    // assertion keeps the invariant visible.
    debug_assert!(out.len() < HEADER_LEN);
    out.resize(HEADER_LEN - 1, b' ');
    out.push(b'\n');
    out
}

/// What a `.npy` header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub descr: String,
    pub fortran_order: bool,
    pub shape: Vec<u64>,
    /// Where the data starts.
    pub data_offset: usize,
}

/// Reads the header of a version 1.0 or 2.0 `.npy` file from its first bytes.
pub fn parse_header(bytes: &[u8]) -> Result<Header, String> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err("not a .npy file (no \\x93NUMPY magic)".into());
    }
    let (len, start) = match bytes[6] {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => return Err(format!("unsupported .npy version {v}")),
    };
    let dict = bytes
        .get(start..start + len)
        .ok_or("the header is cut short")?;
    let dict = std::str::from_utf8(dict).map_err(|_| "the header is not text")?;
    let value = |key: &str| -> Result<&str, String> {
        let at = dict
            .find(&format!("'{key}':"))
            .ok_or_else(|| format!("no '{key}' in the header"))?;
        Ok(dict[at + key.len() + 3..].trim_start())
    };
    let descr = value("descr")?;
    let descr = descr
        .strip_prefix('\'')
        .and_then(|d| d.split_once('\''))
        .map(|(d, _)| d.to_string())
        .ok_or("a malformed descr")?;
    let fortran_order = value("fortran_order")?.starts_with("True");
    let shape = value("shape")?;
    let shape = shape
        .strip_prefix('(')
        .and_then(|s| s.split_once(')'))
        .map(|(s, _)| s)
        .ok_or("a malformed shape")?;
    let shape = shape
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<u64>()
                .map_err(|_| format!("a malformed shape: {s}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Header {
        descr,
        fortran_order,
        shape,
        data_offset: start + len,
    })
}

/// An array written row by row into a `.npy` file, its length settled at the end.
pub struct NpyWriter {
    out: BufWriter<File>,
    path: PathBuf,
    dtype: Dtype,
    /// The shape after the first dimension (`[81]` for grids, `[]` for a vector).
    row: Vec<u64>,
    /// Elements per row.
    row_len: usize,
    /// Elements written.
    elements: u64,
}

impl NpyWriter {
    /// A new file at `path` for rows of shape `row` (empty: a vector).
    pub fn create(path: &Path, dtype: Dtype, row: &[u64]) -> io::Result<NpyWriter> {
        let mut out = BufWriter::with_capacity(1 << 18, File::create(path)?);
        out.write_all(&[0u8; HEADER_LEN])?;
        Ok(NpyWriter {
            out,
            path: path.to_path_buf(),
            dtype,
            row: row.to_vec(),
            row_len: row.iter().product::<u64>() as usize,
            elements: 0,
        })
    }

    /// Appends `uint8` elements.
    pub fn u8s(&mut self, values: &[u8]) -> io::Result<()> {
        debug_assert_eq!(self.dtype, Dtype::U8);
        self.elements += values.len() as u64;
        self.out.write_all(values)
    }

    /// Appends one `int32` element.
    pub fn i32(&mut self, v: i32) -> io::Result<()> {
        debug_assert_eq!(self.dtype, Dtype::I32);
        self.elements += 1;
        self.out.write_all(&v.to_le_bytes())
    }

    /// Elements written so far.
    pub fn len(&self) -> u64 {
        self.elements
    }

    pub fn is_empty(&self) -> bool {
        self.elements == 0
    }

    /// Writes the header with the final shape over the placeholder and closes the file;
    /// returns the first dimension. Elements that do not fill whole rows are an error.
    pub fn finish(mut self) -> io::Result<u64> {
        let per_row = self.row_len.max(1) as u64;
        if self.elements % per_row != 0 {
            return Err(io::Error::other(format!(
                "{}: {} elements do not make whole rows of {per_row}",
                self.path.display(),
                self.elements
            )));
        }
        let rows = self.elements / per_row;
        let mut shape = vec![rows];
        shape.extend_from_slice(&self.row);
        self.out.flush()?;
        let file = self.out.get_mut();
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&header(self.dtype, &shape))?;
        file.flush()?;
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_aligned_and_read_back() {
        for (dtype, shape) in [
            (Dtype::U8, vec![0u64, 81]),
            (Dtype::U8, vec![12_345_678_901, 81]),
            (Dtype::I32, vec![1]),
            (Dtype::I32, vec![u64::MAX]),
            (Dtype::I32, vec![u64::MAX, u64::MAX]),
        ] {
            let h = header(dtype, &shape);
            assert_eq!(h.len(), HEADER_LEN);
            assert_eq!(h.len() % 64, 0);
            assert_eq!(h[HEADER_LEN - 1], b'\n');
            let back = parse_header(&h).unwrap();
            assert_eq!(back.descr, dtype.descr());
            assert!(!back.fortran_order);
            assert_eq!(back.shape, shape);
            assert_eq!(back.data_offset, HEADER_LEN);
        }
        // NumPy writes a vector's shape as a one-element tuple.
        let h = header(Dtype::I32, &[7]);
        assert!(String::from_utf8_lossy(&h).contains("'shape': (7,), }"));
    }

    #[test]
    fn a_streamed_array_gets_its_final_shape() {
        let dir = std::env::temp_dir().join(format!("sb-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.npy");
        let mut w = NpyWriter::create(&path, Dtype::U8, &[3]).unwrap();
        w.u8s(&[1, 2, 3, 4, 5, 6]).unwrap();
        assert_eq!(w.finish().unwrap(), 2);
        let bytes = std::fs::read(&path).unwrap();
        let h = parse_header(&bytes).unwrap();
        assert_eq!(h.shape, vec![2, 3]);
        assert_eq!(&bytes[h.data_offset..], &[1, 2, 3, 4, 5, 6]);

        let mut w = NpyWriter::create(&path, Dtype::I32, &[]).unwrap();
        for v in [0, -1, 1 << 30] {
            w.i32(v).unwrap();
        }
        assert_eq!(w.finish().unwrap(), 3);
        let bytes = std::fs::read(&path).unwrap();
        let h = parse_header(&bytes).unwrap();
        assert_eq!((h.descr.as_str(), h.shape.clone()), ("<i4", vec![3]));
        let data: Vec<i32> = bytes[h.data_offset..]
            .chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(data, [0, -1, 1 << 30]);

        let mut w = NpyWriter::create(&path, Dtype::U8, &[81]).unwrap();
        w.u8s(&[0; 80]).unwrap();
        assert!(w.finish().is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn other_files_are_refused() {
        assert!(parse_header(b"PAR1....").is_err());
        assert!(parse_header(b"\x93NUMPY\x01\x00\xff\x00{'descr'").is_err());
    }
}
