//! The integration tests, as one test binary (ripgrep's layout): one link instead of one per file,
//! and the shared helpers in `common` compiled once.
//!
//! Tests that need the community corpora (`../shared/data`, or `$SUDOKU_DATA`) are marked
//! `#[cfg_attr(not(corpora), ignore = ...)]`: without the corpora they show as *ignored* in the
//! summary, never as passed. CI always has them, and `.ci/run` fails if it does not.

mod common;

mod audit_cli;
mod bench_cli;
mod canon;
mod cli;
mod corpus;
mod dataset_cli;
mod differential;
mod examples;
mod explain;
mod explain_cli;
mod export_cli;
mod first_contact;
mod generate;
mod golden;
mod parquet;
mod pencilmark;
mod properties;
mod python;
mod rate;
mod reference;
mod sample_cli;
mod scale;
mod se_reference;
mod slurm;
mod spark;
mod verify_cli;
