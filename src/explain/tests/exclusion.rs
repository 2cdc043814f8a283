//! Aligned pair and aligned triplet exclusion. Positions and how they were chosen: see [`super`].

use super::*;

positions! {
    finds_aligned_pair_exclusion: AlignedPair,
        "47325189668...32..52..86.43234897.6..9651432.15.3624.9.126.9...36..2591.9451.86.2",
        &[(58, 7), (61, 7)],
        Some(Want {
            name: "Aligned Pair Exclusion",
            tenths: 62,
            place: None,
            elims: &[(62, 7)],
            text: "Aligned Pair Exclusion: r7c8,r7c9",
        });
    finds_aligned_triplet_exclusion: AlignedTriplet,
        "8..9.4..197.....8...438.9......4.5.26..2..8.3..5...6........1.8....1..59..189..3.",
        &[(23, 1), (55, 5)],
        Some(Want {
            name: "Aligned Triplet Exclusion",
            tenths: 75,
            place: None,
            elims: &[(4, 5)],
            text: "Aligned Triplet Exclusion: r1c5,r4c4,r6c4",
        });
    /// Where SE's path went on to Forcing Chain.
    no_aligned_pair: AlignedPair,
        ".2.58.....81.9.56.5..6.1.....8..567.7......54.459..3.....8.6..5.62.5.78.85..3..46",
        &[],
        None;
    /// Where SE's path went on to Dynamic Contradiction Forcing Chains.
    no_aligned_triplet: AlignedTriplet,
        "1....67......8......92...5.....4...85..3...1......76..3.2.......1.9...2.9.5.....4",
        &[],
        None;
}
