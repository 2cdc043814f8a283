//! Singles, intersections, naked and hidden sets, fish, XY- and XYZ-wings. Positions and how they
//! were chosen: see [`super`].

use super::*;

positions! {
    finds_hidden_single_last_cell_in_block: HiddenSingle,
        "..............1..2.34....5......6.2...5....4.2...........138...1..762..88..54.2..",
        &[],
        Some(Want {
            name: "Hidden Single",
            tenths: 10,
            place: Some((77, 9)),
            elims: &[],
            text: "Hidden Single: r9c6: 9 in block",
        });
    finds_hidden_single_last_cell_in_column: HiddenSingle,
        ".....7..1.....1..21.3..4.....1..6.3....1586....673.18......3....17..59..5....2...",
        &[],
        Some(Want {
            name: "Hidden Single",
            tenths: 10,
            place: Some((50, 9)),
            elims: &[],
            text: "Hidden Single: r6c6: 9 in column",
        });
    finds_hidden_single_last_cell_in_row: HiddenSingle,
        ".....17.....6.7..38674395.1.2.......3.9.7.....7.56.....1..4.6.........8.7.2.....9",
        &[],
        Some(Want {
            name: "Hidden Single",
            tenths: 10,
            place: Some((25, 2)),
            elims: &[],
            text: "Hidden Single: r3c8: 2 in row",
        });
    finds_hidden_single_in_block: HiddenSingle,
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        &[],
        Some(Want {
            name: "Hidden Single",
            tenths: 12,
            place: Some((46, 4)),
            elims: &[],
            text: "Hidden Single: r6c2: 4 in block",
        });
    finds_hidden_single_in_column: HiddenSingle,
        "................12..3.45.........4...1.2.....6..7...8....1....6..4...9...5..8....",
        &[],
        Some(Want {
            name: "Hidden Single",
            tenths: 15,
            place: Some((75, 4)),
            elims: &[],
            text: "Hidden Single: r9c4: 4 in column",
        });
    finds_hidden_single_in_row: HiddenSingle,
        "................12..3.45.........4......1..6...728.......9...57.1.......4....6...",
        &[],
        Some(Want {
            name: "Hidden Single",
            tenths: 15,
            place: Some((59, 4)),
            elims: &[],
            text: "Hidden Single: r7c6: 4 in row",
        });
    finds_direct_claiming: DirectPointing,
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        &[],
        Some(Want {
            name: "Direct Claiming",
            tenths: 19,
            place: Some((68, 1)),
            elims: &[],
            text: "Direct Claiming: Cells r1c4,r2c4: 1 of column in block",
        });
    finds_direct_pointing: DirectPointing,
        ".71..8...5......2...............68.14...3....1.....7.3...45..3..16.........26....",
        &[],
        Some(Want {
            name: "Direct Pointing",
            tenths: 17,
            place: Some((39, 1)),
            elims: &[],
            text: "Direct Pointing: Cells r7c6,r9c6: 1 of block in column",
        });
    finds_direct_hidden_pair: DirectHiddenPair,
        "8.......1...95.................7.42.3.16...............4....57.6..3.8.........2..",
        &[],
        Some(Want {
            name: "Direct Hidden Pair",
            tenths: 20,
            place: Some((67, 2)),
            elims: &[],
            text: "Direct Hidden Pair: Cells r8c2,r8c3: 5,7 in row",
        });
    finds_naked_single: NakedSingle,
        ".......51.......23..4..5........6.4.43....5..71...........2.......137.....8...9..",
        &[],
        Some(Want {
            name: "Naked Single",
            tenths: 23,
            place: Some((77, 4)),
            elims: &[],
            text: "Naked Single: r9c6: 4",
        });
    finds_direct_hidden_triplet: DirectHiddenTriplet,
        "...7.........62..53......274.5.1.7..61............3.9...1..4.....625.....7....8..",
        &[],
        Some(Want {
            name: "Direct Hidden Triplet",
            tenths: 25,
            place: Some((49, 4)),
            elims: &[],
            text: "Direct Hidden Triplet: Cells r6c4,r6c7,r6c9: 1,5,6 in row",
        });
    finds_claiming: PointingClaiming,
        "8..76...4.71..3658.6..8..7....5.9.....36.47.5.56..841.2.78.6..1..9..72.....192..7",
        &[],
        Some(Want {
            name: "Claiming",
            tenths: 28,
            place: None,
            elims: &[(21, 2)],
            text: "Claiming: Cells r2c4,r2c5: 2 in row and block",
        });
    finds_pointing: PointingClaiming,
        ".4.5.....8...9..3..76.2.....146.....6....9..7.....36....1..4.5..6......3..71..2..",
        &[],
        Some(Want {
            name: "Pointing",
            tenths: 26,
            place: None,
            elims: &[(4, 1)],
            text: "Pointing: Cells r5c5,r6c5: 1 in block and column",
        });
    finds_naked_pair: NakedPair,
        "9..637..53..519.....52483..8324615....1395286596782143..38269...891.....2..9....8",
        &[],
        Some(Want {
            name: "Naked Pair",
            tenths: 30,
            place: None,
            elims: &[(1, 4)],
            text: "Naked Pair: Cells r1c3,r1c7: 4,8 in row",
        });
    finds_x_wing: XWing,
        "6324851791749.35.8985..14...196.8.54...5.489145819.6..5.384.91..41.5938689.31..45",
        &[],
        Some(Want {
            name: "X-Wing",
            tenths: 32,
            place: None,
            elims: &[(77, 7)],
            text: "X-Wing: Cells r6c6,r7c6,r6c9,r7c9: 7 in 2 rows and 2 columns",
        });
    finds_hidden_pair: HiddenPair,
        "65.489.12..25.6..4.4.2.356.596748231...625497724391856435.67.2.269.54..38..932645",
        &[],
        Some(Want {
            name: "Hidden Pair",
            tenths: 34,
            place: None,
            elims: &[(9, 1), (15, 7)],
            text: "Hidden Pair: Cells r2c1,r2c7: 3,9 in row",
        });
    finds_naked_triplet: NakedTriplet,
        ".6...3..11..6.7.9.95.481.362.68.514.815.64.23.9.1.268554..1836.6813.9...3..5.6.1.",
        &[],
        Some(Want {
            name: "Naked Triplet",
            tenths: 36,
            place: None,
            elims: &[(2, 2), (2, 7), (11, 2), (47, 7)],
            text: "Naked Triplet: Cells r3c3,r7c3,r9c3: 2,7,9 in column",
        });
    finds_swordfish: Swordfish,
        "96.5...81.28...9...134896.289.3.5127.3....59..5..9..4.6.52.3.193.195.26.249618735",
        &[],
        Some(Want {
            name: "Swordfish",
            tenths: 38,
            place: None,
            elims: &[(38, 4), (40, 4)],
            text: "Swordfish: Cells r2c1,r2c9,r5c1,r5c6,r8c6,r8c9: 4 in 3 columns and 3 rows",
        });
    finds_hidden_triplet: HiddenTriplet,
        "....8......5.9.17..3...2..84..........94..3...7.86...4..7..8...2.......1..19...56",
        &[(33, 7)],
        Some(Want {
            name: "Hidden Triplet",
            tenths: 40,
            place: None,
            elims: &[(0, 6), (1, 2), (1, 4), (1, 6), (18, 6)],
            text: "Hidden Triplet: Cells r1c1,r1c2,r3c1: 1,7,9 in block",
        });
    finds_xy_wing: XyWing,
        "..2.65817..6..9253....2.694..724316.62..9..3.13.6...29.69..43822.38.6941481932576",
        &[],
        Some(Want {
            name: "XY-Wing",
            tenths: 42,
            place: None,
            elims: &[(18, 5)],
            text: "XY-Wing: Cells r2c1,r3c3,r7c1 on value 5",
        });
    finds_xyz_wing: XyzWing,
        "..28.47..9.86732.1.7..5.....6.5.7.125.1.6.3.72.79.1865...325.7...57.6...7.6...5.3",
        &[],
        Some(Want {
            name: "XYZ-Wing",
            tenths: 44,
            place: None,
            elims: &[(27, 4)],
            text: "XYZ-Wing: Cells r4c3,r4c7,r6c2 on value 4",
        });
    finds_naked_quad: NakedQuad,
        ".856149...6.52341841.879..562.....41..8.6.2..1....2..3.3..5..8.8..297............",
        &[(0, 7), (60, 6), (69, 6), (70, 6), (78, 3), (78, 6), (79, 3), (79, 6)],
        Some(Want {
            name: "Naked Quad",
            tenths: 50,
            place: None,
            elims: &[(62, 7), (79, 5), (79, 7), (80, 7)],
            text: "Naked Quad: Cells r7c7,r8c7,r8c8,r9c7: 1,3,5,7 in block",
        });
    finds_jellyfish: Jellyfish,
        "..28.47..9.86732.1.7..5.....6.5.7.125.1.6.3.72.79.1865...325.7...57.6...7.6...5.3",
        &[(27, 4)],
        Some(Want {
            name: "Jellyfish",
            tenths: 52,
            place: None,
            elims: &[(25, 4), (31, 4), (55, 4), (64, 4), (67, 4), (70, 4)],
            text: "Jellyfish: Cells r3c1,r3c3,r3c7,r3c9,r4c3,r4c7,r7c1,r7c3,r7c7,r7c9,r8c1,r8c7,r8c9: 4 in 4 columns and 4 rows",
        });
    finds_hidden_quad: HiddenQuad,
        "341...265798...14.625...9.851.3.9.2..7..2..51..2517.9.1.......22.4.3.6.9..7...5..",
        &[],
        Some(Want {
            name: "Hidden Quad",
            tenths: 54,
            place: None,
            elims: &[(23, 1), (23, 4)],
            text: "Hidden Quad: Cells r2c4,r2c5,r2c6,r3c6: 2,3,5,6 in block",
        });
    /// Where SE's path went on to Direct Hidden Pair.
    no_hidden_single: HiddenSingle,
        "8.......1...95.................7.42.3.16...............4....57.6..3.8.........2..",
        &[],
        None;
    /// Where SE's path went on to Direct Hidden Pair.
    no_direct_pointing: DirectPointing,
        "8.......1...95.................7.42.3.16...............4....57.6..3.8.........2..",
        &[],
        None;
    /// Where SE's path went on to Naked Single.
    no_direct_hidden_pair: DirectHiddenPair,
        ".......51.......23..4..5........6.4.43....5..71...........2.......137.....8...9..",
        &[],
        None;
    /// Where SE's path went on to Direct Hidden Triplet.
    no_naked_single: NakedSingle,
        "...7.........62..53......274.5.1.7..61............3.9...1..4.....625.....7....8..",
        &[],
        None;
    /// Where SE's path went on to Pointing.
    no_direct_hidden_triplet: DirectHiddenTriplet,
        ".4.5.....8...9..3..76.2.....146.....6....9..7.....36....1..4.5..6......3..71..2..",
        &[],
        None;
    /// Where SE's path went on to Naked Pair.
    no_pointing_claiming: PointingClaiming,
        "9..637..53..519.....52483..8324615....1395286596782143..38269...891.....2..9....8",
        &[],
        None;
    /// Where SE's path went on to X-Wing.
    no_naked_pair: NakedPair,
        "6324851791749.35.8985..14...196.8.54...5.489145819.6..5.384.91..41.5938689.31..45",
        &[],
        None;
    /// Where SE's path went on to Hidden Pair.
    no_x_wing: XWing,
        "65.489.12..25.6..4.4.2.356.596748231...625497724391856435.67.2.269.54..38..932645",
        &[],
        None;
    /// Where SE's path went on to Swordfish.
    no_hidden_pair: HiddenPair,
        "96.5...81.28...9...134896.289.3.5127.3....59..5..9..4.6.52.3.193.195.26.249618735",
        &[],
        None;
    /// Where SE's path went on to XY-Wing.
    no_naked_triplet: NakedTriplet,
        "..2.65817..6..9253....2.694..724316.62..9..3.13.6...29.69..43822.38.6941481932576",
        &[],
        None;
    /// Where SE's path went on to XYZ-Wing.
    no_swordfish: Swordfish,
        "..28.47..9.86732.1.7..5.....6.5.7.125.1.6.3.72.79.1865...325.7...57.6...7.6...5.3",
        &[],
        None;
    /// Where SE's path went on to XYZ-Wing.
    no_hidden_triplet: HiddenTriplet,
        "..28.47..9.86732.1.7..5.....6.5.7.125.1.6.3.72.79.1865...325.7...57.6...7.6...5.3",
        &[],
        None;
    /// Where SE's path went on to XYZ-Wing.
    no_xy_wing: XyWing,
        "..28.47..9.86732.1.7..5.....6.5.7.125.1.6.3.72.79.1865...325.7...57.6...7.6...5.3",
        &[],
        None;
    /// Where SE's path went on to Unique Rectangle type 2.
    no_xyz_wing: XyzWing,
        "8145..26.697124835523.8....74.8....338..7..1.16.3457.8..8.....6.76....8.2.1..89..",
        &[],
        None;
    /// Where SE's path went on to BUG type 3.
    no_naked_quad: NakedQuad,
        "6.73.92..42816793593.2.47..564823197289716...173945628....9..7..9657.41.7.2.318.9",
        &[],
        None;
    /// Where SE's path went on to BUG type 3.
    no_jellyfish: Jellyfish,
        "6.73.92..42816793593.2.47..564823197289716...173945628....9..7..9657.41.7.2.318.9",
        &[],
        None;
    /// Where SE's path went on to Forcing Chain.
    no_hidden_quad: HiddenQuad,
        ".2.58.....81.9.56.5..6.1.....8..567.7......54.459..3.....8.6..5.62.5.78.85..3..46",
        &[],
        None;
}

