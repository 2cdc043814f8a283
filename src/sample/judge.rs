//! What `sample` decides about one row: its band (from the `--by` value, read from the row or
//! computed from its puzzle), its priority (a seeded hash of its puzzle), or why it has no value
//! and is only counted ([`Skip`]).
//!
//! A rated row (a `rate` output, or any table with a puzzle column and the `--by` column) is
//! judged from three fields: `status` (when the table has one: only `solved` rows are sampled),
//! the `--by` value, and the puzzle. A puzzle read from a plain puzzle file is judged by computing
//! exactly the value `sudoku-batch rate` would write in that column (with `--se` for er/ep/ed,
//! its default samples, seed and budget), so sampling a puzzle file and sampling its `rate`
//! output keep the same rows.

use crate::explain::command::{number, se_rating};
use crate::grid::{Grid, ParseError};
use crate::rate::{self, Class};
use crate::rng::{hash_bytes, Rng};
use crate::run::Status;

/// The value the bands are cut on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// Sudoku Explainer's ER (`rate --se`'s `er`).
    Er,
    /// SE's EP.
    Ep,
    /// SE's ED.
    Ed,
    /// `rate`'s transform-averaged `rating`.
    Rating,
    /// The givens (`clues`).
    Clues,
    /// QQWing's `class`: simple, easy, intermediate, expert.
    Class,
}

impl By {
    /// The column holding the value (and the flag's word).
    pub fn column(self) -> &'static str {
        match self {
            By::Er => "er",
            By::Ep => "ep",
            By::Ed => "ed",
            By::Rating => "rating",
            By::Clues => "clues",
            By::Class => "class",
        }
    }

    /// A Sudoku Explainer rating (computed on the fly as `rate --se` does).
    pub fn se(self) -> bool {
        matches!(self, By::Er | By::Ep | By::Ed)
    }
}

/// The default `--bands` of the Sudoku Explainer ratings: easy singles below 2.0, then the
/// steps of SE's scale up to the diabolical puzzles from 9.5.
pub const SE_BANDS: [&str; 7] = ["1.2", "2.0", "4.0", "6.2", "7.5", "8.5", "9.5"];

/// The bands of a run: for a number, the half-open intervals between `--bands` edges plus one
/// below the first and one from the last on; for `class`, the four classes.
#[derive(Clone, Debug, PartialEq)]
pub struct Bands {
    by: By,
    edges: Vec<f64>,
    labels: Vec<String>,
}

impl Bands {
    /// The bands of `by` cut at `edges` (as given, so labels keep their spelling: `2.0` stays
    /// `2.0`); `None` for the default (SE's scale for er/ep/ed). An error is a message for the
    /// user.
    pub fn new(by: By, edges: Option<&[String]>) -> Result<Bands, String> {
        if by == By::Class {
            if edges.is_some() {
                return Err("--by class has its own bands (the four classes): drop --bands".into());
            }
            return Ok(Bands {
                by,
                edges: Vec::new(),
                labels: Class::ALL.iter().map(|c| c.as_str().to_string()).collect(),
            });
        }
        let given: Vec<String> = match edges {
            Some(e) => e.iter().map(|s| s.trim().to_string()).collect(),
            None if by.se() => SE_BANDS.iter().map(|s| s.to_string()).collect(),
            None => {
                return Err(format!(
                    "--by {} needs --bands EDGES (for example --bands {})",
                    by.column(),
                    if by == By::Clues {
                        "20,25,30"
                    } else {
                        "0.5,2,10"
                    }
                ))
            }
        };
        if given.is_empty() {
            return Err("--bands needs at least one edge".into());
        }
        let mut values = Vec::with_capacity(given.len());
        for s in &given {
            match s.parse::<f64>() {
                Ok(v) if v.is_finite() => values.push(v),
                _ => return Err(format!("--bands: '{s}' is not a number")),
            }
        }
        if let Some(w) = values.windows(2).position(|w| w[0] >= w[1]) {
            return Err(format!(
                "--bands must increase: {} is not below {}",
                given[w],
                given[w + 1]
            ));
        }
        let last = given.len() - 1;
        let mut labels = vec![format!("<{}", given[0])];
        for w in given.windows(2) {
            labels.push(format!("[{},{})", w[0], w[1]));
        }
        labels.push(format!(">={}", given[last]));
        Ok(Bands {
            by,
            edges: values,
            labels,
        })
    }

    pub fn by(&self) -> By {
        self.by
    }

