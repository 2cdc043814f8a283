//! The bottom-k reservoir behind `sample`: per band, the `per_band` rows with the smallest
//! priorities, in a bounded max-heap.
//!
//! Why bottom-k over a hash and not a classic reservoir (Algorithm R): a row's priority is a
//! seeded hash of its puzzle ([`super::judge::priority`]), so which rows are kept is a function of
//! the set of rows and the seed alone — not of their order, of how the input was cut into chunks
//! and threads, or of how it was split into shards. Keeping the k smallest of independent
//! uniform priorities is a uniform sample without replacement, and the k smallest of a union are
//! the k smallest of the parts' k smallest: sampling each shard and then sampling the union of
//! the results gives exactly the sample of the whole.
//!
//! Ties are broken by a total order on everything a row is ([`Entry`]'s `Ord`): the priority,
//! then the puzzle's cells, then the row's fields, then where it was read. Only rows equal in
//! every field can tie up to their position, and either copy then writes the same bytes.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::Value;

/// A row that may be kept: its band, priority and puzzle, and what to write for it.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The seeded hash of the puzzle: smaller is kept first.
    pub priority: u64,
    /// The puzzle's 81 cells (0 for blank), the first tie-break.
    pub cells: [u8; 81],
    pub row: Row,
    /// Index of the band ([`super::Bands`]).
    pub band: usize,
    /// The input it was read from (0-based) and the line where it starts: where it goes in the
    /// output, which is in input order.
    pub input: usize,
    pub line: u64,
}

/// What a kept row writes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Row {
    /// A table row's fields, in the output's column order.
    Fields(Vec<Value>),
    /// A puzzle read from a plain puzzle file: its `rate` row is made once the sample is known.
    Puzzle,
}

impl Entry {
    fn order(&self) -> (u64, &[u8; 81], &Row, usize, u64) {
        (self.priority, &self.cells, &self.row, self.input, self.line)
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order().cmp(&other.order())
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

/// Per band, the `per_band` smallest entries offered so far (memory: `per_band × bands` rows).
#[derive(Debug)]
pub struct Reservoir {
    per_band: usize,
    heaps: Vec<BinaryHeap<Entry>>,
}

impl Reservoir {
    /// An empty reservoir of `bands` bands keeping `per_band` rows each (at least 1).
    pub fn new(bands: usize, per_band: usize) -> Reservoir {
        Reservoir {
            per_band: per_band.max(1),
            heaps: (0..bands).map(|_| BinaryHeap::new()).collect(),
        }
    }

    /// Keeps `e` when it is among the `per_band` smallest of its band so far.
    pub fn offer(&mut self, e: Entry) {
        let Some(heap) = self.heaps.get_mut(e.band) else {
            return;
        };
        if heap.len() < self.per_band {
            heap.push(e);
        } else if let Some(mut top) = heap.peek_mut() {
            if e < *top {
                // Replacing the largest through `PeekMut` sifts the new entry down on drop.
                *top = e;
            }
        }
    }

    /// The largest priority a row of `band` may have and still be kept, once the band is full
    /// (`None` before: any row may be). Only ever decreases, so a worker that skips rows above
    /// an older bound never skips one that would be kept.
    pub fn bound(&self, band: usize) -> Option<u64> {
        let heap = self.heaps.get(band)?;
        if heap.len() < self.per_band {
            return None;
        }
        heap.peek().map(|top| top.priority)
    }

    /// Rows kept in `band`.
    pub fn kept(&self, band: usize) -> usize {
        self.heaps.get(band).map_or(0, BinaryHeap::len)
    }

    /// Every kept entry, bands in any order.
    pub fn into_entries(self) -> Vec<Entry> {
        self.heaps
            .into_iter()
            .flat_map(BinaryHeap::into_vec)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(priority: u64, band: usize, line: u64) -> Entry {
        Entry {
            priority,
            cells: [0; 81],
            row: Row::Puzzle,
            band,
            input: 0,
            line,
        }
    }

    /// The reference: sort each band's entries, take the first `k`.
    fn reference(entries: &[Entry], bands: usize, k: usize) -> Vec<Vec<u64>> {
        (0..bands)
            .map(|b| {
                let mut v: Vec<&Entry> = entries.iter().filter(|e| e.band == b).collect();
                v.sort();
                v.iter().take(k).map(|e| e.line).collect()
            })
            .collect()
    }

    fn kept(r: Reservoir, bands: usize) -> Vec<Vec<u64>> {
        let mut out = vec![Vec::new(); bands];
        let mut all = r.into_entries();
        all.sort();
        for e in all {
            out[e.band].push(e.line);
        }
        out
    }

    #[test]
    fn keeps_the_smallest_whatever_the_order_and_merges_shards() {
        let mut rng = crate::rng::Rng::new(5);
        for case in 0..200u64 {
            let n = rng.below(300) as usize;
            let bands = 1 + rng.below(4) as usize;
            let k = 1 + rng.below(20) as usize;
            // Small priorities so that ties happen.
            let mut entries: Vec<Entry> = (0..n)
                .map(|i| {
                    entry(
                        u64::from(rng.below(50)),
                        rng.below(bands as u32) as usize,
                        i as u64,
                    )
                })
                .collect();
            let want = reference(&entries, bands, k);
            rng.shuffle(&mut entries);
            let mut whole = Reservoir::new(bands, k);
            for e in entries.iter().cloned() {
                whole.offer(e);
            }
            for (b, w) in want.iter().enumerate() {
                assert_eq!(whole.kept(b), w.len(), "case {case}");
            }
            assert_eq!(kept(whole, bands), want, "case {case}");
            // Three shards, each sampled, then the union sampled again.
            let mut union = Reservoir::new(bands, k);
            for shard in 0..3 {
                let mut part = Reservoir::new(bands, k);
                for e in entries.iter().skip(shard).step_by(3).cloned() {
                    part.offer(e);
                }
                for e in part.into_entries() {
                    union.offer(e);
                }
            }
            assert_eq!(kept(union, bands), want, "case {case} (shards)");
        }
    }

    #[test]
    fn the_bound_appears_when_a_band_is_full_and_only_falls() {
        let mut r = Reservoir::new(2, 2);
        r.offer(entry(10, 0, 1));
        assert_eq!(r.bound(0), None);
        r.offer(entry(20, 0, 2));
        assert_eq!(r.bound(0), Some(20));
        r.offer(entry(30, 0, 3));
        assert_eq!(r.bound(0), Some(20));
        r.offer(entry(5, 0, 4));
        assert_eq!(r.bound(0), Some(10));
        assert_eq!(r.bound(1), None);
        assert_eq!(r.bound(7), None);
    }
}
