//! The export's inputs: puzzle files (any format the other commands read), CSV rows and Parquet
//! rows (what `solve` and `rate` write, or any table with a puzzle column), each read as [`Row`]s
//! that carry their other columns along, typed, so ratings and sources reach the dataset.
//!
//! Why typing needs a look at every value first: a CSV column's type is what all its values
//! parse as (integers, numbers, booleans, else text), and a dataset's splits must share one
//! schema, so [`scan`] reads each CSV input once before the export starts (a Parquet input's
//! schema says it outright) and [`union`] merges the splits' columns by name. Values travel as
//! text from then on: the Parquet writer parses each by its column's type, as it does for every
//! command's rows.
//!
//! What is carried: every column but the puzzle and solution columns, and the columns that
//! describe a solving run rather than the puzzle ([`DROPPED`]: every exported puzzle is solved
//! with one solution). A carried column named like one the export writes itself ([`OWN`]) gets
//! an `origin_` prefix: a `solve` output's `line` is the puzzle's line in the corpus it came
//! from, `origin_line` in the dataset, next to the export's own `line` in the CSV.

use std::io;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use parquet::basic::{LogicalType, Type as Physical};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;

use crate::grid::Grid;
use crate::input::{self, Input, InputFormat, Records, Table};
use crate::run::parquet::{kind_of, parse_int, Kind};

/// Input columns that describe a solving run, not the puzzle: left out of the dataset.
pub const DROPPED: [&str; 4] = ["status", "solutions", "error", "solve_ns"];

/// The columns the export writes itself; an input column with one of these names is carried as
/// `origin_NAME`.
pub const OWN: [&str; 4] = ["puzzle", "solution", "source", "line"];

/// The solution columns looked for when `--solution-column` is not given (`solutions` not in
/// a table with a `status` column: there, as in `solve` and `rate` rows, it counts solutions).
pub const SOLUTION_COLUMNS: [&str; 2] = ["solution", "solutions"];

/// How an input is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Puzzles, one record each, in one of the readers' formats (CSV excluded).
    Puzzles(InputFormat),
    /// CSV with a header: a puzzle column and any others.
    Csv,
    /// A Parquet file: a puzzle column and any others.
    Parquet,
}

/// An input with the way it is read.
#[derive(Clone, Debug)]
pub struct Source {
    pub input: Input,
    pub format: Format,
}

/// The column options shared by every input.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The puzzle column of a table [default: the first of quizzes, puzzle, puzzles].
    pub column: Option<String>,
    /// The solution column [default: the first of solution, solutions, when there is one].
    pub solution_column: Option<String>,
    /// The input format of every non-Parquet input (`None`: told from each).
    pub input_format: Option<InputFormat>,
}

/// A column carried into the dataset: its name there and its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: String,
    pub kind: Kind,
}

impl Source {
    /// How `input` is read: Parquet by its magic bytes or a `.parquet` name, else CSV or puzzles
    /// as the other commands tell them. A binary file that is not Parquet is refused here.
    pub fn new(input: Input, explicit: Option<InputFormat>) -> Result<Source, String> {
        let parquet = input.path.as_deref().is_some_and(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("parquet"))
                || starts_with_par1(p)
        });
        let format = if parquet {
            if input.path.is_none() {
                return Err(format!("{}: a Parquet input must be a file", input.name));
            }
            Format::Parquet
        } else {
            input.check_text()?;
            match input.format(explicit) {
                InputFormat::Csv => Format::Csv,
                f => Format::Puzzles(f),
            }
        };
        Ok(Source { input, format })
    }
}

fn starts_with_par1(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == b"PAR1"
}

/// Where the puzzle and solution are among a table's columns, and what else is carried.
#[derive(Clone, Debug)]
struct Layout {
    puzzle: usize,
    solution: Option<usize>,
    /// (index among the input's columns, name in the dataset).
    carried: Vec<(usize, String)>,
}

/// The first of `wanted` (or `named`) among `names`; the error names what was looked for, what
/// there is and the flag that chooses another.
fn find(
    names: &[String],
    named: Option<&str>,
    defaults: &[&str],
    what: &str,
    flag: &str,
) -> Result<usize, String> {
    let wanted: Vec<&str> = named.map_or_else(|| defaults.to_vec(), |n| vec![n]);
    wanted
        .iter()
        .find_map(|w| names.iter().position(|n| n == w))
        .ok_or_else(|| {
            format!(
                "no {what} column named {} (columns: {}); choose one with {flag}",
                wanted
                    .iter()
                    .map(|w| format!("'{w}'"))
                    .collect::<Vec<_>>()
                    .join(" or "),
                names.join(", ")
            )
        })
}

