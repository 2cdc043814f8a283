//! Singles, intersections, naked and hidden sets, fish, XY- and XYZ-wings. Positions and how they
//! were chosen: see [`super`].

use super::*;

#[test]
fn finds_hidden_single_last_cell_in_block() {
    let b = board(
        "..............1..2.34....5......6.2...5....4.2...........138...1..762..88..54.2..",
        &[],
    );
    expect(
        Producer::HiddenSingle,
        &b,
        Want {
            name: "Hidden Single",
            tenths: 10,
            place: Some((77, 9)),
            elims: &[],
            text: "Hidden Single: r9c6: 9 in block",
        },
    );
}

#[test]
fn finds_hidden_single_last_cell_in_column() {
    let b = board(
        ".....7..1.....1..21.3..4.....1..6.3....1586....673.18......3....17..59..5....2...",
        &[],
    );
    expect(
        Producer::HiddenSingle,
        &b,
        Want {
            name: "Hidden Single",
            tenths: 10,
            place: Some((50, 9)),
            elims: &[],
            text: "Hidden Single: r6c6: 9 in column",
        },
    );
}

#[test]
fn finds_hidden_single_last_cell_in_row() {
    let b = board(
        ".....17.....6.7..38674395.1.2.......3.9.7.....7.56.....1..4.6.........8.7.2.....9",
        &[],
    );
    expect(
        Producer::HiddenSingle,
        &b,
        Want {
            name: "Hidden Single",
            tenths: 10,
            place: Some((25, 2)),
            elims: &[],
            text: "Hidden Single: r3c8: 2 in row",
        },
    );
}

#[test]
fn finds_hidden_single_in_block() {
    let b = board(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        &[],
    );
    expect(
        Producer::HiddenSingle,
        &b,
        Want {
            name: "Hidden Single",
            tenths: 12,
            place: Some((46, 4)),
            elims: &[],
            text: "Hidden Single: r6c2: 4 in block",
        },
    );
}

#[test]
fn finds_hidden_single_in_column() {
    let b = board(
        "................12..3.45.........4...1.2.....6..7...8....1....6..4...9...5..8....",
        &[],
    );
    expect(
        Producer::HiddenSingle,
        &b,
        Want {
            name: "Hidden Single",
            tenths: 15,
            place: Some((75, 4)),
            elims: &[],
            text: "Hidden Single: r9c4: 4 in column",
        },
    );
}

#[test]
fn finds_hidden_single_in_row() {
    let b = board(
        "................12..3.45.........4......1..6...728.......9...57.1.......4....6...",
        &[],
    );
    expect(
        Producer::HiddenSingle,
        &b,
        Want {
            name: "Hidden Single",
            tenths: 15,
            place: Some((59, 4)),
            elims: &[],
            text: "Hidden Single: r7c6: 4 in row",
        },
    );
}

#[test]
fn finds_direct_claiming() {
    let b = board(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        &[],
    );
    expect(
        Producer::DirectPointing,
        &b,
        Want {
            name: "Direct Claiming",
            tenths: 19,
            place: Some((68, 1)),
            elims: &[],
            text: "Direct Claiming: Cells r1c4,r2c4: 1 of column in block",
        },
    );
}

#[test]
fn finds_direct_pointing() {
    let b = board(
        ".71..8...5......2...............68.14...3....1.....7.3...45..3..16.........26....",
        &[],
    );
    expect(
        Producer::DirectPointing,
        &b,
        Want {
            name: "Direct Pointing",
            tenths: 17,
            place: Some((39, 1)),
            elims: &[],
            text: "Direct Pointing: Cells r7c6,r9c6: 1 of block in column",
        },
    );
}

#[test]
fn finds_direct_hidden_pair() {
    let b = board(
        "8.......1...95.................7.42.3.16...............4....57.6..3.8.........2..",
        &[],
    );
    expect(
        Producer::DirectHiddenPair,
        &b,
        Want {
            name: "Direct Hidden Pair",
            tenths: 20,
            place: Some((67, 2)),
            elims: &[],
            text: "Direct Hidden Pair: Cells r8c2,r8c3: 5,7 in row",
        },
    );
}

#[test]
fn finds_naked_single() {
    let b = board(
        ".......51.......23..4..5........6.4.43....5..71...........2.......137.....8...9..",
        &[],
    );
    expect(
        Producer::NakedSingle,
        &b,
        Want {
            name: "Naked Single",
            tenths: 23,
            place: Some((77, 4)),
            elims: &[],
            text: "Naked Single: r9c6: 4",
        },
    );
}

