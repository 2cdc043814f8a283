//! Population counts for the rater's sets — 81-bit cell sets ([`Cells`](super::board::Cells)),
//! nine-bit digit masks, region position masks — with the CPU's `popcnt` instruction when it
//! has one.
//!
//! The crate is built for baseline x86-64, where `count_ones` is a software sequence (about a
//! dozen instructions for a word, thirty for an 81-bit set), and the rater counts sets in
//! almost every producer: a build for `x86-64-v2` took 18 % of the instructions off the 4.0–6.2
//! band (docs/experiments/explain.md). Requiring that CPU level for the whole binary is not wanted, so the
//! rater's counts go through [`Pop::pop`], which reads one flag, set once by [`detect`] (every
//! [`Board`](super::board::Board) calls it) when `is_x86_feature_detected!("popcnt")` says so,
//! and then runs the instruction through `asm!`; otherwise, before [`detect`], on other
//! architectures, and in builds that already target `popcnt` (where `count_ones` is the
//! instruction), it is `count_ones`. Both give the same number, so no rating or step can
//! depend on which one ran.

/// A population count that uses the hardware instruction where the CPU has one.
pub(crate) trait Pop: Copy {
    /// The number of set bits (`count_ones`).
    fn pop(self) -> u32;
}

#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
mod imp {
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Whether the CPU has `popcnt`: only ever set to true, and only by [`detect`] after the
    /// CPU said so.
    static HW: AtomicBool = AtomicBool::new(false);

    /// Looks up the CPU's `popcnt` once (std caches the CPUID answer) and enables it.
    pub(crate) fn detect() {
        if !HW.load(Ordering::Relaxed) && std::arch::is_x86_feature_detected!("popcnt") {
            HW.store(true, Ordering::Relaxed);
        }
    }

    /// Whether [`detect`] found `popcnt`.
    #[inline(always)]
    pub(super) fn enabled() -> bool {
        HW.load(Ordering::Relaxed)
    }

    /// `x.count_ones()` by the `popcnt` instruction.
    ///
    /// # Safety
    /// The CPU must support `popcnt` (`is_x86_feature_detected!("popcnt")`).
    #[inline(always)]
    pub(super) unsafe fn hw64(x: u64) -> u32 {
        let n: u64;
        // SAFETY: the caller guarantees the instruction exists. It reads one register and
        // writes one, touches no memory and no stack (`nomem, nostack`); the flags it sets are
        // declared clobbered by default (no `preserves_flags`).
        unsafe {
            std::arch::asm!(
                "popcnt {n}, {x}",
                x = in(reg) x,
                n = lateout(reg) n,
                options(pure, nomem, nostack),
            );
        }
        n as u32
    }

    #[inline(always)]
    pub(super) fn pop64(x: u64) -> u32 {
        if enabled() {
            // SAFETY: `enabled` is true only after `detect` saw `popcnt` on this CPU.
            unsafe { hw64(x) }
        } else {
            x.count_ones()
        }
    }

    #[inline(always)]
    pub(super) fn pop128(x: u128) -> u32 {
        if enabled() {
            // SAFETY: as in `pop64`.
            unsafe { hw64(x as u64) + hw64((x >> 64) as u64) }
        } else {
            x.count_ones()
        }
    }
}

#[cfg(not(all(target_arch = "x86_64", not(target_feature = "popcnt"))))]
mod imp {
    /// Nothing to look up: `count_ones` is already the best count this build has.
    pub(crate) fn detect() {}

    #[inline(always)]
    pub(super) fn pop64(x: u64) -> u32 {
        x.count_ones()
    }

    #[inline(always)]
    pub(super) fn pop128(x: u128) -> u32 {
        x.count_ones()
    }
}

pub(crate) use imp::detect;

impl Pop for u128 {
    #[inline(always)]
    fn pop(self) -> u32 {
        imp::pop128(self)
    }
}

impl Pop for u64 {
    #[inline(always)]
    fn pop(self) -> u32 {
        imp::pop64(self)
    }
}

impl Pop for u32 {
    #[inline(always)]
    fn pop(self) -> u32 {
        imp::pop64(u64::from(self))
    }
}

impl Pop for u16 {
    #[inline(always)]
    fn pop(self) -> u32 {
        imp::pop64(u64::from(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A splitmix64 stream: random words, with sparse and dense ones mixed in.
    fn words(n: usize) -> impl Iterator<Item = u64> {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        (0..n).map(move |i| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            match i % 4 {
                0 => z,
                1 => z & (z >> 7) & (z >> 13),
                2 => z | (z << 5) | (z >> 11),
                _ => 1u64.rotate_left(i as u32) | (i as u64 & 3) << 62,
            }
        })
    }

    #[test]
    fn pop_agrees_with_count_ones_on_every_width() {
        detect();
        let edges = [0u64, 1, u64::MAX, 1 << 63, u64::MAX >> 1, 0x1ff, 0x3fe];
        for x in edges.into_iter().chain(words(20_000)) {
            assert_eq!(x.pop(), x.count_ones());
            assert_eq!((x as u32).pop(), (x as u32).count_ones());
            assert_eq!((x as u16).pop(), (x as u16).count_ones());
            let y = x.rotate_left(17) ^ 0x5555;
            let w = (u128::from(x) << 64 | u128::from(y)) >> (x % 64);
            assert_eq!(w.pop(), w.count_ones());
            let cells = w & ((1u128 << 81) - 1);
            assert_eq!(cells.pop(), cells.count_ones());
        }
        assert_eq!(u128::MAX.pop(), 128);
        assert_eq!(((1u128 << 81) - 1).pop(), 81);
    }

    /// The instruction path itself, where the CPU has it, against the portable count (the
    /// test above may run either path, depending on the CPU).
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    #[test]
    fn the_instruction_and_the_portable_count_agree() {
        if !std::arch::is_x86_feature_detected!("popcnt") {
            return;
        }
        detect();
        assert!(imp::enabled());
        for x in words(50_000).chain([0, u64::MAX]) {
            // SAFETY: the CPU was just seen to have `popcnt`.
            assert_eq!(unsafe { imp::hw64(x) }, x.count_ones());
        }
    }
}