fn layout(names: &[String], opts: &Options) -> Result<Layout, String> {
    let puzzle = find(
        names,
        opts.column.as_deref(),
        &input::DEFAULT_COLUMNS,
        "puzzle",
        "--column",
    )?;
    let solution = match &opts.solution_column {
        Some(n) => Some(find(names, Some(n), &[], "solution", "--solution-column")?),
        // In this tool's own rows (those with a `status` column) `solutions` is a count.
        None => SOLUTION_COLUMNS
            .iter()
            .filter(|w| **w == "solution" || !names.iter().any(|n| n == "status"))
            .find_map(|w| names.iter().position(|n| n == w)),
    }
    .filter(|&s| s != puzzle);
    let mut carried: Vec<(usize, String)> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        if i == puzzle || Some(i) == solution || DROPPED.contains(&name.as_str()) {
            continue;
        }
        let mut out = if name.is_empty() {
            format!("column_{}", i + 1)
        } else if OWN.contains(&name.as_str()) {
            format!("origin_{name}")
        } else {
            name.clone()
        };
        let base = out.clone();
        let mut n = 2;
        while OWN.contains(&out.as_str()) || carried.iter().any(|(_, c)| *c == out) {
            out = format!("{base}_{n}");
            n += 1;
        }
        carried.push((i, out));
    }
    Ok(Layout {
        puzzle,
        solution,
        carried,
    })
}

/// The type a CSV value parses as (`None` for an empty field, a null).
fn value_kind(field: &[u8]) -> Option<Kind> {
    if field.is_empty() {
        None
    } else if parse_int(field).is_some() {
        Some(Kind::Int)
    } else if looks_like_number(field) {
        Some(Kind::Float)
    } else if field == b"true" || field == b"false" {
        Some(Kind::Bool)
    } else {
        Some(Kind::Text)
    }
}

/// A decimal number (`1.5`, `-2e3`): digits with a point or exponent, nothing else; not the
/// words Rust would also parse (`inf`, `NaN`).
fn looks_like_number(field: &[u8]) -> bool {
    field.iter().any(u8::is_ascii_digit)
        && field
            .iter()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
        && std::str::from_utf8(field)
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .is_some_and(f64::is_finite)
}

/// The type of a column holding values of both types (`None`: no value yet).
fn merge(a: Option<Kind>, b: Option<Kind>) -> Option<Kind> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) if x == y => Some(x),
        (Some(Kind::Int), Some(Kind::Float)) | (Some(Kind::Float), Some(Kind::Int)) => {
            Some(Kind::Float)
        }
        _ => Some(Kind::Text),
    }
}

/// The columns `source` carries into the dataset, typed: none for puzzle files; a Parquet
/// file's from its schema; a CSV file's from all its values (read once here). An error names
/// the input.
pub fn scan(source: &Source, opts: &Options) -> Result<Vec<Column>, String> {
    let name = &source.input.name;
    match source.format {
        Format::Puzzles(_) => Ok(Vec::new()),
        Format::Parquet => {
            let (_, names, kinds) = open_parquet(source)?;
            let layout = layout(&names, opts).map_err(|e| format!("{name}: {e}"))?;
            Ok(layout
                .carried
                .into_iter()
                .map(|(i, n)| Column {
                    name: n,
                    kind: kinds[i],
                })
                .collect())
        }
        Format::Csv => {
            let src = source
                .input
                .open(Arc::new(AtomicU64::new(0)))
                .map_err(|e| format!("{name}: {e}"))?;
            let mut table = Table::new(src).map_err(|e| format!("{name}:1: {e}"))?;
            let layout = layout(&table.names, opts).map_err(|e| format!("{name}:1: {e}"))?;
            let mut kinds: Vec<Option<Kind>> = vec![None; layout.carried.len()];
            loop {
                let reached = table.line_number() + 1;
                let row = table
                    .next_row()
                    .map_err(|e| format!("{name}:{reached}: {e}"))?;
                let Some(row) = row else { break };
                let Ok(fields) = row.fields else { continue };
                for ((i, _), kind) in layout.carried.iter().zip(kinds.iter_mut()) {
                    *kind = merge(*kind, fields.get(*i).and_then(value_kind));
                }
            }
            Ok(layout
                .carried
                .into_iter()
                .zip(kinds)
                // A column with no value at all takes the type its name has in this tool's
                // outputs (a `rating` column of unrated rows is still a number).
                .map(|((_, n), k)| Column {
                    kind: k.unwrap_or_else(|| kind_of(&n)),
                    name: n,
                })
                .collect())
        }
    }
}