#[test]
fn finds_direct_hidden_triplet() {
    let b = board(
        "...7.........62..53......274.5.1.7..61............3.9...1..4.....625.....7....8..",
        &[],
    );
    expect(
        Producer::DirectHiddenTriplet,
        &b,
        Want {
            name: "Direct Hidden Triplet",
            tenths: 25,
            place: Some((49, 4)),
            elims: &[],
            text: "Direct Hidden Triplet: Cells r6c4,r6c7,r6c9: 1,5,6 in row",
        },
    );
}

#[test]
fn finds_claiming() {
    let b = board(
        "8..76...4.71..3658.6..8..7....5.9.....36.47.5.56..841.2.78.6..1..9..72.....192..7",
        &[],
    );
    expect(
        Producer::PointingClaiming,
        &b,
        Want {
            name: "Claiming",
            tenths: 28,
            place: None,
            elims: &[(21, 2)],
            text: "Claiming: Cells r2c4,r2c5: 2 in row and block",
        },
    );
}

#[test]
fn finds_pointing() {
    let b = board(
        ".4.5.....8...9..3..76.2.....146.....6....9..7.....36....1..4.5..6......3..71..2..",
        &[],
    );
    expect(
        Producer::PointingClaiming,
        &b,
        Want {
            name: "Pointing",
            tenths: 26,
            place: None,
            elims: &[(4, 1)],
            text: "Pointing: Cells r5c5,r6c5: 1 in block and column",
        },
    );
}

#[test]
fn finds_naked_pair() {
    let b = board(
        "9..637..53..519.....52483..8324615....1395286596782143..38269...891.....2..9....8",
        &[],
    );
    expect(
        Producer::NakedPair,
        &b,
        Want {
            name: "Naked Pair",
            tenths: 30,
            place: None,
            elims: &[(1, 4)],
            text: "Naked Pair: Cells r1c3,r1c7: 4,8 in row",
        },
    );
}

#[test]
fn finds_x_wing() {
    let b = board(
        "6324851791749.35.8985..14...196.8.54...5.489145819.6..5.384.91..41.5938689.31..45",
        &[],
    );
    expect(
        Producer::XWing,
        &b,
        Want {
            name: "X-Wing",
            tenths: 32,
            place: None,
            elims: &[(77, 7)],
            text: "X-Wing: Cells r6c6,r7c6,r6c9,r7c9: 7 in 2 rows and 2 columns",
        },
    );
}

#[test]
fn finds_hidden_pair() {
    let b = board(
        "65.489.12..25.6..4.4.2.356.596748231...625497724391856435.67.2.269.54..38..932645",
        &[],
    );
    expect(
        Producer::HiddenPair,
        &b,
        Want {
            name: "Hidden Pair",
            tenths: 34,
            place: None,
            elims: &[(9, 1), (15, 7)],
            text: "Hidden Pair: Cells r2c1,r2c7: 3,9 in row",
        },
    );
}

#[test]
fn finds_naked_triplet() {
    let b = board(
        ".6...3..11..6.7.9.95.481.362.68.514.815.64.23.9.1.268554..1836.6813.9...3..5.6.1.",
        &[],
    );
    expect(
        Producer::NakedTriplet,
        &b,
        Want {
            name: "Naked Triplet",
            tenths: 36,
            place: None,
            elims: &[(2, 2), (2, 7), (11, 2), (47, 7)],
            text: "Naked Triplet: Cells r3c3,r7c3,r9c3: 2,7,9 in column",
        },
    );
}

#[test]
fn finds_swordfish() {
    let b = board(
        "96.5...81.28...9...134896.289.3.5127.3....59..5..9..4.6.52.3.193.195.26.249618735",
        &[],
    );
    expect(
        Producer::Swordfish,
        &b,
        Want {
            name: "Swordfish",
            tenths: 38,
            place: None,
            elims: &[(38, 4), (40, 4)],
            text: "Swordfish: Cells r2c1,r2c9,r5c1,r5c6,r8c6,r8c9: 4 in 3 columns and 3 rows",
        },
    );
}

#[test]
fn finds_hidden_triplet() {
    let b = board(
        "....8......5.9.17..3...2..84..........94..3...7.86...4..7..8...2.......1..19...56",
        &[(33, 7)],
    );
    expect(
        Producer::HiddenTriplet,
        &b,
        Want {
            name: "Hidden Triplet",
            tenths: 40,
            place: None,
            elims: &[(0, 6), (1, 2), (1, 4), (1, 6), (18, 6)],
            text: "Hidden Triplet: Cells r1c1,r1c2,r3c1: 1,7,9 in block",
        },
    );
}

