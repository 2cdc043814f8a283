//! Naming output files and what goes wrong creating them: the `.partial` name a run writes
//! under until it ends, and the error that says which folder is missing. Apart from the writer
//! ([`super::output`]) because the provenance record beside an output writes the same way, and
//! the writer writes that record: both lean on this, neither on the other.

use std::io;
use std::path::{Path, PathBuf};

/// The name a run writes `path` under until it ends: `path` + `.partial`.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// Why `path` cannot be created, naming what the user asked for: `cannot create out.csv:
/// folder /x/nope does not exist`.
pub fn cannot_create(path: &Path, e: &io::Error) -> String {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    match parent {
        Some(dir) if !dir.exists() => format!(
            "cannot create {}: folder {} does not exist",
            path.display(),
            dir.display()
        ),
        Some(dir) if !dir.is_dir() => format!(
            "cannot create {}: {} is not a folder",
            path.display(),
            dir.display()
        ),
        _ => format!(
            "cannot create {}: {}",
            path.display(),
            crate::input::io_reason(e)
        ),
    }
}
