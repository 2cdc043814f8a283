//! Provenance: what made an output file, recorded with it so a dataset can be traced back and
//! remade — the tool's version and git commit, the full command line, every seed in force (drawn
//! ones too), and each input's name, size and SHA-256.
//!
//! One JSON object, written in a Parquet file's key-value metadata (key
//! [`PROVENANCE_KEY`](crate::run::parquet::PROVENANCE_KEY)) or, for CSV and JSON lines written
//! with `-o FILE`, as `FILE.provenance.json` beside it (written under a temporary name and
//! renamed, like the output). `sudoku-batch provenance FILE` reads either back ([`read`]).
//!
//! Everything in it but `created` follows from the command and its inputs, so two runs of the
//! same command on the same inputs record the same provenance apart from that time stamp. The
//! record is made before the run starts: the inputs are hashed then (stdin, read once, has no
//! size or hash).

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::input::Input;
use crate::run::files::{cannot_create, partial_path};

/// What identifies a run for `--resume`: the command and the options that shape its rows (the
/// CLI leaves out those that do not: `-j`, `-q`, `-o`, `--resume`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunId {
    pub command: String,
    /// `(--option, value)` pairs, defaults included, in a fixed order.
    pub options: Vec<(String, String)>,
}

/// What the command line said, for the record: the arguments as given (program name first).
#[derive(Clone, Debug, Default)]
pub struct Invocation {
    pub args: Vec<String>,
}

/// The provenance record of a run of `id` (its seeds come from there: every option named
/// `--…seed`, defaults and drawn seeds included) over `inputs`, as pretty JSON.
pub fn record(inv: &Invocation, id: Option<&RunId>, inputs: &[Input]) -> Result<String, String> {
    let mut seeds = serde_json::Map::new();
    for (name, value) in id.map_or(&[][..], |id| &id.options[..]) {
        if name.ends_with("seed") {
            let v = value
                .parse::<u64>()
                .map_or_else(|_| value.clone().into(), serde_json::Value::from);
            seeds.insert(name.clone(), v);
        }
    }
    let mut files = Vec::new();
    for input in inputs {
        let (size, sha) = match &input.path {
            Some(path) => {
                let (size, sha) = hash_file(path)
                    .map_err(|e| format!("{}: {}", input.name, crate::input::io_reason(&e)))?;
                (size.into(), sha.into())
            }
            None => (serde_json::Value::Null, serde_json::Value::Null),
        };
        files.push(serde_json::json!({ "name": input.name, "size": size, "sha256": sha }));
    }
    let value = serde_json::json!({
        "tool": "sudoku-batch",
        "version": env!("CARGO_PKG_VERSION"),
        "git_commit": option_env!("SUDOKU_BATCH_GIT_COMMIT"),
        "command": id.map(|id| id.command.clone()),
        "command_line": inv.args,
        "seeds": seeds,
        "inputs": files,
        "created": utc_now(),
    });
    Ok(serde_json::to_string_pretty(&value).unwrap_or_default())
}

/// The size and SHA-256 (hex) of the file at `path`.
pub fn hash_file(path: &Path) -> std::io::Result<(u64, String)> {
    let mut f = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut size = 0u64;
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        size += n as u64;
        hasher.update(&buf[..n]);
    }
    let hex = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((size, hex))
}

/// The side file of a CSV or JSON lines output: `FILE.provenance.json`.
pub fn sidecar_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".provenance.json");
    PathBuf::from(name)
}

/// Writes `text` as the side file of `output`, through a temporary name and a rename.
pub fn write_sidecar(output: &Path, text: &str) -> Result<(), String> {
    let path = sidecar_path(output);
    let tmp = partial_path(&path);
    std::fs::write(&tmp, format!("{text}\n"))
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| cannot_create(&path, &e))
}

/// The provenance of the output `path`: a Parquet file's metadata, else the side file beside it
/// (or `path` itself when it is one).
pub fn read(path: &Path) -> Result<String, String> {
    let shown = path.display();
    if is_parquet(path) {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let file = std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?;
        let reader = SerializedFileReader::new(file)
            .map_err(|e| format!("{shown}: not a readable Parquet file: {e}"))?;
        let kv = reader.metadata().file_metadata().key_value_metadata();
        return kv
            .and_then(|kv| {
                kv.iter()
                    .find(|k| k.key == crate::run::parquet::PROVENANCE_KEY)
                    .and_then(|k| k.value.clone())
            })
            .ok_or_else(|| {
                format!(
                    "{shown}: this Parquet file has no provenance (written with --no-provenance?)"
                )
            });
    }
    let side = if path.to_string_lossy().ends_with(".provenance.json") {
        path.to_path_buf()
    } else {
        sidecar_path(path)
    };
    std::fs::read_to_string(&side)
        .map(|s| s.trim_end().to_string())
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                format!(
                    "{shown}: no provenance: it is not a Parquet file and {} does not exist",
                    side.display()
                )
            } else {
                format!("{}: {}", side.display(), crate::input::io_reason(&e))
            }
        })
}

/// Whether `path` starts and ends with Parquet's magic bytes.
fn is_parquet(path: &Path) -> bool {
    use std::io::{Seek, SeekFrom};
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = [0u8; 4];
    let mut tail = [0u8; 4];
    f.read_exact(&mut head).is_ok()
        && f.seek(SeekFrom::End(-4)).is_ok()
        && f.read_exact(&mut tail).is_ok()
        && &head == b"PAR1"
        && &tail == b"PAR1"
}

/// Now, in UTC, as `2026-11-24T08:30:00Z`.
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The calendar date of a day number counted from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_781), (2026, 11, 24));
    }

    #[test]
    fn sha256_of_a_known_text() {
        let p = std::env::temp_dir().join(format!("sb-prov-{}", std::process::id()));
        std::fs::write(&p, b"abc").unwrap();
        let (size, sha) = hash_file(&p).unwrap();
        assert_eq!(size, 3);
        assert_eq!(
            sha,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