#[test]
fn finds_xy_wing() {
    let b = board(
        "..2.65817..6..9253....2.694..724316.62..9..3.13.6...29.69..43822.38.6941481932576",
        &[],
    );
    expect(
        Producer::XyWing,
        &b,
        Want {
            name: "XY-Wing",
            tenths: 42,
            place: None,
            elims: &[(18, 5)],
            text: "XY-Wing: Cells r2c1,r3c3,r7c1 on value 5",
        },
    );
}

#[test]
fn finds_xyz_wing() {
    let b = board(
        "..28.47..9.86732.1.7..5.....6.5.7.125.1.6.3.72.79.1865...325.7...57.6...7.6...5.3",
        &[],
    );
    expect(
        Producer::XyzWing,
        &b,
        Want {
            name: "XYZ-Wing",
            tenths: 44,
            place: None,
            elims: &[(27, 4)],
            text: "XYZ-Wing: Cells r4c3,r4c7,r6c2 on value 4",
        },
    );
}

#[test]
fn finds_naked_quad() {
    let b = board(
        ".856149...6.52341841.879..562.....41..8.6.2..1....2..3.3..5..8.8..297............",
        &[
            (0, 7),
            (60, 6),
            (69, 6),
            (70, 6),
            (78, 3),
            (78, 6),
            (79, 3),
            (79, 6),
        ],
    );
    expect(
        Producer::NakedQuad,
        &b,
        Want {
            name: "Naked Quad",
            tenths: 50,
            place: None,
            elims: &[(62, 7), (79, 5), (79, 7), (80, 7)],
            text: "Naked Quad: Cells r7c7,r8c7,r8c8,r9c7: 1,3,5,7 in block",
        },
    );
}

#[test]
fn finds_jellyfish() {
    let b = board(
        "..28.47..9.86732.1.7..5.....6.5.7.125.1.6.3.72.79.1865...325.7...57.6...7.6...5.3",
        &[(27, 4)],
    );
    expect(
        Producer::Jellyfish,
        &b,
        Want {
            name: "Jellyfish",
            tenths: 52,
            place: None,
            elims: &[(25,4), (31,4), (55,4), (64,4), (67,4), (70,4)],
            text: "Jellyfish: Cells r3c1,r3c3,r3c7,r3c9,r4c3,r4c7,r7c1,r7c3,r7c7,r7c9,r8c1,r8c7,r8c9: 4 in 4 columns and 4 rows",
        },
    );
}

#[test]
fn finds_hidden_quad() {
    let b = board(
        "341...265798...14.625...9.851.3.9.2..7..2..51..2517.9.1.......22.4.3.6.9..7...5..",
        &[],
    );
    expect(
        Producer::HiddenQuad,
        &b,
        Want {
            name: "Hidden Quad",
            tenths: 54,
            place: None,
            elims: &[(23, 1), (23, 4)],
            text: "Hidden Quad: Cells r2c4,r2c5,r2c6,r3c6: 2,3,5,6 in block",
        },
    );
}

/// On SE's path this position reached Direct Hidden Pair: hidden single had nothing.
#[test]
fn no_hidden_single_before_direct_hidden_pair() {
    let b = board(
        "8.......1...95.................7.42.3.16...............4....57.6..3.8.........2..",
        &[],
    );
    expect_none(Producer::HiddenSingle, &b);
}

/// On SE's path this position reached Direct Hidden Pair: direct pointing had nothing.
#[test]
fn no_direct_pointing_before_direct_hidden_pair() {
    let b = board(
        "8.......1...95.................7.42.3.16...............4....57.6..3.8.........2..",
        &[],
    );
    expect_none(Producer::DirectPointing, &b);
}

/// On SE's path this position reached Naked Single: direct hidden pair had nothing.
#[test]
fn no_direct_hidden_pair_before_naked_single() {
    let b = board(
        ".......51.......23..4..5........6.4.43....5..71...........2.......137.....8...9..",
        &[],
    );
    expect_none(Producer::DirectHiddenPair, &b);
}

/// On SE's path this position reached Direct Hidden Triplet: naked single had nothing.
#[test]
fn no_naked_single_before_direct_hidden_triplet() {
    let b = board(
        "...7.........62..53......274.5.1.7..61............3.9...1..4.....625.....7....8..",
        &[],
    );
    expect_none(Producer::NakedSingle, &b);
}