/// `combos_within` and `combos_of` give exactly the combinations the full enumeration keeps, in
/// its order (the producers' order of visits depends on it).
#[test]
fn combinations_within_a_mask_keep_the_order() {
    use super::super::basic::{combinations, combos, combos_of, combos_within};
    for k in 0..=9u32 {
        assert_eq!(combos(k), combinations(k, 9).collect::<Vec<_>>());
        for n in 0..=9u32 {
            assert_eq!(combos_of(k, n), combinations(k, n).collect::<Vec<_>>());
        }
        for mask in 0..512u32 {
            let want: Vec<u32> = combos(k)
                .iter()
                .copied()
                .filter(|&c| c & !mask == 0)
                .collect();
            assert_eq!(
                combos_within(mask, k).collect::<Vec<_>>(),
                want,
                "{k} {mask:b}"
            );
        }
    }
}

/// The bit-parallel prefilter of the intersections keeps every pointing and claiming region SE's
/// region-by-region test finds, in region order, on random and edge digit sets.
#[test]
fn intersections_prefilter_keeps_every_region_in_order() {
    use super::super::basic::confined_regions;
    use super::super::board::{BLOCK, COLUMN, ROW};
    let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
    let all = (1u128 << 81) - 1;
    let mut sets = vec![0u128, all];
    for _ in 0..4000 {
        let wide = (u128::from(next()) << 64 | u128::from(next())) & all;
        // Sparse sets too: most intersections appear when a digit has few places.
        let half = wide & (u128::from(next()) << 64 | u128::from(next()));
        let sparse = half & (u128::from(next()) << 64 | u128::from(next()));
        sets.extend([wide, half, sparse]);
    }
    for r in 0..27 {
        sets.push(super::super::board::REGION_MASK[r]);
    }
    let mut found = 0;
    for dv in sets {
        for (t1, t2) in [(BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK)] {
            let (slow, fast) = confined_regions(dv, t1, t2);
            found += slow.len();
            // Two places or more, all in one `t2` region: the same test, so the same lists.
            assert_eq!(slow, fast, "{dv:x} {t1} {t2}");
        }
    }
    assert!(found > 1000, "{found}");
}

