//! Aligned pair and aligned triplet exclusion. Positions and how they were chosen: see [`super`].

use super::*;

#[test]
fn finds_aligned_pair_exclusion() {
    let b = board(
        "47325189668...32..52..86.43234897.6..9651432.15.3624.9.126.9...36..2591.9451.86.2",
        &[(58, 7), (61, 7)],
    );
    expect(
        Producer::AlignedPair,
        &b,
        Want {
            name: "Aligned Pair Exclusion",
            tenths: 62,
            place: None,
            elims: &[(62, 7)],
            text: "Aligned Pair Exclusion: r7c8,r7c9",
        },
    );
}

#[test]
fn finds_aligned_triplet_exclusion() {
    let b = board(
        "8..9.4..197.....8...438.9......4.5.26..2..8.3..5...6........1.8....1..59..189..3.",
        &[(23, 1), (55, 5)],
    );
    expect(
        Producer::AlignedTriplet,
        &b,
        Want {
            name: "Aligned Triplet Exclusion",
            tenths: 75,
            place: None,
            elims: &[(4, 5)],
            text: "Aligned Triplet Exclusion: r1c5,r4c4,r6c4",
        },
    );
}

/// On SE's path this position reached Forcing Chain: aligned pair had nothing.
#[test]
fn no_aligned_pair_before_forcing_chain() {
    let b = board(
        ".2.58.....81.9.56.5..6.1.....8..567.7......54.459..3.....8.6..5.62.5.78.85..3..46",
        &[],
    );
    expect_none(Producer::AlignedPair, &b);
}

/// On SE's path this position reached Dynamic Contradiction Forcing Chains: aligned triplet had nothing.
#[test]
fn no_aligned_triplet_before_dynamic_contradiction_forcing_chains() {
    let b = board(
        "1....67......8......92...5.....4...85..3...1......76..3.2.......1.9...2.9.5.....4",
        &[],
    );
    expect_none(Producer::AlignedTriplet, &b);
}
