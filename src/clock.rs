//! A stopwatch for one solve: the `solve_ns` column and the summary's histogram.
//!
//! An easy puzzle solves in about a microsecond, and reading the OS clock twice around it
//! (`Instant::now`, a vDSO call) cost about 50–100 ns on our VMs: the largest share of what
//! `solve` spent on a Kaggle puzzle besides the engine. So on x86-64 the stopwatch reads the
//! CPU's time-stamp counter (`rdtsc`, a few nanoseconds) and converts ticks to nanoseconds with
//! a rate measured once per process against the OS clock (a 2 ms spin, [`CALIBRATION`]).
//!
//! That is only done when the kernel itself keeps time with the TSC (Linux's current
//! clocksource is `tsc`): the kernel picks it only when the counter runs at a constant rate,
//! never stops and agrees across cores, which is what makes two readings on different cores
//! comparable. Anywhere else (another kernel clocksource, another OS or CPU) every reading is
//! an `Instant`, as before. A reading that goes backwards counts as 0.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long the counter is measured against the OS clock, each of three times (the middle
/// rate is kept, so one preemption during a measurement does not skew it).
pub const CALIBRATION: Duration = Duration::from_millis(1);

/// Times closures in nanoseconds; cheap to copy into every worker.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch {
    /// Nanoseconds per TSC tick, when the counter is used.
    ns_per_tick: Option<f64>,
}

impl Stopwatch {
    /// The process's stopwatch (the counter is calibrated on first use).
    pub fn new() -> Stopwatch {
        static RATE: OnceLock<Option<f64>> = OnceLock::new();
        Stopwatch {
            ns_per_tick: *RATE.get_or_init(tsc::calibrate),
        }
    }

    /// A stopwatch that always reads the OS clock.
    pub fn os() -> Stopwatch {
        Stopwatch { ns_per_tick: None }
    }

    /// Whether the time-stamp counter is in use.
    pub fn uses_counter(&self) -> bool {
        self.ns_per_tick.is_some()
    }

    /// Runs `f` and says how long it took, in nanoseconds.
    #[inline(always)]
    pub fn time<R>(&self, f: impl FnOnce() -> R) -> (R, u64) {
        match self.ns_per_tick {
            Some(rate) => {
                let start = tsc::read();
                let r = f();
                let ticks = tsc::read().saturating_sub(start);
                (r, (ticks as f64 * rate) as u64)
            }
            None => {
                let start = Instant::now();
                let r = f();
                let ns = start.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64;
                (r, ns)
            }
        }
    }
}

impl Default for Stopwatch {
    fn default() -> Self {
        Stopwatch::new()
    }
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod tsc {
    use super::CALIBRATION;
    use std::time::Instant;

    /// The time-stamp counter.
    #[inline(always)]
    pub fn read() -> u64 {
        // SAFETY: `rdtsc` exists on every x86-64 CPU, reads a register and has no
        // preconditions; the intrinsic is only marked unsafe as all of `core::arch` once was.
        unsafe { std::arch::x86_64::_rdtsc() }
    }

    /// Nanoseconds per tick, or `None` when the kernel does not trust the counter.
    pub fn calibrate() -> Option<f64> {
        let source = std::fs::read_to_string(
            "/sys/devices/system/clocksource/clocksource0/current_clocksource",
        )
        .ok()?;
        if source.trim() != "tsc" {
            return None;
        }
        let mut rates = [0f64; 3];
        for rate in &mut rates {
            let (t0, c0) = (Instant::now(), read());
            let mut t1 = Instant::now();
            while t1 - t0 < CALIBRATION {
                t1 = Instant::now();
            }
            let ticks = read().checked_sub(c0).filter(|&t| t > 0)?;
            *rate = (t1 - t0).as_nanos() as f64 / ticks as f64;
        }
        rates.sort_by(f64::total_cmp);
        Some(rates[1])
    }
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
mod tsc {
    pub fn read() -> u64 {
        0
    }

    pub fn calibrate() -> Option<f64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(d: Duration) {
        let t = Instant::now();
        while t.elapsed() < d {}
    }

    /// Both kinds of stopwatch agree with the OS clock on the same interval (a 20 ms spin,
    /// timed by both at once, so load on the machine stretches both alike).
    #[test]
    fn stopwatch_agrees_with_the_os_clock() {
        for watch in [Stopwatch::new(), Stopwatch::os()] {
            let outer = Instant::now();
            let ((), ns) = watch.time(|| spin(Duration::from_millis(20)));
            let os = outer.elapsed().as_nanos() as f64;
            let ratio = ns as f64 / os;
            assert!(
                (0.95..=1.01).contains(&ratio),
                "counter {}: {ns} ns against {os} ns",
                watch.uses_counter()
            );
        }
    }

    /// On Linux x86-64 with the kernel on the TSC (as on our machines), the counter is used.
    #[test]
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    fn counter_is_used_when_the_kernel_keeps_time_with_it() {
        let source = std::fs::read_to_string(
            "/sys/devices/system/clocksource/clocksource0/current_clocksource",
        )
        .unwrap_or_default();
        assert_eq!(Stopwatch::new().uses_counter(), source.trim() == "tsc");
    }
}
