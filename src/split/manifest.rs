//! `PREFIX.manifest.json`: what a split did, so that a dataset's sides can be checked and
//! remade — the key, seed and fractions, the counts per side, and each output's path, line count
//! and SHA-256 (read back from the files once they are complete, so the digest is of what is on
//! disk).

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The SHA-256 of a file, in hex.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// One output of a split.
pub struct Output {
    pub side: &'static str,
    pub path: PathBuf,
    pub lines: u64,
}

/// The manifest's path beside `base` (a prefix, or the rows' file): `base.manifest.json`.
pub fn path_for(base: &Path) -> PathBuf {
    let mut name = base.as_os_str().to_owned();
    name.push(".manifest.json");
    PathBuf::from(name)
}

/// Writes the manifest of a split to `path`.
#[allow(clippy::too_many_arguments)]
pub fn write(
    path: &Path,
    key: &str,
    seed: u64,
    (test, valid): (f64, f64),
    sides: [u64; 3],
    not_puzzles: u64,
    inputs: &[String],
    outputs: &[Output],
    families: Option<(u64, u64)>,
) -> Result<(), String> {
    let mut outs = Vec::new();
    for o in outputs {
        let sha = sha256_file(&o.path).map_err(|e| format!("{}: {e}", o.path.display()))?;
        outs.push(serde_json::json!({
            "side": o.side,
            "path": o.path.display().to_string(),
            "lines": o.lines,
            "sha256": sha,
        }));
    }
    let mut m = serde_json::json!({
        "tool": format!("sudoku-batch {}", env!("CARGO_PKG_VERSION")),
        "command": "split",
        "key": key,
        "seed": seed,
        "fractions": {"train": 1.0 - test - valid, "valid": valid, "test": test},
        "counts": {"train": sides[0], "valid": sides[1], "test": sides[2], "not_puzzles": not_puzzles},
        "inputs": inputs,
        "outputs": outs,
    });
    if let Some((count, largest)) = families {
        m["families"] = serde_json::json!({"count": count, "largest": largest});
    }
    let text = serde_json::to_string_pretty(&m).map_err(|e| e.to_string())? + "\n";
    std::fs::write(path, text).map_err(|e| crate::run::output::cannot_create(path, &e))
}