/// The regions of one kind that meet a region of another (one of them the block): the three
/// `locking`'s direct test visits, in the order SE visits the kind's nine.
#[test]
fn crossing_regions_are_those_that_meet_in_order() {
    use super::super::basic::CROSSING;
    use super::super::board::{BLOCK, REGION_MASK};
    for (r2, by_kind) in CROSSING.iter().enumerate() {
        for (t1, listed) in by_kind.iter().enumerate() {
            if (r2 / 9 == BLOCK) == (t1 == BLOCK) {
                continue;
            }
            let want: Vec<usize> = (t1 * 9..t1 * 9 + 9)
                .filter(|&r3| REGION_MASK[r3] & REGION_MASK[r2] != 0)
                .collect();
            let got: Vec<usize> = listed.iter().map(|&r| r as usize).collect();
            assert_eq!(got, want, "{r2} {t1}");
        }
    }
}

/// Every hint a producer hands over, in order.
struct All(Vec<Hint>);

impl super::super::hint::Sink for All {
    fn add(&mut self, hint: Hint) -> super::super::hint::Flow {
        self.0.push(hint);
        std::ops::ControlFlow::Continue(())
    }
}

/// `locking` (the segment flags, one pass per pair of kinds, only the digits of its scope)
/// hands over the hints of SE's walk (pairs of kinds, then digits, then regions, each
/// ascending, the test region by region) in the same order, direct and not, on random
/// positions where intersections abound and on random scopes.
#[test]
// Regions are numbers here (SE's walk visits them by number).
#[allow(clippy::needless_range_loop)]
fn intersections_are_every_hint_of_the_region_walk_in_order() {
    use super::super::basic::{locking, Scope};
    use super::super::board::{BLOCK, CELL_REGION, COLUMN, REGION_MASK, ROW};
    let solved = solved_digits();
    let mut next = xorshift(0x9b05_688c_2b3e_6c1f);
    let mut found = [0usize; 2];
    for round in 0..3000 {
        let g = Grid::from_cells(some_of(&solved, round % 40, &mut next)).expect("digits");
        let mut b = Board::new(&g);
        // Take wrong candidates out, more in later rounds, so digits get few places.
        let keep = next() % 4;
        for (c, &right) in solved.iter().enumerate() {
            for v in 1..=9u8 {
                if v != right && b.has(c, v) && next() % 4 < keep {
                    b.remove(c, v);
                }
            }
        }
        let scope = Scope {
            digits: if round % 3 == 0 {
                Scope::ALL.digits
            } else {
                (next() as u16) & 0x3fe
            },
            regions: Scope::ALL.regions,
        };
        for (k, direct) in [false, true].into_iter().enumerate() {
            let mut got = All(Vec::new());
            let _ = locking(&b, direct, scope, &mut got);
            let mut want = Vec::new();
            for (t1, t2) in [(BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK)] {
                for v in 1..=9u8 {
                    if scope.digits & (1 << v) == 0 {
                        continue;
                    }
                    let dv = b.digits[v as usize];
                    for r1 in t1 * 9..t1 * 9 + 9 {
                        let pos = dv & REGION_MASK[r1];
                        if pos.count_ones() < 2 {
                            continue;
                        }
                        let r2 = CELL_REGION[pos.trailing_zeros() as usize][t2];
                        if pos & !REGION_MASK[r2] != 0 {
                            continue;
                        }
                        if direct {
                            for r3 in t1 * 9..t1 * 9 + 9 {
                                if r3 == r1 || REGION_MASK[r3] & REGION_MASK[r2] == 0 {
                                    continue;
                                }
                                let pos3 = dv & REGION_MASK[r3];
                                let rest = pos3 & !REGION_MASK[r2];
                                if pos3.count_ones() > 1 && rest.count_ones() == 1 {
                                    want.push((r1, r2, v, Some(rest.trailing_zeros() as u8)));
                                }
                            }
                        } else if dv & REGION_MASK[r2] & !REGION_MASK[r1] != 0 {
                            want.push((r1, r2, v, None));
                        }
                    }
                }
            }
            let got: Vec<_> = got
                .0
                .iter()
                .map(|h| match &h.detail {
                    super::super::hint::Detail::Locking { r1, r2, value, .. } => {
                        (*r1 as usize, *r2 as usize, *value, h.place.map(|(c, _)| c))
                    }
                    d => panic!("not an intersection: {d:?}"),
                })
                .collect();
            assert_eq!(got, want, "{g} direct {direct} scope {:x}", scope.digits);
            found[k] += want.len();
        }
    }
    assert!(found.iter().all(|&n| n > 2000), "{found:?}");
}

