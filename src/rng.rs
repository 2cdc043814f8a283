//! Seeded randomness that is the same on every machine: SplitMix64, and the seed derivation that
//! makes a row's random choices a function of the run's `--seed` and the row itself.
//!
//! Why hand-written: the output of `rate`, `split`, `generate` and friends is promised to be a
//! function of `--seed` alone, across versions, machines and thread counts. A generator we own
//! (SplitMix64: public domain, 64-bit state, passes BigCrush) cannot change under us with a
//! dependency upgrade, and deriving one generator per row ([`Rng::for_item`]) keeps results
//! independent of `-j`, chunking and a row's position in the file.

/// A SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

/// The SplitMix64 output function: a bijective 64-bit mix.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A 64-bit hash of bytes (FNV-1a folded through [`mix64`]): stable across versions and
/// platforms, for deriving seeds and split sides from text.
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    mix64(h)
}

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The generator for one item of a seeded run: a function of the run's seed and the item's
    /// own key (its index, or a hash of its content) only.
    pub fn for_item(seed: u64, key: u64) -> Rng {
        Rng::new(mix64(seed ^ mix64(key.wrapping_add(0x9e37_79b9_7f4a_7c15))))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix64(self.state)
    }

    /// A uniform integer in `0..n` (`n > 0`), without modulo bias (Lemire's multiply-and-reject).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        let n = n.max(1);
        // Products whose low half falls under (2^32 - n) mod n would make small results likelier.
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = (self.next_u64() >> 32) * u64::from(n);
            if m as u32 >= threshold {
                return (m >> 32) as u32;
            }
        }
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Shuffles `items` uniformly (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // The published SplitMix64 sequence for seed 0.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(r.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[r.below(6) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert_eq!(Rng::new(1).below(1), 0);
    }

    #[test]
    fn items_get_their_own_streams() {
        let a = Rng::for_item(42, 1).next_u64();
        let b = Rng::for_item(42, 2).next_u64();
        let c = Rng::for_item(43, 1).next_u64();
        assert!(a != b && a != c && b != c);
        assert_eq!(a, Rng::for_item(42, 1).next_u64());
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut v: Vec<u32> = (0..50).collect();
        Rng::new(3).shuffle(&mut v);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
    }
}
