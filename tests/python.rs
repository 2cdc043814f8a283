//! The Python package (`python/`): builds it with maturin into a virtual environment of its own
//! and runs its pytest suite, which compares the module's rows with this binary's on the
//! corpora, checks the array contract and that a million-row input is not copied, and checks
//! the Sudoku Explainer ratings against the reference set.
//!
//! The environment lives under the target directory and is made once (maturin, NumPy, pytest,
//! pyarrow, pandas and datasets from PyPI); the extension is built by `maturin build --release` into a cargo target directory
//! of its own there (not the one this test runs from, which cargo holds locked), so a rerun with
//! nothing changed only relinks nothing and reinstalls the wheel: seconds, where the first build
//! takes minutes. It is compiled as ignored only when python3 is missing; a failing build or pytest
//! fails it.

use std::path::{Path, PathBuf};
use std::process::Command;

const PACKAGES: [&str; 6] = [
    "maturin>=1.5,<2",
    "numpy",
    "pytest",
    "pyarrow",
    "pandas",
    "datasets",
];

/// A venv with maturin, NumPy, pytest, pyarrow and pandas (to read `--format parquet` back),
/// and Hugging Face's datasets (to load `export --to hf` folders), made once.
fn venv() -> PathBuf {
    crate::common::python_venv("python-venv", &PACKAGES)
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3")]
fn python_package_passes_its_tests() {
    let venv = venv();
    let bin = venv.join("bin");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let wheels = work.join("python-wheels");
    let _ = std::fs::remove_dir_all(&wheels);

    let started = std::time::Instant::now();
    let ok = Command::new(bin.join("maturin"))
        .args(["build", "--release", "--quiet", "--out"])
        .arg(&wheels)
        .arg("--manifest-path")
        .arg(root.join("python/Cargo.toml"))
        .env("CARGO_TARGET_DIR", work.join("python-build"))
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "maturin build failed");
    println!(
        "built the extension in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let wheel = std::fs::read_dir(&wheels)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .expect("maturin wrote no wheel");
    let ok = Command::new(bin.join("python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--force-reinstall",
        ])
        .arg(&wheel)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "pip install {} failed", wheel.display());

    let mut pytest = Command::new(bin.join("pytest"));
    pytest
        .args(["-q", "-p", "no:cacheprovider", "-rs"])
        .arg(root.join("python/tests"))
        // Not beside the package's source, which would shadow the installed package.
        .current_dir(work)
        .env("SUDOKU_BATCH_BIN", env!("CARGO_BIN_EXE_sudoku-batch"));
    if let Some(dir) = sudoku_batch::corpora::dir() {
        pytest.env("SUDOKU_DATA", dir);
    }
    #[cfg(se_reference)]
    pytest.env("SE_REFERENCE", env!("SE_REFERENCE_DIR"));
    let ok = pytest.status().is_ok_and(|s| s.success());
    assert!(ok, "pytest failed (its output is above)");
}