/// The columns of all inputs, merged by name in order of first appearance; a column typed
/// differently by two inputs takes the type both fit (integers and numbers: numbers; else text).
pub fn union(per_input: &[Vec<Column>]) -> Vec<Column> {
    let mut out: Vec<Column> = Vec::new();
    for c in per_input.iter().flatten() {
        match out.iter_mut().find(|o| o.name == c.name) {
            Some(o) => o.kind = merge(Some(o.kind), Some(c.kind)).unwrap_or(Kind::Text),
            None => out.push(c.clone()),
        }
    }
    out
}

/// The Parquet type of a column of a Parquet input: integers, numbers and booleans as they are,
/// anything else (text, dates, decimals, nested values) as text.
fn parquet_kind(field: &parquet::schema::types::Type) -> Kind {
    if !field.is_primitive() {
        return Kind::Text;
    }
    let info = field.get_basic_info();
    let logical = info.logical_type();
    match field.get_physical_type() {
        Physical::BOOLEAN => Kind::Bool,
        Physical::INT32 | Physical::INT64 => match logical {
            None => Kind::Int,
            Some(LogicalType::Integer {
                bit_width,
                is_signed,
            }) if is_signed || bit_width < 64 => Kind::Int,
            Some(_) => Kind::Text,
        },
        Physical::FLOAT | Physical::DOUBLE => Kind::Float,
        _ => Kind::Text,
    }
}

/// A Parquet input opened: its reader, top-level column names and their types.
type OpenParquet = (SerializedFileReader<std::fs::File>, Vec<String>, Vec<Kind>);

fn open_parquet(source: &Source) -> Result<OpenParquet, String> {
    let name = &source.input.name;
    let path = source
        .input
        .path
        .as_ref()
        .ok_or_else(|| format!("{name}: a Parquet input must be a file"))?;
    let file = std::fs::File::open(path)
        .map_err(|e| format!("cannot read {name}: {}", input::io_reason(&e)))?;
    let reader = SerializedFileReader::new(file)
        .map_err(|e| format!("{name}: not a readable Parquet file: {e}"))?;
    let fields = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .root_schema()
        .get_fields()
        .to_vec();
    let names = fields.iter().map(|f| f.name().to_string()).collect();
    let kinds = fields.iter().map(|f| parquet_kind(f)).collect();
    Ok((reader, names, kinds))
}

/// One input record: where it starts, its puzzle, the solution it claims, and its carried
/// fields in the dataset's column order (`None`: null).
#[derive(Clone, Debug)]
pub struct Row {
    /// The 1-based line where it starts (a Parquet row: its 1-based row number).
    pub line: u64,
    /// The puzzle, or why the record is not one (the CLI's wording).
    pub puzzle: Result<Grid, String>,
    /// The solution column's value, when the input has one and it is not empty.
    pub claim: Option<Result<Grid, String>>,
    pub fields: Vec<Option<String>>,
}

/// Rows from one input.
pub trait RowReader {
    /// The next row, `None` at the end; an error for an input that cannot be read on.
    fn next(&mut self) -> io::Result<Option<Row>>;
    /// The line (or Parquet row) reading has reached.
    fn line_number(&self) -> u64;
}

/// Opens `source` for reading its rows; `columns` are the dataset's carried columns (each row's
/// `fields` follow them). Every byte read from a text input is added to `counter`.
pub fn open(
    source: &Source,
    opts: &Options,
    columns: &[Column],
    counter: Arc<AtomicU64>,
) -> Result<Box<dyn RowReader>, String> {
    let name = &source.input.name;
    // Where each carried column of this input goes among `columns`.
    let positions = |layout: &Layout| -> Vec<Option<usize>> {
        layout
            .carried
            .iter()
            .map(|(_, n)| columns.iter().position(|c| c.name == *n))
            .collect()
    };
    match source.format {
        Format::Puzzles(format) => {
            let src = source
                .input
                .open(counter)
                .map_err(|e| format!("{name}: {e}"))?;
            let records = input::records(src, format, None).map_err(|e| format!("{name}: {e}"))?;
            Ok(Box::new(PuzzleRows {
                records,
                width: columns.len(),
            }))
        }
        Format::Csv => {
            let src = source
                .input
                .open(counter)
                .map_err(|e| format!("{name}: {e}"))?;
            let table = Table::new(src).map_err(|e| format!("{name}:1: {e}"))?;
            let layout = layout(&table.names, opts).map_err(|e| format!("{name}:1: {e}"))?;
            let positions = positions(&layout);
            Ok(Box::new(CsvRows {
                puzzle_name: table.names[layout.puzzle].clone(),
                table,
                layout,
                positions,
                width: columns.len(),
            }))
        }
        Format::Parquet => {
            let (reader, names, _) = open_parquet(source)?;
            let layout = layout(&names, opts).map_err(|e| format!("{name}: {e}"))?;
            let positions = positions(&layout);
            Ok(Box::new(ParquetRows {
                rows: reader.into_iter(),
                layout,
                positions,
                width: columns.len(),
                row: 0,
            }))
        }
    }
}