    /// How many bands.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The band's name, as the `band` column writes it: `<1.2`, `[1.2,2.0)`, `>=9.5`, or a class.
    pub fn label(&self, band: usize) -> &str {
        self.labels.get(band).map_or("", String::as_str)
    }

    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The band of a number: how many edges lie at or below it.
    pub fn of_number(&self, v: f64) -> usize {
        self.edges.partition_point(|&e| e <= v)
    }

    /// The band of a value written in the `--by` column (`None`: not a value of this kind).
    pub fn of_text(&self, text: &str) -> Option<usize> {
        let text = text.trim();
        if self.by == By::Class {
            return Class::parse(text).map(|c| c as usize);
        }
        text.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(|v| self.of_number(v))
    }
}

/// Why a row is not sampled: counted and reported, never written.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    /// Its status is not `solved` (the word as written: `multiple`, `gave-up`, …).
    Status(String),
    /// The `--by` field is empty.
    NoValue,
    /// The `--by` field holds something that is not a value of its kind.
    BadValue,
    /// The puzzle field is not 81 cells.
    BadPuzzle,
    /// The row could not be read (a malformed CSV record, a line that is not a JSON object).
    BadRow,
}

impl Skip {
    /// The reason as the summary and the Python result name it.
    pub fn label(&self, by: By) -> String {
        match self {
            Skip::Status(s) if s.is_empty() => "no status".into(),
            Skip::Status(s) => format!("status {s}"),
            Skip::NoValue => format!("no {}", by.column()),
            Skip::BadValue => format!("unreadable {}", by.column()),
            Skip::BadPuzzle => "unreadable puzzle".into(),
            Skip::BadRow => "unreadable row".into(),
        }
    }
}

/// Kept apart from the seeds of `rate` (which draws from [`Rng::for_item`] with the puzzle's
/// hash too), so that a sample never leans on the transforms a rating drew.
const SAMPLE_DOMAIN: u64 = 0x7361_6d70_6c65_2121;

/// The priority of a puzzle under `seed`: uniform over `u64`, a function of the seed and the 81
/// cells alone.
pub fn priority(seed: u64, cells: &[u8; 81]) -> u64 {
    Rng::for_item(seed ^ SAMPLE_DOMAIN, hash_bytes(cells)).next_u64()
}

/// What a row came to: its band, priority and cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    pub band: usize,
    pub priority: u64,
    pub cells: [u8; 81],
}

/// Judges a rated row from its fields: `status` (`None` when the table has no status column),
/// the `--by` value and the puzzle, each as written (an empty field is missing).
pub fn rated(
    bands: &Bands,
    seed: u64,
    status: Option<&[u8]>,
    value: &[u8],
    puzzle: &[u8],
) -> Result<Judged, Skip> {
    if let Some(s) = status {
        let s = s.trim_ascii();
        if s != Status::Solved.as_str().as_bytes() {
            return Err(Skip::Status(String::from_utf8_lossy(s).into_owned()));
        }
    }
    let value = value.trim_ascii();
    if value.is_empty() {
        return Err(Skip::NoValue);
    }
    let band = std::str::from_utf8(value)
        .ok()
        .and_then(|v| bands.of_text(v))
        .ok_or(Skip::BadValue)?;
    let grid = Grid::parse_cells(puzzle).map_err(|_| Skip::BadPuzzle)?;
    Ok(Judged {
        band,
        priority: priority(seed, grid.cells()),
        cells: *grid.cells(),
    })
}

