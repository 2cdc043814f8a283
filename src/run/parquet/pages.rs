//! Parquet files laid out by hand: the pages of each column chunk from values that are already
//! in Parquet's plain layout, then the footer.
//!
//! Why not the parquet crate's writer: it takes text as one reference-counted `ByteArray` per
//! value, compares every value for its statistics, runs its level and dictionary encoders value
//! by value, and builds each column chunk in memory before copying it into the file; on `solve`
//! of easy puzzles that was most of what Parquet cost over CSV (docs/speed.md). Our columns are
//! simpler than what it serves: flat, every column optional (null = an empty CSV field), nearly
//! all values present. So the buffers hold the values as the page does (an integer as 8 bytes, a
//! text value as its 4-byte length and its bytes), and a data page is a header, its definition
//! levels (a few run-length runs) and a slice of that buffer, written straight to the file. The
//! crate still provides what is easy to get wrong: the thrift types of the page headers and the
//! metadata, the footer writer, the codecs.
//!
//! The word columns (status, class, …) are dictionary-encoded: a dictionary page of their few
//! distinct values, then each value's index, run-length encoded (runs only, which the hybrid
//! encoding allows: these columns come in long runs).

use std::collections::HashMap;
use std::io::Write;

use parquet::basic::{Compression as Codec, Encoding};
use parquet::compression::{create_codec, CodecOptionsBuilder};
use parquet::data_type::ByteArray;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::{
    ColumnChunkMetaData, FileMetaData, KeyValue, ParquetMetaData, ParquetMetaDataWriter,
    RowGroupMetaData,
};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::format::{DataPageHeader, DictionaryPageHeader, PageHeader, PageType};
use parquet::schema::types::SchemaDescPtr;
use parquet::thrift::{TCompactOutputProtocol, TSerializable};

/// Rows per data page at most (a page of grids is then about 700 kB; the usual page size is 1 MB).
pub const PAGE_ROWS: usize = 1 << 13;
/// A dictionary is given up (the column written plain) past this many distinct values…
const DICTIONARY_VALUES: usize = 1 << 12;
/// …or this many bytes.
const DICTIONARY_BYTES: usize = 1 << 20;

