//! What machine a benchmark ran on: the `machine` object of `bench --export-json`.
//!
//! Every field is best effort and never fails: what cannot be found out is `null`. The CPU model
//! comes from `/proc/cpuinfo` on Linux, the git commit from the build script (`build.rs`, which
//! runs `git rev-parse HEAD` when git and a `.git` directory are there), and the SIMD path from
//! [`simd_path`].

use serde_json::{json, Value};

/// A description of the machine and the build, for benchmark exports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// The CPU model name, e.g. `AMD EPYC 7B13`, when the OS tells.
    pub cpu: Option<String>,
    /// Logical cores (hardware threads) available to this process.
    pub logical_cores: usize,
    /// The OS family (`linux`, `macos`, `windows`, …).
    pub os: &'static str,
    /// The OS release, e.g. `Debian GNU/Linux 12 (bookworm)`, when known.
    pub os_release: Option<String>,
    /// The kernel version, when known.
    pub kernel: Option<String>,
    /// The CPU architecture (`x86_64`, `aarch64`, …).
    pub arch: &'static str,
    /// This crate's version.
    pub crate_version: &'static str,
    /// The git commit the binary was built from, when it was built from a git checkout.
    pub git_commit: Option<&'static str>,
    /// The engine's SIMD path (see [`simd_path`]).
    pub simd: &'static str,
}

/// The SIMD code path the solving engine was built with: `sse2` on x86-64 (the engine's
/// vector stale mask; SSE2 is part of every x86-64 CPU, so it is chosen at build time, not
/// detected), `portable` elsewhere.
pub fn simd_path() -> &'static str {
    crate::engine::simd_path()
}

impl Machine {
    /// Looks the machine up.
    pub fn detect() -> Machine {
        Machine {
            cpu: cpu_model(),
            logical_cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os: std::env::consts::OS,
            os_release: os_release(),
            kernel: read_trimmed("/proc/sys/kernel/osrelease"),
            arch: std::env::consts::ARCH,
            crate_version: env!("CARGO_PKG_VERSION"),
            git_commit: option_env!("SUDOKU_BATCH_GIT_COMMIT"),
            simd: simd_path(),
        }
    }

    /// The JSON object, with unknown fields `null`.
    pub fn to_json(&self) -> Value {
        json!({
            "cpu": self.cpu,
            "logical_cores": self.logical_cores,
            "os": self.os,
            "os_release": self.os_release,
            "kernel": self.kernel,
            "arch": self.arch,
            "crate_version": self.crate_version,
            "git_commit": self.git_commit,
            "simd": self.simd,
        })
    }

    /// One line for people, e.g. under a markdown table.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{}, {} logical cores, {}",
            self.cpu.as_deref().unwrap_or("unknown CPU"),
            self.logical_cores,
            self.os_release.as_deref().unwrap_or(self.os)
        );
        s.push_str(&format!(
            " ({}), sudoku-batch {}",
            self.arch, self.crate_version
        ));
        if let Some(c) = self.git_commit {
            s.push_str(&format!(" @ {}", &c[..c.len().min(12)]));
        }
        s.push_str(&format!(", SIMD: {}", self.simd));
        s
    }
}

fn read_trimmed(path: &str) -> Option<String> {
    let s = std::fs::read_to_string(path).ok()?;
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

/// The first `model name` (x86) or `Hardware`/`Processor`/`cpu model` (ARM, MIPS) entry of
/// `/proc/cpuinfo`.
fn cpu_model() -> Option<String> {
    parse_cpuinfo(&std::fs::read_to_string("/proc/cpuinfo").ok()?)
}

fn parse_cpuinfo(text: &str) -> Option<String> {
    for key in ["model name", "Hardware", "cpu model", "Processor"] {
        for line in text.lines() {
            if let Some((k, v)) = line.split_once(':') {
                let v = v.trim();
                if k.trim() == key && !v.is_empty() {
                    return Some(v.to_string());
                }
            }
        }
    }
    None
}

/// `PRETTY_NAME` of `/etc/os-release`, without its quotes.
fn os_release() -> Option<String> {
    let text = std::fs::read_to_string("/etc/os-release").ok()?;
    text.lines().find_map(|l| {
        let v = l.strip_prefix("PRETTY_NAME=")?.trim().trim_matches('"');
        (!v.is_empty()).then(|| v.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simd_path_names_the_build() {
        let expected = if cfg!(target_arch = "x86_64") {
            "sse2"
        } else {
            "portable"
        };
        assert_eq!(simd_path(), expected);
    }

    #[test]
    fn cpuinfo_model_name() {
        let x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n";
        assert_eq!(parse_cpuinfo(x86).as_deref(), Some("AMD EPYC 7B13"));
        let arm = "processor\t: 0\nBogoMIPS\t: 50.00\n\nHardware\t: BCM2835\n";
        assert_eq!(parse_cpuinfo(arm).as_deref(), Some("BCM2835"));
        assert_eq!(parse_cpuinfo("processor : 0\n"), None);
    }

    #[test]
    fn json_has_every_field() {
        let m = Machine::detect();
        let v = m.to_json();
        for key in [
            "cpu",
            "logical_cores",
            "os",
            "kernel",
            "arch",
            "crate_version",
            "git_commit",
            "simd",
        ] {
            assert!(v.get(key).is_some(), "{key}");
        }
        assert!(m.logical_cores >= 1);
        assert_eq!(v["crate_version"], env!("CARGO_PKG_VERSION"));
        assert!(m.summary().contains(env!("CARGO_PKG_VERSION")));
    }
}
