//! The progress bar on stderr: a bar with an ETA when every input's size is known, a spinner
//! otherwise, with the running count and rate. Drawn only when stderr is a terminal (the caller
//! checks), so pipes and log files never see control characters.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Summary;
use crate::human::group;
use crate::input::Input;

/// A progress bar over the bytes of `inputs`.
pub struct Bar(ProgressBar);

impl Bar {
    pub fn new(inputs: &[Input]) -> Bar {
        let sizes: Option<u64> = inputs.iter().map(|i| i.size()).sum();
        let pb = match sizes {
            Some(total) => {
                let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                pb.set_style(
                    ProgressStyle::with_template(
                        "{elapsed_precise} [{wide_bar}] {percent:>3}% ETA {eta} {msg}",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
                );
                pb
            }
            None => {
                let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                pb.set_style(
                    ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                pb
            }
        };
        pb.enable_steady_tick(Duration::from_millis(200));
        Bar(pb)
    }

    /// Shows the rows done so far and the input bytes read.
    pub fn update(&self, summary: &Summary, bytes: u64, elapsed: Duration) {
        let n = summary.puzzles();
        let secs = elapsed.as_secs_f64();
        let rate = if secs > 0.0 { n as f64 / secs } else { 0.0 };
        if self.0.length().is_some() {
            self.0.set_position(bytes);
        }
        self.0
            .set_message(format!("{} puzzles, {}/s", group(n), group(rate as u64)));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}