/// One column's values for a row group, in the page layout.
pub enum Values<'a> {
    Int(&'a [i64]),
    Float(&'a [f64]),
    Bool(&'a [bool]),
    /// Text: each value as its length (4 bytes, little-endian) and its bytes, one after the
    /// other; `ends[i]` is where value `i` ends in `data`.
    Text {
        data: &'a [u8],
        ends: &'a [usize],
    },
}

/// Where text value `i` starts in its page layout, from [`Values::Text`]'s `ends`.
pub fn text_offset(ends: &[usize], i: usize) -> usize {
    i.checked_sub(1).map_or(0, |j| ends[j])
}

/// Appends a text value to `data` in the page layout, and where it ends to `ends`.
pub fn push_text(data: &mut Vec<u8>, ends: &mut Vec<usize>, value: &[u8]) {
    // A value of 4 GiB or more cannot be a Parquet byte array; rows are at most kilobytes.
    let len = u32::try_from(value.len()).unwrap_or(u32::MAX);
    data.extend_from_slice(&len.to_le_bytes());
    data.extend_from_slice(value);
    ends.push(data.len());
}

/// Appends `value` in Parquet's unsigned LEB128 form.
fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends `runs` (value, length) as the RLE/bit-packed hybrid encoding's run-length runs, each
/// value in `width` bits rounded up to whole bytes.
fn rle_runs(out: &mut Vec<u8>, width: u8, runs: impl Iterator<Item = (u32, usize)>) {
    let bytes = usize::from(width).div_ceil(8);
    for (value, len) in runs {
        varint(out, (len as u64) << 1);
        out.extend_from_slice(&value.to_le_bytes()[..bytes]);
    }
}

/// The runs of equal values in `values`, as (value, length).
fn runs<T: Copy + PartialEq>(values: &[T]) -> impl Iterator<Item = (T, usize)> + '_ {
    let mut rest = values;
    std::iter::from_fn(move || {
        let (&first, _) = rest.split_first()?;
        let len = rest.iter().position(|&v| v != first).unwrap_or(rest.len());
        rest = &rest[len..];
        Some((first, len))
    })
}

/// A word column's dictionary: its distinct values in order of first appearance (plain
/// layout), and each row value's index.
struct Dictionary {
    plain: Vec<u8>,
    entries: Vec<(usize, usize)>,
    indices: Vec<u32>,
}

impl Dictionary {
    /// The dictionary of `data`, or `None` when it would be too large to pay (or empty).
    fn of(data: &[u8], ends: &[usize]) -> Option<Dictionary> {
        if ends.is_empty() {
            return None;
        }
        let mut plain = Vec::new();
        let mut entries: Vec<(usize, usize)> = Vec::new();
        let mut index: HashMap<&[u8], u32> = HashMap::new();
        let mut indices = Vec::with_capacity(ends.len());
        let mut last: Option<(&[u8], u32)> = None;
        let mut start = 0;
        for &end in ends {
            let value = &data[start..end];
            start = end;
            let i = match last {
                Some((v, i)) if v == value => i,
                _ => {
                    let next = entries.len() as u32;
                    let i = *index.entry(value).or_insert(next);
                    if i == next {
                        if entries.len() == DICTIONARY_VALUES
                            || plain.len() + value.len() > DICTIONARY_BYTES
                        {
                            return None;
                        }
                        entries.push((plain.len() + 4, plain.len() + value.len()));
                        plain.extend_from_slice(value);
                    }
                    last = Some((value, i));
                    i
                }
            };
            indices.push(i);
        }
        Some(Dictionary {
            plain,
            entries,
            indices,
        })
    }

    /// The smallest and largest value (bytewise, Parquet's order for UTF-8).
    fn min_max(&self) -> Option<(ByteArray, ByteArray)> {
        let values = self.entries.iter().map(|&(s, e)| &self.plain[s..e]);
        let min = values.clone().min()?;
        let max = values.max()?;
        Some((ByteArray::from(min.to_vec()), ByteArray::from(max.to_vec())))
    }
}

/// The chunk's statistics: min, max and nulls, as the crate's writer gives them (NaN left
/// out of a float's range, a zero bound signed as the format asks).
fn statistics(values: &Values, nulls: u64, words: Option<&Dictionary>) -> Option<Statistics> {
    fn range<T: Copy + PartialOrd>(v: impl Iterator<Item = T>) -> Option<(T, T)> {
        v.fold(None, |acc, x| match acc {
            None => Some((x, x)),
            Some((lo, hi)) => Some((if x < lo { x } else { lo }, if x > hi { x } else { hi })),
        })
    }
    let nulls = Some(nulls);
    Some(match (values, words) {
        (Values::Int(v), _) => {
            let r = range(v.iter().copied());
            Statistics::Int64(
                ValueStatistics::new(r.map(|r| r.0), r.map(|r| r.1), None, nulls, false)
                    .with_backwards_compatible_min_max(true),
            )
        }
        (Values::Float(v), _) => {
            let r = range(v.iter().copied().filter(|x| !x.is_nan()));
            let min = r.map(|r| if r.0 == 0.0 { -0.0 } else { r.0 });
            let max = r.map(|r| if r.1 == 0.0 { 0.0 } else { r.1 });
            Statistics::Double(
                ValueStatistics::new(min, max, None, nulls, false)
                    .with_backwards_compatible_min_max(true),
            )
        }
        (Values::Bool(v), _) => {
            let r = range(v.iter().copied());
            Statistics::Boolean(
                ValueStatistics::new(r.map(|r| r.0), r.map(|r| r.1), None, nulls, false)
                    .with_backwards_compatible_min_max(false),
            )
        }
        (Values::Text { .. }, Some(words)) => {
            let r = words.min_max();
            Statistics::ByteArray(
                ValueStatistics::new(
                    r.as_ref().map(|r| r.0.clone()),
                    r.map(|r| r.1),
                    None,
                    nulls,
                    false,
                )
                .with_backwards_compatible_min_max(false),
            )
        }
        // Min and max of grids and messages say nothing useful.
        (Values::Text { .. }, None) => return None,
    })
}

/// A Parquet file written column chunk by column chunk: the magic, the row groups' pages as
/// [`FileWriter::column`] lays them out, and at [`FileWriter::finish`] the footer (the crate's
/// metadata writer, from the metadata gathered here).
pub struct FileWriter<W: Write> {
    out: W,
    /// Bytes written so far: where the next page starts.
    at: u64,
    schema: SchemaDescPtr,
    codec: Codec,
    compress: Option<Box<dyn parquet::compression::Codec>>,
    created_by: String,
    key_value: Option<Vec<KeyValue>>,
    groups: Vec<RowGroupMetaData>,
    /// The row group being written: its columns so far, and its rows.
    columns: Vec<ColumnChunkMetaData>,
    rows: usize,
    /// A compressed page's bytes (reused).
    scratch: Vec<u8>,
}

impl<W: Write> FileWriter<W> {
    pub fn new(
        mut out: W,
        schema: SchemaDescPtr,
        codec: Codec,
        created_by: String,
        key_value: Option<Vec<KeyValue>>,
    ) -> Result<Self> {
        out.write_all(b"PAR1")?;
        let compress = create_codec(codec, &CodecOptionsBuilder::default().build())?;
        Ok(FileWriter {
            out,
            at: 4,
            schema,
            codec,
            compress,
            created_by,
            key_value,
            groups: Vec::new(),
            columns: Vec::new(),
            rows: 0,
            scratch: Vec::new(),
        })
    }

    /// Writes one page: its header, then `parts` (compressed together when the file is).
    fn page(&mut self, header: impl Fn(i32, i32) -> PageHeader, parts: &[&[u8]]) -> Result<()> {
        let size: usize = parts.iter().map(|p| p.len()).sum();
        let body: &[&[u8]] = match &mut self.compress {
            Some(c) => {
                let whole = parts.concat();
                self.scratch.clear();
                c.compress(&whole, &mut self.scratch)?;
                &[&self.scratch]
            }
            None => parts,
        };
        let stored: usize = body.iter().map(|p| p.len()).sum();
        let (Ok(size), Ok(stored)) = (i32::try_from(size), i32::try_from(stored)) else {
            return Err(ParquetError::General("a page of 2 GiB or more".into()));
        };
        let mut head = Vec::with_capacity(32);
        header(size, stored)
            .write_to_out_protocol(&mut TCompactOutputProtocol::new(&mut head))
            .map_err(|e| ParquetError::General(e.to_string()))?;
        self.out.write_all(&head)?;
        for part in body {
            self.out.write_all(part)?;
        }
        self.at += (head.len() + stored as usize) as u64;
        Ok(())
    }

    /// Writes the next column chunk of the current row group: `defs.len()` rows (`defs[r]` is
    /// 1 where row `r` has a value, 0 for a null; the values are those of the rows with 1, in
    /// order), dictionary-encoded when `words` and the values are few enough.
    pub fn column(&mut self, words: bool, defs: &[u8], values: Values) -> Result<()> {
        let Some(descr) = (self.columns.len() < self.schema.num_columns())
            .then(|| self.schema.column(self.columns.len()))
        else {
            return Err(ParquetError::General("more columns than the schema".into()));
        };
        let rows = defs.len();
        let dictionary = match (&values, words) {
            (Values::Text { data, ends }, true) => Dictionary::of(data, ends),
            _ => None,
        };
        let nulls = defs.iter().filter(|&&d| d == 0).count() as u64;
        let stats = statistics(&values, nulls, dictionary.as_ref());
        let start = self.at;

        let mut encodings = vec![Encoding::RLE];
        if let Some(d) = &dictionary {
            let n = d.entries.len() as i32;
            self.page(
                |size, stored| PageHeader {
                    dictionary_page_header: Some(DictionaryPageHeader {
                        num_values: n,
                        encoding: Encoding::PLAIN.into(),
                        is_sorted: Some(false),
                    }),
                    ..header(PageType::DICTIONARY_PAGE, size, stored)
                },
                &[&d.plain],
            )?;
            encodings.extend([Encoding::PLAIN, Encoding::RLE_DICTIONARY]);
        } else {
            encodings.push(Encoding::PLAIN);
        }
        let encoding = if dictionary.is_some() {
            Encoding::RLE_DICTIONARY
        } else {
            Encoding::PLAIN
        };
        let data_offset = self.at;

        let mut row = 0;
        let mut value = 0;
        let mut levels = Vec::new();
        let mut small = Vec::new();
        while row < rows {
            let end = (row + PAGE_ROWS).min(rows);
            let page_defs = &defs[row..end];
            let present = page_defs.iter().filter(|&&d| d == 1).count();
            // Definition levels: their length, then runs of 1-bit values.
            levels.clear();
            levels.extend_from_slice(&[0; 4]);
            rle_runs(
                &mut levels,
                1,
                runs(page_defs).map(|(d, n)| (u32::from(d), n)),
            );
            let len = (levels.len() - 4) as u32;
            levels[..4].copy_from_slice(&len.to_le_bytes());
            small.clear();
            let values: &[u8] = match (&dictionary, &values) {
                (Some(d), _) => {
                    let width = (u32::BITS
                        - (d.entries.len() as u32).saturating_sub(1).leading_zeros())
                    .max(1) as u8;
                    small.push(width);
                    rle_runs(&mut small, width, runs(&d.indices[value..value + present]));
                    &small
                }
                (None, Values::Bool(v)) => {
                    small.extend(v[value..value + present].chunks(8).map(|bits| {
                        bits.iter()
                            .enumerate()
                            .fold(0u8, |byte, (i, &b)| byte | (u8::from(b) << i))
                    }));
                    &small
                }
                (None, Values::Int(v)) => as_le_bytes(&v[value..value + present], &mut small),
                (None, Values::Float(v)) => as_le_bytes(&v[value..value + present], &mut small),
                (None, Values::Text { data, ends }) => {
                    &data[text_offset(ends, value)..text_offset(ends, value + present)]
                }
            };
            let num_values = (end - row) as i32;
            self.page(
                |size, stored| PageHeader {
                    data_page_header: Some(DataPageHeader {
                        num_values,
                        encoding: encoding.into(),
                        definition_level_encoding: Encoding::RLE.into(),
                        repetition_level_encoding: Encoding::RLE.into(),
                        statistics: None,
                    }),
                    ..header(PageType::DATA_PAGE, size, stored)
                },
                &[&levels, values],
            )?;
            value += present;
            row = end;
        }

        let size = (self.at - start) as i64;
        let mut metadata = ColumnChunkMetaData::builder(descr)
            .set_compression(self.codec)
            .set_encodings(encodings)
            .set_total_compressed_size(size)
            .set_total_uncompressed_size(size)
            .set_num_values(rows as i64)
            .set_data_page_offset(data_offset as i64)
            .set_dictionary_page_offset(dictionary.is_some().then_some(start as i64));
        if let Some(stats) = stats {
            metadata = metadata.set_statistics(stats);
        }
        self.columns.push(metadata.build()?);
        self.rows = rows;
        Ok(())
    }

    /// Ends the current row group (every column written).
    pub fn end_group(&mut self) -> Result<()> {
        if self.columns.len() != self.schema.num_columns() {
            return Err(ParquetError::General(
                "a row group without every column".into(),
            ));
        }
        let columns = std::mem::take(&mut self.columns);
        let first = columns.first().map_or(0, |c| {
            c.dictionary_page_offset().unwrap_or(c.data_page_offset())
        });
        let bytes = columns.iter().map(|c| c.compressed_size()).sum();
        let mut group = RowGroupMetaData::builder(self.schema.clone())
            .set_num_rows(self.rows as i64)
            .set_total_byte_size(bytes)
            .set_column_metadata(columns)
            .set_file_offset(first);
        // The ordinal is optional, and an i16: past 32,767 groups it is left out.
        if let Ok(ordinal) = i16::try_from(self.groups.len()) {
            group = group.set_ordinal(ordinal);
        }
        let group = group.build()?;
        self.groups.push(group);
        Ok(())
    }

    /// Writes the footer and returns the underlying writer.
    pub fn finish(mut self) -> Result<W> {
        let rows = self.groups.iter().map(|g| g.num_rows()).sum();
        let file = FileMetaData::new(
            1,
            rows,
            Some(self.created_by),
            self.key_value,
            self.schema,
            None,
        );
        let metadata = ParquetMetaData::new(file, self.groups);
        ParquetMetaDataWriter::new(&mut self.out, &metadata).finish()?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// A page header of `kind` with these sizes and no type-specific header yet.
fn header(kind: PageType, size: i32, stored: i32) -> PageHeader {
    PageHeader::new(kind, size, stored, None, None, None, None, None)
}

/// Numbers as Parquet's plain encoding lays them out: little-endian, one after the other.
fn as_le_bytes<'a, T: Copy + ToLe>(values: &[T], out: &'a mut Vec<u8>) -> &'a [u8] {
    out.reserve(8 * values.len());
    values
        .iter()
        .for_each(|v| out.extend_from_slice(&v.to_le()));
    out
}

/// A number's little-endian bytes.
trait ToLe {
    fn to_le(self) -> [u8; 8];
}

impl ToLe for i64 {
    fn to_le(self) -> [u8; 8] {
        self.to_le_bytes()
    }
}

impl ToLe for f64 {
    fn to_le(self) -> [u8; 8] {
        self.to_le_bytes()
    }
}