struct PuzzleRows {
    records: Box<dyn Records<input::Record>>,
    width: usize,
}

impl RowReader for PuzzleRows {
    fn next(&mut self) -> io::Result<Option<Row>> {
        Ok(self.records.next()?.map(|rec| Row {
            line: rec.line,
            puzzle: match (rec.puzzle, rec.candidates) {
                (Err(e), _) => Err(e.to_string()),
                (Ok(_), Some(_)) => {
                    Err("a pencilmark line: export reads puzzles (givens)".to_string())
                }
                (Ok(g), None) => Ok(g),
            },
            claim: None,
            fields: vec![None; self.width],
        }))
    }

    fn line_number(&self) -> u64 {
        self.records.line_number()
    }
}

/// A grid from a table's field, or why it is not one.
fn grid_field(text: &[u8]) -> Result<Grid, String> {
    Grid::parse_cells(text).map_err(|e| e.to_string())
}

struct CsvRows {
    table: Table,
    /// The puzzle column's name, for messages.
    puzzle_name: String,
    layout: Layout,
    positions: Vec<Option<usize>>,
    width: usize,
}

impl RowReader for CsvRows {
    fn next(&mut self) -> io::Result<Option<Row>> {
        let Some(row) = self.table.next_row()? else {
            return Ok(None);
        };
        let mut fields = vec![None; self.width];
        let fields_of = match row.fields {
            Err(why) => {
                return Ok(Some(Row {
                    line: row.line,
                    puzzle: Err(why),
                    claim: None,
                    fields,
                }))
            }
            Ok(f) => f,
        };
        let mut puzzle = match fields_of.get(self.layout.puzzle) {
            Some(p) => grid_field(p),
            None => Err(format!("this row has no '{}' field", self.puzzle_name)),
        };
        let claim = self
            .layout
            .solution
            .and_then(|s| fields_of.get(s))
            .filter(|s| !s.is_empty())
            .map(grid_field);
        for ((i, n), pos) in self.layout.carried.iter().zip(&self.positions) {
            let (Some(value), Some(pos)) = (fields_of.get(*i), pos) else {
                continue;
            };
            if value.is_empty() {
                continue;
            }
            match std::str::from_utf8(value) {
                Ok(v) => fields[*pos] = Some(v.to_string()),
                Err(_) if puzzle.is_ok() => {
                    puzzle = Err(format!("its '{n}' field is not UTF-8 text"));
                }
                Err(_) => {}
            }
        }
        Ok(Some(Row {
            line: row.line,
            puzzle,
            claim,
            fields,
        }))
    }

    fn line_number(&self) -> u64 {
        self.table.line_number()
    }
}

struct ParquetRows {
    rows: parquet::record::reader::RowIter<'static>,
    layout: Layout,
    positions: Vec<Option<usize>>,
    width: usize,
    row: u64,
}

/// A Parquet value as the text of a CSV field (`None`: null).
fn field_text(f: &Field) -> Option<String> {
    match f {
        Field::Null => None,
        Field::Str(s) => Some(s.clone()),
        Field::Bytes(b) => Some(String::from_utf8_lossy(b.data()).into_owned()),
        Field::Bool(b) => Some(b.to_string()),
        Field::Byte(v) => Some(v.to_string()),
        Field::Short(v) => Some(v.to_string()),
        Field::Int(v) => Some(v.to_string()),
        Field::Long(v) => Some(v.to_string()),
        Field::UByte(v) => Some(v.to_string()),
        Field::UShort(v) => Some(v.to_string()),
        Field::UInt(v) => Some(v.to_string()),
        Field::ULong(v) => Some(v.to_string()),
        Field::Float(v) => Some(v.to_string()),
        Field::Double(v) => Some(v.to_string()),
        other => Some(other.to_string()),
    }
}