/// Judges a puzzle of a plain puzzle file by computing its `--by` value as `rate` (`rate --se`
/// for er/ep/ed) does with its defaults: a puzzle `rate` would give another status than `solved`
/// is skipped with that status. `pencil`: the record is a pencilmark line, which `rate` writes as
/// invalid.
pub fn computed(
    bands: &Bands,
    seed: u64,
    puzzle: &Result<Grid, ParseError>,
    pencil: bool,
) -> Result<Judged, Skip> {
    let status = |s: Status| Skip::Status(s.as_str().to_string());
    let grid = match puzzle {
        Ok(g) if !pencil && g.check_givens().is_ok() => g,
        _ => return Err(status(Status::Invalid)),
    };
    let solutions = crate::engine::solve(grid, 2).solutions;
    if solutions != 1 {
        return Err(status(Status::from_count(solutions)));
    }
    let band = match bands.by() {
        By::Clues => bands.of_number(grid.clues() as f64),
        By::Class => rate::grade(grid).class as usize,
        By::Rating => bands.of_number(rate::rating(grid, rate::DEFAULT_SAMPLES, 0)),
        by => {
            let r = match se_rating(grid, true, crate::explain::DEFAULT_BUDGET) {
                Ok(Some(r)) => r,
                Ok(None) => return Err(Skip::NoValue),
                Err(_) => return Err(status(Status::GaveUp)),
            };
            let t = match by {
                By::Er => r.er,
                By::Ep => r.ep,
                _ => r.ed,
            };
            // As `rate --se` writes it (one decimal), then read back: the band of the text.
            let text = number(t).map(|v| format!("{v:.1}")).unwrap_or_default();
            bands.of_text(&text).ok_or(Skip::BadValue)?
        }
    };
    Ok(Judged {
        band,
        priority: priority(seed, grid.cells()),
        cells: *grid.cells(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edges(s: &[&str]) -> Vec<String> {
        s.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn bands_are_half_open_with_an_outer_band_on_each_side() {
        let b = Bands::new(By::Er, Some(&edges(&["1.2", "2.0", "9.5"]))).unwrap();
        assert_eq!(b.labels(), ["<1.2", "[1.2,2.0)", "[2.0,9.5)", ">=9.5"]);
        assert_eq!(b.of_text("1.0"), Some(0));
        assert_eq!(b.of_text("1.2"), Some(1));
        assert_eq!(b.of_text("1.9"), Some(1));
        assert_eq!(b.of_text("2.0"), Some(2));
        assert_eq!(b.of_text(" 9.5 "), Some(3));
        assert_eq!(b.of_text("11.9"), Some(3));
        assert_eq!(b.of_text("x"), None);
        assert_eq!(b.of_text("NaN"), None);
        assert_eq!(Bands::new(By::Er, None).unwrap().len(), SE_BANDS.len() + 1);
        let c = Bands::new(By::Class, None).unwrap();
        assert_eq!(c.labels(), ["simple", "easy", "intermediate", "expert"]);
        assert_eq!(c.of_text("Expert"), Some(3));
        assert_eq!(c.of_text("hard"), None);
    }

    #[test]
    fn bad_bands_are_refused() {
        assert!(Bands::new(By::Clues, None).is_err());
        assert!(Bands::new(By::Class, Some(&edges(&["1"]))).is_err());
        assert!(Bands::new(By::Rating, Some(&edges(&["2", "1"]))).is_err());
        assert!(Bands::new(By::Rating, Some(&edges(&["1", "1"]))).is_err());
        assert!(Bands::new(By::Rating, Some(&edges(&["1", "inf"]))).is_err());
        assert!(Bands::new(By::Rating, Some(&[])).is_err());
    }

    #[test]
    fn rated_rows_need_status_solved_a_value_and_a_puzzle() {
        let b = Bands::new(By::Clues, Some(&edges(&["25", "30"]))).unwrap();
        let p = crate::testing::LEET.as_bytes();
        let j = rated(&b, 1, Some(b"solved"), b"30", p).unwrap();
        assert_eq!(j.band, 2);
        assert_eq!(j.priority, priority(1, &j.cells));
        assert_ne!(priority(1, &j.cells), priority(2, &j.cells));
        assert_eq!(rated(&b, 1, None, b"24", p).unwrap().band, 0);
        assert_eq!(
            rated(&b, 1, Some(b"multiple"), b"30", p),
            Err(Skip::Status("multiple".into()))
        );
        assert_eq!(rated(&b, 1, Some(b"solved"), b"", p), Err(Skip::NoValue));
        assert_eq!(
            rated(&b, 1, Some(b"solved"), b"many", p),
            Err(Skip::BadValue)
        );
        assert_eq!(rated(&b, 1, None, b"30", b"123"), Err(Skip::BadPuzzle));
        assert_eq!(Skip::Status(String::new()).label(By::Er), "no status");
        assert_eq!(Skip::NoValue.label(By::Er), "no er");
    }

    #[test]
    fn computed_values_are_those_rate_writes() {
        let g: Grid = crate::testing::LEET.parse().unwrap();
        let b = Bands::new(By::Clues, Some(&edges(&["25", "30"]))).unwrap();
        assert_eq!(computed(&b, 0, &Ok(g), false).unwrap().band, 2);
        let c = Bands::new(By::Class, None).unwrap();
        assert_eq!(computed(&c, 0, &Ok(g), false).unwrap().band, 0);
        assert_eq!(
            computed(&c, 0, &Ok(Grid::EMPTY), false),
            Err(Skip::Status("multiple".into()))
        );
        assert_eq!(
            computed(&c, 0, &Ok(g), true),
            Err(Skip::Status("invalid".into()))
        );
        let er = Bands::new(By::Er, None).unwrap();
        // LEET is solved by singles: ER below 2.0.
        assert_eq!(computed(&er, 0, &Ok(g), false).unwrap().band, 1);
    }
}