/// On SE's path this position reached Pointing: direct hidden triplet had nothing.
#[test]
fn no_direct_hidden_triplet_before_pointing() {
    let b = board(
        ".4.5.....8...9..3..76.2.....146.....6....9..7.....36....1..4.5..6......3..71..2..",
        &[],
    );
    expect_none(Producer::DirectHiddenTriplet, &b);
}

/// On SE's path this position reached Naked Pair: pointing claiming had nothing.
#[test]
fn no_pointing_claiming_before_naked_pair() {
    let b = board(
        "9..637..53..519.....52483..8324615....1395286596782143..38269...891.....2..9....8",
        &[],
    );
    expect_none(Producer::PointingClaiming, &b);
}

/// On SE's path this position reached X-Wing: naked pair had nothing.
#[test]
fn no_naked_pair_before_x_wing() {
    let b = board(
        "6324851791749.35.8985..14...196.8.54...5.489145819.6..5.384.91..41.5938689.31..45",
        &[],
    );
    expect_none(Producer::NakedPair, &b);
}

/// On SE's path this position reached Hidden Pair: x wing had nothing.
#[test]
fn no_x_wing_before_hidden_pair() {
    let b = board(
        "65.489.12..25.6..4.4.2.356.596748231...625497724391856435.67.2.269.54..38..932645",
        &[],
    );
    expect_none(Producer::XWing, &b);
}

/// On SE's path this position reached Swordfish: hidden pair had nothing.
#[test]
fn no_hidden_pair_before_swordfish() {
    let b = board(
        "96.5...81.28...9...134896.289.3.5127.3....59..5..9..4.6.52.3.193.195.26.249618735",
        &[],
    );
    expect_none(Producer::HiddenPair, &b);
}

/// On SE's path this position reached XY-Wing: naked triplet had nothing.
#[test]
fn no_naked_triplet_before_xy_wing() {
    let b = board(
        "..2.65817..6..9253....2.694..724316.62..9..3.13.6...29.69..43822.38.6941481932576",
        &[],
    );
    expect_none(Producer::NakedTriplet, &b);
}

/// On SE's path this position reached XYZ-Wing: swordfish had nothing.
#[test]
fn no_swordfish_before_xyz_wing() {
    let b = board(
        "..28.47..9.86732.1.7..5.....6.5.7.125.1.6.3.72.79.1865...325.7...57.6...7.6...5.3",
        &[],
    );
    expect_none(Producer::Swordfish, &b);
}

/// On SE's path this position reached XYZ-Wing: hidden triplet had nothing.
#[test]
fn no_hidden_triplet_before_xyz_wing() {
    let b = board(
        "..28.47..9.86732.1.7..5.....6.5.7.125.1.6.3.72.79.1865...325.7...57.6...7.6...5.3",
        &[],
    );
    expect_none(Producer::HiddenTriplet, &b);
}

/// On SE's path this position reached XYZ-Wing: xy wing had nothing.
#[test]
fn no_xy_wing_before_xyz_wing() {
    let b = board(
        "..28.47..9.86732.1.7..5.....6.5.7.125.1.6.3.72.79.1865...325.7...57.6...7.6...5.3",
        &[],
    );
    expect_none(Producer::XyWing, &b);
}

/// On SE's path this position reached Unique Rectangle type 2: xyz wing had nothing.
#[test]
fn no_xyz_wing_before_unique_rectangle_type_2() {
    let b = board(
        "8145..26.697124835523.8....74.8....338..7..1.16.3457.8..8.....6.76....8.2.1..89..",
        &[],
    );
    expect_none(Producer::XyzWing, &b);
}

/// On SE's path this position reached BUG type 3: naked quad had nothing.
#[test]
fn no_naked_quad_before_bug_type_3() {
    let b = board(
        "6.73.92..42816793593.2.47..564823197289716...173945628....9..7..9657.41.7.2.318.9",
        &[],
    );
    expect_none(Producer::NakedQuad, &b);
}

/// On SE's path this position reached BUG type 3: jellyfish had nothing.
#[test]
fn no_jellyfish_before_bug_type_3() {
    let b = board(
        "6.73.92..42816793593.2.47..564823197289716...173945628....9..7..9657.41.7.2.318.9",
        &[],
    );
    expect_none(Producer::Jellyfish, &b);
}

/// On SE's path this position reached Forcing Chain: hidden quad had nothing.
#[test]
fn no_hidden_quad_before_forcing_chain() {
    let b = board(
        ".2.58.....81.9.56.5..6.1.....8..567.7......54.459..3.....8.6..5.62.5.78.85..3..46",
        &[],
    );
    expect_none(Producer::HiddenQuad, &b);
}