impl RowReader for ParquetRows {
    fn next(&mut self) -> io::Result<Option<Row>> {
        let row = match self.rows.next() {
            None => return Ok(None),
            Some(Err(e)) => return Err(io::Error::other(e.to_string())),
            Some(Ok(r)) => r,
        };
        self.row += 1;
        let values: Vec<&Field> = row.get_column_iter().map(|(_, f)| f).collect();
        let text = |i: usize| values.get(i).and_then(|f| field_text(f));
        let puzzle = match text(self.layout.puzzle) {
            Some(p) => grid_field(p.as_bytes()),
            None => Err("the puzzle is null".to_string()),
        };
        let claim = self
            .layout
            .solution
            .and_then(text)
            .filter(|s| !s.is_empty())
            .map(|s| grid_field(s.as_bytes()));
        let mut fields = vec![None; self.width];
        for ((i, _), pos) in self.layout.carried.iter().zip(&self.positions) {
            if let Some(pos) = pos {
                fields[*pos] = text(*i).filter(|t| !t.is_empty());
            }
        }
        Ok(Some(Row {
            line: self.row,
            puzzle,
            claim,
            fields,
        }))
    }

    fn line_number(&self) -> u64 {
        self.row
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn values_are_typed_as_they_parse() {
        assert_eq!(value_kind(b""), None);
        assert_eq!(value_kind(b"12"), Some(Kind::Int));
        assert_eq!(value_kind(b"-3"), Some(Kind::Int));
        assert_eq!(value_kind(b"1.25"), Some(Kind::Float));
        assert_eq!(value_kind(b"2e3"), Some(Kind::Float));
        assert_eq!(value_kind(b"inf"), Some(Kind::Text));
        assert_eq!(value_kind(b"NaN"), Some(Kind::Text));
        assert_eq!(value_kind(b"99999999999999999999"), Some(Kind::Float));
        assert_eq!(value_kind(b"true"), Some(Kind::Bool));
        assert_eq!(value_kind(b"expert"), Some(Kind::Text));
        assert_eq!(value_kind(b"1.2.3"), Some(Kind::Text));
        assert_eq!(merge(Some(Kind::Int), Some(Kind::Float)), Some(Kind::Float));
        assert_eq!(merge(Some(Kind::Int), None), Some(Kind::Int));
        assert_eq!(merge(Some(Kind::Bool), Some(Kind::Int)), Some(Kind::Text));
    }

    #[test]
    fn run_columns_are_dropped_and_own_names_renamed() {
        let opts = Options::default();
        let l = layout(
            &names(&[
                "line",
                "puzzle",
                "status",
                "solutions",
                "clues",
                "guesses",
                "rating",
                "singles",
                "class",
                "error",
                "file",
            ]),
            &opts,
        )
        .unwrap();
        assert_eq!(l.puzzle, 1);
        // `solutions` counts solutions in this tool's rows: it is not a solution column.
        assert_eq!(l.solution, None);
        let kaggle = layout(&names(&["quizzes", "solutions"]), &opts).unwrap();
        assert_eq!(kaggle.solution, Some(1));
        let solved = layout(
            &names(&["puzzle", "solutions", "solution", "status"]),
            &opts,
        );
        assert_eq!(solved.unwrap().solution, Some(2));
        let carried: Vec<&str> = l.carried.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(
            carried,
            [
                "origin_line",
                "clues",
                "guesses",
                "rating",
                "singles",
                "class",
                "file"
            ]
        );
        let l = layout(
            &names(&["source", "question", "answer", "rating", "source", ""]),
            &Options {
                column: Some("question".into()),
                solution_column: Some("answer".into()),
                input_format: None,
            },
        )
        .unwrap();
        assert_eq!((l.puzzle, l.solution), (1, Some(2)));
        let carried: Vec<&str> = l.carried.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(
            carried,
            ["origin_source", "rating", "origin_source_2", "column_6"]
        );
        let err = layout(&names(&["a", "b"]), &opts).unwrap_err();
        assert!(err.contains("'quizzes' or 'puzzle' or 'puzzles'"), "{err}");
        assert!(err.contains("--column"), "{err}");
        let err = layout(
            &names(&["puzzle"]),
            &Options {
                solution_column: Some("x".into()),
                ..Options::default()
            },
        )
        .unwrap_err();
        assert!(err.contains("--solution-column"), "{err}");
    }

    #[test]
    fn columns_merge_by_name() {
        let c = |n: &str, k| Column {
            name: n.into(),
            kind: k,
        };
        let u = union(&[
            vec![c("rating", Kind::Int), c("class", Kind::Text)],
            vec![],
            vec![c("er", Kind::Float), c("rating", Kind::Float)],
        ]);
        assert_eq!(
            u,
            vec![
                c("rating", Kind::Float),
                c("class", Kind::Text),
                c("er", Kind::Float)
            ]
        );
    }
}
