//! Build script: records the git commit the binary is built from, for the `machine` object of
//! `bench --export-json`, and finds the benchmark corpora and Sudoku Explainer's reference
//! ratings for the tests and benches.
//!
//! It never fails: without git or a `.git` directory (a crates.io download, a tarball) the
//! commit is simply unknown and reported as `null`; without the corpora the tests that need them
//! are compiled as ignored, so `cargo test` reports them as ignored instead of passing them.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// The corpora: `$SUDOKU_DATA`, else `../shared/data` beside the crate. When the folder is
/// there, `cfg(corpora)` is set and `SUDOKU_CORPORA` names it (read by `sudoku_batch::corpora`).
fn corpora() {
    println!("cargo:rustc-check-cfg=cfg(corpora)");
    println!("cargo:rerun-if-env-changed=SUDOKU_DATA");
    let dir = std::env::var_os("SUDOKU_DATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    // The folder's own mtime changes when files come or go. A folder that appears later is
    // seen after `touch build.rs` (watching its parent instead could mean watching `/`).
    if let Ok(abs) = dir.canonicalize() {
        if abs.is_dir() {
            println!("cargo:rerun-if-changed={}", abs.display());
            println!("cargo:rustc-cfg=corpora");
            println!("cargo:rustc-env=SUDOKU_CORPORA={}", abs.display());
        }
    }
}

/// Sudoku Explainer's reference ratings: `$SE_REFERENCE`, else `../shared/se-reference` beside
/// the crate. When the folder is there, `cfg(se_reference)` is set and `SE_REFERENCE_DIR` names
/// it; without it the agreement test is compiled as ignored.
fn se_reference() {
    println!("cargo:rustc-check-cfg=cfg(se_reference)");
    println!("cargo:rerun-if-env-changed=SE_REFERENCE");
    let dir = std::env::var_os("SE_REFERENCE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/se-reference"));
    if let Ok(abs) = dir.canonicalize() {
        if abs.join("ratings.tsv").is_file() {
            println!("cargo:rerun-if-changed={}", abs.display());
            println!("cargo:rustc-cfg=se_reference");
            println!("cargo:rustc-env=SE_REFERENCE_DIR={}", abs.display());
        }
    }
}

/// The outside tools some integration tests drive. A test whose tool is missing is compiled as
/// ignored (`cfg(has_TOOL)` unset), so `cargo test` lists it as ignored instead of passing it.
/// Once a tool is there, the test runs and any failure, setting up included, is a failure.
fn tools() {
    println!("cargo:rerun-if-env-changed=PATH");
    let works = |cmd: &str, arg: &str| {
        Command::new(cmd)
            .arg(arg)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    // Slurm: installed already, or installable (root with apt-get, as .ci/run is).
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let slurm = works("slurmd", "-V") || (root && works("apt-get", "--version"));
    for (name, present) in [
        ("java", works("java", "-version")),
        ("python3", works("python3", "--version")),
        ("parallel", works("parallel", "--version")),
        ("mkfifo", works("mkfifo", "--version")),
        ("slurm", slurm),
    ] {
        println!("cargo:rustc-check-cfg=cfg(has_{name})");
        if present {
            println!("cargo:rustc-cfg=has_{name}");
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    corpora();
    se_reference();
    tools();
    let Some(commit) = git(&["rev-parse", "--verify", "--quiet", "HEAD"]) else {
        return;
    };
    if commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        println!("cargo:rustc-env=SUDOKU_BATCH_GIT_COMMIT={commit}");
    }
    // Run again when HEAD moves: the HEAD file itself (a branch switch), the branch's ref file
    // (a commit) and packed-refs. Only existing files are named, or cargo would rerun always.
    let mut watch = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(&["symbolic-ref", "--quiet", "HEAD"]) {
        watch.push(branch);
    }
    for name in watch {
        if let Some(path) = git(&["rev-parse", "--path-format=absolute", "--git-path", &name]) {
            if Path::new(&path).is_file() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
}