/// The XY- and XYZ-wings found from bivalue peers are every wing of SE's walk over all cells
/// and all peers (pivot, then the two pincers, each ascending), in the same order, on random
/// positions with many cells of two and three candidates.
#[test]
fn wings_from_bivalue_peers_are_every_wing_in_order() {
    use super::super::board::{cells_of, PEERS};
    let solved = solved_digits();
    let mut next = xorshift(0x3c6e_f372_fe94_f82b);
    let mut found = [0usize; 2];
    for round in 0..1500 {
        let g = Grid::from_cells(some_of(&solved, round % 30, &mut next)).expect("digits");
        let mut b = Board::new(&g);
        // Take wrong candidates out until most cells have two or three.
        for (c, &right) in solved.iter().enumerate() {
            let keep = 2 + (next() % 3) as u32;
            for v in 1..=9u8 {
                if b.count(c) > keep && v != right && next() % 2 == 0 {
                    b.remove(c, v);
                }
            }
        }
        for (k, xyz) in [false, true].into_iter().enumerate() {
            let mut got = All(Vec::new());
            let _ = super::super::basic::xy_wing(&b, xyz, &mut got);
            // SE's walk, as it was written before.
            let mut want = Vec::new();
            let target = if xyz { 3 } else { 2 };
            for (xy, peers) in PEERS.iter().enumerate() {
                let xyv = b.cands[xy];
                if xyv.count_ones() != target {
                    continue;
                }
                for &xz in peers {
                    let xzv = b.cands[xz as usize];
                    if xzv.count_ones() != 2 || (xyv & !xzv).count_ones() != 1 {
                        continue;
                    }
                    for &yz in peers {
                        let yzv = b.cands[yz as usize];
                        if yzv.count_ones() != 2
                            || !super::super::basic::wing_digits(xyz, xyv, xzv, yzv)
                        {
                            continue;
                        }
                        let z = (xzv & yzv).trailing_zeros() as u8;
                        let cells = [xy, xz as usize, yz as usize];
                        let victims = super::super::basic::wing_victims(&b, xyz, cells, z);
                        if victims != 0 {
                            let elims: Vec<(u8, u16)> =
                                cells_of(victims).map(|c| (c as u8, 1 << z)).collect();
                            want.push(format!("{:?}", ([xy as u8, xz, yz], z, elims)));
                        }
                    }
                }
            }
            let got: Vec<String> = got
                .0
                .iter()
                .map(|h| match &h.detail {
                    super::super::hint::Detail::Wing { cells, z, .. } => {
                        format!("{:?}", (*cells, *z, h.elims.clone()))
                    }
                    d => panic!("not a wing: {d:?}"),
                })
                .collect();
            assert_eq!(got, want, "{g} xyz {xyz}");
            found[k] += want.len();
        }
    }
    assert!(found.iter().all(|&n| n > 200), "{found:?}");
}
